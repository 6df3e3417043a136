"""Rules as data: mapping round trips, a stable digest, and refusals that name the offending knob."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from rookarena.engine.cards import ROOK, Card
from rookarena.engine.presets import PRESETS, TOURNAMENT
from rookarena.engine.rules import KNOBS, AllPass, BidMade, RookRank, Rules, tables_for
from rookarena.errors import RulesError

# Pinned on purpose: a change here renames every recorded tournament game. Update only deliberately.
TOURNAMENT_DIGEST = "c82f8c0445f833d9"


@pytest.mark.parametrize("name", PRESETS)
def test_mapping_round_trip(name: str) -> None:
    rules = PRESETS[name].rules
    mapping = rules.to_mapping()
    assert set(mapping) == set(KNOBS)
    # Plain JSON values all the way down, so the mapping survives a JSON (or YAML) file.
    through_json = json.loads(json.dumps(mapping))
    assert through_json == mapping
    again = Rules.from_mapping(through_json)
    assert again == rules
    assert again.digest == rules.digest
    # Applied on top of a different base, a full mapping still gives exactly these rules.
    other = PRESETS["kentucky" if name != "kentucky" else "full-deck"].rules
    assert Rules.from_mapping(through_json, base=other) == rules


def test_every_field_is_a_documented_knob() -> None:
    assert [field.name for field in dataclasses.fields(Rules)] == list(KNOBS)
    for knob in KNOBS.values():
        assert knob.help
        assert knob.allowed


def test_tournament_digest_is_pinned() -> None:
    assert Rules().digest == TOURNAMENT_DIGEST
    assert TOURNAMENT.digest == TOURNAMENT_DIGEST


def test_digest_names_the_rules() -> None:
    digests = {preset.rules.digest for preset in PRESETS.values()}
    assert len(digests) == len(PRESETS)
    changed = Rules.from_mapping({"target": 301})
    assert changed.digest != TOURNAMENT_DIGEST
    assert Rules.from_mapping({"target": 300}).digest == TOURNAMENT_DIGEST
    # The order knobs are given in does not matter.
    a = Rules.from_mapping({"target": 500, "bid_min": 60})
    b = Rules.from_mapping({"bid_min": 60, "target": 500})
    assert a.digest == b.digest
    assert len(a.digest) == 16
    int(a.digest, 16)


def test_from_mapping_overrides_only_what_it_names() -> None:
    rules = Rules.from_mapping(
        {
            "target": 500,
            "all_pass": "redeal-same-dealer",
            "counters": {"14": 10, "5": 5, 10: 10},  # YAML may give the numbers as text or as ints
            "ranks": list(range(5, 15)),
            "rook_rank": "ten-half",
            "must_trump": True,
        }
    )
    expected = dataclasses.replace(
        TOURNAMENT, target=500, all_pass=AllPass.REDEAL_SAME_DEALER, rook_rank=RookRank.TEN_HALF, must_trump=True
    )
    assert rules == expected
    base = PRESETS["bidders-nest"].rules
    assert Rules.from_mapping({}, base=base) == base
    assert Rules.from_mapping({"bid_made": "at-least"}, base=base).bid_made is BidMade.AT_LEAST
    assert Rules.from_mapping({"bid_made": "at-least"}, base=base).opener_may_pass is False


def test_rules_are_hashable_values() -> None:
    assert Rules() == TOURNAMENT
    assert hash(Rules()) == hash(TOURNAMENT)
    assert len({Rules(), TOURNAMENT, PRESETS["kentucky"].rules}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        TOURNAMENT.target = 1  # type: ignore[misc]


def test_derived_values() -> None:
    rules = TOURNAMENT
    assert rules.bids == tuple(range(70, 121, 5))
    assert rules.card_points(ROOK) == 20
    assert [rules.card_points(Card.parse(t)) for t in ("R5", "G10", "B14", "Y13", "R6")] == [5, 10, 10, 0, 0]
    assert rules.deck[0] is Card.parse("R5")
    assert rules.deck[-2] is Card.parse("Y14")


# (what is wrong, mapping, the knob the message must name, a piece of the message that quotes the input)
REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("unknown knob", {"bogus": 1}, "bogus", "'bogus'"),
    ("unknown knob near a real one", {"bid_minimum": 70}, "bid_minimum", "'bid_minimum'"),
    ("wrong type: text for a number", {"bid_min": "70"}, "bid_min", "'70'"),
    ("wrong type: bool for a number", {"target": True}, "target", "True"),
    ("wrong type: float for a number", {"nest_size": 5.0}, "nest_size", "5.0"),
    ("wrong type: text for a bool", {"opener_may_pass": "yes"}, "opener_may_pass", "'yes'"),
    ("wrong type: number for a bool", {"must_trump": 1}, "must_trump", "1"),
    ("wrong type: ranks not a list", {"ranks": "5-14"}, "ranks", "'5-14'"),
    ("wrong type: counters not a mapping", {"counters": [5, 10]}, "counters", "[5, 10]"),
    ("wrong type: counters key", {"counters": {"five": 5}}, "counters", "'five'"),
    ("wrong type: counters points", {"counters": {"5": "5"}}, "counters", "'5'"),
    ("unknown enum value", {"all_pass": "shuffle"}, "all_pass", "'shuffle'"),
    ("unknown enum value, wrong case", {"nest_to": "Bidder-Team"}, "nest_to", "'Bidder-Team'"),
    ("unknown enum value: rook rank", {"rook_rank": "low"}, "rook_rank", "'low'"),
    ("unknown enum value: first lead", {"first_lead": "dealer"}, "first_lead", "'dealer'"),
    ("enum given as a number", {"target_rule": 300}, "target_rule", "300"),
    ("nest does not split the deck", {"nest_size": 6}, "nest_size", "6"),
    ("nest takes the whole deck", {"nest_size": 41}, "nest_size", "41"),
    ("nest of zero", {"nest_size": 0}, "nest_size", "0"),
    ("nest too big for the full deck", {"ranks": list(range(1, 15)), "nest_size": 57}, "nest_size", "57"),
    ("bid_min above bid_max", {"bid_min": 130}, "bid_max", "bid_min"),
    ("bid_max below bid_min", {"bid_max": 65}, "bid_max", "65"),
    ("step does not divide", {"bid_step": 7}, "bid_step", "7"),
    ("step of zero", {"bid_step": 0}, "bid_step", "0"),
    (
        "ten-half without 10",
        {"rook_rank": "ten-half", "ranks": [1, 2, 5, 6, 7, 8, 9, 11, 12, 13]},
        "rook_rank",
        "'ten-half'",
    ),
    (
        "ten-half without 11",
        {"rook_rank": "ten-half", "ranks": [1, 2, 5, 6, 7, 8, 9, 10, 12, 13]},
        "rook_rank",
        "'ten-half'",
    ),
    ("counters for a rank not in the deck", {"counters": {"3": 5}}, "counters", "3"),
    ("counters left for a removed rank", {"ranks": [1, 2, 6, 7, 8, 9, 10, 11, 12, 13]}, "counters", "5"),
    ("negative counters", {"counters": {"5": -5}}, "counters", "-5"),
    ("negative rook points", {"rook_points": -20}, "rook_points", "-20"),
    ("repeated ranks", {"ranks": [5, 5, 6, 7, 8, 9, 10, 11, 12, 14]}, "ranks", "5, 5"),
    ("rank out of range", {"ranks": [0, 5, 6, 7, 8, 9, 10, 11, 12, 14]}, "ranks", "0"),
    ("no ranks", {"ranks": []}, "ranks", "()"),
    ("target of zero", {"target": 0}, "target", "0"),
    ("negative hand limit", {"hand_limit": -1}, "hand_limit", "-1"),
]


@pytest.mark.parametrize(("mapping", "knob", "quoted"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals_name_the_knob(mapping: dict[str, Any], knob: str, quoted: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(mapping, where="league.yaml:3: rules")
    message = str(info.value)
    assert message.startswith(f"league.yaml:3: rules.{knob}: "), message
    assert quoted in message, message
    assert "expected" in message or "must" in message or "needs" in message, message


@pytest.mark.parametrize(
    "changes",
    [
        {"nest_size": 6},
        {"bid_min": 130},
        {"bid_step": 7},
        {"rook_rank": RookRank.TEN_HALF, "ranks": (1, 2, 5, 6, 7, 8, 9, 11, 12, 13)},
        {"all_pass": "redeal-next-dealer"},  # a bare string is not the enum
        {"must_trump": 1},
    ],
)
def test_constructor_refuses_too(changes: dict[str, Any]) -> None:
    with pytest.raises(RulesError, match=next(iter(changes))):
        dataclasses.replace(TOURNAMENT, **changes)


@pytest.mark.parametrize("bad", [[("target", 500)], "target: 500", 42, None])
def test_from_mapping_needs_a_mapping(bad: Any) -> None:
    with pytest.raises(RulesError, match=r"^rules: expected a mapping of knobs, got "):
        Rules.from_mapping(bad)


def test_playable_edge_combinations_are_accepted() -> None:
    # A nest of 9 still leaves 32 cards for four hands of 8; one bid is a legal auction.
    assert Rules.from_mapping({"nest_size": 9}).hand_size == 8
    assert Rules.from_mapping({"bid_min": 120}).bids == (120,)
    assert Rules.from_mapping({"bid_step": 10, "bid_min": 60}).bids == (60, 70, 80, 90, 100, 110, 120)
    assert Rules.from_mapping({"counters": {}}).total_counters == 20


@pytest.mark.parametrize("name", PRESETS)
def test_tables_rank_cards_as_the_rules_say(name: str) -> None:
    rules = PRESETS[name].rules
    tables = tables_for(rules)
    assert tables is tables_for(rules)
    assert set(tables.deck) == set(rules.deck)
    assert sum(tables.points.values()) == rules.total_counters
    ranks = list(rules.ranks)
    strongest = ranks[-1]
    for card in rules.deck:
        if card is not ROOK:
            assert tables.strength[card] == 2 * ranks.index(card.rank)
    top = Card.parse(f"R{strongest}")
    if rules.rook_rank is RookRank.HIGH:
        assert tables.strength[ROOK] > tables.strength[top]
    else:
        assert tables.strength[Card.parse("R10")] < tables.strength[ROOK] < tables.strength[Card.parse("R11")]
