"""Pages and results files written whole or not at all, never over what is not a regular file, and never
over the results' own files."""

from __future__ import annotations

import errno
import os
import pathlib
import stat
import sys
import threading
from typing import Any

import pytest
from click.testing import CliRunner

from rookarena.cli import main
from rookarena.results import directory, files
from rookarena.wire import records as wire_records


class CutError(Exception):
    pass


@pytest.mark.parametrize("failure", [OSError(errno.EFBIG, "File too large"), CutError("stopped")])
def test_a_write_that_fails_leaves_the_old_file_whole_and_no_spare(tmp_path: pathlib.Path, failure: Exception) -> None:
    path = tmp_path / "report.html"
    path.write_text("the old page")
    with pytest.raises((files.ResultsError, CutError)), files.output(path) as stream:
        stream.write(b"x" * 100_000)
        raise failure
    assert path.read_text() == "the old page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_a_symbolic_link_stays_one_and_the_file_it_names_is_replaced(tmp_path: pathlib.Path) -> None:
    (tmp_path / "pages").mkdir()
    target = tmp_path / "pages" / "real.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    files.write_file(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_named_pipe_is_written_through_and_stays_a_pipe(tmp_path: pathlib.Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    files.write_file(pipe, "through")
    reader.join(10)
    assert got == [b"through"] and stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_dev_null_is_written_through_not_replaced() -> None:
    before = os.stat("/dev/null")
    files.write_file(pathlib.Path("/dev/null"), "nothing")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_a_directory_is_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(files.ResultsError, match="cannot be written: it is a directory"):
        files.write_file(tmp_path, "x")


OWN = [*files.OWN_FILES, "logs/a-bot.stderr.log"]


@pytest.mark.parametrize("name", OWN)
def test_no_page_goes_over_the_results_own_files(tmp_path: pathlib.Path, name: str) -> None:
    assert files.over_results(tmp_path / name, [tmp_path]) is not None
    link = tmp_path.parent / f"{tmp_path.name}-link"
    link.symlink_to(tmp_path)
    assert files.over_results(link / name, [tmp_path]) is not None  # however the path is spelled
    for elsewhere in (tmp_path / "report.html", tmp_path / "sub" / name, tmp_path.parent / name):
        assert files.over_results(elsewhere, [tmp_path]) is None, elsewhere


def test_the_views_refuse_to_write_over_the_records(tmp_path: pathlib.Path) -> None:
    import web_games

    played = web_games.league_records(["a", "b"], 2)
    web_games.write_dir(tmp_path, played, ["a", "b"], 2)
    before = (tmp_path / "games.jsonl").read_bytes()
    game = played[0]["game_id"]
    for args in (
        ["report", str(tmp_path), "-o", str(tmp_path / "games.jsonl")],
        ["replay", str(tmp_path), game, "-o", str(tmp_path / "league.json")],
        ["diff", "rookarena bot random", "a", "--from", str(tmp_path), "-o", str(tmp_path / "games.jsonl")],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert "is one of the files of the results" in result.output, result.output
    assert (tmp_path / "games.jsonl").read_bytes() == before


@pytest.mark.parametrize("seed", range(12))
def test_no_output_goes_over_another_results_directory(tmp_path: pathlib.Path, seed: int) -> None:
    """A page, a replay, a diff page or simulated records aimed at the files of a results directory other
    than the one read (any of its own files, or its logs), however the path is spelled, is refused and
    the directory is left byte for byte as it was; the same name in a folder that holds no results is
    written."""
    import random

    import web_games

    rng = random.Random(seed)
    played = web_games.league_records(["a", "b"], 1)
    read, other = tmp_path / "read", tmp_path / "other"
    web_games.write_dir(read, played, ["a", "b"], 1)
    web_games.write_dir(other, played, ["a", "b"], 1)
    (other / "logs" / "a.stderr.log").write_text("a log\n")
    target = rng.choice([*files.OWN_FILES, "logs/a.stderr.log", "logs/new.log"])
    spelled = rng.choice([other, tmp_path / "link", tmp_path / "read" / ".." / "other"])
    if spelled.name == "link":
        spelled.symlink_to(other)
    before = {path: path.read_bytes() for path in other.rglob("*") if path.is_file()}
    path = str(spelled / target)
    game = played[0]["game_id"]
    args = rng.choice(
        [
            ["report", str(read), "-o", path],
            ["replay", str(read), game, "-o", path],
            ["diff", "rookarena bot random", "a", "--from", str(read), "-o", path],
            ["simulate", "--games", "1", "--out", path],
        ]
    )
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (args, result.output)
    assert f"is one of the files of the results in {str(other)!r}" in result.output, result.output
    assert {path: path.read_bytes() for path in other.rglob("*") if path.is_file()} == before
    plain = tmp_path / "plain"
    (plain / "logs").mkdir(parents=True)
    assert files.over_results(plain / target, [read]) is None


def test_simulated_records_are_written_whole_or_not_at_all(tmp_path: pathlib.Path) -> None:
    """A simulation whose records outgrow the room (a file-size limit) leaves the older file as it was."""
    import resource
    import subprocess
    import sys

    path = tmp_path / "sim.jsonl"
    path.write_text("the older records\n")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "simulate", "--games", "20", "--seed", "1", "--out", str(path)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=limit,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert (
        done.stderr.strip().splitlines()[-1]
        == f"Error: {path}: cannot be written: File too large (it is left as it was)"
    )
    assert path.read_text() == "the older records\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sim.jsonl"]


@pytest.mark.parametrize("change", ["seed", "seats"])
def test_results_that_share_game_ids_but_not_games_are_not_merged(tmp_path: pathlib.Path, change: str) -> None:
    """Two matches both number their games match-0001, ...: merging them by id would drop one's games."""
    import copy

    import web_games

    played = web_games.league_records(["a", "b"], 2)
    other = copy.deepcopy(played)
    if change == "seed":
        other[1]["seed"] += 1
    else:
        other[1]["seats"] = list(reversed(other[1]["seats"]))
    for name, records in (("one", played), ("two", other)):
        web_games.write_dir(tmp_path / name, records, ["a", "b"], 2)
    same = CliRunner().invoke(main, ["standings", str(tmp_path / "one"), str(tmp_path / "one")])
    assert same.exit_code == 0, same.output  # the same games twice: each counted once
    for command in (["standings"], ["report", "-o", str(tmp_path / "r.html")]):
        result = CliRunner().invoke(main, [*command, str(tmp_path / "one"), str(tmp_path / "two")])
        assert result.exit_code == 1, result.output
        assert f"both hold a game {played[1]['game_id']!r}, but not the same game" in result.output, result.output


@pytest.mark.parametrize("how", ["a match beside the league", "a match's record added to the league's file"])
def test_games_of_another_league_or_a_match_are_not_read_with_a_leagues(tmp_path: pathlib.Path, how: str) -> None:
    """A league's table merged with a match's (or with a record someone added) mixes games of unrelated
    bots and deals into one fit: refused with one line naming both files, by every reader."""
    import copy

    import web_games

    played = web_games.league_records(["a", "b"], 2)
    match = copy.deepcopy(played[:2])
    for number, record in enumerate(match, 1):
        record.update(game_id=f"match-{number:04d}", league={**record["league"], "name": "match"})
    league = web_games.write_dir(tmp_path / "league", played, ["a", "b"], 2)
    if how == "a match beside the league":
        (tmp_path / "match").mkdir()
        with (tmp_path / "match" / "games.jsonl").open("w", encoding="utf-8") as stream:
            for record in match:
                wire_records.write(stream, record)
        dirs = [str(league), str(tmp_path / "match")]
    else:
        with (league / "games.jsonl").open("a", encoding="utf-8") as stream:
            wire_records.write(stream, match[0])
        dirs = [str(league)]
    for command in (["standings"], ["report", "-o", str(tmp_path / "r.html")]):
        result = CliRunner().invoke(main, [*command, *dirs])
        assert result.exit_code == 1, result.output
        assert "holds game 'match-0001' of 'match'" in result.output and "of 'web-test'" in result.output
        assert "only the games of one league" in result.output, result.output
    if how != "a match beside the league":
        with pytest.raises(files.ResultsError, match="of 'match'"):
            directory.finished_ids(league / "games.jsonl")  # what --resume reads before any game


@pytest.mark.parametrize(
    ("make", "out", "said"),
    [
        (
            lambda d: (d / "dangling").symlink_to(d / "nowhere"),
            "dangling",
            "dangling is a symbolic link to {d}/nowhere, which does not exist",
        ),
        (
            lambda d: (d / "dangling").symlink_to(d / "nowhere"),
            "dangling/sub",
            "dangling is a symbolic link to {d}/nowhere, which does not exist",
        ),
        (lambda d: (d / "afile").write_text("x"), "afile/sub/deeper", "afile is not a folder"),
        (lambda d: (d / "res").mkdir() or (d / "res" / "logs").write_text("x"), "res", "res/logs is not a folder"),
        (
            lambda d: (d / "res").mkdir() or (d / "res" / "logs").symlink_to(d / "gone"),
            "res",
            "res/logs is a symbolic link to {d}/gone, which does not exist",
        ),
    ],
)
def test_what_stands_where_the_results_should_go_is_named(
    tmp_path: pathlib.Path, make: Any, out: str, said: str
) -> None:
    """Not the system's 'File exists': the run says what is in the way (a link to nowhere, a file)."""
    make(tmp_path)
    config = tmp_path / "c.yaml"
    bots = "\n".join(f"  - name: {n}\n    command: [{sys.executable}, -m, rookarena.randombot]" for n in "ab")
    config.write_text(f"name: c\ngames: 2\nbots:\n{bots}\n")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / out)])
    assert result.exit_code == 1, result.output
    assert result.output.rstrip("\n").splitlines()[-1].endswith(said.format(d=tmp_path)), result.output
    assert "File exists" not in result.output
