"""In-process players for simulation and tests: pure functions of the legal actions and an injected RNG."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rookarena.actions import Action, Bid, Pass


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
