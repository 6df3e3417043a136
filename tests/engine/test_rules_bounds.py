"""Every number knob of the rules has a most that the engine and the protocol carry: a bid travels as at most
five digits, and every score fits a 32-bit integer. Past it a knob is refused naming itself and its bound;
at it a whole game plays.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.engine import actions
from rookarena.engine.presets import TOURNAMENT
from rookarena.engine.rules import BID_MOST, HAND_LIMIT_MOST, MOST, POINTS_MOST, TARGET_MOST, Rules
from rookarena.errors import ParseError, RulesError
from rookarena.players.simulate import random_game


def test_the_highest_bid_is_what_a_bot_can_send() -> None:
    assert actions.parse_action(f"bid {BID_MOST}") == actions.bid(BID_MOST)
    with pytest.raises(ParseError):
        actions.parse_action(f"bid {BID_MOST + 1}")
    # The most a game can score, sign included, fits a signed 32-bit integer.
    assert TARGET_MOST + HAND_LIMIT_MOST * max(BID_MOST, POINTS_MOST) < 2**31


def knobs_past(knob: str, value: int) -> dict[str, Any]:
    """Knobs setting ``knob`` to ``value``, with what else it needs to be checked alone."""
    if knob in ("bid_min", "bid_max"):
        return {"bid_min": value, "bid_max": value}
    return {knob: value}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(MOST)), st.integers(1, 10**30))
def test_a_knob_past_its_most_is_refused_naming_it_and_its_bound(knob: str, past: int) -> None:
    value = MOST[knob] + past
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping(knobs_past(knob, value), where="rules.yaml: rules")
    message = str(caught.value)
    assert "\n" not in message
    assert re.match(rf"rules\.yaml: rules\.(bid_min|bid_max|{knob}): {value}: expected ", message), message
    assert f" to {MOST[knob]}" in message, message


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 12), st.integers(0, 57))
def test_counters_past_a_hands_most_are_refused(rank_index: int, extra: int) -> None:
    rank = TOURNAMENT.ranks[rank_index % len(TOURNAMENT.ranks)]
    points = POINTS_MOST + 1 + extra - TOURNAMENT.rook_points
    with pytest.raises(RulesError, match=rf"^rules\.counters: .* points in a hand: expected at most {POINTS_MOST} "):
        Rules.from_mapping({"counters": {rank: points}})
    with pytest.raises(RulesError, match=rf"^rules\.rook_points: .*: expected a whole number 0 to {POINTS_MOST}"):
        Rules.from_mapping({"rook_points": POINTS_MOST + 1 + extra})


LARGEST = {
    "bid_min": {"bid_min": BID_MOST, "bid_max": BID_MOST},
    "bid_max": {"bid_max": BID_MOST, "bid_step": BID_MOST - 70},
    "bid_step": {"bid_min": 1, "bid_max": BID_MOST + 1 - 1, "bid_step": BID_MOST - 1},
    "bid_step alone": {"bid_min": 70, "bid_max": 70, "bid_step": BID_MOST},
    "rook_points": {"rook_points": POINTS_MOST - 100, "counters": {5: 5, 10: 10, 14: 10}},
    "counters": {"counters": {14: (POINTS_MOST - 20) // 4}},
    "target": {"target": TARGET_MOST},
    "hand_limit": {"hand_limit": HAND_LIMIT_MOST, "target": TARGET_MOST},
    "everything": {
        "bid_min": BID_MOST,
        "bid_max": BID_MOST,
        "bid_step": BID_MOST,
        "counters": {14: (POINTS_MOST - 20) // 4},
        "target": TARGET_MOST,
        "hand_limit": HAND_LIMIT_MOST,
    },
}


@pytest.mark.parametrize("knobs", LARGEST.values(), ids=LARGEST.keys())
def test_the_largest_values_play_a_whole_game(knobs: dict[str, Any]) -> None:
    rules = Rules.from_mapping(knobs)
    record = random_game(rules, random.Random(7).getrandbits(64), "largest")
    assert record["result"] is not None
    assert len(record["hands"]) <= rules.hand_limit
    for hand in record["hands"]:
        if hand["bid"] is not None:
            assert actions.parse_action(f"bid {hand['bid']}") == actions.bid(hand["bid"])
    assert all(abs(score) < 2**31 for score in record["result"]["scores"])


def test_the_most_of_every_number_knob_is_documented_in_its_allowed_values() -> None:
    from rookarena.engine.rules import KNOBS

    for knob, most in MOST.items():
        assert f"to {most}" in KNOBS[knob].allowed, knob
    assert dataclasses.replace(TOURNAMENT, hand_limit=HAND_LIMIT_MOST).hand_limit == HAND_LIMIT_MOST
