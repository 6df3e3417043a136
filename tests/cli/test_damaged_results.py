"""Every command that reads a results directory meets a damaged one with one plain line, never a traceback.

The directories are a real league's layout (``tests/web_games.py``) damaged by a seeded random edit: cut
anywhere, bytes flipped, a line of garbage or of the wrong JSON, a line twice, the league file gone or not
JSON, the records empty. Each reading command is run on it in process.
"""

from __future__ import annotations

import json
import pathlib
import random
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_games import league_records, write_dir

from rookarena.cli import main
from rookarena.errors import RookError
from rookarena.wire import records

NAMES = ["alpha", "beta", "gamma"]
PLAYED = league_records(NAMES, deals=2, seed=3)
FIRST = PLAYED[0]["game_id"]


def _cut(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    data = games.read_bytes()
    games.write_bytes(data[: rng.randrange(len(data) + 1)])


def _flip(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    data = bytearray(games.read_bytes())
    for _ in range(rng.randint(1, 20) if data else 0):
        data[rng.randrange(len(data))] = rng.randrange(256)
    games.write_bytes(bytes(data))


def _insert(line: bytes) -> Callable[[pathlib.Path, pathlib.Path, random.Random], None]:
    def insert(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
        lines = games.read_bytes().splitlines(keepends=True)
        lines.insert(rng.randrange(len(lines) + 1), line)
        games.write_bytes(b"".join(lines))

    return insert


def _twice(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    lines = games.read_bytes().splitlines(keepends=True) or [b"\n"]
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
    games.write_bytes(b"".join(lines))


def _no_league(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    league.unlink()


def _bad_league(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    league.write_bytes(rng.choice([b"", b"{", b"[]", b"\xff\xfe", json.dumps({"name": 5}).encode()]))


def _empty(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    games.write_bytes(b"")


def _deep_league(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    league.write_bytes(b"[" * 100_000 + b"]" * 100_000)


def _edit_a_record(games: pathlib.Path, rng: random.Random, edit: Callable[[dict[str, Any]], None]) -> None:
    """``edit`` one record of ``games`` chosen at random (a line another damage made is left as it is)."""
    lines = games.read_bytes().splitlines(keepends=True)
    if not lines:
        return
    at = rng.randrange(len(lines))
    try:
        record = json.loads(lines[at])
        edit(record)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return
    lines[at] = json.dumps(record).encode() + b"\n"
    games.write_bytes(b"".join(lines))


def _bad_league_field(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    """A record's ``league`` of the wrong shape: not an object, or a field of the wrong type."""
    field, value = rng.choice(
        [(None, "x"), (None, [1]), ("deal", [0]), ("index", "3"), ("pairing", "ab"), ("swapped", 1)]
    )

    def edit(record: dict[str, Any]) -> None:
        if field is None or not isinstance(record.get("league"), dict):
            record["league"] = value
        else:
            record["league"][field] = value

    _edit_a_record(games, rng, edit)


def _bad_hand_field(games: pathlib.Path, league: pathlib.Path, rng: random.Random) -> None:
    """A hand's bidder, bid or made of the wrong type or range, or missing."""
    field, value = rng.choice(
        [("bidder", -1), ("bidder", 9), ("bidder", "0"), ("bid", "90"), ("made", 1), ("bid", None)]
    )

    def edit(record: dict[str, Any]) -> None:
        hand = rng.choice(record["hands"])
        if value is None:
            hand.pop(field, None)
        else:
            hand[field] = value

    _edit_a_record(games, rng, edit)


DAMAGE = {
    "cut": _cut,
    "flip": _flip,
    "garbage line": _insert(b"this is not json\n"),
    "wrong JSON": _insert(b'{"game_id": 7, "hands": "none"}\n'),
    "array line": _insert(b"[1, 2, 3]\n"),
    "line twice": _twice,
    "no league file": _no_league,
    "bad league file": _bad_league,
    "no records": _empty,
    "deep line": _insert(b"[" * 100_000 + b"]" * 100_000 + b"\n"),
    "long number line": _insert(b'{"game_id": "x", "seed": ' + b"9" * 5000 + b"}\n"),
    "deep league file": _deep_league,
    "league of the wrong shape": _bad_league_field,
    "hand of the wrong shape": _bad_hand_field,
}
COMMANDS = [
    ["show", "{dir}", FIRST],
    ["show", "{dir}", FIRST, "--seat", "2"],
    ["replay", "{dir}", FIRST, "--output", "{dir}/replay.html"],
    ["report", "{dir}", "--output", "{dir}/report.html"],
    ["standings", "{dir}"],
]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    damage=st.lists(st.sampled_from(sorted(DAMAGE)), min_size=1, max_size=3),
    seed=st.integers(0, 2**32),
    command=st.sampled_from(COMMANDS),
)
def test_a_damaged_directory_gets_one_plain_line(damage: list[str], seed: int, command: list[str]) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as base:
        directory = write_dir(pathlib.Path(base) / "results", PLAYED, NAMES, deals=2)
        for name in damage:
            if (directory / "league.json").exists() or name not in ("no league file", "bad league file"):
                DAMAGE[name](directory / "games.jsonl", directory / "league.json", rng)
        args = [part.replace("{dir}", str(directory)) for part in command]
        result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (damage, args, result.output)
    # 2: a usage error, when the damage took away the game asked for
    assert result.exit_code in (0, 1, 2), (damage, args, result.output)
    assert "Traceback" not in result.output
    if result.exit_code:
        last = result.output.rstrip("\n").splitlines()[-1]
        assert last.startswith("Error: ") and len(last) < 1000, (damage, args, result.output)


def _card_swap(record: dict[str, Any], rng: random.Random) -> str:
    """A card of the play replaced by another card, or by a word that is no card."""
    hand = rng.choice(record["hands"])
    places = [("deal", hand["deal"][seat]) for seat in range(4)] + [("nest", hand["nest"])]
    places += [(f"tricks[{n}]", trick["cards"]) for n, trick in enumerate(hand.get("tricks") or [])]
    if hand.get("discards"):
        places.append(("discards", hand["discards"]))
    where, cards = rng.choice([place for place in places if place[1]])
    at = rng.randrange(len(cards))
    cards[at] = rng.choice(["R1", "XX", "ROOK", "G14", "B5", "Y10", 7])
    return f"{where}[{at}]"


def _score_edit(record: dict[str, Any], rng: random.Random) -> str:
    """A figure of the outcome changed: the winner, a final score, a hand's score."""
    kind = rng.randrange(3)
    if kind == 0 and record["result"]["winner"] is not None:
        record["result"]["winner"] = 1 - record["result"]["winner"]
        return "result.winner"
    if kind == 1:
        record["result"]["scores"][rng.randrange(2)] += rng.choice([-5, 5, 100])
        return "result.scores"
    hand = rng.choice(record["hands"])
    hand["scores"][rng.randrange(2)] += rng.choice([-5, 5])
    return "hands[].scores"


def _call_edit(record: dict[str, Any], rng: random.Random) -> str:
    """A call changed: trump, a bid, the bidder, the dealer."""
    hand = rng.choice(record["hands"])
    field = rng.choice(["trump", "bid", "dealer", "auction"])
    if field == "trump":
        hand["trump"] = rng.choice(["R", "G", "B", "Y", "Q"])
    elif field == "bid":
        hand["bid"] = (hand.get("bid") or 70) + 5
    elif field == "dealer":
        hand["dealer"] = (hand["dealer"] + rng.randrange(1, 4)) % 4
    else:
        hand["auction"][rng.randrange(len(hand["auction"]))]["action"] = rng.choice(["pass", "bid 200", "bid x"])
    return field


PLAY_EDITS = [_card_swap, _score_edit, _call_edit]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit=st.sampled_from(PLAY_EDITS), at=st.integers(0, len(PLAYED) - 1), seed=st.integers(0, 2**32))
def test_a_game_shown_is_a_game_the_rules_replay(edit: Callable[..., str], at: int, seed: int) -> None:
    """show, replay and report refuse, by file, game and field, a record whose play was edited so that
    it no longer replays under its rules, and show it as before when the edit left a game the rules give."""
    record = json.loads(json.dumps(PLAYED[at]))
    field = edit(record, random.Random(seed))
    try:
        records.replay(record)
        replays = True
    except RookError:
        replays = False
    played = [*PLAYED[:at], record, *PLAYED[at + 1 :]]
    gid = record["game_id"]
    with tempfile.TemporaryDirectory() as base:
        directory = write_dir(pathlib.Path(base) / "results", played, NAMES, deals=2)
        for args in (
            ["show", str(directory), gid],
            ["replay", str(directory), gid, "-o", f"{base}/one.html"],
            ["report", str(directory), "-o", f"{base}/all.html"],
        ):
            result = CliRunner().invoke(main, args)
            if replays:
                assert result.exit_code == 0, (field, args, result.output)
            else:
                assert result.exit_code == 1, (field, args, result.output)
                assert result.output.startswith(
                    f"Error: {directory / 'games.jsonl'}: damaged record: game {gid!r} does not replay: "
                ), (field, result.output)
                assert result.output.count("\n") == 1


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda r: r["result"].update(winner=1 - r["result"]["winner"]), "result.winner"),
        (lambda r: r["hands"][0]["tricks"][0]["cards"].__setitem__(1, "XX"), "hands[0].tricks[0].cards[1]"),
        (lambda r: r["hands"][0].update(trump="Q"), "hands[0].trump"),
    ],
)
def test_a_record_edited_by_hand_is_refused_by_field(edit: Callable[[dict[str, Any]], None], field: str) -> None:
    record = json.loads(json.dumps(PLAYED[0]))
    edit(record)
    with tempfile.TemporaryDirectory() as base:
        directory = write_dir(pathlib.Path(base) / "results", [record, *PLAYED[1:]], NAMES, deals=2)
        for args in (["show", str(directory), FIRST], ["replay", str(directory), FIRST, "-o", f"{base}/r.html"]):
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 1
            assert f"game {FIRST!r} does not replay: {field}" in result.output
        partner = PLAYED[1]["game_id"]  # its duplicate partner's viewer shows the edited game too
        result = CliRunner().invoke(main, ["replay", str(directory), partner, "-o", f"{base}/p.html"])
        assert result.exit_code == 1 and f"(the duplicate partner of {partner!r})" in result.output
