"""Leagues of many bots: how the cost of a game, memory and start-up grow with the number of bots.

For each size (by default 2, 8, 32 and 100 bots of the packaged random bot, 2 games a pairing, so 1,
28, 496 and 4,950 pairings), runs ``rookarena run`` as a user does and prints: games, wall time, games/s,
CPU seconds per game of the whole run (referee, workers and bots, from the kernel's accounting of the
finished processes), peak resident memory of the parent and of the largest worker (VmHWM, sampled), and
the time from the start to the first record in ``games.jsonl``. The goals (issue #13): CPU per game
flat within 10% from 2 to 100 bots, first record under 1 s at any size, parent under 100 MB.

With ``--reuse both`` each size is run with bot processes kept from unit to unit (``reuse: true``, the
default) and without, and the ratios are printed.

Run it as ``python bench/scale.py [--sizes 2,8,32,100] [--games 2] [--jobs 2] [--reuse on|off|both]``;
it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def config_text(bots: int, games: int, jobs: int, reuse: bool = True) -> str:
    lines = [f"name: scale-{bots}", f"games: {games}", "seed: 1", f"jobs: {jobs}", "time: {move: 5}"]
    lines += [f"reuse: {str(reuse).lower()}", "bots:"]
    for index in range(bots):
        lines += [
            f"  - name: r{index:03d}",
            f"    command: [{sys.executable}, -m, rookarena.randombot, '{index}']",
            f"    env: {{PYTHONPATH: {ROOT}}}",
        ]
    return "\n".join(lines) + "\n"


def peak_kib(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def workers_of(pid: int) -> list[int]:
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            if (
                int(stat.rsplit(")", 1)[1].split()[1]) == pid
                and b"rookarena.arena.worker" in (entry / "cmdline").read_bytes()
            ):
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def measure(bots: int, games: int, jobs: int, work: pathlib.Path, reuse: bool = True) -> dict[str, float]:
    tag = f"{bots}" if reuse else f"{bots}-fresh"
    config = work / f"scale-{tag}.yaml"
    config.write_text(config_text(bots, games, jobs, reuse), encoding="utf-8")
    out = work / f"out-{tag}"
    records = out / "games.jsonl"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), "--format", "plain"]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    first = parent = worker = 0.0
    while proc.poll() is None:
        if not first and records.exists() and records.stat().st_size > 0:
            first = time.monotonic() - began
        parent = max(parent, peak_kib(proc.pid))
        for pid in workers_of(proc.pid):
            worker = max(worker, peak_kib(pid))
        time.sleep(0.05 if not first else 0.5)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    played = sum(1 for line in records.read_text().splitlines() if line.strip()) if records.exists() else 0
    return {
        "bots": bots,
        "games": played,
        "wall": wall,
        "rate": played / wall if wall else 0.0,
        "cpu_per_game": cpu / played if played else 0.0,
        "parent_mib": parent / 1024,
        "worker_mib": worker / 1024,
        "first": first,
        "exit": proc.returncode,
    }


def standings_memory(games: int, work: pathlib.Path, source: pathlib.Path) -> tuple[int, float, float]:
    """Peak memory (MiB) and time of `rookarena standings` over ``games`` records, made by copying the
    records of ``source`` under new game ids and deal numbers (so that every copy is a game of its own and
    duplicate pairs stay pairs)."""
    out = work / "standings"
    out.mkdir(exist_ok=True)
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    with (out / "games.jsonl").open("w", encoding="utf-8") as stream:
        for copy in range(-(-games // len(lines))):
            for line in lines:
                record = json.loads(line)
                record["game_id"] = f"{record['game_id']}-c{copy}"
                if "league" in record:
                    record["league"]["deal"] += copy * 100_000
                stream.write(json.dumps(record, separators=(",", ":")) + "\n")
    written = sum(1 for _ in (out / "games.jsonl").open())
    # A fresh process that runs the command and reports its child's peak alone (this one's children include
    # the leagues above).
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    began = time.monotonic()
    peak = subprocess.run(
        [sys.executable, "-c", probe, sys.executable, "-m", "rookarena", "standings", str(out)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout
    seconds = time.monotonic() - began
    return written, int(peak) / 1024, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="2,8,32,100", help="numbers of bots, comma-separated")
    parser.add_argument("--games", type=int, default=2, help="games a pairing (even)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--reuse",
        choices=("on", "off", "both"),
        default="on",
        help="keep bot processes from unit to unit (the default), not, or both in turn (then the ratio)",
    )
    parser.add_argument(
        "--standings", type=int, default=0, help="also time `rookarena standings` over this many records (copies)"
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    work = pathlib.Path(tempfile.mkdtemp(prefix="rookarena-scale-"))
    print(f"games a pairing {args.games}, jobs {args.jobs}, in {work}")
    print(
        f"{'bots':>5} {'reuse':>5} {'games':>6} {'wall s':>8} {'games/s':>8} {'CPU ms/game':>12} {'parent MiB':>11} "
        f"{'worker MiB':>11} {'first rec s':>12} {'exit':>5}"
    )
    modes = {"on": [True], "off": [False], "both": [True, False]}[args.reuse]
    rows: dict[bool, list[dict[str, float]]] = {mode: [] for mode in modes}
    for bots in sizes:
        for reuse in modes:
            row = measure(bots, args.games, args.jobs, work, reuse)
            rows[reuse].append(row)
            print(
                f"{bots:>5} {'on' if reuse else 'off':>5} {row['games']:>6.0f} {row['wall']:>8.1f} {row['rate']:>8.2f} "
                f"{row['cpu_per_game'] * 1000:>12.1f} {row['parent_mib']:>11.1f} {row['worker_mib']:>11.1f} "
                f"{row['first']:>12.2f} {row['exit']:>5.0f}",
                flush=True,
            )
    for reuse in modes:
        cpu = [row["cpu_per_game"] for row in rows[reuse] if row["games"]]
        big = [row["cpu_per_game"] for row in rows[reuse] if row["games"] and row["bots"] > 2]
        if len(cpu) > 1:
            spread = f"highest over lowest CPU per game: {max(cpu) / min(cpu):.2f} over every size"
            if len(big) > 1:
                spread += f", {max(big) / min(big):.2f} over the sizes above 2 bots"
            print(f"reuse {'on' if reuse else 'off'}: {spread} (goal: within 1.10)")
    if len(modes) == 2:
        for on, off in zip(rows[True], rows[False], strict=True):
            if on["cpu_per_game"] and off["cpu_per_game"]:
                print(
                    f"{on['bots']:.0f} bots: CPU per game with reuse {on['cpu_per_game'] / off['cpu_per_game']:.2f}x "
                    f"of without, games/s {on['rate'] / off['rate']:.2f}x"
                )
    if args.standings:
        source = work / f"out-{sizes[-1]}{'' if modes[0] else '-fresh'}" / "games.jsonl"
        written, peak, seconds = standings_memory(args.standings, work, source)
        print(f"rookarena standings over {written} records: peak {peak:.1f} MiB, {seconds:.1f} s (goal: under 100 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
