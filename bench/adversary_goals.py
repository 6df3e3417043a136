"""The two measured promises of the referee against hostile bots, each as a real ``rookarena`` run.

``presend``: ``rookarena match`` of a bot that, after every reply and at a random delay, writes replies
guessing the next request's id (the id plus one, the same id again, one at random), each with the action
``bid 999``, against the random bot, under ``faults: substitute``. A guess that was applied would be an
``illegal`` fault whose line holds ``bid 999``: the count of those must be 0, over every game.

``orphans``: a league of entries that play right and, at ``bye``, leave a setsid'd child and a setsid'd
double-forked grandchild behind and exit at once, every entry with ``reuse: false`` so that each match
stops its bots. Every game must be recorded once, every match's last game must carry a ``protocol``
fault for each bot naming the processes it left, and no process of theirs may be left at the end.

Run it as ``python bench/adversary_goals.py presend --games 2000`` and
``python bench/adversary_goals.py orphans --games 1000``; it prints the figures and exits 1 when a goal
is missed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from procs import processes_with  # noqa: E402

ADVERSARY = ROOT / "tests" / "bots" / "adversary.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def records(out: pathlib.Path) -> list[dict[str, object]]:
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def presend(games: int, delay: float) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "out"
        began = time.monotonic()
        result = subprocess.run(
            [
                *(sys.executable, "-m", "rookarena", "match"),
                f"{sys.executable} {ADVERSARY} presend {delay}",
                f"{sys.executable} -m rookarena.randombot 9",
                *("--games", str(games), "--faults", "substitute", "--move-time", "1", "--out", str(out)),
            ],
            capture_output=True,
            text=True,
            env=ENV,
            check=False,
        )
        took = time.monotonic() - began
        played = records(out)
    applied = [
        fault
        for record in played
        for fault in record["faults"]  # type: ignore[attr-defined]
        if fault["kind"] == "illegal" and "bid 999" in fault["line"]
    ]
    other = [fault for record in played for fault in record["faults"]]  # type: ignore[attr-defined]
    asked = 0
    for record in played:
        team = record["teams"].index("adversary")  # type: ignore[attr-defined]
        asked += sum(timing["count"] for timing in record["timing"][team::2])  # type: ignore[index]
    print(f"presend: {len(played)} games in {took:.0f} s, {asked} requests to the presending bot")
    print(f"  pre-sent guesses applied: {len(applied)}; faults of any kind: {len(other)}")
    print(f"  exit status {result.returncode}; traceback: {'Traceback' in result.stderr}")
    return len(played) == games and not applied and "Traceback" not in result.stderr


def orphans(games: int, jobs: int, per_pairing: int) -> bool:
    marker = f"rookarena-goal-{uuid.uuid4().hex}"
    entries = math.ceil((1 + math.sqrt(1 + 8 * games / per_pairing)) / 2)  # n(n-1)/2 pairings
    with tempfile.TemporaryDirectory() as tmp:
        config = pathlib.Path(tmp) / "league.yaml"
        lines = [
            "name: orphans",
            f"games: {per_pairing}",
            "seed: 3",
            f"jobs: {jobs}",
            "time: {move: 1, startup: 10}",
            "faults: forfeit",
            "bots:",
        ]
        for index in range(entries):
            lines += [
                f"  - name: o{index}",
                f"    command: [{sys.executable}, {ADVERSARY}, orphans-at-bye, '0', {marker}]",
                f"    env: {{MARKER: {marker}}}",
                "    reuse: false",
            ]
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out = pathlib.Path(tmp) / "out"
        began = time.monotonic()
        result = subprocess.run(
            [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"],
            capture_output=True,
            text=True,
            env=ENV,
            check=False,
        )
        took = time.monotonic() - began
        played = records(out)
        league = json.loads((out / "league.json").read_text(encoding="utf-8"))
    ids = [record["game_id"] for record in played]
    expected = entries * (entries - 1) // 2 * per_pairing
    left_faults = [
        fault
        for record in played
        for fault in record["faults"]  # type: ignore[attr-defined]
        if fault["kind"] == "protocol" and "leaving" in fault["detail"]
    ]
    counted = sum(int(fault["detail"].split("leaving ")[1].split()[0]) for fault in left_faults)
    time.sleep(1)
    left = processes_with(marker) + processes_with(marker, in_environment=True)
    print(f"orphans: {len(played)} games ({expected} planned, {len(set(ids))} distinct) in {took:.0f} s")
    print(f"  faults naming processes left: {len(left_faults)} (for {expected // per_pairing * 4} bot processes)")
    print(f"  processes they left, as the faults count them: {counted}; still running now: {len(left)}")
    print(f"  tracking: {league.get('process_tracking')!r}; exit status {result.returncode}")
    return (
        len(played) == expected == len(set(ids))
        and not left
        and len(left_faults) == expected // per_pairing * 4
        and "Traceback" not in result.stderr
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goal", choices=["presend", "orphans"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.003, help="the most a presend waits before its guesses")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-pairing", type=int, default=10, help="orphans: the games of each pairing")
    args = parser.parse_args()
    if args.goal == "presend":
        ok = presend(args.games, args.delay)
    else:
        ok = orphans(args.games, args.jobs, args.per_pairing)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
