"""Referee throughput against the best a Python referee can do and the bare pipe, pinned and free.

Run: ``python bench/league.py [--games N] [--rounds R] [--seconds S] [--bots B]``; it always exits 0.

The league: two sample random bots (``sample_bots/python/random_bot.py``), N games in duplicate under
the tournament rules; the bots read only the legal actions and so decline the view (``--no-view``).
Each round measures, for each placement (this process and every process it starts pinned to one CPU,
then free, or the other way round in alternate rounds), one right after the other:

- the pipe baseline: JSON-line round trips per second with a child Python process (S seconds);
- the minimal blocking referee loop over the same engine, encoders and bots (``bench/baselines.py``);
- ``rookarena``'s referee: ``league.run`` with one job, in trio, as ``rookarena run`` plays it.

The loop and the referee are compared on their rate of play: the decisions of the games after the first,
up to the last but one, over the time from the first game's end to the last but one's (bot start-up and
exit left out; the same for both), and also on whole leagues. Then, free: the referee with two jobs
(worker processes) against one, on this league and on a round robin of B bots with 2 games a pairing
(many 2-game units, so bots start and stop all the time); and the referee with one job when the bots
take the full view with every request. Ratios are taken within a round, where the machine's drift is
shared; the medians over the rounds are printed at the end. The goals (issue #13): the referee at 0.95x
the minimal loop or better, pinned and free; two jobs at 1.8x one job or better.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from typing import Any

import trio
from baselines import PLACEMENTS, Run, bench_config, blocking_rate, pipe_rate, placed, placement_note

from rookarena.arena import league, pool
from rookarena.arena.specs import LeagueConfig

LOOP_GOAL = 0.95
JOBS_GOAL = 1.8
LABEL = 44  # the width of the labels of the medians


def referee_run(config: LeagueConfig, jobs: int) -> Run:
    """Play the league of ``config`` with ``jobs`` units at once: one in this process, more in workers."""
    plan = league.plan(config)
    played: list[tuple[float, dict[str, Any]]] = []

    def on_record(record: dict[str, Any]) -> None:
        played.append((time.perf_counter(), record))

    started = time.perf_counter()
    if jobs == 1:  # as `rookarena run` does: one job in this process, more in worker processes
        trio.run(league.run, config, plan, 1, None, on_record)
    else:
        trio.run(pool.run, config, plan, jobs, None, on_record)
    elapsed = time.perf_counter() - started
    if len(played) != len(plan) or any(record.get("faults") for _, record in played):
        raise SystemExit(f"the league did not run cleanly: {len(played)} of {len(plan)} games")
    counts = tuple(sum(seat["count"] for seat in record["timing"]) for _, record in played)
    return Run(sum(counts), elapsed, tuple(end for end, _ in played), counts)


def _goal(ratio: float, goal: float) -> str:
    return "met" if ratio >= goal else "NOT met"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40, help="games of the league (even; default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of measurements (default: %(default)s)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="seconds of each pipe baseline (default: %(default)s)"
    )
    parser.add_argument("--bots", type=int, default=8, help="bots of the league of 2-game units (default: %(default)s)")
    args = parser.parse_args(argv)
    games = max(4, args.games + args.games % 2)  # the rate of play needs 3 games; duplicate deals, 2
    rounds, seconds, bots = max(1, args.rounds), max(0.01, args.seconds), max(2, args.bots)

    config, viewed, small = bench_config(games), bench_config(games, view=True), bench_config(2, bots)
    print(f"python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print(placement_note())
    print(f"league: 2 random bots, {games} games; units of 2 games: {bots} bots, {len(league.plan(small))} games")
    print("loop and referee: decisions/s of play (whole: of whole leagues); pipe: round trips/s")
    keys = ("referee/loop", "referee/pipe", "loop/pipe", "referee/loop whole")
    ratios: dict[str, dict[str, list[float]]] = {key: {p: [] for p in PLACEMENTS} for key in keys}
    two: list[float] = []
    two_small: list[float] = []
    views: list[float] = []
    views_pipe: list[float] = []
    for number in range(1, rounds + 1):
        order = PLACEMENTS if number % 2 else PLACEMENTS[::-1]
        free: dict[str, float] = {}
        for placement in order:
            with placed(placement):
                pipe = pipe_rate(seconds)
                loop = blocking_rate(config)
                referee = referee_run(config, 1)
                if placement == "free":
                    free = {"pipe": pipe, "jobs 1": referee.rate, "play": referee.steady_rate}
                    free["jobs 2"] = referee_run(config, 2).rate
            got = {
                "referee/loop": referee.steady_rate / loop.steady_rate,
                "referee/pipe": referee.steady_rate / pipe,
                "loop/pipe": loop.steady_rate / pipe,
                "referee/loop whole": referee.rate / loop.rate,
            }
            for key, value in got.items():
                ratios[key][placement].append(value)
            print(
                f"round {number}, {placement + ':':7} pipe {pipe:,.0f}; loop {loop.steady_rate:,.0f} "
                f"(whole {loop.rate:,.0f}); referee {referee.steady_rate:,.0f} (whole {referee.rate:,.0f})"
            )
            print(
                f"{'':17}referee/loop {got['referee/loop']:.2f}x (whole {got['referee/loop whole']:.2f}x), "
                f"referee/pipe {got['referee/pipe']:.2f}x, loop/pipe {got['loop/pipe']:.2f}x"
            )
        small_one, small_two = referee_run(small, 1).rate, referee_run(small, 2).rate
        full = referee_run(viewed, 1).steady_rate
        two.append(free["jobs 2"] / free["jobs 1"])
        two_small.append(small_two / small_one)
        views.append(full / free["play"])
        views_pipe.append(full / free["pipe"])
        print(
            f"round {number}, free:   jobs 2 / jobs 1: {two[-1]:.2f}x "
            f"({free['jobs 2']:,.0f} / {free['jobs 1']:,.0f}); units of 2 games {two_small[-1]:.2f}x "
            f"({small_two:,.0f} / {small_one:,.0f})"
        )
        print(f"{'':17}full views: referee {full:,.0f} = {views[-1]:.2f}x no views, {views_pipe[-1]:.2f}x pipe")

    def median(values: list[float]) -> str:
        return f"{statistics.median(values):.2f}x"

    print()
    print(f"{f'medians of {rounds} round(s)':{LABEL}}{'pinned':>8}{'free':>8}")
    rows = (
        ("referee / minimal loop", "referee/loop", LOOP_GOAL),
        ("referee / pipe", "referee/pipe", None),
        ("minimal loop / pipe", "loop/pipe", None),
        ("referee / minimal loop, whole leagues", "referee/loop whole", None),
    )
    for label, key, goal in rows:
        pinned, unpinned = ratios[key]["pinned"], ratios[key]["free"]
        line = f"{label:{LABEL}}{median(pinned):>8}{median(unpinned):>8}"
        if goal is not None:
            met = f"{_goal(statistics.median(pinned), goal)}, {_goal(statistics.median(unpinned), goal)}"
            line += f"  goal >= {goal}x: {met}"
        print(line)
    for label, values, goal in (
        ("jobs 2 / jobs 1, one pairing", two, JOBS_GOAL),
        (f"jobs 2 / jobs 1, units of 2 games ({bots} bots)", two_small, JOBS_GOAL),
        ("full views / no views (one job)", views, None),
        ("full views / pipe (one job)", views_pipe, None),
    ):
        line = f"{label:{LABEL}}{'':8}{median(values):>8}"
        if goal is not None:
            line += f"  goal >= {goal}x: {_goal(statistics.median(values), goal)}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
