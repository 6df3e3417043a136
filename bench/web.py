"""Page weight and load time of the HTML report, at several caps on the embedded games.

    python bench/web.py [--games 800] [--caps 0,100,400,800]

Builds a round robin of random players (seeded, in-process, as ``tests/web_games.py`` does), writes
its report at each cap, and opens each in headless Chromium (Debian's ``chromium`` and
``chromedriver``): the load time is from navigation start to the end of the load event, the report's
script included; the viewer time opens one game and steps it to its end. Figures depend on the machine:
compare them with each other, not with another run.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))

import web_games

from rookarena.web import model, page, sources

NAMES = ["alpha", "beta", "gamma", "delta", "epsilon"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=800, help="games in the league (about)")
    parser.add_argument("--caps", default="0,100,400,800", help="caps on the embedded games, comma-separated")
    args = parser.parse_args()
    pairings = len(NAMES) * (len(NAMES) - 1) // 2
    deals = max(1, args.games // (2 * pairings))
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp) / "league"
        started = time.perf_counter()
        played = web_games.league_records(NAMES, deals)
        web_games.write_dir(directory, played, NAMES, deals)
        print(f"{len(played)} games played in {time.perf_counter() - started:.1f} s")
        found = sources.load([directory])
        driver = _driver()
        try:
            for cap in (int(c) for c in args.caps.split(",")):
                started = time.perf_counter()
                data = model.report_data(found.records, found.info, found.tails, cap=cap)
                html = page.render(data, "bench")
                built = time.perf_counter() - started
                path = pathlib.Path(tmp) / f"report-{cap}.html"
                path.write_text(html, encoding="utf-8")
                size = len(html.encode()) / 1024
                embedded = data["embed"]["embedded"]
                line = f"cap {cap:>4}: {embedded:>4} games embedded, {size:>7,.0f} KiB, built in {built:.2f} s"
                if driver is not None:
                    load, viewer = _timings(driver, path, data)
                    line += f", loads in {load:.0f} ms, first game stepped to its end in {viewer:.0f} ms"
                print(line)
        finally:
            if driver is not None:
                driver.quit()  # type: ignore[attr-defined]


def _driver() -> object | None:
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("chromium or chromedriver missing: sizes only")
        return None
    from selenium import webdriver  # noqa: PLC0415 (only with a browser)
    from selenium.webdriver.chrome.options import Options  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1200"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or ""
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)


def _timings(driver: object, path: pathlib.Path, data: dict[str, object]) -> tuple[float, float]:
    driver.get(path.as_uri())  # type: ignore[attr-defined]
    load = driver.execute_script(  # type: ignore[attr-defined]
        "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime"
    )
    records = data["records"]
    assert isinstance(records, dict)
    if not records:
        return float(load), 0.0
    first = next(iter(records))
    viewer = driver.execute_script(  # type: ignore[attr-defined]
        "const t0 = performance.now(); rookViewer.open(arguments[0]); rookViewer.go(Infinity);"
        "return performance.now() - t0",
        first,
    )
    return float(load), float(viewer)


if __name__ == "__main__":
    main()
