"""Names (PROTOCOL.md §5): tables and records use the given name, else the bot's hello name, never the
command's first word; and a match whose side never completed a handshake is not reported as a result."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from conftest import ROOT

from rookarena.cli import _bot_name

RANDOM = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
NEVER = f"{sys.executable} -m rookarena.no_such_bot"


def match(*args: str, cwd: pathlib.Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "match", *args, "--games", "2", "--startup", "5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


@pytest.mark.slow
def test_tables_and_records_use_the_hello_names(tmp_path: pathlib.Path) -> None:
    result = match(f"{RANDOM} --name alpha", f"{RANDOM} --name beta", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout and "beta" in result.stdout
    assert sys.executable not in result.stdout and "python" not in result.stdout
    lines = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    for record in map(json.loads, lines):
        assert sorted(set(record["seats"])) == ["alpha", "beta"]


@pytest.mark.slow
def test_a_given_name_wins_and_equal_hello_names_get_a_suffix() -> None:
    result = match(RANDOM, RANDOM, "--name-a", "new")
    assert result.returncode == 0, result.stderr
    assert "new" in result.stdout and "random-py" in result.stdout
    result = match(RANDOM, f"{RANDOM} --seed 3")
    assert result.returncode == 0, result.stderr
    assert "random-py " in result.stdout and "random-py-2" in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("given", [False, True], ids=["named by its hello", "named on the command line"])
def test_a_match_whose_side_never_starts_exits_1_with_one_line(given: bool) -> None:
    extra = ["--name-a", "ghost"] if given else []
    result = match(NEVER, RANDOM, *extra)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout == ""  # no table, no summary: the match did not happen
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert "never completed its handshake" in errors[0]
    assert ("ghost" if given else "rookarena.no_such_bot") in errors[0]
    assert "No module named rookarena.no_such_bot" in errors[0]  # the last line of its stderr
    assert "Traceback" not in result.stderr


FIRST_START_CRASHES = """
import os, runpy, sys
flag = os.path.join(sys.argv[1], "started")
try:
    os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
except FileExistsError:
    sys.argv = [sys.argv[2]]
    runpy.run_path(sys.argv[0], run_name="__main__")
else:
    sys.exit(1)
"""


@pytest.mark.slow
@pytest.mark.parametrize("silent_side", ["a", "b"])
def test_a_side_that_never_starts_exits_1_even_when_the_other_side_faulted(
    silent_side: str, tmp_path: pathlib.Path
) -> None:
    """The other side's one crash (its first process dies before its hello) does not make a match with a side
    that never said hello in any game a result."""
    script = tmp_path / "first_start_crashes.py"
    script.write_text(FIRST_START_CRASHES, encoding="utf-8")
    flaky = f"{sys.executable} {script} {tmp_path} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    sides = (NEVER, flaky) if silent_side == "a" else (flaky, NEVER)
    result = match(*sides, "--name-a", "alpha", "--name-b", "beta", "--faults", "forfeit")
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    silent = "alpha" if silent_side == "a" else "beta"
    assert len(errors) == 1 and errors[0].startswith(f"Error: {silent} never completed its handshake"), result.stderr
    assert "crash" in result.stderr.split(errors[0])[0]  # the other side's crash was there, in a game line


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (("java", "-cp", "build", "RandomBot"), "RandomBot"),
        (("java", "-Xmx1g", "-classpath", "a:b", "org.example.Bot", "--level", "2"), "Bot"),
        (("java", "-jar", "bots/raven.jar"), "raven"),
        (("java", "Bot.java"), "Bot"),
        (("python3", "-m", "rookarena.randombot"), "randombot"),
        (("node", "bots/jay.js"), "jay"),
        (("./magpie",), "magpie"),
    ],
)
def test_a_command_names_its_program_not_its_interpreter(command: tuple[str, ...], name: str) -> None:
    assert _bot_name(command) == name
