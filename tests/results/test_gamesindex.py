"""The games index: written by real runs, trusted only when it matches games.jsonl, and never changing
what show, replay, report and standings print."""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
import sys
import zlib
from typing import Any

import pytest
import web_games
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.results import directory as results
from rookarena.results import gamesindex, store
from rookarena.web import sources

NAMES = ["alpha", "beta", "gamma"]


def _league(directory: pathlib.Path, deals: int = 2) -> list[dict[str, Any]]:
    played = web_games.league_records(NAMES, deals=deals)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "logs").mkdir(exist_ok=True)
    web_games.add_fault(played, directory, 2, 1)
    web_games.write_dir(directory, played, NAMES, deals=deals)
    gamesindex.rebuild(directory / results.GAMES_FILE)
    return played


def _truth(games: pathlib.Path) -> list[tuple[int, int, Any, dict[str, Any]]]:
    """What the index should say of ``games``, from the file itself."""
    return [
        (offset, len(line), record.get("game_id"), gamesindex.slim(record))
        for offset, line, record in gamesindex.each_line(games)
    ]


def _said(entries: list[gamesindex.Entry]) -> list[tuple[int, int, Any, dict[str, Any]]]:
    return [(e.offset, e.length, e.gid, e.digest()) for e in entries]


def test_a_real_league_run_writes_an_index_that_matches_its_records(tmp_path: pathlib.Path) -> None:
    bot = [sys.executable, "-m", "rookarena", "bot", "random", "--seed"]
    config = tmp_path / "league.yaml"
    config.write_text(
        "name: indexed\nrules: tournament\nformat: round-robin\ngames: 2\nduplicate: true\nseed: 3\njobs: 2\n"
        "time: {move: 5.0, startup: 20, bank: 0}\nbots:\n"
        + "".join(f"  - name: {name}\n    command: {json.dumps([*bot, str(n)])}\n" for n, name in enumerate(NAMES)),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    run = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out)]
    done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    games = out / results.GAMES_FILE
    entries = gamesindex.verified(games)
    assert entries is not None
    assert _said(entries) == _truth(games)
    assert len(entries) == 6
    # a resumed run with more games per pairing appends to the index it finds
    config.write_text(config.read_text(encoding="utf-8").replace("games: 2", "games: 4"), encoding="utf-8")
    done = subprocess.run([*run, "--resume"], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    entries = gamesindex.verified(games)
    assert entries is not None and len(entries) == 12
    assert _said(entries) == _truth(games)


def test_the_sink_writes_the_index_afresh_when_it_does_not_match(tmp_path: pathlib.Path) -> None:
    played = _league(tmp_path / "league")
    games = tmp_path / "league" / results.GAMES_FILE
    index = gamesindex.index_path(games)
    index.write_bytes(index.read_bytes()[:-7])  # a torn last line
    sink = results.RecordSink(games)
    sink.write({**played[0], "game_id": "extra-0001"})
    sink.close()
    entries = gamesindex.verified(games)
    assert entries is not None
    assert _said(entries) == _truth(games)
    assert entries[-1].gid == "extra-0001"


def _outputs(directory: pathlib.Path, ids: list[str]) -> list[bytes]:
    """What show, replay, report and standings write for ``directory``."""
    runner = CliRunner()
    out: list[bytes] = []
    for gid in ids:
        shown = runner.invoke(main, ["show", str(directory), gid])
        out.append(shown.output.encode() + bytes([shown.exit_code]))
        page = directory.parent / "replay.html"
        replayed = runner.invoke(main, ["replay", str(directory), gid, "-o", str(page)])
        out.append(replayed.output.encode() + (page.read_bytes() if page.exists() else b""))
        page.unlink(missing_ok=True)
    page = directory.parent / "report.html"
    reported = runner.invoke(main, ["report", str(directory), "-o", str(page), "--embed", "5"])
    out.append(reported.output.encode() + (page.read_bytes() if page.exists() else b""))
    page.unlink(missing_ok=True)
    out.append(runner.invoke(main, ["standings", str(directory)]).output.encode())
    return out


def test_show_replay_report_and_standings_are_the_same_with_and_without_the_index(tmp_path: pathlib.Path) -> None:
    played = _league(tmp_path / "league")
    games = tmp_path / "league" / results.GAMES_FILE
    ids = [played[0]["game_id"], played[2]["game_id"], played[-1]["game_id"], "no-such-game"]
    assert gamesindex.verified(games) is not None
    with_index = _outputs(tmp_path / "league", ids)
    gamesindex.index_path(games).unlink()
    assert _outputs(tmp_path / "league", ids) == with_index


def _damage(games: pathlib.Path, rng: random.Random) -> str:
    """One of the ways an index comes not to match its records, chosen by ``rng``."""
    index = gamesindex.index_path(games)
    if not index.exists() or not index.read_bytes() or not games.read_bytes():
        return "nothing left to damage"
    data = index.read_bytes()
    kind = rng.choice(["cut", "flip", "drop", "swap", "append", "truncate", "edit", "delete", "offset"])
    if kind == "cut":
        index.write_bytes(data[: rng.randrange(len(data))])
    elif kind == "flip":
        at = rng.randrange(len(data))
        index.write_bytes(data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :])
    elif kind in ("drop", "swap", "offset"):
        lines = data.splitlines(keepends=True)
        at = rng.randrange(len(lines))
        if kind == "drop":
            del lines[at]
        elif kind == "swap":
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        else:  # a line edited by hand, its checksum made right again
            fields = lines[at].decode().rstrip("\n").split("\t")
            fields[1] = str(int(fields[1]) + rng.choice([-1, 1, 7]))
            body = "\t".join(fields[1:])
            lines[at] = f"{zlib.crc32(body.encode()):08x}\t{body}\n".encode()
        index.write_bytes(b"".join(lines))
    elif kind == "append":  # a record written by something that keeps no index
        with games.open("ab") as stream:
            stream.write(games.read_bytes().splitlines(keepends=True)[0].replace(b'"game_id":"', b'"game_id":"x'))
    elif kind == "truncate":
        lines = games.read_bytes().splitlines(keepends=True)
        games.write_bytes(b"".join(lines[: rng.randrange(len(lines))]))
    elif kind == "edit":  # a score changed in place: the same size, a later modification time
        text = games.read_bytes()
        at = text.find(b'"scores":[') + len(b'"scores":[')
        digit = text[at : at + 1]
        games.write_bytes(text[:at] + (b"1" if digit != b"1" else b"2") + text[at + 1 :])
        status = games.stat()
        os.utime(games, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    else:
        index.unlink()
    return kind


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_a_damaged_index_is_never_believed(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    directory = tmp_path_factory.mktemp("league")
    _league(directory)
    games = directory / results.GAMES_FILE
    rng = random.Random(seed)
    kinds = [_damage(games, rng) for _ in range(rng.randint(1, 2))]
    entries = gamesindex.verified(games)
    if entries is not None:  # a change the index survives (a cut at a line's end, say) is one it can describe
        assert _said(entries) == _truth(games), kinds
    scanned = sources.scan([directory])
    every = list(gamesindex.each_line(games))
    firsts = {str(r["game_id"]): index for index, (_, _, r) in reversed(list(enumerate(every)))}
    truth = [line for index, line in enumerate(every) if firsts[str(line[2]["game_id"])] == index]  # a game once
    assert scanned.digest.ids == [str(r["game_id"]) for _, _, r in truth], kinds
    expected = [store.game_result(r, keep=False) for _, _, r in truth]
    assert list(scanned.digest.results) == expected, kinds
    assert list(results.merge_results([directory]).games) == expected, kinds
    for _, _, record in truth[:3]:
        assert sources.find_record(games, str(record["game_id"])) == record, kinds
    assert sources.find_record(games, "no-such-game") is None


@pytest.mark.parametrize("seed", range(8))
def test_show_replay_and_report_of_a_damaged_index_are_those_of_the_records(tmp_path: pathlib.Path, seed: int) -> None:
    played = _league(tmp_path / "league")
    games = tmp_path / "league" / results.GAMES_FILE
    rng = random.Random(seed)
    kinds = [_damage(games, rng) for _ in range(2)]
    ids = [str(r["game_id"]) for _, _, r in gamesindex.each_line(games)][:2]
    ids.append(played[-1]["game_id"])
    damaged = _outputs(tmp_path / "league", ids)
    gamesindex.index_path(games).unlink(missing_ok=True)
    assert _outputs(tmp_path / "league", ids) == damaged, kinds
