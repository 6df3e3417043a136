"""Engine speed against the cost of talking to a bot, pinned to one CPU and free, in the same run.

A referee spends one JSON-line round trip with a bot process per decision, so the engine is fast enough
when it makes many decisions in the time of one round trip. Each round measures, on this machine and now:

- the engine: decisions per second of whole random games under every preset (``random_action`` +
  ``Game.legal_actions`` + ``Game.apply``, deals and choices from fixed seeds), in this process alone;
- the pipe baseline (``bench/baselines.py``): round trips per second of a realistic request and a short
  reply between this process and a child Python process, pinned to one CPU and free;
- the minimal blocking referee loop (``bench/baselines.py``): decisions per second of a league of two
  sample random bots under the tournament rules, played by the plainest loop over the same engine,
  encoders and bot processes, pinned and free (play only: start-up and exit left out).

Where the scheduler puts the two ends of a pipe moves the baseline several times over (a wake-up across
CPUs costs far more than one on the same CPU), so both placements are measured, one after the other and
in alternating order, and each ratio is taken within a round; the medians over the rounds are printed.
The ratios: engine / pipe, pinned and free (the goal: at least 10 for every preset), and minimal loop /
pipe, pinned and free (how close a real referee loop can come to the bare round trip).

Run it as ``python bench/engine.py [--seconds S] [--rounds R]`` (S seconds per measurement); it always
exits 0. One round takes about (presets + 4) * S seconds.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence

from baselines import PLACEMENTS, bench_config, blocking_rate, pinned_and_free, pipe_rate, placement_note

from rookarena.engine.game import Game
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import Rules
from rookarena.players import random_action
from rookarena.wire.records import derive_seed

GOAL = 10.0
SEED = 20240601
LOOP_GAMES = 1000  # more than any measurement plays: the loop stops on time


def engine_rate(rules: Rules, seconds: float) -> tuple[int, int, float]:
    """Play whole games until ``seconds`` have passed; return games, decisions and elapsed seconds."""
    games = decisions = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        seed = derive_seed(SEED, games)
        game = Game(rules, random.Random(seed))
        rng = random.Random(derive_seed(seed, "players"))
        while not game.is_over:
            game.apply(random_action(game.legal_actions(), rng))
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - started
    return games, decisions, elapsed


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    lines = []
    for i, row in enumerate((header, *rows)):
        cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * width for width in widths))
    return lines


def _met(ratio: float) -> str:
    return "met" if ratio >= GOAL else "NOT met"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of measurements (default: %(default)s)")
    args = parser.parse_args(argv)
    seconds: float = max(args.seconds, 0.01)
    rounds: int = max(args.rounds, 1)

    print(f"python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print(placement_note())
    loop_config = bench_config(LOOP_GAMES)
    engine: dict[str, list[float]] = {name: [] for name in PRESETS}
    pipe: dict[str, list[float]] = {placement: [] for placement in PLACEMENTS}
    loop: dict[str, list[float]] = {placement: [] for placement in PLACEMENTS}
    over_pipe: dict[str, dict[str, list[float]]] = {name: {p: [] for p in PLACEMENTS} for name in PRESETS}
    loop_over_pipe: dict[str, list[float]] = {placement: [] for placement in PLACEMENTS}
    for number in range(1, rounds + 1):
        for name, preset in PRESETS.items():
            _, decisions, elapsed = engine_rate(preset.rules, seconds)
            engine[name].append(decisions / elapsed)
        both = pinned_and_free(
            lambda: (pipe_rate(seconds), blocking_rate(loop_config, seconds).steady_rate), pinned_first=number % 2 == 1
        )
        for placement, (trips, loop_rate) in both.items():
            pipe[placement].append(trips)
            loop[placement].append(loop_rate)
        for placement in PLACEMENTS:
            for name in PRESETS:
                over_pipe[name][placement].append(engine[name][-1] / pipe[placement][-1])
            loop_over_pipe[placement].append(loop[placement][-1] / pipe[placement][-1])
        rates = [rate[-1] for rate in engine.values()]
        print(
            f"round {number}: pipe {pipe['pinned'][-1]:,.0f} pinned, {pipe['free'][-1]:,.0f} free round trips/s\n"
            f"{'':9}loop {loop['pinned'][-1]:,.0f} pinned, {loop['free'][-1]:,.0f} free decisions/s; "
            f"engine {min(rates):,.0f} to {max(rates):,.0f} across presets"
        )

    def median(values: list[float]) -> float:
        return statistics.median(values)

    print()
    print(f"medians of {rounds} round(s); a ratio's is the median of the ratios taken within each round")
    print()
    rows = [
        (
            name,
            f"{median(engine[name]):,.0f}",
            f"{median(over_pipe[name]['pinned']):.1f}x",
            f"{median(over_pipe[name]['free']):.1f}x",
        )
        for name in PRESETS
    ]
    for line in _table(("preset", "engine decisions/s", "/ pipe pinned", "/ pipe free"), rows):
        print(line)
    print()
    print(
        f"pipe baseline:         {median(pipe['pinned']):>9,.0f} round trips/s pinned, {median(pipe['free']):,.0f} free"
    )
    print(
        f"minimal blocking loop: {median(loop['pinned']):>9,.0f} decisions/s pinned, {median(loop['free']):,.0f} free"
    )
    print(
        f"minimal loop / pipe:   {median(loop_over_pipe['pinned']):>9.2f}x pinned, "
        f"{median(loop_over_pipe['free']):.2f}x free"
    )
    worst = {p: min(median(over_pipe[name][p]) for name in PRESETS) for p in PLACEMENTS}
    print(
        f"engine / pipe, min across presets (goal >= {GOAL:.0f}x): "
        f"{worst['pinned']:.1f}x pinned: {_met(worst['pinned'])}; {worst['free']:.1f}x free: {_met(worst['free'])}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
