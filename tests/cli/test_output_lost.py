"""An output that cannot take what a command prints is one plain line (or, for a closed pipe, a quiet exit).

Standard output is ``/dev/full`` (every write fails with ENOSPC, as on a full disk) or a pipe whose reader
has gone (EPIPE, as under ``| head``). The cases are generated from the commands themselves: every
command's and group's ``--help``, and the commands that print a results directory or a table. Each runs as
a real process, since the failure is the operating system's.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import click
import pytest
from test_cli_numbers import commands
from web_games import league_records, write_dir

from rookarena.cli import main

FULL = pathlib.Path("/dev/full")
LOST = "Error: the output could not be written: No space left on device"
NAMES = ["alpha", "beta"]
PLAYED = league_records(NAMES, deals=1, seed=5)
HELP = [(), *(path for path, _ in commands(main))]
GROUPS = [(name,) for name, command in sorted(main.commands.items()) if isinstance(command, click.Group)]
HELP[1:1] = GROUPS
PRINTING = [
    ["standings", "{dir}"],
    ["standings", "{dir}", "--format", "json"],
    ["show", "{dir}", PLAYED[0]["game_id"]],
    ["simulate", "--games", "3"],
    ["rules", "list"],
    ["rules", "show", "tournament"],
]

pytestmark = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def rookarena(args: list[str], stdout: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return write_dir(tmp_path_factory.mktemp("results"), PLAYED, NAMES, 1)


def test_the_cases_cover_every_command() -> None:
    assert len(HELP) >= 14, HELP
    assert ("rules",) in GROUPS


@pytest.mark.parametrize("path", HELP, ids=[" ".join(p) or "rookarena" for p in HELP])
def test_help_to_a_full_disk_is_one_line(path: tuple[str, ...]) -> None:
    with FULL.open("w") as full:
        done = rookarena([*path, "--help"], full.fileno())
    assert done.returncode == 1, done.stderr
    assert done.stderr == LOST + "\n"


@pytest.mark.parametrize("args", PRINTING, ids=[" ".join(a[:2]) for a in PRINTING])
def test_a_command_printing_to_a_full_disk_is_one_line(results: pathlib.Path, args: list[str]) -> None:
    with FULL.open("w") as full:
        done = rookarena([arg.format(dir=results) for arg in args], full.fileno())
    assert done.returncode == 1, done.stderr
    assert done.stderr == LOST + "\n"


@pytest.mark.parametrize("args", PRINTING, ids=[" ".join(a[:2]) for a in PRINTING])
def test_a_command_printing_to_a_closed_pipe_ends_quietly(results: pathlib.Path, args: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = rookarena([arg.format(dir=results) for arg in args], writer)
    finally:
        os.close(writer)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
