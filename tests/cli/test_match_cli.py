"""``rookarena match`` as a regression tester: statistics, SPRT early stop, and the exit status."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from conftest import ROOT, TEST_BOTS

from rookarena.cli import gate
from rookarena.results.sprt import Outcome
from rookarena.wire import records

HEURISTIC = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'heuristic_bot.py'}"
RANDOM = f"{sys.executable} -m rookarena.randombot 4"
SHORT = ("--rules", str(ROOT / "tests" / "rules" / "short.yaml"))  # games to 100: hundreds of games, fast


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


CRASHING = f"{sys.executable} {TEST_BOTS / 'bad_bot.py'} crash-mid"


@pytest.mark.parametrize(
    ("outcome", "faulted", "flag", "status"),
    [
        (Outcome.NOT_WORSE, False, False, 0),
        (Outcome.NOT_WORSE, True, False, 0),
        (Outcome.NOT_WORSE, True, True, gate.EXIT_FAULTS),
        (Outcome.WORSE, True, True, gate.EXIT_WORSE),
        (Outcome.UNDECIDED, False, False, gate.EXIT_UNDECIDED),
        (Outcome.UNDECIDED, True, True, gate.EXIT_FAULTS),
        (Outcome.UNDECIDED, False, True, gate.EXIT_UNDECIDED),
    ],
)
def test_exit_status_table(outcome: Outcome, faulted: bool, flag: bool, status: int) -> None:
    assert gate.exit_status(outcome, faulted, flag) == status
    assert gate.status_line(status).startswith(f"exit status {status}: ")


def test_match_help_documents_every_exit_status() -> None:
    result = match("--help")
    assert result.returncode == 0
    for line in (
        "0  A is not shown worse",
        "3  A is shown worse",
        "4  the test did not decide",
        "5  with --fail-on-faults",
    ):
        assert line in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--games", "150", "--sprt", "-10", "0"],
            "expected at least 202 games: --sprt -10 0 cannot decide before 101 deal pairs, got 150",
        ),
        (
            ["--games", "198", "--sprt-points", "-20", "0"],
            "expected at least 200 games: --sprt-points -20 0 cannot decide before 100",
        ),
        (
            ["--games", "100", "--no-duplicate", "--sprt", "-10", "0"],
            "expected at least 101 games: --sprt -10 0 cannot decide before 101 games",
        ),
        (["--games", "400", "--sprt-points", "0", "1e308"], "expected points bounds within ±10000"),
        (["--games", "400", "--sprt-points", "-1e308", "1e308"], "expected points bounds within ±10000"),
        (["--games", "400", "--sprt", "0", "1e308"], "expected elo bounds within ±1000"),
        (["--games", "400", "--sprt", "-inf", "0"], "expected finite elo bounds"),
        (["--games", "400", "--sprt-points", "5", "5"], "expected points0 < points1"),
    ],
)
def test_a_cap_or_bounds_that_cannot_decide_are_refused_before_any_game(
    args: list[str], message: str, tmp_path: pathlib.Path
) -> None:
    result = match(RANDOM, RANDOM, "--out", str(tmp_path / "out"), *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert "game 1/" not in result.stderr
    assert not (tmp_path / "out" / "games.jsonl").exists()


@pytest.mark.slow
def test_a_new_that_crashes_every_game_never_passes() -> None:
    points = match(CRASHING, RANDOM, "--games", "240", "--sprt-points", "-20", "0")
    assert points.returncode == gate.EXIT_UNDECIDED, points.stdout + points.stderr
    assert "cannot decide (120 deal pairs forfeited by NEW, without points)" in points.stdout
    assert "answer: undecided after 240 games: NEW forfeited a game of 120 deal pairs" in points.stdout
    assert "faults: bad-crash-mid " in points.stdout and "(in 240 of 240 games); rookarena-random none" in points.stdout
    assert "LLR 0.00 (-2.94, 2.94) after 0 games" not in points.stdout
    flagged = match(CRASHING, RANDOM, "--games", "240", "--sprt-points", "-20", "0", "--fail-on-faults")
    assert flagged.returncode == gate.EXIT_FAULTS, flagged.stdout
    assert "exit status 5: NEW had faults (--fail-on-faults)" in flagged.stdout
    elo = match(CRASHING, RANDOM, "--games", "400", "--sprt", "-10", "0")
    assert elo.returncode == gate.EXIT_WORSE, elo.stdout + elo.stderr
    assert "answer: yes: NEW is worse" in elo.stdout


@pytest.mark.slow
def test_faults_are_said_and_can_fail_a_run_that_is_not_worse() -> None:
    # Without a test: the crashing side is B (OLD); NEW's own faults are none, so the flag does not fire.
    plain = match(RANDOM, CRASHING, "--games", "4", "--fail-on-faults")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "faults: rookarena-random none; bad-crash-mid " in plain.stdout
    assert "exit status 0: NEW is not shown worse" in plain.stdout
    # Each fault is said as it happens, where it happened and what the bot did, as a league says it.
    said = [line for line in plain.stderr.splitlines() if line.startswith("fault: ")]
    assert len(said) == plain.stderr.count(" fault(s): ") >= 1, plain.stderr
    assert all(line.startswith("fault: bad-crash-mid ") and " in match-000" in line for line in said), said
    assert any(", hand " in line and ": crash: exited with status 7" in line for line in said), said


@pytest.mark.slow
def test_an_undecided_run_exits_4_unless_the_fixed_verdict_is_asked_for() -> None:
    args = ("--games", "102", "--no-duplicate", "--sprt", "-10", "0", *SHORT)
    undecided = match(RANDOM, RANDOM, *args)
    assert undecided.returncode == gate.EXIT_UNDECIDED, undecided.stdout + undecided.stderr
    assert "warning: --games 102 may end undecided (exit status 4): at the bounds --sprt -10 0 takes about 6,401" in (
        undecided.stderr
    )
    assert "answer: undecided after 102 games" in undecided.stdout
    assert "exit status 4: undecided at the cap" in undecided.stdout
    fixed = match(RANDOM, RANDOM, *args, "--at-cap", "fixed")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "at the cap (--at-cap fixed): the fixed-sample verdict, Elo +0.0 [-68.3, +68.3]: NEW is not shown worse" in (
        fixed.stdout
    )
    assert "exit status 0: NEW is not shown worse" in fixed.stdout


@pytest.mark.slow
def test_identical_bots_get_a_plain_points_llr() -> None:
    result = match(RANDOM, RANDOM, "--games", "200", "--sprt-points", "-20", "0", *SHORT)
    line = next(text for text in result.stdout.splitlines() if text.startswith("points test"))
    llr = float(line.split("LLR ")[1].split()[0])
    assert 0 < llr < 1000, line


def test_a_cap_of_the_most_games_starts_at_once_and_stops_when_the_test_decides() -> None:
    """--games is the cap of a sequential test: the games are made as they are played, never all at the start
    (a billion of them once took all the memory before the first game; ten million, the most, would take GBs)."""
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "match", RANDOM, RANDOM, "--games", "10000000", "--sprt", "-400", "-300"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "test decided after" in result.stderr
    assert "game 1/10000000:" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("bounds", [("0", "10"), ("-5", "5")], ids=["is NEW better", "which is NEW nearer"])
def test_a_test_that_does_not_ask_whether_new_is_worse_never_closes_saying_it_is_not(bounds: tuple[str, str]) -> None:
    """A far weaker NEW under a test that asks whether it is better (or which bound it is nearer) exits 0 as
    the table says, but the closing line does not call it "not shown worse": its Elo interval shows it is."""
    result = match(RANDOM, HEURISTIC, "--games", "400", "--sprt", *bounds, *SHORT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "NEW is not shown worse" not in result.stdout
    assert "exit status 0: the test's answer is not a regression check" in result.stdout
