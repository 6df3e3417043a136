"""``rookarena match`` with a sequential test, end to end: real bot processes, the printed verdict, the exit status."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from conftest import ROOT

from rookarena.wire import records

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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sprt", "10", "0"], "Invalid value for --sprt: expected elo0 < elo1, got 10.0 and 0.0"),
        (["--sprt", "0", "0"], "expected elo0 < elo1"),
        (["--sprt", "nan", "10"], "expected finite elo bounds"),
        (["--sprt", "0", "10", "--alpha", "0.5", "--beta", "0.5"], "alpha + beta < 1"),
        (["--sprt", "0", "10", "--alpha", "0"], "0 < alpha"),
        (["--sprt-points", "0", "-5"], "Invalid value for --sprt-points: expected points0 < points1"),
        (["--sprt-points", "0", "50", "--no-duplicate"], "the points test counts deal pairs"),
        (["--sprt", "0", "10", "--sprt-points", "0", "50"], "not both"),
    ],
)
def test_bad_test_arguments_stop_before_any_game(args: list[str], message: str, tmp_path: pathlib.Path) -> None:
    result = match(RANDOM, RANDOM, "--games", "4", "--out", str(tmp_path / "out"), *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert "game 1/" not in result.stderr
    assert not (tmp_path / "out" / "games.jsonl").exists()


@pytest.mark.slow
def test_identical_bots_are_not_shown_better_and_exit_0(tmp_path: pathlib.Path) -> None:
    # The question "is NEW better by 100 Elo?" gets "no" quickly for two copies of one bot: exit 0, never 3.
    result = match(RANDOM, RANDOM, "--games", "400", "--sprt", "0", "100", "--out", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "accept H0" in result.stdout
    assert "answer: no: NEW is not shown better" in result.stdout
    assert "SPRT [0, 100] over deal pairs" in result.stdout
    played = list(records.read((tmp_path / "games.jsonl").read_text().splitlines()))
    assert 2 <= len(played) < 400 and len(played) % 2 == 0


@pytest.mark.slow
def test_a_regression_test_fails_a_worse_bot_and_passes_a_better_one() -> None:
    worse = match(RANDOM, HEURISTIC, "--games", "80", "--sprt", "-50", "0")
    assert worse.returncode == 3, worse.stdout + worse.stderr
    assert "question: is NEW worse than OLD? (H0: -50 Elo, worse; H1: +0 Elo, not worse)" in worse.stdout
    assert "answer: yes: NEW is worse" in worse.stdout
    better = match(HEURISTIC, RANDOM, "--games", "80", "--sprt", "-50", "0")
    assert better.returncode == 0, better.stdout + better.stderr
    assert "answer: no: NEW is not worse" in better.stdout


@pytest.mark.slow
def test_the_points_test_decides_on_points_per_deal_pair() -> None:
    short = ("--rules", str(ROOT / "tests" / "rules" / "short.yaml"))  # games to 100: the same verdict, faster
    worse = match(RANDOM, HEURISTIC, "--games", "400", "--sprt-points", "-100", "0", *short)
    assert worse.returncode == 3, worse.stdout + worse.stderr
    assert "points test [-100, 0] per deal pair" in worse.stdout
    assert "accept H0" in worse.stdout
    # The points test decides nothing before 100 pairs; with such a difference it decides then.
    assert "after 200 games (100 pairs)" in worse.stdout


@pytest.mark.slow
def test_without_duplicate_deals_the_test_counts_games() -> None:
    result = match(HEURISTIC, RANDOM, "--games", "60", "--no-duplicate", "--sprt", "0", "50")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SPRT [0, 50] over games" in result.stdout
    assert "accept H1" in result.stdout
