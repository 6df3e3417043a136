"""End-to-end: real bot processes over real pipes, each breaking the protocol in one way.

Each case plays a short match of a misbehaving bot against the sample random bot and checks the fault
kind, that the random bot's team is credited with the game, that the records stay whole, and that no
process of either bot is left behind.
"""

from __future__ import annotations

import pathlib
import random
import sys
import uuid
from typing import Any

import pytest
import trio
from conftest import ROOT, TEST_BOTS
from procs import processes_with

from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.specs import BotSpec, FaultPolicy, Limits, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.wire import records

RANDOM_BOT = (sys.executable, str(ROOT / "sample_bots" / "python" / "random_bot.py"))


async def play(
    mode: str,
    tmp_path: pathlib.Path,
    *,
    games: int = 2,
    policy: FaultPolicy = FaultPolicy.FORFEIT,
    bad_limits: Limits | None = None,
    grace: float = 0.3,
    **time: float,
) -> tuple[list[dict[str, Any]], str]:
    marker = f"rookarena-test-{uuid.uuid4().hex}"
    bad = BotSpec(f"bad-{mode}", (sys.executable, str(TEST_BOTS / "bad_bot.py"), mode, marker), limits=bad_limits)
    good = BotSpec("random", (*RANDOM_BOT, "--seed", "5", "--name", f"random-{marker}"))
    config = MatchConfig(
        team_a=(bad, bad),
        team_b=(good, good),
        rules=TOURNAMENT,
        rules_name="tournament",
        games=games,
        seed=11,
        time=TimeControl(move=time.get("move", 0.5), startup=time.get("startup", 5.0)),
        policy=policy,
        limits=Limits(startup=time.get("startup", 5.0), grace=grace, stderr_cap=100_000),
        log_dir=tmp_path,
    )
    played: list[dict[str, Any]] = []
    with trio.fail_after(60):
        await Match(config).run(played.append)
    return played, marker


CASES = [
    # mode, fault kind, words expected in the detail
    ("crash-start", "crash", "exited with status 3"),
    ("crash-mid", "crash", "status 7"),
    ("silent", "timeout", "no reply"),
    ("garbage", "malformed", "not JSON"),
    ("illegal", "illegal", "bid 999"),
    ("endless-line", "limit", "line: longer than"),
    ("slow-start", "timeout", "hello"),
    ("freeze", "timeout", "a process of the bot was stopped (state T"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "kind", "detail"), CASES)
async def test_fault_is_classified_and_forfeits(mode: str, kind: str, detail: str, tmp_path: pathlib.Path) -> None:
    played, marker = await play(mode, tmp_path, startup=1.0 if mode == "slow-start" else 5.0)
    assert len(played) == 2
    for record in played:
        # A hung bot is kept after its timeout (it may answer the next request), so it is told 'bye' at the end
        # and fails to exit: that is recorded on the last game, apart from the cause.
        faults = [f for f in record["faults"] if not f["detail"].startswith("did not exit")]
        assert faults, record["game_id"]
        assert {f["kind"] for f in faults} == {kind}
        assert detail in faults[0]["detail"] + faults[0]["line"]
        bad_team = record["forfeit"]["team"]
        assert record["seats"][faults[0]["seat"]] == f"bad-{mode}"
        assert record["result"]["winner"] == 1 - bad_team
        records.replay(record)  # the hands played before the fault are whole and legal
        if "decision_ms" in record:  # every asked decision has its time; the one that faulted has none
            times, seat = record["decision_ms"], faults[0]["seat"]
            assert [len(t) for t in times] == [t["count"] for t in record["timing"]]
            assert times[seat] == [] or times[seat][-1] is None
            assert None not in [ms for s, t in enumerate(times) for ms in (t[:-1] if s == seat else t)]
        if kind == "timeout" and mode != "slow-start":  # quick replies first: the deadline still holds
            waited = record["timing"][faults[0]["seat"]]["max"]
            assert 500 <= waited < 1500, waited
    assert processes_with(marker) == []


EXIT_FAULTS = ("did not exit within", "exited leaving")
# Faults that end the conversation, after which the referee stops the process (a line that is not JSON, an
# endless line, a closed output, an exit), and one that does not ("illegal": the process is kept). A bot
# that only timed out is kept too (it may answer the next request), so it is told 'bye' and judged on how
# it exits. Every mode here exits at once on 'bye' while it is healthy.
STOPPED = ("crash-mid", "garbage", "endless-line", "close-stdout", "illegal")


@pytest.mark.slow
@pytest.mark.parametrize("case_seed", range(10))
async def test_a_bot_is_judged_on_its_exit_only_when_told_bye(case_seed: int, tmp_path: pathlib.Path) -> None:
    """A bot stopped for a fault that ended its conversation (still writing, still running, or gone) is ended by
    the referee, not told 'bye': its records charge the cause alone, in every game, the last included."""
    rng = random.Random(case_seed)
    policy = rng.choice([FaultPolicy.FORFEIT, FaultPolicy.SUBSTITUTE])
    mode = rng.choice(STOPPED)
    games = rng.choice([1, 2, 4])
    # Room on a loaded machine: for the random bot's replies, and for both bots' exits when told 'bye'.
    played, marker = await play(mode, tmp_path, games=games, policy=policy, move=1.0, grace=2.0)
    assert len(played) == games
    for record in played:
        for fault in record["faults"]:
            assert record["seats"][fault["seat"]] == f"bad-{mode}", (mode, policy, fault)
            assert not fault["detail"].startswith(EXIT_FAULTS), (mode, policy, fault)
    assert processes_with(marker) == []


LIMIT_CASES = [
    # mode, the bot's limits, words expected in the fault's detail
    ("memory-hog", Limits(memory_mb=300, grace=0.3), "memory: ran out of its 300 MiB"),
    ("cpu-spin", Limits(cpu_seconds=1, grace=0.3), "cpu: used its 1 s of CPU time"),
    ("fork-50", Limits(processes=10, grace=0.3), "processes: more than 10 at once"),
    ("endless-line", Limits(max_line=4096, grace=0.3), "line: longer than 4096 bytes"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "limits", "detail"), LIMIT_CASES)
async def test_limits_stop_the_bot_and_name_the_limit(
    mode: str, limits: Limits, detail: str, tmp_path: pathlib.Path
) -> None:
    # 10 s a move: a spinning bot gets its 1 s of CPU within it even on a loaded machine (a share of a core).
    played, marker = await play(mode, tmp_path, games=1, bad_limits=limits, move=10.0)
    fault = played[0]["faults"][0]
    assert fault["kind"] == "limit", fault
    assert fault["detail"].startswith(detail), fault
    assert played[0]["forfeit"]["team"] == 0
    assert processes_with(marker) == []


@pytest.mark.slow
async def test_closing_stdout_is_a_crash(tmp_path: pathlib.Path) -> None:
    played, marker = await play("close-stdout", tmp_path, games=1)
    fault = played[0]["faults"][0]
    assert fault["kind"] == "crash"
    assert "closed its output" in fault["detail"]
    assert processes_with(marker) == []


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["close-stdin", "close-stdin-mute"])
async def test_closing_stdin_and_running_on_is_a_crash(tmp_path: pathlib.Path, mode: str) -> None:
    """Whether the next request finds the pipe closed, or went into it just before the bot closed it."""
    played, marker = await play(mode, tmp_path, games=1, move=1.0)
    fault = played[0]["faults"][0]
    assert (fault["kind"], fault["detail"]) == ("crash", "closed its input (stdin) while still running"), fault
    assert processes_with(marker) == []


@pytest.mark.slow
async def test_stale_id_is_ignored_then_times_out(tmp_path: pathlib.Path) -> None:
    played, marker = await play("stale-id", tmp_path, games=1, move=0.3)
    fault = played[0]["faults"][0]
    assert fault["kind"] == "timeout"
    assert processes_with(marker) == []


@pytest.mark.slow
async def test_stderr_flood_is_a_limit_fault_and_the_log_is_capped(tmp_path: pathlib.Path) -> None:
    played, marker = await play("stderr-flood", tmp_path, games=1)
    (fault,) = played[0]["faults"]
    assert fault["kind"] == "limit"
    assert fault["detail"].startswith("stderr: wrote more than 100000 bytes")
    assert played[0]["forfeit"]["team"] == 0
    logs = sorted(tmp_path.glob("bad-stderr-flood-*.stderr.log"))
    assert logs
    for path in logs:
        text = path.read_bytes()
        assert len(text) < 100_000 + 200
        assert b"more bytes of stderr dropped" in text
    assert processes_with(marker) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("ignore-sigterm", "did not exit within 0.3 s of 'bye' and end of input: stopped by sigkill"),
        ("leave-child", "exited leaving 1 process(es) of its own running (killed)"),
    ],
)
async def test_stubborn_processes_are_killed_and_faulted(mode: str, detail: str, tmp_path: pathlib.Path) -> None:
    played, marker = await play(mode, tmp_path, games=1)
    faults = played[0]["faults"]
    assert [(f["kind"], f["detail"]) for f in faults] == [("protocol", detail), ("protocol", detail)]
    assert "forfeit" not in played[0]  # the game was played out; its result stands
    assert processes_with(marker) == []


@pytest.mark.slow
async def test_substitute_policy_finishes_the_game(tmp_path: pathlib.Path) -> None:
    played, marker = await play("crash-mid", tmp_path, games=2, policy=FaultPolicy.SUBSTITUTE)
    for record in played:
        assert "forfeit" not in record
        assert record["result"]["reason"] != ""
        assert record["faults"] and all(f["kind"] == "crash" for f in record["faults"])
        records.replay(record)
        # Once the bot is gone the referee plays for its seat: those decisions have no time.
        crashed = {f["seat"] for f in record["faults"]}
        for seat, (times, timing) in enumerate(zip(record["decision_ms"], record["timing"], strict=True)):
            if seat in crashed:
                gone = times.index(None)
                assert times[gone:] == [None] * (len(times) - gone) and gone < timing["count"] < len(times)
            else:
                assert None not in times and len(times) == timing["count"]
    assert processes_with(marker) == []
