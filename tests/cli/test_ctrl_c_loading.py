"""Ctrl-C while a command is still loading ends it with the line and status of a stopped command, not a
traceback: the interrupt is sent by the process itself at the moment one of its modules is imported, so
each moment of the loading is hit every time."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys

import pytest
from conftest import ROOT

# Installed as sitecustomize: a finder that sends this process SIGINT when the named module is first imported.
INTERRUPTER = """
import os, signal, sys

class _Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ["INTERRUPT_AT"]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, os.environ.get("INTERRUPT_WITH", "SIGINT")))
        return None

sys.meta_path.insert(0, _Interrupt())
"""

# The modules a command loads, in order: the group's (click), the package's own text helpers, the command's
# module, and what the command needs (yaml for a config, trio for the referee).
MOMENTS = ["click", "rookarena.wire.names", "rookarena.cli.run_cmd", "yaml", "trio"]
PROGRAMS = {
    "script": [str(pathlib.Path(sys.executable).parent / "rookarena")],
    "module": [sys.executable, "-m", "rookarena"],
}


SAID = {"SIGINT": "stopped: interrupted (Ctrl-C)\n", "SIGTERM": "stopped: SIGTERM\n", "SIGHUP": "stopped: SIGHUP\n"}


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("stop", sorted(SAID))
def test_ctrl_c_while_loading_stops_plainly(moment: str, program: str, stop: str, tmp_path: pathlib.Path) -> None:
    """SIGTERM and SIGHUP too (a cluster's scheduler, a closed terminal): they had ended a command that was
    still loading with the signal's own status (143, 129) and not a word, where the docs promise 130."""
    (tmp_path / "sitecustomize.py").write_text(INTERRUPTER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "INTERRUPT_AT": moment, "INTERRUPT_WITH": stop}
    command = [*PROGRAMS[program], "run", str(ROOT / "configs" / "demo.yaml"), "--out", str(tmp_path / "out")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (130, SAID[stop]), done.stderr
    assert not (tmp_path / "out" / "games.jsonl").exists()


def test_a_program_that_imports_the_package_keeps_its_own_ctrl_c() -> None:
    """Only the rookarena program itself is given the quiet stop: a program that imports the package (a test
    runner, a notebook) still gets Python's KeyboardInterrupt."""
    code = "import signal, rookarena.cli; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "True\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
