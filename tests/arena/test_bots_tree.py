"""Every way a request ends leaves the referee ready, and nothing a bot starts outlives it: real processes.

Bots that stop reading their input, leave setsid'd or double-forked children, exit while a child holds
their stdout, run as a setsid'd grandchild, or start processes past ``limits.processes``, played in
matches (in-process and through ``rookarena match``) under both fault policies.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
import trio
from conftest import ROOT, TEST_BOTS
from procs import processes_with

from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.proctree import become_subreaper, tracking
from rookarena.arena.specs import BotSpec, FaultPolicy, Limits, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.wire import records

ADVERSARY = TEST_BOTS / "adversary.py"
RANDOM = BotSpec("random", (sys.executable, "-m", "rookarena.randombot", "3"))


def adversary(mode: str, marker: str, rate: float = 0.0) -> BotSpec:
    return BotSpec("adv", (sys.executable, str(ADVERSARY), mode, str(rate), marker), env={"MARKER": marker})


async def play(
    spec: BotSpec, policy: FaultPolicy, games: int = 2, limits: Limits | None = None, move: float = 0.3
) -> list[dict[str, Any]]:
    played: list[dict[str, Any]] = []
    match = Match(
        MatchConfig(
            team_a=(spec, spec),
            team_b=(RANDOM, RANDOM),
            rules=TOURNAMENT,
            rules_name="tournament",
            games=games,
            seed=5,
            time=TimeControl(move=move, startup=5.0),
            policy=policy,
            limits=limits or Limits(startup=5.0, grace=0.3),
            withdraw_after=100,
        )
    )
    with trio.fail_after(120):
        await match.run(played.append)
    return played


def gone(marker: str) -> None:
    deadline = time.monotonic() + 5
    while processes_with(marker) or processes_with(marker, in_environment=True):
        assert time.monotonic() < deadline, processes_with(marker) + processes_with(marker, in_environment=True)
        time.sleep(0.05)


def check_games(played: list[dict[str, Any]], games: int) -> None:
    assert [record["game_id"] for record in played] == [f"match-{index + 1:04d}" for index in range(games)]
    for record in played:
        for fault in record["faults"]:
            assert fault["bot"] == "adv", fault
        if record.get("result", {}).get("hands", 1) > 0:
            records.replay(record)


def test_this_machine_tracks_by_subreaper() -> None:
    assert become_subreaper()
    assert tracking() == "subreaper"


@pytest.mark.parametrize("policy", list(FaultPolicy))
async def test_a_bot_that_stops_reading_never_stops_the_referee(policy: FaultPolicy) -> None:
    """It answers once, then never reads again: its pipe fills, the write times out, and every game of the
    match is still played and recorded (under substitute, the rest of each game without it)."""
    marker = f"rookarena-deaf-{uuid.uuid4().hex}"
    # 0.2 s a move: the deaf bot's write times out soon, and the random bots answer in time on a loaded machine.
    played = await play(adversary("deaf", marker), policy, games=3, move=0.2)
    check_games(played, 3)
    kinds = {fault["kind"] for record in played for fault in record["faults"]}
    assert kinds <= {"timeout", "protocol"} and "timeout" in kinds
    gone(marker)


@pytest.mark.parametrize("policy", list(FaultPolicy))
async def test_setsid_and_double_forked_children_are_stopped_and_counted(policy: FaultPolicy) -> None:
    marker = f"rookarena-orphans-{uuid.uuid4().hex}"
    played = await play(adversary("orphans", marker), policy)
    check_games(played, 2)
    gone(marker)
    last = played[-1]["faults"]
    left = [fault for fault in last if fault["kind"] == "protocol" and "leaving" in fault["detail"]]
    assert left and all(fault["bot"] == "adv" for fault in left), last
    counts = [int(fault["detail"].split("leaving ")[1].split()[0]) for fault in left]
    assert all(count > 0 for count in counts)


async def test_an_exit_with_stdout_held_by_a_child_is_a_crash() -> None:
    """The bot's own exit is seen (its pidfd), not only the end of its output, which a child still holds."""
    marker = f"rookarena-held-{uuid.uuid4().hex}"
    began = time.monotonic()
    played = await play(adversary("exit-held", marker, 1.0), FaultPolicy.SUBSTITUTE)
    check_games(played, 2)
    first = [fault for record in played for fault in record["faults"] if fault["kind"] != "protocol"]
    assert first and all(fault["kind"] == "crash" for fault in first), first
    assert "status 3" in first[0]["detail"]
    assert time.monotonic() - began < 60
    gone(marker)


async def test_a_daemonized_bot_that_ignores_bye_is_a_crash_and_is_stopped() -> None:
    marker = f"rookarena-daemon-{uuid.uuid4().hex}"
    played = await play(adversary("daemon", marker), FaultPolicy.FORFEIT)
    check_games(played, 2)
    assert all(record["faults"] and record["faults"][0]["kind"] == "crash" for record in played)
    gone(marker)


async def test_processes_that_left_the_session_count_against_the_limit() -> None:
    """``limits.processes`` counts the whole tree, setsid'd children included; the limit stops them all and
    shows as ``limit``."""
    marker = f"rookarena-limit-{uuid.uuid4().hex}"
    spec = adversary("orphans", marker)
    limits = Limits(startup=5.0, grace=0.3, processes=4)
    played = await play(spec, FaultPolicy.FORFEIT, games=1, limits=limits)
    faults = played[0]["faults"]
    assert faults and faults[0]["kind"] == "limit" and "processes" in faults[0]["detail"], faults
    gone(marker)


async def test_the_children_of_a_session_member_that_left_the_session_count_against_the_limit() -> None:
    """A child that stays in the bot's session, alive, whose own children call setsid: they are neither in the
    session nor re-parented, and were not counted (a fork bomb went through); they are the bot's all the same."""
    marker = f"rookarena-nested-{uuid.uuid4().hex}"
    limits = Limits(startup=5.0, grace=0.3, processes=6)
    played = await play(adversary("nested", marker), FaultPolicy.FORFEIT, games=1, limits=limits)
    faults = played[0]["faults"]
    assert faults and faults[0]["kind"] == "limit" and "processes" in faults[0]["detail"], faults
    gone(marker)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["orphans", "deaf", "daemon"])
def test_rookarena_match_leaves_nothing_and_exits_without_a_traceback(mode: str, tmp_path: pathlib.Path) -> None:
    marker = f"rookarena-cli-{uuid.uuid4().hex}"
    command = f"{sys.executable} {ADVERSARY} {mode} 1.0 {marker}"
    result = subprocess.run(
        [
            *(sys.executable, "-m", "rookarena", "match", command, f"{sys.executable} -m rookarena.randombot 4"),
            *("--games", "2", "--move-time", "0.3", "--faults", "substitute", "--out", str(tmp_path / "out")),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    if mode == "daemon":  # its hello comes, but its process is gone: a crash in every game
        assert result.returncode in (0, 1, 3), result.stderr
        gone(marker)
        return
    assert result.returncode in (0, 3), result.stderr
    lines = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        for fault in json.loads(line)["faults"]:
            assert fault["bot"] == "adversary", fault  # named by its hello
    gone(marker)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["forfeit", "substitute"])
def test_a_league_with_a_bot_that_stops_reading_finishes(policy: str, tmp_path: pathlib.Path) -> None:
    """The league of the report: a bot that answers once and stops reading, with a high ``withdraw_after``;
    every game is recorded once, the league exits 0, and nothing is left."""
    marker = f"rookarena-deaf-league-{uuid.uuid4().hex}"
    config = tmp_path / "league.yaml"
    lines = [
        "name: deaf",
        "games: 2",
        "seed: 4",
        "jobs: 2",
        "time: {move: 0.5, startup: 5}",
        f"faults: {policy}",
        "withdraw_after: 100",
        "bots:",
        "  - name: deaf",
        f"    command: [{sys.executable}, {ADVERSARY}, deaf, '0', {marker}]",
        f"    env: {{MARKER: {marker}}}",
    ]
    for index in range(2):
        lines += [f"  - name: random{index}", f"    command: [{sys.executable}, -m, rookarena.randombot, '{index}']"]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    ids = [json.loads(line)["game_id"] for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(ids) == len(set(ids)) == 6
    for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines():
        for fault in json.loads(line)["faults"]:
            assert fault["bot"] == "deaf", fault
    assert json.loads((out / "league.json").read_text(encoding="utf-8"))["process_tracking"] == "subreaper"
    gone(marker)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_worker_ends_what_a_bot_left_even_without_its_mark(jobs: int, tmp_path: pathlib.Path) -> None:
    """A setsid'd, double-forked grandchild that dropped ROOKARENA_BOT from its environment is re-parented
    to the process that plays the games (its subreaper: a worker, or the referee itself with jobs 1), which
    kills it once its bots are stopped."""
    marker = f"rookarena-unmarked-{uuid.uuid4().hex}"
    config = tmp_path / "league.yaml"
    lines = ["name: unmarked", "games: 2", "seed: 4", f"jobs: {jobs}", "time: {move: 0.5, startup: 5}", "bots:"]
    for index in range(3):
        lines += [
            f"  - name: u{index}",
            f"    command: [{sys.executable}, {ADVERSARY}, unmarked, '0', {marker}]",
            f"    env: {{MARKER: {marker}}}",
            "    reuse: false",
        ]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    gone(marker)


def test_rookarena_match_ends_what_a_bot_left_even_without_its_mark(tmp_path: pathlib.Path) -> None:
    """The same grandchild under `rookarena match`: the referee is its subreaper and kills it at the end."""
    marker = f"rookarena-unmarked-{uuid.uuid4().hex}"
    bot = f"{sys.executable} {ADVERSARY} unmarked 0 {marker}"
    command = [sys.executable, "-m", "rookarena", "match", bot, f"{sys.executable} -m rookarena.randombot 1"]
    command += ["--games", "2", "--seed", "4", "--move-time", "0.5", "--out", str(tmp_path / "out")]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert result.returncode in (0, 3), result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    gone(marker)


def test_check_bot_ends_what_a_bot_left_without_its_mark_and_fails_it(tmp_path: pathlib.Path) -> None:
    """The same grandchild under `rookarena check-bot`: it ran on after check-bot had said the bot was
    compliant; now check-bot kills it and names it."""
    marker = f"rookarena-unmarked-{uuid.uuid4().hex}"
    bot = f"{sys.executable} {ADVERSARY} unmarked 0 {marker}"
    command = [sys.executable, "-m", "rookarena", "check-bot", bot, "--games", "1", "--rules", "tournament"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert result.returncode == 1, result.stdout + result.stderr[-3000:]
    assert re.search(r"FAIL  tournament: exit: left \d+ process\(es\) running after it was stopped", result.stdout)
    assert "PASS  tournament: exit" not in result.stdout, result.stdout
    gone(marker)


def test_the_end_of_a_run_spares_a_child_of_the_embedding_program() -> None:
    """kill_strays ends a child in a session of its own (where a bot's processes are) that the referee did
    not start, and leaves alone one in the referee's own session, which the embedding program started (a
    browser driver in a test)."""
    from rookarena.arena import proctree

    kept = subprocess.Popen(["sleep", "30"])
    stray = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert proctree.kill_strays() >= 1
        assert not pathlib.Path(f"/proc/{stray.pid}").exists()  # killed and reaped
        assert kept.poll() is None
    finally:
        kept.kill()
        kept.wait()
        stray.kill()
        stray.wait()
