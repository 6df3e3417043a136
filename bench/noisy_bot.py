#!/usr/bin/env python3
"""The sample heuristic bot, playing a random legal card instead of its own choice a given share of the time.

A close opponent for regression benchmarks (``bench/sprt.py``): with ``--noise 0.05`` it is a few
dozen Elo weaker than the heuristic bot. Only card play is perturbed (bids, discards and trump stay
the heuristic's). The random choices come from ``--seed`` (default 1), one stream per process.

Run: python3 bench/noisy_bot.py --noise 0.05 [--seed N] [--name NAME]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "sample_bots" / "python"))

import heuristic_bot  # type: ignore[import-not-found]


def main() -> None:
    parser = argparse.ArgumentParser(description="The heuristic bot with random card play mixed in.")
    parser.add_argument("--noise", type=float, default=0.05, help="the share of card plays made at random")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the random plays")
    args, rest = parser.parse_known_args()
    rng = random.Random(args.seed)
    own = heuristic_bot.decide

    def decide(request: dict[str, Any], rules: dict[str, Any]) -> str:
        legal: list[str] = request["legal"]
        if request["view"]["phase"] == "play" and len(legal) > 1 and rng.random() < args.noise:
            return legal[int(rng.random() * len(legal))]
        return str(own(request, rules))

    heuristic_bot.decide = decide
    sys.argv = [sys.argv[0], *rest]
    heuristic_bot.main()


if __name__ == "__main__":
    main()
