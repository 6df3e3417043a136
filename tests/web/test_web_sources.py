"""Reading large results for the pages: the one-pass scan, the search for one game, its deal partner."""

from __future__ import annotations

import json
import pathlib
import random
import re
import tracemalloc
from typing import Any

import pytest
import web_games
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.engine.presets import preset
from rookarena.web import model, page, sources
from rookarena.wire import records, transcript

NAMES = ["alpha", "beta", "gamma"]


def _league(directory: pathlib.Path, deals: int = 3, names: list[str] | None = None) -> list[dict[str, Any]]:
    names = names or NAMES
    played = web_games.league_records(names, deals=deals)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "logs").mkdir(exist_ok=True)
    web_games.add_fault(played, directory, 2, 1)
    web_games.write_dir(directory, played, names, deals=deals)
    return played


def _blob(html: str) -> Any:
    found = re.search(r'<script type="application/json" id="rookarena-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found[1])


@pytest.mark.parametrize("embed", [0, 5, 400])
def test_the_report_command_writes_what_report_data_builds(tmp_path: pathlib.Path, embed: int) -> None:
    played = _league(tmp_path / "league")
    random.Random(embed).shuffle(played)  # the file's order, not the schedule's, is the games' order
    web_games.write_dir(tmp_path / "league", played, NAMES, deals=3)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(tmp_path / "league"), "-o", str(out), "--embed", str(embed)])
    assert result.exit_code == 0, result.output
    written = _blob(out.read_text(encoding="utf-8"))
    found = sources.load([tmp_path / "league"])
    expected = json.loads(json.dumps(model.report_data(found.records, found.info, found.tails, cap=embed)))
    written.pop("version")
    expected.pop("version")
    assert written == expected
    assert len(written["records"]) == min(embed, len(played))
    assert f"({out.stat().st_size / 1024:,.0f} KiB;" in result.output


def _scan_peak(directory: pathlib.Path, deals: int, faulted: bool = False) -> tuple[int, int, sources.Scan]:
    """The peak of traced memory while scanning a league whose records are padded to 64 KiB each; with
    ``faulted``, every game has a fault and the records are written with their games index, as a league
    writes them (the scan then reads each faulted game's whole record again)."""
    from rookarena.results.sink import RecordSink

    played = web_games.league_records(NAMES, deals=deals)
    for record in played:
        record["padding"] = "x" * 65536
    web_games.write_dir(directory, [] if faulted else played, NAMES, deals=deals)
    if faulted:
        for index in range(len(played)):
            web_games.add_fault(played, directory, index, index % 4)
        sink = RecordSink(directory / "games.jsonl")
        for record in played:
            sink.write(record)
        sink.close()
    tracemalloc.start()
    try:
        scan = sources.scan([directory])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(scan.digest) == len(played)
    assert scan.records([3, 0])[3] == json.loads(json.dumps(played[3]))
    return peak, (directory / "games.jsonl").stat().st_size, scan


def test_the_scan_keeps_no_record(tmp_path: pathlib.Path) -> None:
    # 90 more games, 7 MB more of records: the scan's peak grows by its digest's rows only (a record
    # kept would add 78 KB a game; its row, id and result are well under 4 KB with the tables' growth).
    small, small_size, _ = _scan_peak(tmp_path / "small", deals=5)
    large, large_size, _ = _scan_peak(tmp_path / "large", deals=20)
    assert large_size - small_size > 6_000_000
    assert large - small < 90 * 4000, (small, large)


def test_the_scan_keeps_no_faulted_record(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same with a fault in every game, read through the index: the faulted games' records are read
    # again a batch at a time (8 here), never all at once.
    monkeypatch.setattr(sources, "FAULT_BATCH", 8, raising=False)
    small, small_size, _ = _scan_peak(tmp_path / "small", deals=5, faulted=True)
    large, large_size, scan = _scan_peak(tmp_path / "large", deals=20, faulted=True)
    assert large_size - small_size > 6_000_000
    assert len(scan.tails) == len(scan.digest)
    # Each fault keeps its place and 20 lines of its bot's stderr: a few KB; a record kept, 78 KB.
    assert large - small < 90 * 8000, (small, large)


ID_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(
    ids=st.lists(ID_TEXT, min_size=2, max_size=8, unique=True),
    chunk=st.sampled_from([1, 4096, 1 << 20]),
    spaced=st.booleans(),
)
def test_find_record_finds_every_game_and_nothing_else(ids: list[str], chunk: int, spaced: bool) -> None:
    """Found however the file is written: compact, as the referee writes it, or spaced, as another tool may."""
    import tempfile

    base = web_games.league_records(NAMES[:2], deals=1)[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "games.jsonl"
        with path.open("w", encoding="utf-8") as stream:
            for number, gid in enumerate(ids):
                record = {**base, "game_id": gid, "n": number}
                # Another game's id quoted in a fault's text must not be taken for this game's id.
                other = ids[(number + 1) % len(ids)]
                record["faults"] = [{"seat": 0, "kind": "crash", "detail": f'"game_id":"{other}"', "line": ""}]
                stream.write((json.dumps(record) if spaced else records.dumps(record)) + "\n\n")
        old, sources.CHUNK = sources.CHUNK, chunk
        try:
            for number, gid in enumerate(ids):
                found = sources.find_record(path, gid)
                assert found is not None and found["n"] == number
            assert sources.find_record(path, ids[0] + "x" * 13) is None
        finally:
            sources.CHUNK = old


def test_find_record_counts_records_without_ids(tmp_path: pathlib.Path) -> None:
    rules = preset("tournament").rules
    played = [web_games.play(rules, seed, seed, ["a", "b", "a", "b"]) for seed in range(4)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(records.dumps(r) + "\n" for r in played), encoding="utf-8")
    for index, record in enumerate(played):
        assert sources.find_record(path, f"game-{index + 1}") == json.loads(json.dumps(record))
    assert sources.find_record(path, "game-5") is None and sources.find_record(path, "game-0") is None


def test_find_partner_agrees_with_the_pairs_of_the_standings(tmp_path: pathlib.Path) -> None:
    played = _league(tmp_path, deals=4)
    played[5]["league"]["deal"] = 99  # a deal with one game: no partner
    random.Random(3).shuffle(played)
    web_games.write_dir(tmp_path, played, NAMES, deals=4)
    expected = model.partners(played)
    path = tmp_path / "games.jsonl"
    for record in played:
        gid = record["game_id"]
        found = sources.find_partner(path, json.loads(json.dumps(record)), gid)
        assert (found[0] if found else None) == expected.get(gid)


def test_show_and_replay_read_one_game(tmp_path: pathlib.Path) -> None:
    played = _league(tmp_path / "league")
    runner = CliRunner()
    gid = played[-1]["game_id"]
    result = runner.invoke(main, ["replay", str(tmp_path / "league"), gid, "-o", str(tmp_path / "g.html")])
    assert result.exit_code == 0, result.output
    blob = _blob((tmp_path / "g.html").read_text(encoding="utf-8"))
    assert blob == json.loads(json.dumps(model.replay_data(played, gid, version=blob["version"])))
    assert len(blob["records"]) == 2
    result = runner.invoke(main, ["show", str(tmp_path / "league"), "nope"])
    assert result.exit_code == 2 and f"expected one of {played[0]['game_id']!r}" in result.output
    assert f"({len(played)} games)" in result.output and "Traceback" not in result.output


def test_a_raw_member_is_escaped_like_the_rest() -> None:
    blob = page.script_json({"a": 1}, {"records": '{"g":{"detail":"</script><!-- & \u2028"}}'})
    assert "</" not in blob and "<!--" not in blob and "&" not in blob and "\u2028" not in blob
    assert json.loads(str(blob)) == {"a": 1, "records": {"g": {"detail": "</script><!-- & \u2028"}}}


@pytest.mark.parametrize(
    ("wanted", "limit"), [((), None), ((), 5), (("alpha-vs-beta-0003", "beta-vs-gamma-0001"), None)]
)
def test_the_diffs_selection_is_transcript_select_read_by_offset(
    tmp_path: pathlib.Path, wanted: tuple[str, ...], limit: int | None
) -> None:
    played = _league(tmp_path, deals=3)
    for record in played:
        record["bots"] = [{"name": name} for name in record["seats"]]
    random.Random(1).shuffle(played)
    web_games.write_dir(tmp_path, played, NAMES, deals=3)
    found = sources.select([tmp_path], "beta", set(wanted), limit)
    loaded = sources.load([tmp_path]).records
    expected = transcript.select(loaded, "beta", set(wanted), limit)
    assert list(found.games) == expected and len(found.games) == len(expected) > 0
    assert found.names == sorted(NAMES) and found.known == {r["game_id"] for r in played}
    some = {gid for gid, _ in expected[:2]}
    assert found.games.records(some) == {gid: record for gid, record in expected if gid in some}


@pytest.mark.parametrize("seed", range(6))
def test_a_faults_stderr_is_its_own_games_with_the_index_or_without(tmp_path: pathlib.Path, seed: int) -> None:
    """The report's stderr lines for a fault are the lines its bot wrote during that game (its record's
    ``stderr_range``), read from the records through the games index or without it: the index is a cache,
    and changes nothing the page shows. Faults are drawn, seeded: games, seats, and each log's sections."""
    from rookarena.results.sink import RecordSink

    rng = random.Random(seed)
    played = web_games.league_records(["a", "b"], 4, seed=seed)
    directory = tmp_path / "results"
    (directory / "logs").mkdir(parents=True)
    logs: dict[pathlib.Path, bytes] = {}
    wanted: dict[tuple[str, int], tuple[str, ...]] = {}
    for index in sorted(rng.sample(range(len(played)), rng.randint(1, len(played)))):
        seat = rng.randrange(4)
        web_games.add_fault(played, directory, index, seat)  # the fault; its log is written here, by sections
        record = played[index]
        match_id, number = record["game_id"].rsplit("-", 1)
        slot = ([2, 0, 3, 1] if record["league"]["swapped"] else [0, 2, 1, 3])[seat]
        first = 1 + 2 * ((int(number) - 1) // 2)
        log = directory / "logs" / f"{record['seats'][seat]}-{match_id}-g{first}-s{slot}.stderr.log"
        before = logs.get(log, b"")
        lines = [f"game {index} seat {seat} line {n}" for n in range(rng.randint(1, 30))]
        section = "".join(line + "\n" for line in lines).encode()
        logs[log] = before + section
        log.write_bytes(logs[log])
        ranges: list[Any] = [None] * 4
        ranges[seat] = [len(before), len(before) + len(section)]
        played[index]["stderr_range"] = ranges
        wanted[(played[index]["game_id"], seat)] = tuple(lines[-sources.TAIL_LINES :])
    for log, data in logs.items():  # what its bot wrote in later games, after every fault's section
        log.write_bytes(data + b"a later game's line\n" * rng.randint(1, 5))
    web_games.write_dir(directory, [], ["a", "b"], 4)
    sink = RecordSink(directory / "games.jsonl")  # the records with their index, as a league writes them
    for record in played:
        sink.write(record)
    sink.close()
    assert (directory / "games.idx").exists()
    indexed = sources.scan([directory]).tails
    (directory / "games.idx").unlink()
    unindexed = sources.scan([directory]).tails
    assert {key: tail.lines for key, tail in indexed.items()} == wanted
    assert {key: tail.lines for key, tail in unindexed.items()} == wanted


def test_the_logs_folder_is_listed_once_a_scan(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many faults, the scan lists a directory's logs once (a report of 1,000 faults over 10,000
    logs took minutes when each fault listed the folder again)."""
    played = web_games.league_records(NAMES, deals=3)
    web_games.write_dir(tmp_path, played, NAMES, deals=3)
    for index in range(len(played)):
        web_games.add_fault(played, tmp_path, index, index % 4)
    web_games.write_dir(tmp_path, played, NAMES, deals=3)
    listed: list[pathlib.Path] = []
    real = sources.LogFolder.__init__

    def counted(self: sources.LogFolder, directory: pathlib.Path) -> None:
        listed.append(directory)
        real(self, directory)

    monkeypatch.setattr(sources.LogFolder, "__init__", counted)
    found = sources.scan([tmp_path])
    assert len(found.tails) == len(played) and all(tail.lines for tail in found.tails.values())
    assert listed == [tmp_path]
