"""Generated adversaries and random kills: whatever the bots do, and whatever is killed, the league holds.

The adversaries (``tests/bots/adversary.py``) draw their misbehaviour from a seed; each league here is
drawn from a seed too, so a failure names the seed that replays it. After every run the invariants are
checked: the league finishes (exit 0) within a bound, every planned game has exactly one record, every
record replays, faults are charged only to an adversary, the games between well-behaved bots are the
games of a league without the adversaries, and no process is left.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
from conftest import ROOT, TEST_BOTS
from procs import processes_with

from rookarena.wire import records

HEURISTIC = ROOT / "sample_bots" / "python" / "heuristic_bot.py"
ADVERSARY = TEST_BOTS / "adversary.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
UNSTABLE = ("timing", "decision_ms", "overhead_us")  # fields that measure the machine, not the game


def well_behaved(marker: str) -> list[str]:
    return [
        "  - name: heuristic",
        f"    command: [{sys.executable}, {HEURISTIC}]",
        f"    env: {{MARKER: {marker}}}",
        "  - name: random",
        f"    command: [{sys.executable}, -m, rookarena.randombot, '7']",
        f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
    ]


def adversary(name: str, seed: int, rate: float, marker: str) -> list[str]:
    return [
        f"  - name: {name}",
        f"    command: [{sys.executable}, {ADVERSARY}, '{seed}', '{rate}', {marker}]",
        f"    env: {{MARKER: {marker}}}",
    ]


def write_league(path: pathlib.Path, bots: list[str], policy: str, games: int = 2) -> pathlib.Path:
    lines = [
        "name: generated",
        f"games: {games}",
        "seed: 11",
        "jobs: 2",
        "time: {move: 0.5, startup: 5}",
        f"faults: {policy}",
        "limits: {stderr: 100000, line: 65536}",
        "bots:",
        *bots,
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(config: pathlib.Path, out: pathlib.Path, *extra: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain", *extra],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def load(out: pathlib.Path) -> dict[str, dict[str, Any]]:
    """The records of a results directory by game id; fails on a duplicate."""
    found: dict[str, dict[str, Any]] = {}
    data = (out / "games.jsonl").read_bytes()
    # A line still being appended may be read in part (a record spans pages): only whole lines count.
    for line in data[: data.rfind(b"\n") + 1].decode("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            assert record["game_id"] not in found, f"game {record['game_id']} recorded twice"
            found[record["game_id"]] = record
    return found


def stable(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in UNSTABLE}


def no_process_left(marker: str) -> None:
    deadline = time.monotonic() + 5
    while processes_with(marker) or processes_with(marker, in_environment=True):
        assert time.monotonic() < deadline, processes_with(marker) + processes_with(marker, in_environment=True)
        time.sleep(0.1)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[str, Any]]]:
    """The well-behaved bots' games alone, under each fault policy."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for policy in ("forfeit", "substitute"):
        base = tmp_path_factory.mktemp(f"baseline-{policy}")
        marker = f"rookarena-base-{uuid.uuid4().hex}"
        result = run(write_league(base / "league.yaml", well_behaved(marker), policy), base / "out")
        assert result.returncode == 0, result.stderr
        out[policy] = load(base / "out")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("league_seed", [1, 2, 3, 4, 5, 6])
def test_generated_adversaries_cannot_break_a_league(
    league_seed: int, baseline: dict[str, dict[str, dict[str, Any]]], tmp_path: pathlib.Path
) -> None:
    rng = random.Random(league_seed)
    policy = rng.choice(["forfeit", "substitute"])
    marker = f"rookarena-adv-{uuid.uuid4().hex}"
    names = ["adv-1", "adv-2"]
    bots = well_behaved(marker)
    for name in names:
        bots += adversary(name, rng.randrange(10**6), rng.choice([0.02, 0.05, 0.15]), marker)
    config = write_league(tmp_path / "league.yaml", bots, policy)
    out = tmp_path / "out"
    began = time.monotonic()
    result = run(config, out)
    assert result.returncode == 0, f"league seed {league_seed}: {result.stderr[-2000:]}"
    assert time.monotonic() - began < 240
    assert "Traceback" not in result.stderr
    played = load(out)
    assert len(played) == 6 * 2, sorted(played)  # four bots: six pairings of one deal pair each
    for game_id, record in played.items():
        if record.get("result", {}).get("hands", 1) > 0:
            records.replay(record)
        for fault in record["faults"]:
            assert fault["bot"] in names, f"{game_id}: a fault charged to {fault['bot']}: {fault}"
        if not any(name in game_id for name in names):
            assert stable(record) == stable(baseline[policy][game_id]), f"{game_id} differs without the adversaries"
    no_process_left(marker)
    resumed = run(config, out, "--resume")  # a finished league resumes to itself
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert load(out) == played


def _parent(pid: int) -> int:
    try:
        return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            children.setdefault(_parent(int(entry.name)), []).append(int(entry.name))
    out, frontier = [], [root]
    while frontier:
        for child in children.get(frontier.pop(), []):
            out.append(child)
            frontier.append(child)
    return out


def _is_worker(pid: int) -> bool:
    try:
        return b"rookarena.arena.worker" in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    base = tmp_path_factory.mktemp("uninterrupted")
    marker = f"rookarena-whole-{uuid.uuid4().hex}"
    result = run(write_league(base / "league.yaml", well_behaved(marker), "forfeit", games=40), base / "out")
    assert result.returncode == 0, result.stderr
    return load(base / "out")


@pytest.mark.slow
@pytest.mark.parametrize("kill_seed", [1, 2, 3, 4, 5])
def test_random_kills_then_resume(
    kill_seed: int, uninterrupted: dict[str, dict[str, Any]], tmp_path: pathlib.Path
) -> None:
    """kill -9 of the referee, a worker or a bot at a random moment; then --resume until done. The games
    are the uninterrupted run's, except that a killed bot's game is its team's crash."""
    rng = random.Random(kill_seed)
    victim = ["referee", "worker", "bot", "referee", "everything"][kill_seed - 1]
    marker = f"rookarena-kill-{uuid.uuid4().hex}"
    config = write_league(tmp_path / "league.yaml", well_behaved(marker), "forfeit", games=40)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    # A random moment while games are being played: after a random number of records, plus a little.
    wanted, deadline = rng.randint(1, 10), time.monotonic() + 120
    while not (out / "games.jsonl").exists() or len(load(out)) < wanted:
        assert proc.poll() is None and time.monotonic() < deadline, "the league ended before the kill"
        time.sleep(0.01)
    time.sleep(rng.uniform(0, 0.2))
    assert proc.poll() is None, "the league ended before the kill"
    tree = _descendants(proc.pid)
    if victim == "referee":
        target = proc.pid
    elif victim == "worker":
        target = rng.choice([pid for pid in tree if _is_worker(pid)] or [proc.pid])
    elif victim == "bot":
        bots = [pid for pid in tree if not _is_worker(pid)]
        target = rng.choice(bots) if bots else proc.pid
    if victim == "everything":  # as Slurm's scancel does: SIGTERM to every process of the job, bots first
        bots = [pid for pid in tree if not _is_worker(pid)]
        for pid in [*bots, None, *(pid for pid in tree if _is_worker(pid)), proc.pid]:
            if pid is None:
                time.sleep(0.05)  # the referee's own signal comes a little later
                continue
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        target = proc.pid
    else:
        os.kill(target, signal.SIGKILL)
    _, err = proc.communicate(timeout=240)
    for _ in range(3):
        if proc.returncode == 0:
            break
        assert "Traceback" not in err, err
        resumed = subprocess.run(
            [*command, "--resume"], capture_output=True, text=True, env=ENV, timeout=240, check=False
        )
        proc.returncode, err = resumed.returncode, resumed.stderr
    assert proc.returncode == 0, err
    played = load(out)
    assert sorted(played) == sorted(uninterrupted)
    crashed = [game_id for game_id, record in played.items() if record["faults"]]
    assert len(crashed) <= (1 if victim == "bot" and target != proc.pid else 0), crashed
    for game_id, record in played.items():
        if game_id not in crashed:
            assert stable(record) == stable(uninterrupted[game_id]), f"{game_id} differs after the kill"
        else:
            assert record["faults"][0]["kind"] == "crash"
    no_process_left(marker)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["forfeit", "substitute"])
def test_generated_adversaries_cannot_break_a_match(policy: str, tmp_path: pathlib.Path) -> None:
    """``rookarena match`` against a seeded adversary (named by its hello, which may be hostile): every game
    recorded once and replayable, faults only on the adversary, a summary without a raw control character
    or a forged line, no traceback and no process left."""
    rng = random.Random(policy)
    marker = f"rookarena-match-{uuid.uuid4().hex}"
    seed, rate = rng.randrange(10**6), rng.choice([0.05, 0.15])
    out = tmp_path / "out"
    result = subprocess.run(
        [
            *(sys.executable, "-m", "rookarena", "match"),
            f"{sys.executable} {ADVERSARY} {seed} {rate} {marker}",
            f"{sys.executable} -m rookarena.randombot 5",
            *("--games", "2", "--move-time", "0.5", "--faults", policy, "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        env={**ENV, "MARKER": marker},
        timeout=240,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode in (0, 1, 3), result.stderr[-2000:]  # 1 only when the adversary never said hello
    if result.returncode == 1:
        assert "never completed its handshake" in result.stderr
    else:
        played = load(out)
        assert len(played) == 2
        for game_id, record in played.items():
            if record.get("result", {}).get("hands", 1) > 0:
                records.replay(record)
            for fault in record["faults"]:
                assert fault["bot"] != "rookarena-random", f"{game_id}: {fault}"
    for text in (result.stdout, result.stderr):
        assert all(ch.isprintable() or ch == "\n" for ch in text), repr(text)
        assert not any(line.startswith("seat 0 (other)") for line in text.splitlines())
    no_process_left(marker)


SELF_STOP = TEST_BOTS / "self_stop_bot.py"


@pytest.fixture(scope="module")
def self_stop_whole(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The league of the test below, played without the stop (its flag already taken)."""
    base = tmp_path_factory.mktemp("self-stop-whole")
    flag = base / "flag"
    flag.touch()
    marker = f"rookarena-selfstop-{uuid.uuid4().hex}"
    config = write_league(base / "league.yaml", _self_stopping(marker, "line:1", flag), "forfeit", games=8)
    result = run(config, base / "out")
    assert result.returncode == 0, result.stderr
    return load(base / "out")


def _self_stopping(marker: str, when: str, flag: pathlib.Path) -> list[str]:
    return [
        "  - name: stopping",
        f"    command: [{sys.executable}, {SELF_STOP}, '3', '{when}', {flag}]",
        f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
        "  - name: random",
        f"    command: [{sys.executable}, -m, rookarena.randombot, '7']",
        f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("stop_seed", range(6))
def test_a_stop_of_the_whole_job_records_no_crash(
    stop_seed: int, self_stop_whole: dict[str, dict[str, Any]], tmp_path: pathlib.Path
) -> None:
    """A bot ended by SIGTERM that the referee did not send (at its hello, during a game, between games),
    then the referee's own SIGTERM a moment later, as a scheduler stopping the whole job does: no game is
    recorded as that bot's crash, and the resumed league is the uninterrupted one."""
    rng = random.Random(stop_seed)
    when = rng.choice(
        [
            "line:1",
            f"line:{rng.randint(2, 60)}",
            f"after:{rng.randint(1, 3)}:0",
            f"after:{rng.randint(1, 3)}:{rng.randint(1, 30)}",
        ]
    )
    flag = tmp_path / "flag"
    marker = f"rookarena-selfstop-{uuid.uuid4().hex}"
    config = write_league(tmp_path / "league.yaml", _self_stopping(marker, when, flag), "forfeit", games=8)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    deadline = time.monotonic() + 120
    while not flag.exists() and proc.poll() is None:
        assert time.monotonic() < deadline, f"{when}: the bot never stopped itself"
        time.sleep(0.005)
    time.sleep(rng.uniform(0, 0.1))  # the rest of the job's signals come a moment later
    for pid in [*(pid for pid in _descendants(proc.pid) if _is_worker(pid)), proc.pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    played = load(out) if (out / "games.jsonl").exists() else {}
    for game_id, record in played.items():
        assert not record["faults"], f"{when}: {game_id} was recorded with {record['faults']}"
    resumed = run(config, out, "--resume")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    played = load(out)
    assert sorted(played) == sorted(self_stop_whole)
    for game_id, record in played.items():
        assert stable(record) == stable(self_stop_whole[game_id]), f"{when}: {game_id} differs after the stop"
    no_process_left(marker)
