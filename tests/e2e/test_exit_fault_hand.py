"""A bot judged on its exit after 'bye' (it did not exit, or left processes running) is charged in the last
hand its game reached, and the fault's line names its seat: a game forfeited in its first hand has no
recorded hand, and the exit fault had been put in hand 0, which reads as 'before it started'."""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT
from procs import processes_with

STAYS = textwrap.dedent(
    """\
    import json, sys, time
    bad_at = int(sys.argv[1])
    asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "stays", "version": "1", "protocol": "rook/1"}), flush=True)
        elif message["type"] == "act":
            asked += 1
            action = "bid 999" if asked == bad_at else message["legal"][0]
            print(json.dumps({"id": message["id"], "action": action}), flush=True)
        elif message["type"] == "bye":
            time.sleep(30)
            break
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_an_exit_fault_is_charged_in_the_hand_the_game_ended(tmp_path: pathlib.Path, seed: int) -> None:
    bad_at = random.Random(seed).choice([1, 2, 30, 60])  # in the auction of hand 1, or in a later hand
    bot = tmp_path / "stays.py"
    bot.write_text(STAYS, encoding="utf-8")
    marker = f"exit-fault-{seed}-{tmp_path.name}"
    random_bot = ROOT / "sample_bots" / "python" / "random_bot.py"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rookarena",
            "match",
            f"{sys.executable} {bot} {bad_at} {marker}",
            f"{sys.executable} {random_bot}",
            "--games",
            "2",
            "--seed",
            str(seed),
            "--move-time",
            "1",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    played = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    exits = [(r, f) for r in played for f in r["faults"] if f["detail"].startswith("did not exit within")]
    assert exits, [r["faults"] for r in played]
    for record, fault in exits:
        reached = max([len(record["hands"]), *(f["hand"] for f in record["faults"] if f is not fault)])
        assert fault["hand"] == reached >= 1, (fault, len(record["hands"]), record["faults"])
    said = [line for line in done.stdout.splitlines() + done.stderr.splitlines() if "did not exit within" in line]
    assert said and all("(seat " in line and "before it started" not in line for line in said), said
    assert processes_with(marker) == []
