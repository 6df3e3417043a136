"""The presets are exactly the rule sets of RULES.md §2, and ``resolve`` reads names and override mappings."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rookarena.engine.presets import PRESETS, TOURNAMENT, preset, resolve
from rookarena.engine.rules import Rules
from rookarena.errors import RulesError

# Each preset's knobs that differ from the official tournament game (RULES.md §2), as YAML would say them.
DIFFERENCES: dict[str, dict[str, Any]] = {
    "tournament": {},
    "bidders-nest": {"opener_may_pass": False, "nest_to": "bidder-team", "bid_made": "more-than"},
    "open-nest": {"nest_seen_by": "all", "nest_order": "trump-then-discard", "first_lead": "bidder"},
    "traditional": {"first_lead": "left-of-bidder", "target_rule": "exceed", "both_cross": "bidder-wins"},
    "full-deck": {"ranks": list(range(1, 15))},
    "ten-half": {"rook_rank": "ten-half"},
    "kentucky": {
        "ranks": [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1],
        "counters": {"1": 15, "5": 5, "10": 10, "14": 10},
        "bid_min": 100,
        "bid_max": 180,
        "all_pass": "dealer-must-bid",
    },
}

# name: (cards in the deck, cards in each hand, counters in the deck)
SIZES: dict[str, tuple[int, int, int]] = {
    "tournament": (41, 9, 120),
    "bidders-nest": (41, 9, 120),
    "open-nest": (41, 9, 120),
    "traditional": (41, 9, 120),
    "full-deck": (57, 13, 120),
    "ten-half": (41, 9, 120),
    "kentucky": (45, 10, 180),
}

OFFICIAL = {
    "ranks": list(range(5, 15)),
    "rook_rank": "high",
    "counters": {"5": 5, "10": 10, "14": 10},
    "rook_points": 20,
    "nest_size": 5,
    "bid_min": 70,
    "bid_max": 120,
    "bid_step": 5,
    "opener_may_pass": True,
    "all_pass": "redeal-next-dealer",
    "nest_seen_by": "bidder",
    "nest_order": "discard-then-trump",
    "first_lead": "left-of-dealer",
    "rook_anytime": True,
    "lone_rook_forced": True,
    "must_trump": False,
    "nest_to": "last-trick",
    "bid_made": "at-least",
    "target": 300,
    "target_rule": "reach",
    "both_cross": "higher-total",
    "hand_limit": 200,
}


def test_the_preset_list() -> None:
    assert list(PRESETS) == list(DIFFERENCES)
    assert set(SIZES) == set(PRESETS)


def test_tournament_is_the_official_game() -> None:
    assert TOURNAMENT.to_mapping() == OFFICIAL
    assert PRESETS["tournament"].rules is TOURNAMENT


@pytest.mark.parametrize("name", PRESETS)
def test_preset_knobs(name: str) -> None:
    mapping = PRESETS[name].rules.to_mapping()
    differing = {knob: value for knob, value in mapping.items() if OFFICIAL[knob] != value}
    assert differing == DIFFERENCES[name]


@pytest.mark.parametrize("name", PRESETS)
def test_preset_sizes(name: str) -> None:
    rules = PRESETS[name].rules
    deck, hand, counters = SIZES[name]
    assert (len(rules.deck), rules.hand_size, rules.total_counters) == (deck, hand, counters)
    assert 4 * rules.hand_size + rules.nest_size == len(rules.deck)
    assert len(set(rules.deck)) == len(rules.deck)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_metadata(name: str) -> None:
    found = preset(name)
    assert found is PRESETS[name]
    assert found.name == name
    assert found.description == found.description.strip()
    assert len(found.description) > 20


@pytest.mark.parametrize("name", PRESETS)
def test_resolve_a_name(name: str) -> None:
    assert resolve(name) == (name, PRESETS[name].rules)


@pytest.mark.parametrize("name", PRESETS)
def test_resolve_a_mapping_naming_only_the_preset(name: str) -> None:
    assert resolve({"preset": name}) == (name, PRESETS[name].rules)


def test_resolve_with_overrides() -> None:
    name, rules = resolve({"preset": "kentucky", "target": 500, "must_trump": True})
    assert name == "kentucky+"
    assert rules == dataclasses.replace(PRESETS["kentucky"].rules, target=500, must_trump=True)
    assert rules.bid_min == 100  # the preset's own knobs survive


def test_resolve_override_equal_to_the_preset_keeps_the_name() -> None:
    assert resolve({"preset": "kentucky", "bid_min": 100}) == ("kentucky", PRESETS["kentucky"].rules)


def test_resolve_without_a_preset_starts_from_tournament() -> None:
    name, rules = resolve({"target": 250})
    assert name == "tournament+"
    assert rules == dataclasses.replace(TOURNAMENT, target=250)
    assert resolve({}) == ("tournament", TOURNAMENT)


def test_resolve_does_not_change_its_input() -> None:
    spec = {"preset": "open-nest", "must_trump": True}
    resolve(spec)
    assert spec == {"preset": "open-nest", "must_trump": True}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bridge", "unknown preset 'bridge': expected one of tournament, bidders-nest, "),
        ("Tournament", "unknown preset 'Tournament'"),
        ({"preset": "bridge"}, "cfg.preset: unknown preset 'bridge': expected one of tournament"),
        ({"preset": 3}, "cfg.preset: 3: expected one of tournament"),
        ({"preset": "open-nest", "nest_size": 6}, "cfg.nest_size: 6: "),
        ({"preset": "open-nest", "bogus": 1}, "cfg.bogus: unknown rules knob 'bogus'"),
        ({"preset": "kentucky", "bid_step": 15}, "cfg.bid_step: 15: expected a step that divides"),
        ({"preset": "full-deck", "rook_rank": "ten-half", "ranks": [1, 2, 3, 4, 5, 6, 7, 8, 9, 12]}, "cfg.rook_rank:"),
        (["tournament"], "cfg: expected a preset name or a mapping"),
        (42, "cfg: expected a preset name or a mapping"),
    ],
)
def test_resolve_refusals(spec: Any, message: str) -> None:
    with pytest.raises(RulesError) as info:
        resolve(spec, where="cfg")
    assert str(info.value).startswith(message) or message in str(info.value), str(info.value)


def test_unknown_preset_lists_every_name() -> None:
    with pytest.raises(RulesError) as info:
        preset("nope")
    for name in PRESETS:
        assert name in str(info.value)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_mapping_resolves_back(name: str) -> None:
    # What a record stores (the full mapping) reads back as the same rules, whatever the base.
    rules = PRESETS[name].rules
    assert resolve({"preset": "tournament", **rules.to_mapping()})[1] == rules
    assert Rules.from_mapping(rules.to_mapping()) == rules
