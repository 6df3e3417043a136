"""The seconds a decision of two search settings take on the same positions, side by side.

On a shared machine the seconds a decision takes move with the load, so two settings timed in two runs
cannot be compared. This plays first hands of the search (the first setting) against the heuristic and
puts every decision of the search's seats to both settings, one after the other (in turn which goes
first), so that both meet the same positions under the same load. The first setting's answer is
played. It prints, by phase, the mean and the slowest seconds of each and the ratio of their means.

Run: ``python bench/timing.py [--deals 20] [--seed 9000] [--set NAME=VALUE ...] --against NAME=VALUE ...``
(``--set`` changes the first setting, ``--against`` the second, both from the level's own settings;
``--think`` gives both a cap, in seconds, as a referee's deadline would).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from typing import Any

from hands import parse_settings, search_arguments

from rookarena.engine.presets import PRESETS
from rookarena.players.base import Deadline, Player
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer


class Twin:
    """A seat played by ``first``, each of whose decisions ``second`` is also timed on."""

    def __init__(self, first: SearchPlayer, second: SearchPlayer, times: dict[str, list[list[float]]]) -> None:
        self.first, self.second, self.times = first, second, times
        self.name, self.view = first.name, first.view
        self.turn = 0

    def start_game(self, message: dict[str, Any]) -> None:
        self.first.start_game(message)
        self.second.start_game(message)

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        phase = request["view"]["phase"]
        self.turn += 1
        order = [(0, self.first), (1, self.second)]
        if self.turn % 2:
            order.reverse()
        answer = ""
        spent = [0.0, 0.0]
        for which, player in order:
            began = time.perf_counter()
            got = player.act(request, deadline)
            spent[which] = time.perf_counter() - began
            if which == 0:
                answer = got
        if len(request["legal"]) > 1:
            pair = self.times.setdefault(phase, [[], []])
            pair[0].append(spent[0])
            pair[1].append(spent[1])
        return answer


def _clock() -> Deadline:
    """A deadline that never comes on a real clock, so that ``--think`` caps a decision as under a referee."""
    return Deadline(time.perf_counter, float("inf"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    search_arguments(parser, deals=20, seed=9000)
    parser.add_argument("--against", nargs="*", default=[], metavar="NAME=VALUE")
    parser.add_argument("--think", type=float, default=0.0, help="both settings' cap in seconds (0: none)")
    args = parser.parse_args()
    cap = args.think or None
    first = dataclasses.replace(parse_settings(args.level, args.set), think=cap)
    second = dataclasses.replace(parse_settings(args.level, args.against), think=cap)
    times: dict[str, list[list[float]]] = {}
    for seed in range(args.seed, args.seed + args.deals):
        for ours in (0, 1):
            players: list[Player] = [
                Twin(SearchPlayer(first, seed=1), SearchPlayer(second, seed=1), times)
                if seat % 2 == ours
                else HeuristicPlayer()
                for seat in range(4)
            ]
            play_game(PRESETS[args.rules].rules, seed, players, game_id="timing", hands=1, deadline=_clock)
    print(f"first: {args.set or 'level'}; second: {args.against or 'level'}; cap {cap}")
    every: list[list[float]] = [[], []]
    for phase, (a, b) in sorted(times.items()):
        every[0] += a
        every[1] += b
        _line(phase, a, b)
    _line("all", *every)


def _line(name: str, a: list[float], b: list[float]) -> None:
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    print(
        f"  {name:8} {len(a):5} decisions: first mean {mean_a:.4f} s, max {max(a):.3f}; "
        f"second mean {mean_b:.4f} s, max {max(b):.3f}; ratio {mean_b / mean_a:.2f}"
    )


if __name__ == "__main__":
    main()
