"""A bot's command that cannot be run is refused before anything starts, in one line that names the
argument or option it was given in: for every place a command line takes one (match's two teams and
their partners, check-bot, diff's NEW) and every way a command can be wrong."""

from __future__ import annotations

import pathlib
import sys

import pytest
import web_games
from click.testing import CliRunner

from rookarena.cli import main

GOOD = f"{sys.executable} -c pass"
WRONG = {
    "": "empty command",
    "   ": "empty command",
    'python3 "unclosed': "No closing quotation",
    "no-such-program-here --x": "no program 'no-such-program-here' found",
    "./not/a/file.py": "no program './not/a/file.py' found",
    # As a league's configuration is checked (the test runs where the results directory ./out is):
    "./out": "'./out' is a directory, not a program",
    "./out/games.jsonl --level 2": "'./out/games.jsonl' is not executable: make it so "
    "(chmod +x 'out/games.jsonl') or name its interpreter first",
    "python3 no-such-script.py": "no file 'no-such-script.py' for python3",
    # No program can be given a NUL: the OS refuses the whole command, wherever the NUL is.
    "\0": "a command cannot hold a NUL character (\\0)",
    f"{GOOD}\0": "a command cannot hold a NUL character (\\0)",
    f"{sys.executable} -c 'pa\0ss'": "a command cannot hold a NUL character (\\0)",
    f"{sys.executable}\0 -c pass": "a command cannot hold a NUL character (\\0)",
}


def arguments(place: str, command: str, results: pathlib.Path) -> list[str]:
    if place == "'COMMAND_A'":
        return ["match", command, GOOD]
    if place == "'COMMAND_B'":
        return ["match", GOOD, command]
    if place in ("'--partner-a'", "'--partner-b'"):
        return ["match", GOOD, GOOD, place.strip("'"), command]
    if place == "'COMMAND'":
        return ["check-bot", command]
    return ["diff", command, "alpha", "--from", str(results)]


@pytest.mark.parametrize("command", sorted(WRONG))
@pytest.mark.parametrize(
    "place", ["'COMMAND_A'", "'COMMAND_B'", "'--partner-a'", "'--partner-b'", "'COMMAND'", "'NEW'"]
)
def test_a_command_that_cannot_run_is_named_with_its_place(
    place: str, command: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    names = ["alpha", "beta"]
    results = web_games.write_dir(tmp_path / "out", web_games.league_records(names, deals=1), names, deals=1)
    done = CliRunner().invoke(main, arguments(place, command, results))
    assert done.exit_code == 2, done.output
    lines = done.output.strip().splitlines()
    assert lines[-1] == f"Error: Invalid value for {place}: {command!r}: {WRONG[command]}", done.output
    assert "Traceback" not in done.output
