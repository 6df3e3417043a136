"""The chaos league: the sample bots and one bot for each way a program can fail, in one round robin.

It must finish, rank every broken bot below the sample bots with the right fault class, and leave no
process of any bot behind (children and grandchildren included).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import uuid

import pytest
from conftest import ROOT, TEST_BOTS
from procs import processes_with

BAD = TEST_BOTS / "bad_bot.py"

# mode → the fault kinds it may be charged with (the first fault of its games against the sample bots)
BROKEN = {
    "crash-start": {"crash"},
    "crash-mid": {"crash"},
    "silent": {"timeout"},
    "garbage": {"malformed"},
    "stale-id": {"timeout"},
    "endless-line": {"limit"},
    "stderr-flood": {"limit"},
    "memory-hog": {"limit"},
    "cpu-spin": {"limit", "timeout"},  # SIGXCPU and the move clock race on a loaded machine
    "fork-50": {"limit"},
    "leave-child": {"protocol"},
    "ignore-sigterm": {"protocol"},
    "close-stdout": {"crash"},
}


def config_text(marker: str) -> str:
    python = sys.executable
    lines = [
        "name: chaos",
        "rules: tournament",
        "games: 2",
        "seed: 5",
        "jobs: 4",  # most of its time is waiting out the broken bots' clocks
        "time: {move: 2.0, startup: 5}",  # room for the memory hog to reach its limit on a loaded machine
        "withdraw_after: 3",
        "limits: {memory: 400, cpu: 60, processes: 10, stderr: 100000, line: 65536}",
        "bots:",
        "  - name: heuristic",
        f"    command: [{python}, {ROOT / 'sample_bots/python/heuristic_bot.py'}, --name, {marker}]",
        "  - name: random",
        f"    command: [{python}, {ROOT / 'sample_bots/python/random_bot.py'}, --seed, '3', --name, {marker}]",
    ]
    for mode in BROKEN:
        lines.append(f"  - name: {mode}")
        lines.append(f"    command: [{python}, {BAD}, {mode}, {marker}]")
        if mode == "cpu-spin":
            lines.append("    limits: {cpu: 1}")
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_chaos_league(tmp_path: pathlib.Path) -> None:
    marker = f"rookarena-chaos-{uuid.uuid4().hex}"
    path = tmp_path / "chaos.yaml"
    path.write_text(config_text(marker), encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(path), "--out", str(out), "--format", "plain"],
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    # The league plays to its end; two of its bots never say hello, which run reports as an error (exit 1)
    # naming each, after the standings.
    assert result.returncode == 1, result.stderr[-3000:]
    never = sorted(line.split()[1] for line in result.stderr.splitlines() if "never completed its handshake" in line)
    assert never == ["crash-start", "stderr-flood"], result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    rows = json.loads((out / "standings.json").read_text())["standings"]
    order = [row["bot"] for row in rows]
    assert set(order[:2]) == {"heuristic", "random"}, order
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 15 * 14 // 2 * 2
    samples = {"heuristic", "random"}
    for mode, kinds in BROKEN.items():
        # Its games against a sample bot: the first fault charged to it in each.
        charged = set()
        for record in records:
            if mode in record["teams"] and set(record["teams"]) & samples:
                mine = [f for f in record["faults"] if record["seats"][f["seat"]] == mode]
                if mine:
                    charged.add(mine[0]["kind"])
        assert charged, f"{mode} was never charged with a fault"
        assert charged <= kinds, f"{mode}: {charged} not within {kinds}"
        assert rows[order.index(mode)]["faults"], f"{mode}: no faults in its standings row"
    assert processes_with(marker) == []
