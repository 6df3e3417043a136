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
