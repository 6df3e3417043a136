"""``rookarena match`` as a regression tester: statistics, SPRT early stop, and the exit status."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from rookarena import records

ROOT = pathlib.Path(__file__).parent.parent
HEURISTIC = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'heuristic_bot.py'}"
RANDOM = f"{sys.executable} -m rookarena.randombot 4"


def match(*args: str) -> subprocess.CompletedProcess[str]:
    seed = () if "--seed" in args else ("--seed", "1")  # the deals these figures were measured on
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "match", *args, *seed],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_sprt_stops_early_and_accepts_the_stronger_bot(tmp_path: pathlib.Path) -> None:
    result = match(HEURISTIC, RANDOM, "--games", "60", "--sprt", "0", "50", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "accept H1" in result.stdout
    played = list(records.read((tmp_path / "games.jsonl").read_text().splitlines()))
    assert 2 <= len(played) < 60
    assert len(played) % 2 == 0  # duplicate deals: it only stops after whole pairs
    assert "duplicate difference +" in result.stdout
    assert "LOS" in result.stdout


@pytest.mark.slow
def test_a_weaker_new_version_fails_the_run() -> None:
    result = match(RANDOM, HEURISTIC, "--games", "8")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "Elo difference -" in result.stdout


@pytest.mark.slow
def test_sprt_accepting_h0_fails_the_run() -> None:
    # With ELO1 <= 0 the test asks "is NEW worse?": H0 (worse by 50) accepted fails the run.
    result = match(RANDOM, HEURISTIC, "--games", "60", "--sprt", "-50", "0")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "accept H0" in result.stdout
