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
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import trio

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from engine import round_trip_rate

from rookarena import config as league_config
from rookarena import league, protocol, records, workers

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


def blocking_rate(games: int) -> tuple[int, int, float]:
    """The same league played by the plainest referee there is: one blocking loop over the same engine,
    encoders and bot processes (no event loop, no deadlines, no stderr, no records); games, decisions, seconds.

    It is the best a referee in Python can do with these bots, and what ``rookarena``'s referee is measured
    against (issue #13's goal: at least 0.95 of its rate).
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "bench.yaml"
        bots = pathlib.Path(__file__).resolve().parent.parent / "sample_bots" / "python"
        path.write_text(CONFIG.format(games=games, python=sys.executable, bots=bots, extra=", --no-view"))
        config = league_config.load(path)
    entry_a, entry_b = config.entries
    # Programs 0, 1: team A's two processes; 2, 3: team B's (as a match's slots).
    procs = [
        subprocess.Popen(list(spec.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        for spec in (entry_a.bot, entry_a.partner, entry_b.bot, entry_b.partner)
    ]
    try:
        readers = [proc.stdout for proc in procs]
        writers = [proc.stdin for proc in procs]
        assert all(readers) and all(writers)
        hello = protocol.encode(protocol.hello_message("bench"))
        for writer, reader in zip(writers, readers, strict=True):
            assert writer is not None and reader is not None
            writer.write(hello)
            reader.readline()
        decisions = 0
        started = time.perf_counter()
        for planned in league.plan(config):
            game_plan = planned.game
            slots = [2, 0, 3, 1] if game_plan.swapped else [0, 2, 1, 3]
            game = records.new_game(config.rules, game_plan.seed, game_plan.first_dealer)
            names = [entry_a.name, entry_b.name, entry_a.name, entry_b.name]
            outbox: list[list[bytes]] = [[] for _ in range(4)]
            deals = protocol.deal_messages(game)
            for seat in range(4):
                message = protocol.game_message(
                    game_id=planned.game_id,
                    seat=seat,
                    rules=config.rules,
                    rules_name=config.rules_name,
                    players=names,
                    first_dealer=game_plan.first_dealer,
                    seed=protocol.seat_seed(game_plan.seed, seat),
                )
                outbox[seat] += [protocol.encode(message), protocol.encode(deals[seat])]
            request_id = 0
            while not game.is_over:
                seat = game.to_act
                legal = game.legal_actions()
                request_id += 1
                line = protocol.act_line(game, seat, legal, 5000, 0, request_id, with_view=False)
                writer, reader = writers[slots[seat]], readers[slots[seat]]
                assert writer is not None and reader is not None
                writer.write(b"".join(outbox[seat]) + line)
                outbox[seat] = []
                reply = json.loads(reader.readline())
                action = protocol.offered_action(reply["action"], legal)
                assert action is not None
                before = len(game.history), len(game.tricks), game.phase
                game.apply(action, known_legal=True)
                for target, news in enumerate(protocol.after_action_lines(game, seat, action, *before)):
                    if news:
                        outbox[target].append(news)
                decisions += 1
            for seat in range(4):
                writer = writers[slots[seat]]
                assert writer is not None
                writer.write(b"".join(outbox[seat]))
        elapsed = time.perf_counter() - started
        return games, decisions, elapsed
    finally:
        for proc in procs:
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in procs:
            proc.wait(timeout=10)
            if proc.stdout is not None:
                proc.stdout.close()


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
    against_loop: dict[str, list[float]] = {"pinned": [], "free": []}
    for number in range(1, args.rounds + 1):
        for placement in ("pinned", "free"):
            # One CPU for this process and every process it starts, or every CPU it may use.
            allowed = os.sched_getaffinity(0)
            if placement == "pinned":
                os.sched_setaffinity(0, {min(allowed)})
            try:
                _, loop_decisions, loop_seconds = blocking_rate(args.games)
                _, ref_decisions, ref_seconds = referee_rate(args.games, 1)
            finally:
                os.sched_setaffinity(0, allowed)
            ratio = (ref_decisions / ref_seconds) / (loop_decisions / loop_seconds)
            against_loop[placement].append(ratio)
            print(
                f"round {number}, {placement}: minimal blocking loop {loop_decisions / loop_seconds:,.0f} decisions/s, "
                f"referee {ref_decisions / ref_seconds:,.0f} decisions/s: {ratio:.2f}x the loop"
            )
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
        f"median of {args.rounds} rounds: the referee (one job) at {statistics.median(against_loop['pinned']):.2f}x "
        f"the minimal blocking loop pinned to one CPU, {statistics.median(against_loop['free']):.2f}x free "
        "(goal >= 0.95x both)"
    )
    print(
        f"median of {args.rounds} rounds: one job at {statistics.median(one):.0%} of the raw round-trip rate "
        f"(goal >= 70%); two jobs at {statistics.median(two):.2f}x one job (goal >= 1.7x); "
        f"one job with full views at {statistics.median(viewed):.0%} of raw"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
