"""Referee throughput: decisions per second through a whole league of the sample random bots, for 1 and 2 jobs.

Run: ``python bench/league.py [--games N] [--seconds S]``. In the same run it measures the floor of any
external bot, JSON-line round trips per second between this process and a child Python process over a
pipe (``bench/engine.py``'s baseline), and prints the referee's rate as a fraction of it (goal: 70% or
more with one job) and the speed-up of two jobs over one (goal: 1.7x on two cores).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time
from typing import Any

import trio

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from engine import round_trip_rate

from rookarena import config as league_config
from rookarena import league, workers

CONFIG = """
name: bench
rules: tournament
games: {games}
duplicate: true
seed: 3
time: {{move: 5, startup: 20}}
bots:
  - name: random-1
    command: [{python}, {bots}/random_bot.py, --seed, "1"]
  - name: random-2
    command: [{python}, {bots}/random_bot.py, --seed, "2"]
"""


def referee_rate(games: int, jobs: int) -> tuple[int, int, float]:
    """Play a league of two random bots with ``jobs`` units at once; return games, decisions, seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "bench.yaml"
        bots = pathlib.Path(__file__).resolve().parent.parent / "sample_bots" / "python"
        path.write_text(CONFIG.format(games=games, python=sys.executable, bots=bots), encoding="utf-8")
        config = league_config.load(path)
        played: list[dict[str, Any]] = []
        started = time.perf_counter()
        if jobs == 1:  # as `rookarena run` does: one job in this process, more in worker processes
            trio.run(league.run, config, league.plan(config), 1, None, played.append)
        else:
            trio.run(workers.run, config, league.plan(config), jobs, None, played.append)
        elapsed = time.perf_counter() - started
    decisions = sum(seat["count"] for record in played for seat in record["timing"])
    return len(played), decisions, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per measurement (even)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of the round-trip baseline")
    args = parser.parse_args()
    trips, trip_seconds = round_trip_rate(args.seconds)
    raw = trips / trip_seconds
    print(f"baseline: {raw:,.0f} JSON-line round trips/s with a child process ({trips:,} in {trip_seconds:.1f} s)")
    rates = {}
    for jobs in (1, 2):
        games, decisions, seconds = referee_rate(args.games, jobs)
        rates[jobs] = decisions / seconds
        print(
            f"jobs {jobs}: {games} games, {decisions:,} decisions in {seconds:.1f} s = {rates[jobs]:,.0f} decisions/s "
            f"({rates[jobs] / raw:.0%} of the raw round-trip rate)"
        )
    speedup = rates[2] / rates[1]
    print(f"one job: {rates[1] / raw:.0%} of raw (goal >= 70%); two jobs: {speedup:.2f}x one job (goal >= 1.7x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
