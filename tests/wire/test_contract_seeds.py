"""Runs that reproduce: every game gives each seat a seed (PROTOCOL.md §5, ``game``), the sample and
packaged random bots seed from it, and so two identical runs of the demo print identical tables."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from rookarena.wire.messages import SEAT_SEED_BITS, seat_seed


def test_a_seat_seed_depends_on_the_deal_seed_and_the_seat_only() -> None:
    seeds = {(deal, seat): seat_seed(deal, seat) for deal in (0, 1, 2**62) for seat in range(4)}
    assert len(set(seeds.values())) == len(seeds)
    assert all(0 <= seed < 2**SEAT_SEED_BITS for seed in seeds.values())
    assert seat_seed(12345, 2) == seat_seed(12345, 2)
    # Pinned: a bot author reproduces it from PROTOCOL.md's recipe (SHA-256 of "<deal seed>/seat/<seat>").
    assert seat_seed(3, 3) == 2122286793


def random_bot_choices(command: list[str], seed: int, extra: str = "") -> list[str]:
    """The bot's replies to one game's requests (a game message with ``seed``, then ten requests)."""
    lines = [
        {"type": "hello", "protocol": "rook/1", "referee": "test"},
        {"type": "game", "game": "g", "seat": 0, "team": 0, "seed": seed, "players": ["a", "b", "c", "d"]},
        *({"type": "act", "id": n, "legal": ["play R5", "play R6", "play R7", "play R8"]} for n in range(1, 11)),
        {"type": "bye"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines) + extra
    out = subprocess.run(command, input=text, capture_output=True, text=True, timeout=30, check=True).stdout
    return [json.loads(line)["action"] for line in out.splitlines() if '"id"' in line]


BOTS = [
    [sys.executable, str(ROOT / "sample_bots" / "python" / "random_bot.py")],
    [sys.executable, "-m", "rookarena.randombot"],
    pytest.param(
        ["node", str(ROOT / "sample_bots" / "node" / "random_bot.js")],
        marks=pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    ),
]


@pytest.mark.parametrize("command", BOTS)
def test_random_bots_choose_by_the_game_seed(command: list[str]) -> None:
    first = random_bot_choices(command, 77)
    assert len(first) == 10
    assert random_bot_choices(command, 77) == first  # another process, the same game: the same choices
    others = [random_bot_choices(command, seed) for seed in (78, 79, 80)]
    assert any(choices != first for choices in others)


@pytest.mark.slow
def test_two_runs_of_the_demo_print_the_same_tables(tmp_path: pathlib.Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed (the demo plays the Node sample bot)")
    outputs = []
    for run in ("one", "two"):
        result = subprocess.run(
            [sys.executable, "-m", "rookarena", "run", "configs/demo.yaml", "--out", str(tmp_path / run)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout.replace(str(tmp_path / run), "OUT"))
    assert "random-js" in outputs[0]
    assert outputs[0] == outputs[1]
