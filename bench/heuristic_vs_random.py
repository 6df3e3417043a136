"""The sample heuristic bot against the sample random bot: how often the heuristic team wins a game.

Both bots are loaded from their files under ``sample_bots/python`` and driven in-process (no
subprocesses): each request is built with :func:`rookarena.wire.messages.act_message` exactly as the
referee sends it, each answer is parsed with :func:`rookarena.engine.actions.parse_action` and applied to the
engine. Games are duplicate: every seed is played twice on the same deals, the heuristic pair in seats
0 and 2 and then in seats 1 and 3, so that the luck of the cards cancels out. A draw (a game stopped
by the hand limit with equal scores) counts as not won.

Run it as ``python bench/heuristic_vs_random.py [--seeds N] [--presets NAME,...] [--seed S]``. It prints,
per preset and over all, the heuristic's win rate with a 95% Wilson interval, and exits 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from rookarena.engine.actions import parse_action
from rookarena.engine.game import Game, team_of
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import Rules
from rookarena.wire import records
from rookarena.wire.messages import act_message
from rookarena.wire.records import derive_seed

BOTS = Path(__file__).resolve().parent.parent / "sample_bots" / "python"
DEFAULT_PRESETS = "tournament,open-nest,kentucky"
DEADLINE_MS = 1000
BANK_MS = 10000
Z95 = 1.959964

Decide = Callable[[dict[str, Any]], str]


def load(name: str) -> ModuleType:
    """Import ``sample_bots/python/<name>.py`` as a module (the directory is not a package)."""
    path = BOTS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"sample_bot_{name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclasses.dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    hands: int = 0
    contracts: int = 0  # hands the heuristic team won the auction
    made: int = 0  # of those, bids made
    opponent_contracts: int = 0
    opponent_made: int = 0
    margin: int = 0  # heuristic score minus random score, summed over games

    def add(self, other: Tally) -> None:
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))


def play(game: Game, deciders: Sequence[Decide]) -> None:
    """Play ``game`` to the end, asking ``deciders[seat]`` for every action of that seat."""
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions()
        request = act_message(game, seat, legal, DEADLINE_MS, BANK_MS)
        answer = deciders[seat](request)
        if answer not in request["legal"]:
            raise RuntimeError(f"seat {seat} answered {answer!r}, not one of {request['legal']}")
        game.apply(parse_action(answer))


def duplicate(rules: Rules, game_seed: int, heuristic: ModuleType, rand: ModuleType) -> Tally:
    """Both games of one deal seed: the heuristic team in seats 0 and 2, then in seats 1 and 3."""
    tally = Tally()
    mapping = rules.to_mapping()  # what the "game" message tells a bot
    for team in (0, 1):
        game = records.new_game(rules, game_seed)
        rng = random.Random(derive_seed(game_seed, "random-bot", team))

        def heuristic_decide(request: dict[str, Any], mapping: dict[str, Any] = mapping) -> str:
            return str(heuristic.decide(request, mapping))

        def random_decide(request: dict[str, Any], rng: random.Random = rng) -> str:
            return str(rand.choose(request, rng))

        deciders: list[Decide] = [heuristic_decide if team_of(seat) == team else random_decide for seat in range(4)]
        play(game, deciders)
        outcome = game.outcome
        assert outcome is not None
        tally.games += 1
        tally.hands += outcome.hands
        tally.margin += outcome.scores[team] - outcome.scores[1 - team]
        if outcome.winner is None:
            tally.draws += 1
        elif outcome.winner == team:
            tally.wins += 1
        for hand in game.history:
            if hand.bidder is None:
                continue
            ours = team_of(hand.bidder) == team
            tally.contracts += ours
            tally.made += ours and bool(hand.made)
            tally.opponent_contracts += not ours
            tally.opponent_made += not ours and bool(hand.made)
    return tally


def line(name: str, tally: Tally) -> str:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    made = tally.made / tally.contracts if tally.contracts else 0.0
    opponent_made = tally.opponent_made / tally.opponent_contracts if tally.opponent_contracts else 0.0
    return (
        f"{name:<12} {tally.games:>6} {tally.wins:>6} {tally.draws:>6} {rate:>7.1%}  [{low:.1%}, {high:.1%}]"
        f"  {tally.hands / max(1, tally.games):>6.1f} {made:>7.0%} ({tally.contracts})"
        f" {opponent_made:>7.0%} ({tally.opponent_contracts}) {tally.margin / max(1, tally.games):>+8.0f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=150, help="deals per preset; each is played twice")
    parser.add_argument("--presets", default=DEFAULT_PRESETS, help="comma-separated preset names, or 'all'")
    parser.add_argument("--seed", type=int, default=20240601, help="base seed of the deals and random choices")
    args = parser.parse_args(argv)
    names = list(PRESETS) if args.presets == "all" else [name.strip() for name in args.presets.split(",")]
    unknown = [name for name in names if name not in PRESETS]
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}: expected some of {', '.join(PRESETS)}")
    heuristic, rand = load("heuristic_bot"), load("random_bot")
    print(f"heuristic_bot vs random_bot: {args.seeds} duplicate deals (x2 games) per preset, base seed {args.seed}")
    print(
        f"{'preset':<12} {'games':>6} {'wins':>6} {'draws':>6} {'win':>7}  {'95% Wilson':<16}"
        f" {'hands':>6} {'h.made':>7} {'(bids)':<5} {'r.made':>7} {'(bids)':<5} {'margin':>8}"
    )
    total = Tally()
    started = time.perf_counter()
    for name in names:
        tally = Tally()
        for i in range(args.seeds):
            tally.add(duplicate(PRESETS[name].rules, derive_seed(args.seed, name, i), heuristic, rand))
        print(line(name, tally), flush=True)
        total.add(tally)
    if len(names) > 1:
        print(line("all", total))
    print(f"({time.perf_counter() - started:.1f} s; h.made/r.made: bids made by the heuristic/random team)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
