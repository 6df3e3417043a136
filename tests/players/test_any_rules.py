"""Every built-in player, and the sample heuristic bot, plays under any rules the referee accepts: generated
rule sets reach every knob's extremes (a deck of one card number, a deck worth no points, a nest of one
card or of all but four, one bid or many, a target of 1), and no decision, nor the start of a game, raises.
A deck of one number had crashed the search bot as it read the game's rules, and that deck or one worth no
points had made the heuristic raise at every decision (its bot then played the first legal action)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st
from test_heuristic_sample import SAMPLE_BOT

from rookarena.engine.rules import BID_MOST, Rules
from rookarena.errors import RulesError
from rookarena.players import RandomPlayer
from rookarena.players.base import Deadline, Player
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer, settings_for

CHOICES = {
    "rook_rank": ["high", "ten-half"],
    "all_pass": ["redeal-next-dealer", "redeal-same-dealer", "dealer-must-bid"],
    "nest_seen_by": ["bidder", "all"],
    "nest_order": ["discard-then-trump", "trump-then-discard"],
    "first_lead": ["left-of-dealer", "bidder", "left-of-bidder"],
    "nest_to": ["last-trick", "bidder-team"],
    "bid_made": ["at-least", "more-than"],
    "target_rule": ["reach", "exceed"],
    "both_cross": ["higher-total", "bidder-wins"],
}
FLAGS = ("opener_may_pass", "rook_anytime", "lone_rook_forced", "must_trump")


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A rule set the referee accepts, its knobs drawn with their extremes likely."""
    numbers = draw(st.lists(st.integers(1, 14), min_size=1, max_size=14, unique=True))
    ranks = sorted(numbers) if draw(st.booleans()) else numbers
    size = len(ranks)
    nest = 1 + 4 * draw(st.one_of(st.just(0), st.just(size - 1), st.integers(0, size - 1)))  # hands of 1 card too
    points = st.one_of(st.just(0), st.integers(0, 60))
    counters = draw(st.one_of(st.just({}), st.dictionaries(st.sampled_from(ranks), points, max_size=size)))
    bid_min = draw(st.one_of(st.just(1), st.integers(1, 300), st.just(BID_MOST)))
    bid_step = draw(st.one_of(st.just(1), st.integers(1, 50), st.just(BID_MOST)))
    bids = draw(st.integers(0, 40))
    mapping: dict[str, Any] = {
        "ranks": ranks,
        "nest_size": nest,
        "counters": {str(rank): value for rank, value in counters.items()},
        "rook_points": draw(points),
        "bid_min": bid_min,
        "bid_step": bid_step,
        "bid_max": min(BID_MOST, bid_min + bid_step * bids),
        "target": draw(st.one_of(st.just(1), st.integers(1, 1000))),
        "hand_limit": draw(st.integers(1, 4)),
    }
    for knob, values in CHOICES.items():
        mapping[knob] = draw(st.sampled_from(values))
    for flag in FLAGS:
        mapping[flag] = draw(st.booleans())
    try:
        return Rules.from_mapping(mapping)
    except RulesError:
        assume(False)
        raise


class Sample(HeuristicPlayer):
    """The sample heuristic bot's decisions (``sample_bots/python/heuristic_bot.py``), as a player."""

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        action = SAMPLE_BOT.decide(request, self.rules)
        assert action in request["legal"]
        return str(action)


def players(kind: str) -> list[Player]:
    if kind == "random":
        return [RandomPlayer(seat) for seat in range(4)]
    if kind == "heuristic":
        return [HeuristicPlayer() for _ in range(4)]
    if kind == "sample":
        return [Sample() for _ in range(4)]
    # the search bot against the heuristic, on a small budget (its every part runs at any budget)
    return [
        SearchPlayer(settings_for(1, playouts=8), seat) if seat % 2 == 0 else HeuristicPlayer() for seat in range(4)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    rules=any_rules(),
    kind=st.sampled_from(["random", "heuristic", "sample", "search"]),
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
)
def test_every_built_in_player_plays_under_any_accepted_rules(rules: Rules, kind: str, seed: int, dealer: int) -> None:
    game = play_game(rules, seed, players(kind), first_dealer=dealer, hands=rules.hand_limit)
    assert game.history or game.is_over


@pytest.mark.parametrize(
    "extreme",
    [
        lambda rules: len(rules.ranks) == 1,
        lambda rules: len(rules.ranks) == 14,
        lambda rules: rules.total_counters == 0,
        lambda rules: rules.nest_size == 1,
        lambda rules: rules.hand_size == 1,
        lambda rules: len(rules.bids) == 1,
        lambda rules: rules.bid_max == BID_MOST,
        lambda rules: rules.target == 1,
    ],
)
def test_the_generated_rules_reach_the_extremes(extreme: Callable[[Rules], bool]) -> None:
    """(The strategy itself: it gives each extreme, as a rule set the referee accepts.)"""
    found = find(any_rules(), extreme, settings=settings(max_examples=2000, database=None))
    assert Rules.from_mapping(found.to_mapping()) == found
