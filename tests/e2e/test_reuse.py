"""Bot processes kept from one unit to the next: the same games, fewer starts, no exit left unrecorded.

Seeded random leagues (size, format, games a pairing, jobs, partners, a bot that asks for fresh
processes, a bot that crashes or plays illegally) are run twice, with ``reuse: true`` and ``false``.
Every record must be the same in both (the packaged random bot reseeds from each game's seed, so its
moves cannot depend on which process plays them); reuse may only remove process starts, and with one
job the starts are exactly those the plan predicts. A bot that never exits on its own is stopped once
per process, and each of those stops is a fault in some record.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import random
import subprocess
import sys
import uuid
from typing import Any

import pytest
from conftest import ROOT, TEST_BOTS
from procs import processes_with

from rookarena.arena import league
from rookarena.arena.config import load
from rookarena.arena.match import reusable
from rookarena.results import directory

COUNTING = TEST_BOTS / "counting_bot.py"
BAD_BOT = TEST_BOTS / "bad_bot.py"
UNSTABLE = ("timing", "decision_ms", "overhead_us")  # fields that measure the machine, not the game

pytestmark = pytest.mark.slow


def counting(name: str, salt: int) -> str:
    return f"[{json.dumps(sys.executable)}, {json.dumps(str(COUNTING))}, {name}, '{salt}']"


def generated(seed: int, starts: pathlib.Path, marker: str) -> tuple[str, int]:
    """A league drawn from ``seed`` (its YAML without the reuse key) and its number of jobs."""
    rng = random.Random(seed)
    count = rng.randint(3, 5)
    jobs = rng.choice([1, 1, 2, 3])
    lines = [
        f"name: reuse{seed}",
        "rules: tournament",
        f"format: {rng.choice(['round-robin', 'round-robin', 'gauntlet'])}",
        f"games: {rng.choice([2, 4])}",
        "duplicate: true",
        f"seed: {seed}",
        f"jobs: {jobs}",
        "time: {move: 5, startup: 20}",
        "bots:",
    ]
    env = (
        f"    env: {{ROOKARENA_TEST_STARTS: {json.dumps(str(starts))}, ROOKARENA_TEST_MARKER: {marker}, "
        f"PYTHONPATH: {json.dumps(str(ROOT))}}}"
    )
    fresh = rng.randrange(count) if rng.random() < 0.5 else None
    for index in range(count):
        name = f"b{index}"
        lines += [f"  - name: {name}", f"    command: {counting(name, index)}", env]
        if rng.random() < 0.3:
            lines.append(f"    partner: {counting(name + '-partner', 100 + index)}")
        if index == fresh:
            lines.append("    reuse: false")
    if rng.random() < 0.5:
        mode = rng.choice(["crash-mid", "illegal"])
        lines += [
            "  - name: bad",
            f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(BAD_BOT))}, {mode}, {marker}]",
            "    reuse: false",  # it counts requests over its process's life: its play depends on its history
        ]
    return "\n".join(lines) + "\n", jobs


def run(config: pathlib.Path, out: pathlib.Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out)],
        cwd=config.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def stable(out: pathlib.Path) -> dict[str, dict[str, Any]]:
    found = {}
    for record in directory.read_games(out / directory.GAMES_FILE):
        found[record["game_id"]] = {key: value for key, value in record.items() if key not in UNSTABLE}
    return found


def started(path: pathlib.Path) -> collections.Counter[str]:
    if not path.exists():
        return collections.Counter()
    return collections.Counter(line.split()[0] for line in path.read_text().splitlines())


def program(spec: Any) -> str:
    """The NAME a counting bot's command gives it (None for other bots)."""
    return str(spec.command[2]) if str(COUNTING) in spec.command else ""


def predicted(config_path: pathlib.Path, jobs: int, reuse: bool) -> collections.Counter[str]:
    """The starts of each counting bot when one slot plays the units in order (each unit's bots started,
    less those kept from the unit before: the programs both units use, when they may be reused)."""
    config = load(config_path)
    work = league.units(league.plan(config), jobs)
    out: collections.Counter[str] = collections.Counter()
    before: collections.Counter[str] = collections.Counter()
    for unit in work:
        now = collections.Counter(program(spec) for spec in _specs(unit))
        kept: collections.Counter[str] = collections.Counter()
        if reuse:
            allowed = collections.Counter(program(spec) for spec in _specs(unit) if reusable(spec))
            kept = before & allowed
        out += now - kept
        before = collections.Counter(program(spec) for spec in _specs(unit) if reusable(spec))
    del out[""]
    return out


def _specs(unit: list[league.PlannedGame]) -> list[Any]:
    a, b = unit[0].entries
    return [a.bot, a.partner, b.bot, b.partner]


@pytest.mark.parametrize("seed", range(6))
def test_reused_processes_play_the_same_games_with_fewer_starts(tmp_path: pathlib.Path, seed: int) -> None:
    marker = f"rookarena-reuse-{uuid.uuid4().hex}"
    played = {}
    counts = {}
    for reuse in (True, False):
        starts = tmp_path / f"starts-{reuse}"
        text, jobs = generated(seed, starts, marker)
        config = tmp_path / f"league-{reuse}.yaml"
        config.write_text(text + f"reuse: {str(reuse).lower()}\n", encoding="utf-8")
        run(config, tmp_path / f"out-{reuse}")
        played[reuse] = stable(tmp_path / f"out-{reuse}")
        counts[reuse] = started(starts)
        if jobs == 1:
            assert counts[reuse] == predicted(config, jobs, reuse), text
    assert played[True] == played[False]
    assert len(played[True]) == len(league.plan(load(tmp_path / "league-True.yaml")))
    off, on = counts[False], counts[True]
    assert all(on[name] <= off[name] for name in off), (on, off)
    assert sum(on.values()) < sum(off.values()), (on, off)
    assert processes_with(marker) == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_process_that_does_not_exit_is_a_fault_once(tmp_path: pathlib.Path, jobs: int) -> None:
    """A bot that lingers after its input ends is stopped by the referee once per process it had started,
    whether the process played one unit or several, and each stop is one fault, in the last game of the
    last unit that process played."""
    starts = tmp_path / "starts"
    marker = f"rookarena-reuse-{uuid.uuid4().hex}"
    env = (
        f"    env: {{ROOKARENA_TEST_STARTS: {json.dumps(str(starts))}, ROOKARENA_TEST_MARKER: {marker}, "
        f"PYTHONPATH: {json.dumps(str(ROOT))}"
    )
    lines = ["name: linger", "games: 2", f"jobs: {jobs}", "time: {move: 5, startup: 20}", "bots:"]
    for index in range(4):
        name = f"b{index}"
        lingers = ", ROOKARENA_TEST_LINGER: '1'" if index == 0 else ""
        lines += [f"  - name: {name}", f"    command: {counting(name, index)}", env + lingers + "}"]
    config = tmp_path / "league.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run(config, tmp_path / "out")
    faults: collections.Counter[str] = collections.Counter()
    for record in directory.read_games(tmp_path / "out" / directory.GAMES_FILE):
        for fault in record["faults"]:
            assert fault["bot"] == "b0" and "did not exit" in fault["detail"], fault
            faults[fault["bot"]] += 1
    assert faults["b0"] == started(starts)["b0"]
    assert started(starts)["b0"] < 2 * 3  # fewer starts than its 3 units' two seats: it was reused
    assert processes_with(marker) == []
