"""A game id comes from the records, which may be someone else's: ``replay`` makes its page's default name a
safe file name inside DIR, and the path it prints is plain text."""

from __future__ import annotations

import pathlib

import pytest
from click.testing import CliRunner
from web_games import league_records, write_dir

from rookarena.cli import main

NAMES = ["alpha", "beta"]


@pytest.mark.parametrize(
    "game_id", ["../../outside-0001", "/tmp/abs-0001", "..", "sub/dir/x-0001", "x\x1b]0;T\x07\u202e-0001"]
)
def test_replay_writes_its_page_inside_dir_whatever_the_game_id(game_id: str, tmp_path: pathlib.Path) -> None:
    records = league_records(NAMES, deals=1, seed=3)
    records[0] = {**records[0], "game_id": game_id}
    directory = write_dir(tmp_path / "deep" / "er" / "results", records, NAMES, deals=1)
    before = {p for p in tmp_path.rglob("*")}
    result = CliRunner().invoke(main, ["replay", str(directory), game_id], color=True)
    assert result.exit_code == 0, result.output
    made = {p for p in tmp_path.rglob("*")} - before
    assert len(made) == 1, made
    (page,) = made
    assert page.parent == directory and page.name.endswith(".html")
    assert all(ch.isprintable() or ch == "\n" for ch in result.output), repr(result.output)
