"""The game record: schema, JSON-lines round trips, replay, tamper detection, the seed and the golden file."""

from __future__ import annotations

import copy
import functools
import hashlib
import io
import json
import random
import re
from collections.abc import Callable
from typing import Any

import fault_games
import pytest
from conftest import GOLDEN as GOLDEN_DIR
from conftest import ROOT
from record_schema import published, schema_errors, validator

from rookarena.engine.presets import PRESETS, preset
from rookarena.errors import RecordError
from rookarena.players.simulate import random_game
from rookarena.wire import records

GOLDEN = GOLDEN_DIR / "tournament-seed-7.jsonl"

Record = dict[str, Any]


@functools.cache
def _cached(name: str, seed: int) -> str:
    return records.dumps(random_game(preset(name).rules, seed, name))


def game_record(name: str, seed: int) -> Record:
    """A fresh copy of the record of a random game (tests may change it)."""
    return records.loads(_cached(name, seed))


# -- valid records ------------------------------------------------------------------------------

CASES = [(name, seed) for name in PRESETS for seed in (1, 2, 3)]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_random_game_record_validates_round_trips_and_replays(name: str, seed: int) -> None:
    record = random_game(preset(name).rules, seed, name)
    assert schema_errors(record) == []
    line = records.dumps(record)
    assert "\n" not in line
    assert records.loads(line) == record
    game = records.replay(record)
    assert game.is_over
    assert records.build(game, seed=seed, rules_name=name, seats=record["seats"]) == record


def test_every_preset_has_its_own_rules_hash_computed_as_documented() -> None:
    hashes = set()
    for name in PRESETS:
        record = game_record(name, 1)
        text = json.dumps(record["rules"], sort_keys=True, separators=(",", ":"))
        assert record["rules_hash"] == hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        hashes.add(record["rules_hash"])
    assert len(hashes) == len(PRESETS)


def first_redeal(name: str) -> tuple[Record, int]:
    for seed in range(100):
        record = game_record(name, seed)
        for index, hand in enumerate(record["hands"]):
            if hand["bidder"] is None:
                return record, index
    raise AssertionError(f"no redeal in 100 games of {name}")


DAMAGES: tuple[object, ...] = (None, -1, 4, 1.5, "", "R0", "ROOK", "R14", "pass", True, [], {}, ["R5"], 10**9)


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a record: each key of each object and each item of each list, the record itself."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    return [at, *(path for key, value in items for path in _paths(value, (*at, key)))]


def _damaged(record: Record, rng: random.Random) -> Record:
    """``record`` with one place changed: a value replaced, a key removed or added, an item removed."""
    out = copy.deepcopy(record)
    path = rng.choice(_paths(out)[1:])
    parent = functools.reduce(lambda node, key: node[key], path[:-1], out)
    how = rng.random()
    if how < 0.7:
        parent[path[-1]] = copy.deepcopy(rng.choice(DAMAGES))
    elif isinstance(parent, dict) and how < 0.85:
        parent[f"x{rng.randrange(9)}"] = 1  # an unknown key: allowed at the top level only
    else:
        del parent[path[-1]]
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_inlined_schema_judges_records_as_the_published_one(name: str) -> None:
    """The tests check records against the schema with its references inlined (tests/record_schema.py):
    on whole records (redeals and games stopped by a forfeit among them) and on records damaged at a
    random place, it must find a record valid exactly when the published schema does."""
    rng = random.Random(f"inlined {name}")
    wholes = [game_record(name, 1), fault_games.forfeited(name, 3, rng.randrange(5, 90))]
    refused = 0
    for whole in wholes:
        assert published().is_valid(whole) and validator().is_valid(whole)
        for _ in range(12):
            damaged = _damaged(whole, rng)
            verdict = published().is_valid(damaged)
            assert validator().is_valid(damaged) == verdict, damaged
            refused += not verdict
    assert refused >= 12  # most damage is refused: the comparison is not of records both find valid


def test_a_redeal_is_recorded_with_no_bidder_and_nothing_scored() -> None:
    record, index = first_redeal("tournament")
    hand = record["hands"][index]
    assert set(hand) == {"number", "dealer", "deal", "nest", "auction", "bidder", "bid", "redeal"} | {
        "score_change",
        "scores",
    }
    assert hand["redeal"] is True and hand["bid"] is None
    assert [call["action"] for call in hand["auction"]] == ["pass"] * 4
    assert hand["score_change"] == [0, 0]
    assert hand["scores"] == (record["hands"][index - 1]["scores"] if index else [0, 0])
    next_hand = record["hands"][index + 1]
    assert next_hand["dealer"] == (hand["dealer"] + 1) % 4
    assert schema_errors(record) == []
    records.replay(record)


def test_extra_top_level_fields_are_allowed_and_ignored() -> None:
    record = game_record("tournament", 1)
    record.update(game_id="g-42", timing={"seat": [0.1, 0.2, 0.3, 0.4]}, faults=[])
    record["decision_ms"] = [[0.4, 12, None], [], [3.5], [None]]
    assert schema_errors(record) == []
    records.replay(record)


# -- the schema is strict where it matters ------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[Record], None]:
    """A change that sets the field at ``path`` (``hands[0].tricks[1].cards[2]``) to ``value``."""
    keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.findall(r"\w+", path)]

    def change(record: Record) -> None:
        target: Any = record
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def _delete(path: str) -> Callable[[Record], None]:
    keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.findall(r"\w+", path)]

    def change(record: Record) -> None:
        target: Any = record
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return change


SCHEMA_VIOLATIONS: dict[str, Callable[[Record], None]] = {
    "card out of range": _set("hands[0].tricks[0].cards[0]", "R15"),
    "card number zero": _set("hands[0].nest[0]", "G0"),
    "lower-case rook": _set("hands[0].deal[1][0]", "rook"),
    "play in the auction": _set("hands[0].auction[0].action", "play R5"),
    "bid without amount": _set("hands[0].auction[0].action", "bid"),
    "seat 4": _set("hands[0].tricks[0].winner", 4),
    "team 2": _set("hands[0].nest_team", 2),
    "three hands dealt": _delete("hands[0].deal[3]"),
    "trick of three cards": _delete("hands[0].tricks[0].cards[3]"),
    "three seats": _delete("seats[3]"),
    "scores of three teams": _set("hands[0].scores", [0, 0, 0]),
    "extra field in a hand": _set("hands[0].comment", "hi"),
    "extra field in a trick": _set("hands[0].tricks[0].note", 1),
    "missing field in a hand": _delete("hands[0].made"),
    "trump colour name": _set("hands[0].trump", "red"),
    "made as a number": _set("hands[0].made", 1),
    "seed as a string": _set("seed", "7"),
    "wrong format": _set("format", "rookarena.record/2"),
    "unknown rules knob": _set("rules.jokers", 2),
    "missing rules knob": _delete("rules.hand_limit"),
    "bad rules choice": _set("rules.nest_to", "nobody"),
    "short rules hash": _set("rules_hash", "c82f"),
    "decision times of three seats": _set("decision_ms", [[1.5], [2], [None]]),
    "a decision time as text": _set("decision_ms", [["1.5"], [], [], []]),
    "a negative decision time": _set("decision_ms", [[-0.1], [], [], []]),
}


@pytest.mark.parametrize("change", SCHEMA_VIOLATIONS.values(), ids=SCHEMA_VIOLATIONS.keys())
def test_schema_refuses(change: Callable[[Record], None]) -> None:
    record = game_record("tournament", 1)
    change(record)
    assert schema_errors(record) != []


def test_schema_refuses_a_redeal_hand_with_play() -> None:
    record, index = first_redeal("tournament")
    record["hands"][index]["trump"] = "R"
    assert schema_errors(record) != []
    del record["hands"][index]["trump"]
    record["hands"][index]["redeal"] = False
    assert schema_errors(record) != []


# -- tampering: every changed field is found and named ------------------------------------------


def _swap_deal_cards(index: int) -> Callable[[Record], None]:
    """Swap the first cards of seats 0 and 1 in hand ``index``: still the whole deck, once each."""

    def change(record: Record) -> None:
        deal = record["hands"][index]["deal"]
        deal[0][0], deal[1][0] = deal[1][0], deal[0][0]

    return change


def _play_a_card_not_held(record: Record) -> None:
    cards = record["hands"][0]["tricks"][3]["cards"]
    cards[1] = cards[2]


def _shift(path: str, by: int) -> Callable[[Record], None]:
    keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.findall(r"\w+", path)]

    def change(record: Record) -> None:
        target: Any = record
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] += by

    return change


def _other_seat(path: str) -> Callable[[Record], None]:
    keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.findall(r"\w+", path)]

    def change(record: Record) -> None:
        target: Any = record
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = (target[keys[-1]] + 1) % 4

    return change


def _first_bid(record: Record) -> dict[str, Any]:
    call: dict[str, Any] = next(c for c in record["hands"][0]["auction"] if c["action"].startswith("bid"))
    return call


def _illegal_bid(record: Record) -> None:
    _first_bid(record)["action"] = "bid 72"


def _flip_made(record: Record) -> None:
    record["hands"][0]["made"] = not record["hands"][0]["made"]


def _play_on_after_the_end(record: Record) -> None:
    record["hands"].append(copy.deepcopy(record["hands"][-1]))


def _drop_last_hand(record: Record) -> None:
    record["hands"].pop()


TAMPERING: dict[str, tuple[Callable[[Record], None], str]] = {
    "a card in a trick": (_play_a_card_not_held, r"^hands\[0\]\.tricks\[3\]\.cards\[1\]: illegal 'play "),
    "a trick winner": (_other_seat("hands[0].tricks[0].winner"), r"^hands\[0\]\.tricks\[0\]\.winner: "),
    "a trick's counters": (_shift("hands[1].tricks[2].counters", 5), r"^hands\[1\]\.tricks\[2\]\.counters: "),
    "a score change": (_shift("hands[1].score_change[0]", 5), r"^hands\[1\]\.score_change\[0\]: "),
    "a running score": (_shift("hands[2].scores[1]", -5), r"^hands\[2\]\.scores\[1\]: "),
    "the bid": (_shift("hands[0].bid", 5), r"^hands\[0\]\.bid: the record says \d+, the rules give \d+"),
    "a bid in the auction": (_illegal_bid, r"^hands\[0\]\.auction\[\d\]\.action: illegal 'bid 72'"),
    "a bidder's seat": (_other_seat("hands[0].auction[0].seat"), r"^hands\[0\]\.auction\[0\]\.seat: "),
    "made": (_flip_made, r"^hands\[0\]\.made: "),
    "made as a number": (_set("hands[0].made", 0), r"^hands\[0\]\.made: the record says 0, the rules give false"),
    "a score as a float": (_set("hands[0].scores[0]", 60.0), r"^hands\[0\]\.scores\[0\]: the record says 60\.0, "),
    "the nest team": (_other_seat("hands[0].nest_team"), r"^hands\[0\]\.nest_team: "),
    "the rules hash": (_set("rules_hash", "0123456789abcdef"), r"^rules_hash: '0123456789abcdef'"),
    "a rules knob": (_set("rules.target", 250), r"^rules_hash: "),
    "an unknown rules knob": (_set("rules.jokers", 2), r"^rules\.jokers: "),
    "a missing rules knob": (_delete("rules.hand_limit"), r"^rules\.hand_limit: missing"),
    "the seed": (_shift("seed", 1), r"^seed: 8 does not give the deal of hands\[0\]"),
    "a deal card": (_swap_deal_cards(1), r"^hands\[1\]\.deal: not the deal that seed 7 gives"),
    "a duplicated deal card": (_set("hands[2].deal[3][0]", "ROOK"), r"^hands\[2\]\.deal: .*each card once"),
    "an unknown deal card": (_set("hands[2].deal[3][0]", "R99"), r"^hands\[2\]\.deal: "),
    "a nest card": (_set("hands[1].nest[0]", "X1"), r"^hands\[1\]\.nest: "),
    "a discard": (_set("hands[0].discards[0]", "Q5"), r"^hands\[0\]\.discards\[0\]: "),
    "the trump": (_set("hands[0].trump", "purple"), r"^hands\[0\]\.trump: "),
    "the hand number": (_shift("hands[3].number", 1), r"^hands\[3\]\.number: "),
    "the dealer": (_other_seat("hands[3].dealer"), r"^hands\[3\]\.dealer: "),
    "an extra field in a hand": (_set("hands[0].comment", "x"), r"^hands\[0\]\.comment: unexpected field"),
    "a missing field in a trick": (_delete("hands[0].tricks[0].counters"), r"^hands\[0\]\.tricks\[0\]\.counters: "),
    "the result": (_other_seat("result.winner"), r"^result\.winner: "),
    "a hand after the end": (_play_on_after_the_end, r"^hands\[\d+\]: the game was already over"),
    "a missing last hand": (_drop_last_hand, r"^result\.scores\[\d\]: the record says \d+, the rules give \d+"),
    "the seats": (_delete("seats[3]"), r"^seats: "),
    "the first dealer": (_set("first_dealer", 4), r"^first_dealer: "),
    "the format": (_set("format", "rookarena.record/0"), r"^format: "),
}


@pytest.mark.parametrize(("change", "message"), TAMPERING.values(), ids=TAMPERING.keys())
def test_replay_names_the_tampered_field(change: Callable[[Record], None], message: str) -> None:
    record = game_record("tournament", 7)
    change(record)
    with pytest.raises(RecordError, match=message):
        records.replay(record)


def _forfeit(record: Record, hands: int) -> None:
    """Stop ``record`` after ``hands`` hands, lost by team 1 on a fault, as the referee writes it."""
    del record["hands"][hands:]
    scores = record["hands"][-1]["scores"] if hands else [0, 0]
    record["result"] = {"winner": 0, "scores": scores, "hands": hands, "reason": "forfeit: seat 1 (x) timeout: 1s"}
    record["forfeit"] = {"seat": 1, "team": 1, "kind": "timeout"}
    fault = {"seat": 1, "bot": "x", "kind": "timeout", "detail": "no reply within 1 s", "line": "", "hand": hands + 1}
    record["faults"] = [fault]


@pytest.mark.parametrize("hands", [0, 1, 5])
def test_a_game_stopped_early_replays_to_a_game_not_over(hands: int) -> None:
    record = game_record("tournament", 7)
    _forfeit(record, hands)
    assert schema_errors(record) == []
    game = records.replay(record)
    assert not game.is_over and len(game.history) == hands
    record["result"] = None  # stopped, and no decision made (so no forfeit either)
    del record["forfeit"]
    assert schema_errors(record) == []
    assert not records.replay(record).is_over


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scores", [0, 0], r"^result\.scores\[\d\]: the record says 0"),
        ("hands", 4, r"^result\.hands: the record says 4, the rules give 5"),
        ("winner", 2, r"^result\.winner: 2: expected 0, 1 or null"),
        ("reason", "", r"^result\.reason: "),
    ],
)
def test_the_result_of_a_game_stopped_early_is_checked(field: str, value: Any, message: str) -> None:
    record = game_record("tournament", 7)
    _forfeit(record, 5)
    record["result"][field] = value
    with pytest.raises(RecordError, match=message):
        records.replay(record)


@pytest.mark.parametrize("seed", range(12))
def test_a_forfeit_edited_by_hand_is_refused(seed: int) -> None:
    """A forfeit's winner flipped, its team or seat changed, or its fault removed or changed: each is refused
    naming the field (they had been shown, the faulting team named the winner)."""
    rng = random.Random(seed)
    record = fault_games.forfeited("tournament", seed, rng.randrange(5, 90))
    if "forfeit" not in record:
        return  # the game ended before the fault
    records.replay(record)  # as the referee writes it
    seat, team = record["forfeit"]["seat"], record["forfeit"]["team"]
    edits: list[tuple[Callable[[Record], None], str]] = [
        (lambda r: r["result"].update(winner=team), r"^result\.winner: "),
        (lambda r: r["result"].update(winner=None), r"^result\.winner: "),
        (lambda r: r["forfeit"].update(team=1 - team), r"^forfeit\.team: "),
        (lambda r: r["forfeit"].update(seat=(seat + 2) % 4), r'^forfeit: no "crash" fault of seat'),
        (lambda r: r["forfeit"].update(seat=(seat + 1) % 4), r"^forfeit\.team: "),
        (lambda r: r["forfeit"].update(kind="timeout"), r'^forfeit: no "timeout" fault'),
        (lambda r: r.update(faults=[]), r'^forfeit: no "crash" fault'),
        (lambda r: r.update(forfeit={"seat": 7}), r"^forfeit: "),
    ]
    change, message = edits[rng.randrange(len(edits))]
    edited = copy.deepcopy(record)
    change(edited)
    with pytest.raises(RecordError, match=message):
        records.replay(edited)


def test_a_forfeit_of_a_game_played_to_its_end_is_refused() -> None:
    record = game_record("tournament", 7)
    record["forfeit"] = {"seat": 1, "team": 1, "kind": "crash"}
    record["faults"] = [{"seat": 1, "bot": "x", "kind": "crash", "detail": "exited", "line": "", "hand": 1}]
    with pytest.raises(RecordError, match=r"^forfeit: the game was played to its end"):
        records.replay(record)


def test_a_swapped_deal_card_without_a_seed_is_found_in_play() -> None:
    record = game_record("tournament", 7)
    record["seed"] = None
    records.replay(record)
    _swap_deal_cards(1)(record)
    with pytest.raises(RecordError, match=r"^hands\[1\]\.(discards|tricks)\[\d+\].*does not hold"):
        records.replay(record)


def test_discards_and_trump_replay_in_the_rules_nest_order() -> None:
    record = game_record("open-nest", 1)
    assert record["rules"]["nest_order"] == "trump-then-discard"
    records.replay(record)
    index, hand = next((i, hand) for i, hand in enumerate(record["hands"]) if hand["bidder"] is not None)
    trick = hand["tricks"][0]
    position = next(k for k in range(4) if (trick["leader"] + k) % 4 != hand["bidder"])
    hand["discards"][0] = trick["cards"][position]  # a card another seat held
    with pytest.raises(RecordError, match=rf"^hands\[{index}\]\.discards\[0\]: illegal 'discard "):
        records.replay(record)


# -- JSON lines -----------------------------------------------------------------------------------


def test_write_then_read_gives_the_records_back() -> None:
    batch = [game_record("tournament", seed) for seed in (1, 2)]
    stream = io.StringIO()
    for record in batch:
        records.write(stream, record)
    text = stream.getvalue()
    assert text.count("\n") == 2 and text.endswith("\n")
    assert list(records.read(io.StringIO("\n" + text + "\n"))) == batch


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", r"^line 3: not JSON"),
        ("[1, 2]", r"^line 3: expected a JSON object, got list"),
        ('"text"', r"^line 3: expected a JSON object, got str"),
    ],
)
def test_read_names_the_line_of_a_bad_record(bad: str, message: str) -> None:
    lines = [_cached("tournament", 1) + "\n", "\n", bad + "\n", _cached("tournament", 2) + "\n"]
    found = records.read(lines)
    assert next(found)["seed"] == 1
    with pytest.raises(RecordError, match=message):
        next(found)


# -- the seed: reproducible from the description in protocol/RECORD.md, without Python's random -----


class MersenneTwister:
    """MT19937 seeded the way CPython seeds ``random.Random(n)`` for an integer n, as RECORD.md says."""

    N, M = 624, 397

    def __init__(self, seed: int) -> None:
        key, n = [], abs(seed)
        while True:
            key.append(n & 0xFFFFFFFF)
            n >>= 32
            if not n:
                break
        mt = [19650218]
        for i in range(1, self.N):
            mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF)
        i, j = 1, 0
        for _ in range(max(self.N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= self.N:
                mt[0], i = mt[self.N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(self.N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= self.N:
                mt[0], i = mt[self.N - 1], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, self.N

    def next_u32(self) -> int:
        if self.index >= self.N:
            mt = self.mt
            for k in range(self.N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % self.N] & 0x7FFFFFFF)
                mt[k] = mt[(k + self.M) % self.N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self) -> float:
        a, b = self.next_u32() >> 5, self.next_u32() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0


@pytest.mark.parametrize("seed", [0, 1, 7, -7, 2**32, 2**40 + 3, 2**63 - 1, 2**100 + 12345])
def test_the_documented_generator_is_pythons(seed: int) -> None:
    ours, python = MersenneTwister(seed), random.Random(seed)
    assert [ours.random() for _ in range(700)] == [python.random() for _ in range(700)]


def documented_deals(rules: dict[str, Any], seed: int, dealers: list[int]) -> list[Record]:
    """The deal of each hand from the seed, following RECORD.md step by step."""
    ranks = sorted(rules["ranks"])
    deck = [f"{color}{rank}" for color in "RGBY" for rank in ranks] + ["ROOK"]
    hand_size = (len(deck) - rules["nest_size"]) // 4
    rng = MersenneTwister(seed)
    out = []
    for dealer in dealers:
        cards = list(deck)
        for i in range(len(cards) - 1, 0, -1):
            j = int(rng.random() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        hands: list[list[str]] = [[], [], [], []]
        nest: list[str] = []
        order = [(dealer + k) % 4 for k in (1, 2, 3, 4)]
        pile = iter(cards)
        while len(nest) < rules["nest_size"] or any(len(hand) < hand_size for hand in hands):
            for seat in order:
                if len(hands[seat]) < hand_size:
                    hands[seat].append(next(pile))
            if len(nest) < rules["nest_size"]:
                nest.append(next(pile))
        out.append({"deal": hands, "nest": nest})
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_deals_follow_the_documented_shuffle_and_deal(name: str) -> None:
    record = game_record(name, 5)
    hands = record["hands"]
    expected = documented_deals(record["rules"], record["seed"], [hand["dealer"] for hand in hands])
    assert [{"deal": hand["deal"], "nest": hand["nest"]} for hand in hands] == expected


# -- the golden record --------------------------------------------------------------------------


def test_golden_record_is_what_the_code_gives_today() -> None:
    """If this fails after an intended change, run ``python3 tests/golden/regenerate.py`` and review."""
    expected = GOLDEN.read_text(encoding="utf-8")
    assert records.dumps(random_game(preset("tournament").rules, 7, "tournament")) + "\n" == expected


def test_golden_record_reads_validates_and_replays() -> None:
    with GOLDEN.open(encoding="utf-8") as stream:
        (record,) = list(records.read(stream))
    assert schema_errors(record) == []
    assert record["seed"] == 7 and record["rules_name"] == "tournament"
    assert record["rules_hash"] == "c82f8c0445f833d9"
    records.replay(record)


# -- protocol/RECORD.md stays true ----------------------------------------------------------------

RECORD_MD = ROOT / "protocol" / "RECORD.md"


def doc_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", RECORD_MD.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)


def test_the_documented_example_is_the_golden_record_trimmed() -> None:
    example, redeal = (json.loads(block) for block in doc_blocks("json"))
    assert schema_errors(example) == []
    golden = records.loads(GOLDEN.read_text(encoding="utf-8"))
    assert {key: value for key, value in example.items() if key != "hands"} == {
        key: value for key, value in golden.items() if key != "hands"
    }
    (hand,) = example["hands"]
    first = golden["hands"][0]
    assert {k: v for k, v in hand.items() if k != "tricks"} == {k: v for k, v in first.items() if k != "tricks"}
    assert hand["tricks"] == [first["tricks"][0], first["tricks"][1], first["tricks"][-1]]
    assert redeal == game_record("tournament", 0)["hands"][9]


def test_the_documented_hash_text_and_values() -> None:
    text = next(block for block in doc_blocks("") if block.startswith('{"all_pass"')).strip()
    tournament = preset("tournament").rules
    assert text == json.dumps(tournament.to_mapping(), sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == tournament.digest
    assert f"the hash is `{tournament.digest}`" in RECORD_MD.read_text(encoding="utf-8")
    check = re.search(r"seed 7 gives `random\(\)` = ([\d.]+), ([\d.]+), ([\d.]+);", RECORD_MD.read_text())
    assert check is not None
    generator = random.Random(7)
    assert [float(value) for value in check.groups()] == [generator.random() for _ in range(3)]
