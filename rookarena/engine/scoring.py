"""Scoring, pure: the points a hand's tricks and nest are worth to each team, whether the bidders made
their bid, and the outcome of the game after a hand (the target, both teams past it, the hand limit).

The game engine (:mod:`rookarena.engine.game`) calls these when a hand's last trick is played.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from rookarena.engine.cards import Card
from rookarena.engine.rules import BidMade, BothCross, NestTo, Rules, TargetRule


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    winner: int | None  # the winning team; None for a draw at the hand limit
    scores: tuple[int, int]
    hands: int  # hands played, redeals included
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class HandTally:
    """What one played hand is worth: each team's counters (the nest's included) and its score change."""

    nest_team: int
    nest_counters: int
    counters: tuple[int, int]
    made: bool
    change: tuple[int, int]


def score_hand(
    rules: Rules,
    points: Mapping[Card, int],
    bidder: int,
    high_bid: int,
    taken: Sequence[int],
    last_winner: int,
    discards: Sequence[Card],
) -> HandTally:
    """The tally of a hand whose tricks are all played, given the counters each team took in tricks
    (``taken``) and the seat that won the last trick: the nest goes to that seat's team or to the
    bidders, as the rules say; a bidding team short of its bid loses the bid instead of scoring."""
    bidders = bidder % 2
    nest_team = last_winner % 2 if rules.nest_to is NestTo.LAST_TRICK else bidders
    nest_counters = sum(points[card] for card in discards)
    counters = list(taken)
    counters[nest_team] += nest_counters
    if rules.bid_made is BidMade.AT_LEAST:
        made = counters[bidders] >= high_bid
    else:
        made = counters[bidders] > high_bid
    change = list(counters)
    if not made:
        change[bidders] = -high_bid
    return HandTally(nest_team, nest_counters, (counters[0], counters[1]), made, (change[0], change[1]))


def decide(rules: Rules, scores: tuple[int, int], hands: int, bidders: int) -> Outcome | None:
    """The outcome after a scored hand, or None when the game goes on."""
    if rules.target_rule is TargetRule.REACH:
        crossed = [score >= rules.target for score in scores]
    else:
        crossed = [score > rules.target for score in scores]
    if crossed[0] != crossed[1]:
        return Outcome(0 if crossed[0] else 1, scores, hands, "reached the target")
    if not crossed[0]:
        return None
    if rules.both_cross is BothCross.BIDDER_WINS:
        return Outcome(bidders, scores, hands, "both passed the target: the bidding team wins")
    if scores[0] == scores[1]:
        return None
    return Outcome(0 if scores[0] > scores[1] else 1, scores, hands, "both passed the target: higher total")


def at_limit(rules: Rules, scores: tuple[int, int], hands: int) -> Outcome | None:
    """The hand limit's outcome: a safety stop for games that would never end."""
    if hands < rules.hand_limit:
        return None
    s0, s1 = scores
    winner = None if s0 == s1 else (0 if s0 > s1 else 1)
    return Outcome(winner, scores, hands, "hand limit reached")
