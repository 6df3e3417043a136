"""``rookarena standings`` fits names to the terminal only on screen: the default table written to a
terminal. Any other format (HTML, TSV, LaTeX, a grid asked for by name), and any output that is not a
terminal (a pipe, a file), has every name whole."""

from __future__ import annotations

import errno
import os
import pathlib
import pty
import subprocess
import sys

import pytest
import web_games
from click.testing import CliRunner

from rookarena.cli import main

NAMES = ["heuristic-v1", "heuristic-v2", "a-very-long-bot-name-indeed-version-3"]
OTHER_FORMATS = ["html", "tsv", "latex", "grid", "plain", "github", "mediawiki"]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    directory = tmp_path_factory.mktemp("fitting") / "league"
    return web_games.write_dir(directory, web_games.league_records(NAMES, deals=1), NAMES, deals=1)


def on_a_terminal(*args: str, columns: int) -> str:
    """What ``rookarena ARGS`` writes to a terminal ``columns`` wide (a pseudo-terminal as its stdout)."""
    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS=str(columns), LINES="50")
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "rookarena", *args],
            stdout=follower,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env=env,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError as exc:  # EIO: the terminal's other side closed
                if exc.errno != errno.EIO:
                    raise
                break
            if not chunk:
                break
            chunks.append(chunk)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    finally:
        os.close(leader)
    return b"".join(chunks).decode().replace("\r\n", "\n")


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("fmt", OTHER_FORMATS)
def test_another_format_has_every_name_whole(league: pathlib.Path, fmt: str) -> None:
    done = CliRunner().invoke(main, ["standings", str(league), "--format", fmt], env={"COLUMNS": "40"})
    assert done.exit_code == 0, done.output
    assert "…" not in done.stdout, done.stdout
    for name in NAMES:
        assert done.stdout.count(name) >= 3, (name, done.stdout)  # the standings, the neighbours, the crosstable


def test_html_names_are_never_cut_by_their_markup(league: pathlib.Path) -> None:
    done = CliRunner().invoke(main, ["standings", str(league), "--format", "html"], env={"COLUMNS": "80"})
    assert "<td>heuristic-v1" in done.stdout and "<td>heuristic-v2" in done.stdout
    assert "heurist…" not in done.stdout


def test_the_default_table_piped_has_every_name_whole(league: pathlib.Path) -> None:
    """Piped or saved, the table is not a screen's: every name whole, unless COLUMNS asks for a width."""
    quiet = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    done = CliRunner().invoke(main, ["standings", str(league)], env={"COLUMNS": None})
    assert done.exit_code == 0, done.output
    assert "…" not in done.stdout and all(name in done.stdout for name in NAMES), done.stdout
    piped = subprocess.run(
        [sys.executable, "-m", "rookarena", "standings", str(league)],
        capture_output=True,
        text=True,
        check=True,
        env=quiet,
    )
    assert piped.stdout == done.stdout
    asked = subprocess.run(
        [sys.executable, "-m", "rookarena", "standings", str(league)],
        capture_output=True,
        text=True,
        check=True,
        env={**quiet, "COLUMNS": "60"},
    )
    assert "…" in asked.stdout and widest(asked.stdout.split("\n\n")[0]) <= 60, asked.stdout


@pytest.mark.slow
def test_the_default_table_on_a_terminal_is_fitted(league: pathlib.Path) -> None:
    shown = on_a_terminal("standings", str(league), columns=70)
    table = shown.split("\n\n")[0]
    assert "a-very-long-bot-name-indeed-version-3" not in table and "a-very-long-bot-nam…" in table, shown
    assert widest(shown) <= 70, shown
    wide = on_a_terminal("standings", str(league), "--wide", columns=70)
    assert "a-very-long-bot-name-indeed-version-3" in wide and widest(wide) > 70  # --wide: never fitted


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["html", "grid", "tsv"])
def test_another_format_on_a_terminal_has_every_name_whole(league: pathlib.Path, fmt: str) -> None:
    shown = on_a_terminal("standings", str(league), "--format", fmt, columns=40)
    assert "…" not in shown, shown
    assert all(name in shown for name in NAMES), shown
