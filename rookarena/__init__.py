"""rookarena: a referee and tournament runner for computer Rook."""

__version__ = "0.1.0"
