"""In-process players for simulation and tests: pure functions of the legal actions and an injected RNG."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rookarena.engine.actions import Action, Bid, Pass, parse_action
from rookarena.players.base import Deadline


def random_action(legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action.

    Uniform over the legal actions, except in the auction, where it passes or makes the lowest legal
    bid with equal chance (when both are allowed): uniformly random bids would climb to the maximum
    every hand, lose it every hand, and games would never reach the target.
    """
    first = legal[0]
    if type(first) is Pass or type(first) is Bid:
        lowest = next((action for action in legal if type(action) is Bid), first)
        if type(first) is Pass and lowest is not first and rng.random() < 0.5:
            return lowest
        return first
    return legal[int(rng.random() * len(legal))]


class RandomPlayer:
    """:func:`random_action` as a player of the built-in bot loop; it reads only the legal actions."""

    name = "rookarena-random"
    view = False

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self.rng = random.Random(f"{seed}")

    def start_game(self, message: dict[str, Any]) -> None:
        # Reseeded per game and seat: a game's choices do not depend on what the process played before.
        game_seed = message.get("seed")
        key = game_seed if game_seed is not None else message.get("game", "")
        self.rng = random.Random(f"{self.seed}/{key}/{message.get('seat', 0)}")

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        legal = [parse_action(text) for text in request["legal"]]
        return str(random_action(legal, self.rng))
