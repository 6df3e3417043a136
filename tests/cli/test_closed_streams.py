"""Started with standard input, output or error closed (``<&-``, ``>&-``, ``2>&-``, as a launcher or a
careless script may start it), a command still runs to its end and keeps its results: the closed stream is
opened on /dev/null, so that no pipe or file the command opens takes its place."""

from __future__ import annotations

import pathlib
import shlex
import subprocess
import sys

import pytest
from conftest import ROOT

BOT = f"{sys.executable} -m rookarena.randombot"
COMMANDS = {
    "run": ["run", str(ROOT / "configs" / "demo.yaml"), "--out", "{out}"],
    "match": ["match", f"{BOT} 1", f"{BOT} 2", "--games", "2", "--seed", "3", "--out", "{out}"],
    "simulate": ["simulate", "--games", "2", "--seed", "3", "--out", "{out}/games.jsonl"],
}


@pytest.mark.parametrize("closed", ["<&-", ">&-", "2>&-"], ids=["stdin", "stdout", "stderr"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_with_a_closed_standard_stream_runs_and_keeps_its_results(
    command: str, closed: str, tmp_path: pathlib.Path
) -> None:
    out = tmp_path / "out"
    if command == "simulate":
        out.mkdir()
    args = [part.replace("{out}", str(out)) for part in COMMANDS[command]]
    line = f"exec {shlex.quote(sys.executable)} -m rookarena {shlex.join(args)} {closed}"
    done = subprocess.run(["sh", "-c", line], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert (out / "games.jsonl").stat().st_size > 0
    if command == "run":
        assert (out / "standings.txt").exists()
