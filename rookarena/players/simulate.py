"""Whole games between in-process random players, and the summary figures of a batch of records."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from typing import Any

from rookarena.engine.rules import Rules
from rookarena.engine.seeding import players_seed
from rookarena.players import random_action
from rookarena.wire import records


def random_game(rules: Rules, seed: int, rules_name: str) -> dict[str, Any]:
    """The record of one game of four random players; deals from ``seed``, choices from a derived seed."""
    game = records.new_game(rules, seed)
    rng = random.Random(players_seed(seed))
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
    return records.build(game, seed=seed, rules_name=rules_name, seats=["random"] * 4)


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    games: int
    hands: int
    redeals: int
    average_bid: float
    bids_made: int
    bids: int
    wins: tuple[int, int]
    draws: int


def summarize(batch: Iterable[Mapping[str, Any]]) -> Summary:
    games = hands = redeals = made = bid_total = bids = draws = 0
    wins = [0, 0]
    for record in batch:
        games += 1
        for hand in record["hands"]:
            hands += 1
            if hand["bidder"] is None:
                redeals += 1
                continue
            bids += 1
            bid_total += hand["bid"]
            made += bool(hand["made"])
        result = record["result"]
        if result is None or result["winner"] is None:
            draws += 1
        else:
            wins[result["winner"]] += 1
    return Summary(
        games=games,
        hands=hands,
        redeals=redeals,
        average_bid=bid_total / bids if bids else 0.0,
        bids_made=made,
        bids=bids,
        wins=(wins[0], wins[1]),
        draws=draws,
    )
