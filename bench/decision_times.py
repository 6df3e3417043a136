"""Seconds per decision of each bot of a league or match, from the timings in its game records.

Run: ``python bench/decision_times.py DIR [DIR...]`` (directories holding ``games.jsonl``). For each
bot: its decisions (forced ones included: the referee times every request), the mean time of a
decision, the largest game median and the slowest decision. It exits 0.
"""

from __future__ import annotations

import json
import pathlib
import sys
from collections import defaultdict


def main(argv: list[str]) -> int:
    counts: dict[str, int] = defaultdict(int)
    totals: dict[str, float] = defaultdict(float)
    slowest: dict[str, float] = defaultdict(float)
    faults: dict[str, int] = defaultdict(int)
    games = 0
    for directory in argv:
        for line in (pathlib.Path(directory) / "games.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            games += 1
            for seat, timing in enumerate(record["timing"]):
                name = record["seats"][seat]
                counts[name] += timing["count"]
                totals[name] += timing.get("total", 0.0) / 1000
                slowest[name] = max(slowest[name], timing.get("max", 0.0) / 1000)
            for fault in record["faults"]:
                faults[record["seats"][fault["seat"]]] += 1
    print(f"{games} games")
    for name in sorted(counts):
        mean = totals[name] / counts[name] if counts[name] else 0.0
        print(
            f"{name}: {counts[name]} decisions, mean {mean:.4f} s, slowest {slowest[name]:.3f} s, faults {faults[name]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
