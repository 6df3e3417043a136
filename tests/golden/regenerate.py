"""Rewrite the golden records in this folder from the current engine and random players.

Run from the project root::

    python3 tests/golden/regenerate.py

then review ``git diff tests/golden``: any change to the shuffle, the engine, the random players or the
record format shows up there. ``tests/wire/test_records.py`` fails until the files match the code again.
"""

from __future__ import annotations

import pathlib

from rookarena.engine.presets import preset
from rookarena.players.simulate import random_game
from rookarena.wire import records

HERE = pathlib.Path(__file__).resolve().parent

# file name -> (preset name, seed)
GOLDEN = {"tournament-seed-7.jsonl": ("tournament", 7)}


def golden_text(name: str, seed: int) -> str:
    """The exact contents of one golden file: one record, one line."""
    return records.dumps(random_game(preset(name).rules, seed, name)) + "\n"


def main() -> None:
    for file_name, (name, seed) in GOLDEN.items():
        path = HERE / file_name
        path.write_text(golden_text(name, seed), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
