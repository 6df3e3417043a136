"""A record whose hands or league have another shape than the referee writes is a damaged record, named by
the field, before any reader counts it: a bidder out of the seats, a bid or made of the wrong type or
missing would otherwise move a bid to the other team, or stop a view with an exception. Table-driven over a
real record's hands and league."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from web_games import league_records

from rookarena.errors import RecordError
from rookarena.wire import records

RECORD = league_records(["alpha", "beta"], deals=1, seed=3)[0]
BID = next(number for number, hand in enumerate(RECORD["hands"]) if hand.get("bidder") is not None)


def edited(where: str, field: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(RECORD)
    target = record["hands"][BID] if where == "hand" else record.setdefault("league", {})
    if value is KeyError:
        target.pop(field, None)
    else:
        target[field] = value
    return record


CASES = [
    ("hand", "bidder", -1, "bidder must be a seat"),
    ("hand", "bidder", 9, "bidder must be a seat"),
    ("hand", "bidder", "0", "bidder must be a seat"),
    ("hand", "bidder", True, "bidder must be a seat"),
    ("hand", "bid", "90", "must hold its 'bid'"),
    ("hand", "bid", KeyError, "must hold its 'bid'"),
    ("hand", "made", 1, "'made' (true or false)"),
    ("hand", "made", KeyError, "'made' (true or false)"),
    ("league", "deal", [0], "'league' must be an object"),
    ("league", "index", "3", "'league' must be an object"),
    ("league", "pairing", "ab", "'league' must be an object"),
    ("league", "swapped", 1, "'league' must be an object"),
    ("league", "name", 5, "'league' must be an object"),
]


@pytest.mark.parametrize(("where", "field", "value", "words"), CASES)
def test_a_field_of_the_wrong_shape_is_a_damaged_record(where: str, field: str, value: Any, words: str) -> None:
    line = json.dumps(edited(where, field, value))
    with pytest.raises(RecordError, match=words.replace("(", r"\(").replace(")", r"\)")):
        records.load_record(line)


def test_the_record_as_written_is_whole() -> None:
    assert records.load_record(json.dumps(RECORD)) == RECORD
