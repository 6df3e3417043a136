"""What a resume appends after its repair always starts on a line of its own: ``games.jsonl`` cut at any
byte (a crash), or whole but without its last newline (an editor's save), is repaired so that the next
record written is read back whole, with every record the file held whole before it. Generated cuts of a
real league's file."""

from __future__ import annotations

import pathlib
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st
from web_games import league_records

from rookarena.results import directory
from rookarena.wire import records

NAMES = ["alpha", "beta"]
PLAYED = league_records(NAMES, deals=3, seed=5)
DATA = b"".join(records.dumps(record).encode() + b"\n" for record in PLAYED[:-1])


@settings(max_examples=200, deadline=None)
@given(
    cut=st.integers(0, len(DATA)),
    unterminated=st.booleans(),
)
def test_a_record_appended_after_the_repair_is_read_back_whole(cut: int, unterminated: bool) -> None:
    data = DATA.rstrip(b"\n") if unterminated else DATA[:cut]
    whole = [record["game_id"] for record in PLAYED[:-1] if records.dumps(record).encode() in data]
    with tempfile.TemporaryDirectory() as base:
        games = pathlib.Path(base) / "games.jsonl"
        games.write_bytes(data)
        assert directory.finished_ids(games, repair=True) == set(whole)
        with games.open("a", encoding="utf-8") as stream:
            records.write(stream, PLAYED[-1])  # as the league's sink appends
        read = [record["game_id"] for record in directory.each_record(games)]
    assert read == [*whole, PLAYED[-1]["game_id"]]
