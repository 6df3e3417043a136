"""The rules of Rook, pure: cards, actions, rule sets and presets, one game's state, scoring and views."""
