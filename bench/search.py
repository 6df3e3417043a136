"""Search speed: playouts of the fast trick phase against the engine's, and the search bot's decisions.

Measured in the same run, on this machine, for each preset given: (a) playouts per second of the trick
phase from its first lead with :func:`rookarena.players.fast.playout` (and plays per second), (b) the
baseline: the same positions played out in the engine, a ``copy.deepcopy`` of a :class:`Game` then
``legal_actions``/``apply`` with random choices until the hand is scored, and their ratio; (c) seconds
per decision of the search player at each level over the decisions of whole games against the
heuristic (forced decisions, with one legal answer, excluded), with the slowest decision seen.

Run: ``python bench/search.py [--presets tournament,open-nest] [--seconds S] [--games N]``; it exits 0.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from typing import Any

from rookarena.engine.cards import COLORS
from rookarena.engine.game import Game, Phase
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import Rules
from rookarena.players import random_action
from rookarena.players.base import Deadline, Player
from rookarena.players.fast import Deck, playout
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game
from rookarena.players.search import LEVELS, SearchPlayer, settings_for

SEED = 20261201


def positions(rules: Rules, count: int) -> list[Game]:
    """Games at the first lead of a hand, reached by random play from seeded deals."""
    out: list[Game] = []
    rng = random.Random(SEED)
    while len(out) < count:
        game = Game(rules, random.Random(rng.random()))
        while not game.is_over and game.phase is not Phase.PLAY:
            game.apply(random_action(game.legal_actions(), rng))
        if game.phase is Phase.PLAY:
            out.append(game)
    return out


def fast_rate(rules: Rules, games: list[Game], seconds: float) -> tuple[float, float]:
    """Playouts and plays per second of the fast trick phase over ``games``."""
    deck = Deck.of(rules)
    starts = []
    for game in games:
        assert game.trump is not None
        hands = [deck.ints([str(card) for card in hand]) for hand in game.hands]
        starts.append((COLORS.index(game.trump), hands, game.trick_leader, game.bidder or 0))
    rng = random.Random(1)
    done = plays = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for trump, hands, leader, bidder in starts:
            copies = [list(hand) for hand in hands]
            plays += sum(len(hand) for hand in copies)
            playout(deck, trump, copies, leader, [], [0, 0], rng, bidder % 2)
            done += 1
    elapsed = time.perf_counter() - began
    return done / elapsed, plays / elapsed


def engine_rate(games: list[Game], seconds: float) -> float:
    """Playouts per second of the same positions in the engine: a deep copy, then random legal plays."""
    rng = random.Random(1)
    done = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for game in games:
            copied = copy.deepcopy(game)
            hand = copied.hand_number
            while copied.hand_number == hand and not copied.is_over:
                copied.apply(random_action(copied.legal_actions(), rng), known_legal=True)
            done += 1
    return done / (time.perf_counter() - began)


def decision_times(rules: Rules, level: int, games: int) -> list[float]:
    """Seconds of each unforced decision of the search player at ``level`` in games against the heuristic."""
    times: list[float] = []

    class Timed(SearchPlayer):
        def act(self, request: dict[str, Any], deadline: Deadline) -> str:
            began = time.perf_counter()
            answer = super().act(request, deadline)
            if len(request["legal"]) > 1:
                times.append(time.perf_counter() - began)
            return answer

    for number in range(games):
        search: Player = Timed(settings_for(level), seed=number)
        heuristic: Player = HeuristicPlayer()
        seats = [search, heuristic, search, heuristic] if number % 2 == 0 else [heuristic, search, heuristic, search]
        play_game(rules, SEED + number // 2, seats, first_dealer=number % 4)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--presets", default="tournament,open-nest", help="comma-separated (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout measurement")
    parser.add_argument("--games", type=int, default=2, help="games per level for the decision times")
    args = parser.parse_args()
    for name in args.presets.split(","):
        rules = PRESETS[name].rules
        games = positions(rules, 50)
        fast, plays = fast_rate(rules, games, args.seconds)
        engine = engine_rate(games, args.seconds)
        print(f"{name}: fast playouts {fast:,.0f}/s ({plays:,.0f} plays/s); engine deepcopy+apply {engine:,.0f}/s;")
        print(f"    ratio {fast / engine:.1f}x")
        for level in LEVELS:
            times = decision_times(rules, level, args.games)
            print(
                f"    level {level} ({LEVELS[level]} playouts): {len(times)} unforced decisions, "
                f"mean {statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
                f"max {max(times):.3f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
