"""Referee throughput: decisions per second through a whole league of the sample random bots, for 1 and 2 jobs.

Run: ``python bench/league.py [--games N] [--rounds R] [--seconds S]``. Each round measures, one after
the other: the floor of any external bot, JSON-line round trips per second between this process and a
child Python process over a pipe (``bench/engine.py``'s baseline); a league of the random bots, which
read only the legal actions and so decline the view (``--no-view``), with one job and with two jobs; and,
for comparison, the league with one job when the same bots take the full view with every request. The
baseline is measured again after each league. The machine is shared and its speed drifts, so each league
is compared with the mean of the baselines just before and just after it, and the medians over the rounds
are printed: the referee's rate with one job as a fraction of the raw rate (goal: 70% or more) and the
speed-up of two jobs over one (goal: 1.7x on two cores).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
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
    command: [{python}, {bots}/random_bot.py, --seed, "1"{extra}]
  - name: random-2
    command: [{python}, {bots}/random_bot.py, --seed, "2"{extra}]
"""


def referee_rate(games: int, jobs: int, view: bool = False) -> tuple[int, int, float]:
    """Play a league of two random bots with ``jobs`` units at once; return games, decisions, seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "bench.yaml"
        bots = pathlib.Path(__file__).resolve().parent.parent / "sample_bots" / "python"
        extra = "" if view else ", --no-view"
        path.write_text(CONFIG.format(games=games, python=sys.executable, bots=bots, extra=extra), encoding="utf-8")
        config = league_config.load(path)
        played: list[dict[str, Any]] = []
        started = time.perf_counter()
        if jobs == 1:  # as `rookarena run` does: one job in this process, more in worker processes
            trio.run(league.run, config, league.plan(config), 1, None, played.append)
        else:
            trio.run(workers.run, config, league.plan(config), jobs, None, played.append)
        elapsed = time.perf_counter() - started
    decisions = sum(seat["count"] for record in played for seat in record["timing"])
    if len(played) != games or any(record.get("faults") for record in played):
        raise SystemExit(f"the league did not run cleanly: {len(played)} of {games} games")
    return len(played), decisions, elapsed


def _raw_rate(seconds: float) -> float:
    trips, elapsed = round_trip_rate(seconds)
    return trips / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per league (even; default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of measurements (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds of each baseline (default: %(default)s)")
    args = parser.parse_args()
    one: list[float] = []
    two: list[float] = []
    viewed: list[float] = []
    for number in range(1, args.rounds + 1):
        rates = {}
        raws = [_raw_rate(args.seconds)]
        for label, jobs, view in (("jobs 1", 1, False), ("jobs 2", 2, False), ("jobs 1, full views", 1, True)):
            games, decisions, seconds = referee_rate(args.games, jobs, view)
            rates[label] = decisions / seconds
            raws.append(_raw_rate(args.seconds))
        # Each league is compared with the mean of the baselines measured just before and just after it.
        one.append(rates["jobs 1"] / statistics.mean(raws[0:2]))
        two.append(rates["jobs 2"] / rates["jobs 1"])
        viewed.append(rates["jobs 1, full views"] / statistics.mean(raws[2:4]))
        print(
            f"round {number}: raw {' / '.join(f'{raw:,.0f}' for raw in raws)} round trips/s; "
            + "; ".join(f"{label} {rate:,.0f} decisions/s" for label, rate in rates.items())
            + f" ({decisions:,} decisions in {games} games)"
        )
        print(f"         jobs 1 = {one[-1]:.0%} of raw, jobs 2 = {two[-1]:.2f}x jobs 1, full views = {viewed[-1]:.0%}")
    print(
        f"median of {args.rounds} rounds: one job at {statistics.median(one):.0%} of the raw round-trip rate "
        f"(goal >= 70%); two jobs at {statistics.median(two):.2f}x one job (goal >= 1.7x); "
        f"one job with full views at {statistics.median(viewed):.0%} of raw"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
