"""The report, show and replay of a large league: time, peak memory, page weight and first paint.

    python bench/web.py [--games 100000] [--cache DIR] [--embed 400] [--scan-too]

The league's records are made once and kept in ``--cache`` (default: ``rookarena-bench-web`` in the
system's temporary directory, outside the repository): a round robin of ten seeded random players
(in-process, as ``tests/web_games.py`` plays them, 1,080 games of duplicate deal pairs), with the
fields the referee adds (``bots``, ``timing``, ``overhead_us``) and a timeout fault in one game of 500,
replicated with distinct game ids and deal numbers until there are ``--games`` of them, and the games
index written from them (as a run writes it game by game). Each command
runs as a child process (``python -m rookarena``); its peak RSS is the child's own ``ru_maxrss`` from
``os.wait4``. ``rookarena standings`` of the same directory is the baseline: it already streams the
records, so the ratio says what the report costs beyond reading them. The page is then opened in
headless Chromium (Debian's ``chromium`` and ``chromedriver``): first paint is the browser's
``first-contentful-paint`` entry, from navigation start. Figures depend on the machine and its load:
compare them within a run.
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))

import web_games

from rookarena.results import gamesindex
from rookarena.wire import records

NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
BASE_DEALS = 12  # 45 pairings x 12 deals x 2 games = 1,080 games played; the rest are copies
GOALS = {"report_s": 60.0, "report_mb": 150.0, "page_mb": 20.0, "paint_ms": 2000.0, "show_s": 1.0, "show_mb": 60.0}


def _refereed(record: dict[str, Any], number: int) -> dict[str, Any]:
    """``record`` with the fields the referee adds, so that a record weighs what a league's does."""
    decisions = sum(len(h.get("auction", [])) + len(h.get("tricks", [])) for h in record["hands"])
    record["bots"] = [
        {"name": name, "label": f"{name}@{seat}", "hello": {"name": name, "version": "1.0"}}
        for seat, name in enumerate(record["seats"])
    ]
    record["timing"] = [
        {"count": decisions // 4 + 1, "median": 1.5 + seat, "max": 9.0 + seat, "total": 40.0 + seat}
        for seat in range(4)
    ]
    record["overhead_us"] = {"count": decisions, "median": 80.0, "max": 900.0, "total": 80.0 * decisions}
    if number % 500 == 499:
        fault = {"seat": 1, "bot": record["seats"][1], "kind": "timeout", "detail": "no reply within 1 s"}
        record["faults"] = [{**fault, "line": "", "hand": 1}]
    return record


def make_league(directory: pathlib.Path, games: int) -> None:
    """``games`` records in ``directory`` as a league leaves them (once: kept for the next run)."""
    done = directory / "games.jsonl"
    if done.exists() and (directory / "count").exists() and (directory / "count").read_text() == str(games):
        return
    started = time.perf_counter()
    base = web_games.league_records(NAMES, BASE_DEALS)
    web_games.write_dir(directory, [], NAMES, BASE_DEALS)
    copies = -(-games // len(base))
    with done.open("w", encoding="utf-8") as stream:
        number = 0
        for copy_number in range(copies):
            for record in base:
                if number == games:
                    break
                out = copy.deepcopy(record)
                league = out["league"]
                match_id, index = out["game_id"].rsplit("-", 1)
                out["game_id"] = f"{match_id}-r{copy_number}-{index}"
                league["deal"] += copy_number * BASE_DEALS
                records.write(stream, _refereed(out, number))
                number += 1
    meta = json.loads((directory / "league.json").read_text(encoding="utf-8"))
    meta["games"] = 2 * BASE_DEALS * copies
    (directory / "league.json").write_text(json.dumps(meta), encoding="utf-8")
    (directory / "count").write_text(str(games))
    size = done.stat().st_size / 2**20
    print(f"made {games} records ({size:,.0f} MiB) in {time.perf_counter() - started:.0f} s: {len(base)} played")


# A small launcher runs each command, so that the command's peak RSS is its own: a child's ru_maxrss
# starts from its parent's size at the fork, and this script holds the games it plays.
LAUNCH = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}")
"""


def measure(arguments: list[str]) -> tuple[float, float, str]:
    """Seconds, peak RSS in MiB and stdout of ``python -m rookarena ARGUMENTS`` as a child process; its CPU
    seconds (user and system) are printed, the machine being shared."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as figures:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", LAUNCH, figures.name, sys.executable, "-m", "rookarena", *arguments],
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        elapsed = time.perf_counter() - started
        fields = pathlib.Path(figures.name).read_text().split()
        code, peak, cpu = int(fields[0]), int(fields[1]), float(fields[2])
    print(f"  (rookarena {arguments[0]}: {cpu:.1f} s of CPU in {elapsed:.1f} s)")
    if code:
        raise SystemExit(f"rookarena {' '.join(arguments)} failed with exit code {code}")
    return elapsed, peak / 1024, done.stdout


def first_paint(path: pathlib.Path) -> tuple[float, float] | None:
    """First contentful paint and the end of the load event, in ms from navigation start."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("chromium or chromedriver missing: no first paint")
        return None
    from selenium import webdriver  # noqa: PLC0415 (only with a browser)
    from selenium.webdriver.chrome.options import Options  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or ""
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    try:
        driver.get(path.as_uri())
        paint, load = driver.execute_script(
            "const p = performance.getEntriesByName('first-contentful-paint')[0];"
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [p ? p.startTime : -1, n.loadEventEnd - n.startTime]"
        )
        return float(paint), float(load)
    finally:
        driver.quit()


def _without_index(
    directory: pathlib.Path, index: pathlib.Path, wanted: str, tmp: pathlib.Path, args: argparse.Namespace
) -> None:
    """show and replay (and with ``--scan-too``, standings and report) with the games index moved aside:
    what the commands cost when they read games.jsonl itself, as for a directory kept by an older version."""
    aside = index.with_name(index.name + ".aside")
    index.rename(aside)
    try:
        show_s, show_mb, _ = measure(["show", str(directory), wanted])
        print(f"without the index: rookarena show {show_s:.2f} s, peak RSS {show_mb:.0f} MiB")
        replay_s, replay_mb, _ = measure(["replay", str(directory), wanted, "-o", str(tmp / "g.html")])
        print(f"without the index: rookarena replay {replay_s:.2f} s, peak RSS {replay_mb:.0f} MiB")
        if args.scan_too:
            base_s, base_mb, _ = measure(["standings", str(directory)])
            print(f"without the index: rookarena standings {base_s:.1f} s, peak RSS {base_mb:.0f} MiB")
            page = tmp / "scan.html"
            report_s, report_mb, _ = measure(["report", str(directory), "-o", str(page), "--embed", str(args.embed)])
            print(f"without the index: rookarena report {report_s:.1f} s, peak RSS {report_mb:.0f} MiB")
    finally:
        aside.rename(index)


def _verdict(value: float, goal: float) -> str:
    return f"goal < {goal:g}: {'met' if value < goal else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the league")
    parser.add_argument("--cache", type=pathlib.Path, help="where the records are kept between runs")
    parser.add_argument("--embed", type=int, default=400, help="games embedded in full in the report")
    parser.add_argument(
        "--scan-too", action="store_true", help="also time standings and report without the games index"
    )
    args = parser.parse_args()
    directory = args.cache or pathlib.Path(tempfile.gettempdir()) / "rookarena-bench-web" / f"league-{args.games}"
    directory.mkdir(parents=True, exist_ok=True)
    make_league(directory, args.games)
    size = (directory / "games.jsonl").stat().st_size / 2**20
    print(f"league: {args.games} games, games.jsonl {size:,.0f} MiB, in {directory}")
    index = gamesindex.index_path(directory / "games.jsonl")
    if not gamesindex.matches(directory / "games.jsonl"):
        started = time.perf_counter()
        gamesindex.rebuild(directory / "games.jsonl")
        print(f"games index written from the records in {time.perf_counter() - started:.0f} s")
    print(f"games index: {index.stat().st_size / 2**20:,.0f} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        base_s, base_mb, _ = measure(["standings", str(directory)])
        print(f"baseline  rookarena standings: {base_s:6.1f} s, peak RSS {base_mb:5.0f} MiB")
        page = pathlib.Path(tmp) / "report.html"
        report_s, report_mb, _ = measure(["report", str(directory), "-o", str(page), "--embed", str(args.embed)])
        page_mb = page.stat().st_size / 2**20
        print(
            f"rookarena report:              {report_s:6.1f} s ({report_s / base_s:.2f} x standings; "
            f"{_verdict(report_s, GOALS['report_s'])}), peak RSS {report_mb:5.0f} MiB "
            f"({_verdict(report_mb, GOALS['report_mb'])})"
        )
        print(f"  page: {page_mb:.1f} MiB ({_verdict(page_mb, GOALS['page_mb'])})")
        last = directory / "games.jsonl"
        with last.open("rb") as stream:
            stream.seek(max(0, last.stat().st_size - 200_000))
            tail = stream.read().splitlines()[-2]
        wanted = str(records.loads(tail.decode())["game_id"])  # a game near the end: the search reads the most
        show_s, show_mb, text = measure(["show", str(directory), wanted])
        assert wanted in text
        print(
            f"rookarena show (the next-to-last game, {wanted}): {show_s:.2f} s ({_verdict(show_s, GOALS['show_s'])}), "
            f"peak RSS {show_mb:.0f} MiB ({_verdict(show_mb, GOALS['show_mb'])})"
        )
        replay_s, replay_mb, _ = measure(["replay", str(directory), wanted, "-o", str(pathlib.Path(tmp) / "g.html")])
        print(f"rookarena replay (with its deal partner): {replay_s:.2f} s, peak RSS {replay_mb:.0f} MiB")
        _without_index(directory, index, wanted, pathlib.Path(tmp), args)
        shown = first_paint(page)
        if shown is not None:
            print(
                f"  headless Chromium: first contentful paint {shown[0]:.0f} ms "
                f"({_verdict(shown[0], GOALS['paint_ms'])}), load event ended at {shown[1]:.0f} ms"
            )


if __name__ == "__main__":
    main()
