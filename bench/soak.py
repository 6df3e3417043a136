"""Soak: does the referee leak memory or file descriptors over a long league?

Run: ``python bench/soak.py [--games N] [--jobs J] [--seed S]`` (not run in CI; 2000 games take minutes).
It plays one league of two packaged random bots (``python -m rookarena.randombot SEED``), duplicate
deals, in this process through :func:`rookarena.arena.league.run`, with the bots' stderr logs in a temporary
directory as ``rookarena run`` keeps them. After every game it samples the referee's own resident memory
(VmRSS of /proc/self/status) and its open file descriptors (/proc/self/fd), and prints them before the
league, at game 100, at 25%, 50% and 75% of the games, at the last game and after the league, the growth
from game 100 to the last, and games/s.
Records are counted, never kept, so the figures are the referee's own.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import sys
import tempfile
import time
from typing import Any

import trio

from rookarena.arena import config as league_config
from rookarena.arena import league

BASELINE_GAME = 100  # growth is measured from here: the first games warm caches, imports and buffers


@dataclasses.dataclass(frozen=True, slots=True)
class Sample:
    game: int  # games finished, from 1
    seconds: float  # since the league started
    rss_kib: int
    fds: int


def rss_kib() -> int:
    """The resident set size of this process, in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def config_text(games: int, seed: int, jobs: int) -> str:
    python = json.dumps(sys.executable)
    return "\n".join(
        [
            "name: soak",
            "rules: tournament",
            f"games: {games}",
            "duplicate: true",
            f"seed: {seed}",
            f"jobs: {jobs}",
            "time: {move: 5, startup: 20}",
            "bots:",
            "  - name: random-1",
            f"    command: [{python}, -m, rookarena.randombot, '1']",
            "  - name: random-2",
            f"    command: [{python}, -m, rookarena.randombot, '2']",
            "",
        ]
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Soak:
    before: Sample  # before the league started (game 0)
    samples: list[Sample]  # after each game
    after: Sample  # after the league ended and every bot was stopped
    faults: int
    seconds: float


def soak(games: int, seed: int, jobs: int) -> Soak:
    """Play the league, sampling the referee before it, after each game, and after it."""
    samples: list[Sample] = []
    faults = 0
    progress = max(1, games // 10)
    before = Sample(0, 0.0, rss_kib(), open_fds())
    with tempfile.TemporaryDirectory(prefix="rookarena-soak-") as tmp:
        path = pathlib.Path(tmp) / "soak.yaml"
        path.write_text(config_text(games, seed, jobs), encoding="utf-8")
        config = league_config.load(path)
        logs = pathlib.Path(tmp) / "logs"
        logs.mkdir()
        started = time.perf_counter()

        def on_record(record: dict[str, Any]) -> None:
            nonlocal faults
            faults += len(record["faults"])
            samples.append(Sample(len(samples) + 1, time.perf_counter() - started, rss_kib(), open_fds()))
            if len(samples) % progress == 0:
                last = samples[-1]
                print(f"  {last.game}/{games} games, {last.rss_kib / 1024:.1f} MiB, {last.fds} fds", file=sys.stderr)

        trio.run(league.run, config, league.plan(config), jobs, logs, on_record)
        elapsed = time.perf_counter() - started
    after = Sample(len(samples), elapsed, rss_kib(), open_fds())
    return Soak(before, samples, after, faults, elapsed)


def checkpoints(count: int) -> list[tuple[str, int]]:
    """The labelled games to report, in game order: game 100, 25%, 50%, 75% and the last."""
    points = {BASELINE_GAME: "game 100"} if count >= BASELINE_GAME else {}
    for share in (25, 50, 75):
        points.setdefault(max(1, count * share // 100), f"{share}%")
    points[count] = "last"
    return sorted(((label, game) for game, label in points.items()), key=lambda item: item[1])


def growth(before: float, after: float) -> str:
    change = after - before
    share = f"{change / before:+.1%}" if before else "n/a"
    amount = f"{change:+d}" if isinstance(change, int) else f"{change:+,.1f}"
    return f"{amount} ({share})"


def row(label: str, sample: Sample) -> str:
    return f"{label:>9} {sample.game:>6} {sample.seconds:>8.1f} {sample.rss_kib / 1024:>8.1f} {sample.fds:>5}"


def report(run: Soak, jobs: int) -> str:
    samples = run.samples
    by_game = {sample.game: sample for sample in samples}
    lines = [f"{'at':>9} {'game':>6} {'seconds':>8} {'RSS MiB':>8} {'fds':>5}", row("start", run.before)]
    lines += [row(label, by_game[game]) for label, game in checkpoints(len(samples))]
    lines.append(row("end", run.after))
    first = by_game.get(BASELINE_GAME, samples[0])
    last = samples[-1]
    lines += [
        "",
        f"growth from game {first.game} to game {last.game}: RSS {growth(first.rss_kib / 1024, last.rss_kib / 1024)} "
        f"MiB, fds {growth(first.fds, last.fds)}",
        "  (a unit's last record is handed over after its bots are stopped, so the last game has fewer fds;",
        f"  fds at the end against the start: {growth(run.before.fds, run.after.fds)})",
    ]
    peak = max(samples, key=lambda sample: sample.rss_kib)
    lines.append(
        f"peak RSS {peak.rss_kib / 1024:.1f} MiB at game {peak.game}; fds while playing: "
        f"min {min(s.fds for s in samples)}, max {max(s.fds for s in samples)}"
    )
    lines.append(
        f"{len(samples)} games in {run.seconds:.1f} s with {jobs} jobs = {len(samples) / run.seconds:.2f} games/s; "
        f"{run.faults} faults"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games in the league (even; default 2000)")
    parser.add_argument("--jobs", type=int, default=2, help="units of work at once (default 2)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default 7)")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number >= 2 (duplicate deals)")
    if args.jobs < 1:
        parser.error("--jobs must be >= 1")
    print(f"soak: {args.games} games of two random bots, {args.jobs} jobs, python {sys.version.split()[0]}")
    print(report(soak(args.games, args.seed, args.jobs), args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
