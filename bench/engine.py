"""Engine speed against the cost of talking to a bot, both measured in the same run.

A referee spends one JSON-line round trip with a bot process per decision, so the engine is fast enough
when it makes many decisions in the time of one round trip. This script measures, on this machine and
now: (a) decisions per second of whole random games under every preset (``random_action`` +
``Game.legal_actions`` + ``Game.apply``, deals and choices from fixed seeds), and (b) the baseline:
round trips per second of a realistic request and a short reply between this process and a child
Python process over a pipe. It prints their ratio per preset and the minimum; the goal is at least 10.

Run it as ``python bench/engine.py [--seconds S]``; it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from typing import IO, Any

from rookarena.game import Game
from rookarena.players import random_action
from rookarena.presets import PRESETS
from rookarena.records import derive_seed
from rookarena.rules import Rules

GOAL = 10.0
SEED = 20240601
WARMUP_ROUND_TRIPS = 200

# The child reads one JSON line, decodes it, and answers with a short JSON line: the least a bot can do.
CHILD = """\
import json, sys
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
while True:
    line = read()
    if not line:
        break
    request = json.loads(line)
    write(json.dumps({"id": request["id"], "action": request["legal"][0]}) + "\\n")
    flush()
"""

HAND = ["R5", "R9", "R14", "G7", "G10", "G12", "B6", "B13", "Y11", "ROOK"]


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


def _request(number: int) -> dict[str, Any]:
    """A request the size and shape of one the referee sends when a bot must play to a trick."""
    return {
        "type": "act",
        "id": number,
        "seat": 2,
        "phase": "play",
        "trump": "R",
        "hand": HAND,
        "trick": ["G9", "G13"],
        "scores": [145, 90],
        "legal": ["G7", "G10", "G12", "ROOK"],
    }


def _round_trip(stdin: IO[bytes], stdout: IO[bytes], number: int) -> None:
    stdin.write(json.dumps(_request(number)).encode() + b"\n")
    stdin.flush()
    reply = json.loads(stdout.readline())
    if reply.get("id") != number:
        raise RuntimeError(f"echo child answered {reply!r} to request {number}")


def round_trip_rate(seconds: float) -> tuple[int, float]:
    """Round trips with a child Python process for ``seconds``; return their count and elapsed seconds."""
    with subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as child:
        stdin, stdout = child.stdin, child.stdout
        assert stdin is not None and stdout is not None
        try:
            for number in range(WARMUP_ROUND_TRIPS):
                _round_trip(stdin, stdout, number)
            trips = 0
            started = time.perf_counter()
            elapsed = 0.0
            while elapsed < seconds:
                for _ in range(100):
                    _round_trip(stdin, stdout, trips)
                    trips += 1
                elapsed = time.perf_counter() - started
        finally:
            stdin.close()
            child.wait(timeout=10)
    return trips, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default: %(default)s)")
    args = parser.parse_args(argv)
    seconds: float = max(args.seconds, 0.01)

    print(f"python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    trips, trip_time = round_trip_rate(seconds)
    trip_rate = trips / trip_time
    print(f"baseline: {trips:,} JSON-line round trips with a child process in {trip_time:.2f} s")
    print(f"          = {trip_rate:,.0f} round trips/s")
    print()

    rows: list[tuple[str, str, str, str, str]] = []
    ratios: list[float] = []
    for name, preset in PRESETS.items():
        games, decisions, elapsed = engine_rate(preset.rules, seconds)
        rate = decisions / elapsed
        ratio = rate / trip_rate
        ratios.append(ratio)
        rows.append((name, f"{games:,}", f"{decisions:,}", f"{rate:,.0f}", f"{ratio:.1f}x"))

    header = ("preset", "games", "decisions", "decisions/s", "ratio to round trips/s")
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    for i, row in enumerate((header, *rows)):
        cells = [
            row[0].ljust(widths[0]),
            *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)),
        ]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))
    print()
    overall = min(ratios)
    verdict = "met" if overall >= GOAL else "NOT met"
    print(f"overall ratio (min across presets): {overall:.1f}x; goal >= {GOAL:.0f}x: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
