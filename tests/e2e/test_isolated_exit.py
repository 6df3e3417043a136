"""A well-behaved isolated bot is never blamed for its sandbox: bwrap's own processes end a moment after the
bot, and were once counted as processes it left running (a ``protocol`` fault on an innocent bot, in up to
five games of six, and ``--fail-on-faults`` failing it at random)."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH"),
]


def match(*args: str) -> subprocess.CompletedProcess[str]:
    """``rookarena match ARGS`` on seed 5, a second a move, as a real process."""
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "match", *args, "--seed", "5", "--move-time", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(pathlib.Path(__file__).resolve().parents[2])},
    )


def test_isolated_random_bots_play_without_a_fault(tmp_path: pathlib.Path) -> None:
    bot = f"{sys.executable} -m rookarena.randombot"
    done = match(
        f"{bot} 1",
        f"{bot} 2",
        "--name-a",
        "r1",
        "--name-b",
        "r2",
        "--games",
        "8",
        "--isolation",
        "bwrap",
        "--fail-on-faults",
        "--out",
        str(tmp_path / "out"),
    )
    assert "faults: r1 none; r2 none" in done.stdout, done.stdout + done.stderr
    assert done.returncode in (0, 3), done.stdout + done.stderr


DIES = """\
import json, os, signal, sys
how = sys.argv[1]
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "dies", "version": "1", "protocol": "rook/1"}), flush=True)
    elif message["type"] == "act":
        asked += 1
        if asked == 3:
            if how.isdigit():
                sys.exit(int(how))
            os.kill(os.getpid(), getattr(signal, how))
        print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)
    elif message["type"] == "bye":
        break
"""


@pytest.mark.parametrize("how", ["SIGSEGV", "SIGABRT", "SIGKILL", "3"])
def test_a_bots_death_reads_the_same_in_its_sandbox(tmp_path: pathlib.Path, how: str) -> None:
    """bwrap ends with status 128 + N when the bot in it is killed by signal N: the fault says the signal,
    as it does for a bot without a sandbox (it had read 'exited with status 139' under bwrap)."""
    bot = tmp_path / "dies.py"
    bot.write_text(DIES, encoding="utf-8")
    details = {}
    for isolation in ("none", "bwrap"):
        out = tmp_path / isolation
        done = match(
            f"{sys.executable} {bot} {how}",
            f"{sys.executable} -m rookarena.randombot 1",
            "--name-a",
            "dies",
            "--name-b",
            "r1",
            "--games",
            "2",
            "--isolation",
            isolation,
            "--out",
            str(out),
        )
        assert "Traceback" not in done.stderr, done.stderr
        faults = [
            fault
            for line in (out / "games.jsonl").read_text().splitlines()
            for fault in json.loads(line)["faults"]
            if fault["kind"] == "crash"
        ]
        assert faults, done.stdout + done.stderr
        details[isolation] = {fault["detail"] for fault in faults}
    expected = f"exited with status {how}" if how.isdigit() else f"killed by {how}"
    assert details["none"] == details["bwrap"] == {expected}, details
