"""Chaos soak: one long league of seeded random adversaries against the sample bots, with its invariants.

The adversaries (``tests/bots/adversary.py``) misbehave at random in every way the tests know of: late,
twice, stale, future and foreign ids, empty and partial lines, single-byte writes, huge lines, garbage,
closed output, exits, hangs, stderr bursts, children left behind, illegal actions. The league runs as a
user runs it (``rookarena run``, worker processes); this script watches it and prints, at the end:
games played, faults by class, crashes of the referee (a non-zero exit or a traceback: must be 0),
hangs (no new record for ``--stall`` seconds: 0), lost and duplicated records (0), processes left
behind (0), and the referee's resident memory near the start and at the end.

Run it as ``python bench/chaos.py [--games N] [--adversaries K] [--seed S] [--jobs J]``; it exits 1 when an
invariant fails, else 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from procs import processes_with  # noqa: E402

from rookarena.arena.config import load  # noqa: E402
from rookarena.arena.league import plan  # noqa: E402

ADVERSARY = ROOT / "tests" / "bots" / "adversary.py"
HEURISTIC = ROOT / "sample_bots" / "python" / "heuristic_bot.py"


def config_text(games: int, adversaries: int, seed: int, jobs: int, marker: str) -> str:
    rng = random.Random(seed)
    lines = [
        "name: chaos-soak",
        f"games: {games}",
        f"seed: {seed}",
        f"jobs: {jobs}",
        "time: {move: 0.5, startup: 5}",
        "faults: forfeit",
        "withdraw_after: 1000000",  # keep playing the adversaries: every game is a new chance to break something
        "limits: {stderr: 100000, line: 65536}",
        "bots:",
        "  - name: heuristic",
        f"    command: [{sys.executable}, {HEURISTIC}]",
        f"    env: {{MARKER: {marker}}}",
        "  - name: random",
        f"    command: [{sys.executable}, -m, rookarena.randombot, '7']",
        f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
    ]
    for index in range(adversaries):
        rate = rng.choice([0.005, 0.01, 0.02, 0.05])
        lines += [
            f"  - name: adv-{index + 1}",
            f"    command: [{sys.executable}, {ADVERSARY}, '{rng.randrange(10**6)}', '{rate}', {marker}]",
            f"    env: {{MARKER: {marker}}}",
        ]
    return "\n".join(lines) + "\n"


def rss_kib(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def count_lines(path: pathlib.Path) -> int:
    try:
        with path.open("rb") as stream:
            return sum(1 for line in stream if line.strip())
    except OSError:
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=2000, help="games in all (about)")
    parser.add_argument("--adversaries", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--stall", type=float, default=120.0, help="seconds without a record that count as a hang")
    args = parser.parse_args()

    bots = args.adversaries + 2
    pairings = bots * (bots - 1) // 2
    per_pairing = max(2, 2 * round(args.games / pairings / 2))
    marker = f"rookarena-soak-{uuid.uuid4().hex}"
    work = pathlib.Path(tempfile.mkdtemp(prefix="rookarena-chaos-"))
    config = work / "soak.yaml"
    config.write_text(config_text(per_pairing, args.adversaries, args.seed, args.jobs, marker), encoding="utf-8")
    planned = [game.game_id for game in plan(load(config))]
    out = work / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    print(f"{len(planned)} games: {pairings} pairings of {per_pairing}, {args.adversaries} adversaries; in {work}")
    began = time.monotonic()
    # Its output goes to files: a pipe nobody reads until the end would fill, and block the referee's writes.
    log = (work / "run.err").open("w+")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, text=True, env=env)
    rss_start = rss_end = 0
    hangs = 0
    last_count, last_change = 0, time.monotonic()
    while proc.poll() is None:
        time.sleep(1.0)
        rss = rss_kib(proc.pid)
        if rss and not rss_start and time.monotonic() - began > 2:
            rss_start = rss
        rss_end = rss or rss_end
        count = count_lines(out / "games.jsonl")
        if count != last_count:
            last_count, last_change = count, time.monotonic()
        elif time.monotonic() - last_change > args.stall:
            hangs += 1
            proc.kill()
            break
    proc.wait()
    log.seek(0)
    stderr = log.read()
    log.close()
    seconds = time.monotonic() - began
    crashes = int(proc.returncode not in (0, None) and hangs == 0) + int("Traceback" in stderr)
    ids: list[str] = []
    faults: collections.Counter[str] = collections.Counter()
    wrongly_charged = 0
    for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        ids.append(record["game_id"])
        for fault in record.get("faults", []):
            faults[fault["kind"]] += 1
            wrongly_charged += not str(fault["bot"]).startswith("adv-")
    counts = collections.Counter(ids)
    lost = len(set(planned) - set(counts))
    duplicated = sum(n - 1 for n in counts.values() if n > 1)
    time.sleep(1.0)
    left = processes_with(marker) + processes_with(marker, in_environment=True)
    print(f"games played          {len(ids)} in {seconds:.0f} s ({len(ids) / seconds:.1f}/s)")
    print("faults by class       " + (", ".join(f"{kind} {n}" for kind, n in sorted(faults.items())) or "none"))
    print(f"faults on sample bots {wrongly_charged}")
    print(f"referee crashes       {crashes}")
    print(f"hangs                 {hangs}")
    print(f"lost records          {lost}")
    print(f"duplicated records    {duplicated}")
    print(f"leftover processes    {len(left)}")
    print(f"referee RSS           {rss_start / 1024:.1f} MiB near the start, {rss_end / 1024:.1f} MiB at the end")
    if crashes:
        print(stderr[-3000:])
    failed = crashes or hangs or lost or duplicated or left or wrongly_charged
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
