"""What ``isolation: bwrap`` costs: a bot's start-up, and games per second, with and without it.

Run: ``python bench/sandbox.py [--starts N] [--games G] [--rounds R]``; it always exits 0.

Each round measures, without isolation and then with it (or the other way round in alternate rounds, so
that the machine's drift is shared):

- start-up: the time from starting the packaged random bot (``python3 -m rookarena.randombot``) to its
  answer to the referee's hello, then ``bye`` and its exit, N times;
- a long league: one pairing of two random bots, G games in duplicate, played by ``league.run`` with one
  job as ``rookarena run`` plays it (the four processes start once);
- short units: a round robin of four random bots, two games a pairing, with ``reuse: false``, so that
  every pairing starts four processes of its own;
- a process per game: the long league with ``process_per_game: true`` on the isolated side only, the
  setup in which a bot keeps nothing from one game to the next, against the plain league as it runs by
  default (start-up weighs the most).

Ratios (isolated over plain) are taken within a round; the medians over the rounds are printed last.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import trio

from rookarena.arena import config, isolation, league
from rookarena.arena.bots import bot_environment
from rookarena.arena.specs import BotSpec
from rookarena.wire import conversation, messages

RANDOM = [sys.executable, "-m", "rookarena.randombot"]


def start_up(command: list[str]) -> float:
    """Seconds from starting ``command`` to its hello."""
    started = time.perf_counter()
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=bot_environment({}), start_new_session=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(conversation.encode(messages.hello_message("bench")))
        process.stdin.flush()
        answer = process.stdout.readline()
        seconds = time.perf_counter() - started
        assert json.loads(answer)["type"] == "hello", answer
        process.stdin.write(conversation.encode(messages.bye_message()))
        process.stdin.close()
        process.wait(timeout=30)
    return seconds


def league_rate(text: str, isolated: bool, scratch: pathlib.Path) -> float:
    """Games per second of the league ``text`` (its whole run, bots' start and stop included)."""
    if isolated:
        text = text.replace("bots:\n", "isolation: bwrap\nbots:\n", 1)
    else:
        text = text.replace("process_per_game: true\n", "").replace("process_per_game: false\n", "")
    path = scratch / "bench.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = config.load(path)
    results = scratch / "results"
    results.mkdir(exist_ok=True)
    shut = isolation.isolate_league(loaded, results)
    games = league.plan(shut)
    played: list[object] = []
    started = time.perf_counter()
    trio.run(league.run, shut, games, 1, None, played.append)
    seconds = time.perf_counter() - started
    assert len(played) == len(games)
    return len(played) / seconds


def leagues(games: int) -> dict[str, str]:
    def bot(name: str, salt: int) -> str:
        return f"  - {{name: {name}, command: [{sys.executable}, -m, rookarena.randombot, '{salt}']}}\n"

    return {
        # (isolation plays a process per game unless told otherwise: here its processes play on, as the plain side's)
        "long league": f"name: long\ngames: {games}\nseed: 5\nprocess_per_game: false\nbots:\n"
        f"{bot('a', 1)}{bot('b', 2)}",
        "short units": "name: short\ngames: 2\nseed: 5\nreuse: false\nbots:\n"
        + "".join(bot(name, n) for n, name in enumerate("abcd")),
        "a process per game": f"name: fresh\ngames: {games}\nseed: 5\nprocess_per_game: true\nbots:\n"
        f"{bot('a', 1)}{bot('b', 2)}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("bwrap") is None:
        print("bubblewrap (bwrap) is not installed: nothing to compare")
        return
    isolation.check()
    boxed = list(isolation.command(BotSpec("random", tuple(RANDOM)), []))
    ratios: dict[str, list[float]] = {"start-up": [], **{name: [] for name in leagues(args.games)}}
    for round_number in range(args.rounds):
        order = (False, True) if round_number % 2 == 0 else (True, False)
        line = []
        starts = {}
        for isolated in order:
            starts[isolated] = statistics.median(start_up(boxed if isolated else RANDOM) for _ in range(args.starts))
        ratios["start-up"].append(starts[True] / starts[False])
        line.append(f"start-up {starts[False] * 1000:.1f} ms plain, {starts[True] * 1000:.1f} ms isolated")
        for name, text in leagues(args.games).items():
            rates = {}
            for isolated in order:
                with tempfile.TemporaryDirectory(prefix="rookarena-sandbox-bench-") as scratch:
                    rates[isolated] = league_rate(text, isolated, pathlib.Path(scratch))
            ratios[name].append(rates[True] / rates[False])
            line.append(f"{name} {rates[False]:.2f} games/s plain, {rates[True]:.2f} isolated")
        print(f"round {round_number + 1}: " + "; ".join(line), flush=True)
    print("medians over the rounds (isolated / plain):")
    print(f"  start-up per bot: {statistics.median(ratios['start-up']):.2f}x the time")
    for name in leagues(args.games):
        print(f"  {name}: {statistics.median(ratios[name]):.2f}x the games per second")


if __name__ == "__main__":
    main()
