"""The report and the viewer in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``).

Skipped with a reason where they are not installed, except when ``ROOKARENA_REQUIRE_BROWSER`` is set
(``.ci/run`` sets it where it could install them): then a missing browser fails.
"""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
import web_games

from rookarena.engine.presets import preset
from rookarena.engine.rules import Rules
from rookarena.engine.views import View
from rookarena.results import standings, summary, tables
from rookarena.web import model, page, sources

pytestmark = pytest.mark.slow

CARD = re.compile(r"(?<![A-Za-z0-9])(ROOK|[RGBY](?:1[0-4]|[1-9]))(?![0-9])")
NAMES = ["alpha", "beta", "gamma"]


def _binaries() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    found = _binaries()
    if found is None:
        if os.environ.get("ROOKARENA_REQUIRE_BROWSER"):
            pytest.fail("ROOKARENA_REQUIRE_BROWSER is set but chromium or chromedriver is missing")
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1400,1200",
        "--host-resolver-rules=MAP * ~NOTFOUND",
    ):
        options.add_argument(argument)
    options.binary_location = found[0]
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(found[1]), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _build(directory: pathlib.Path, preset_name: str, names: list[str], deals: int) -> list[dict[str, Any]]:
    """A league of random players under a preset, its standings files and its report.html."""
    (directory / "logs").mkdir(parents=True, exist_ok=True)
    played = web_games.league_records(names, deals=deals, rules=preset(preset_name).rules)
    for record in played:
        record["rules_name"] = preset_name
    web_games.add_fault(played, directory, 1, 2)
    # A referee's reason can quote a seat's cards (an illegal play's "holds ..."): no seat's view may show it.
    held = " ".join(played[0]["hands"][0]["deal"][1])
    played[0]["result"] = {**played[0]["result"], "reason": f"reached the target (note: seat 1 holds {held})"}
    web_games.write_dir(directory, played, names, deals=deals)
    summary.write(directory, played, "simple")
    found = sources.load([directory])
    data = model.report_data(found.records, found.info, found.tails, test=_test(found.records))
    (directory / "report.html").write_text(page.render(data, "test"), encoding="utf-8")
    return played


def _test(played: list[dict[str, Any]]) -> Any:
    """The SPRT ``match --sprt 0 50`` would run on these games, when rookarena.results.sprt is there to run it."""
    try:
        from rookarena.results import sprt
    except ImportError:
        return None
    return sprt.SequentialTest(sprt.Model(model.sprt_model(played)), 0.0, 50.0)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, list[dict[str, Any]]]:
    directory = tmp_path_factory.mktemp("league")
    played = _build(directory, "open-nest", NAMES, deals=2)
    return directory / "report.html", played


def _open(driver: Any, path: pathlib.Path, fragment: str = "") -> None:
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(path.as_uri() + fragment)


def _errors(driver: Any) -> list[Any]:
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]


def _requests(driver: Any) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def test_the_report_loads_offline_without_errors(browser: Any, report: tuple[pathlib.Path, Any]) -> None:
    path, _ = report
    _open(browser, path)
    assert browser.find_element("id", "standings").is_displayed()
    assert _errors(browser) == []
    assert {url.split("#")[0] for url in _requests(browser)} <= {path.as_uri()}
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    faults = browser.find_elements("css selector", "#faults-section tr.fault")
    assert len(faults) == 1 and "log line 30" in faults[0].get_attribute("textContent")
    assert faults[0].find_element("css selector", "td.where").get_attribute("textContent") == "-"  # not on a request


def _standings_json(path: pathlib.Path) -> list[dict[str, Any]]:
    """The rows of the standings.json beside the report at ``path``."""
    rows: list[dict[str, Any]] = json.loads((path.parent / "standings.json").read_text(encoding="utf-8"))["standings"]
    return rows


def _rows(driver: Any, table: str, cell: str) -> list[Any]:
    """Each body row of the table ``table`` (a CSS selector) as a list of ``cell`` (JS of ``td``) values."""
    return list(
        driver.execute_script(
            f"return [...document.querySelectorAll('{table} tbody tr')].map(tr => [...tr.children].map(td => {cell}))"
        )
    )


def test_the_standings_rows_equal_standings_json(browser: Any, report: tuple[pathlib.Path, Any]) -> None:
    path, _ = report
    _open(browser, path)
    rows = [dict(row) for row in _rows(browser, "#standings", "[td.dataset.key, JSON.parse(td.dataset.value)]")]
    expected = _standings_json(path)
    assert rows == expected


def test_the_neighbours_table_equals_the_standings_neighbours(browser: Any, report: tuple[pathlib.Path, Any]) -> None:
    path, played = report
    _open(browser, path)
    rows = _rows(browser, "#neighbours", "td.textContent")
    order = [row["bot"] for row in _standings_json(path)]
    pairs = standings.neighbours(played, order)
    assert [r[1:4] for r in rows] == [[p.a, p.b, str(p.games)] for p in pairs]
    ranks = {row["bot"]: row["rank"] for row in _standings_json(path)}
    shared = {rank for rank in ranks.values() if list(ranks.values()).count(rank) > 1}
    mark = {name: f"{rank}=" if rank in shared else str(rank) for name, rank in ranks.items()}
    assert [r[0] for r in rows] == [f"{mark[p.a]}-{mark[p.b]}" for p in pairs]
    assert [r[7].split()[0] for r in rows] == ["yes" if tables.apart(p) else "no" for p in pairs]
    # One unit a column: the dup diff in points (one decimal), the Elo difference in whole Elo.
    interval = r"[+-](\d+|inf) \[([+-]\d+|-inf), ([+-]\d+|\+inf)\]"
    for row, p in zip(rows, pairs, strict=True):
        assert re.fullmatch(interval, row[6]), row[6]
        dup = r"-" if p.duplicate is None or p.duplicate.n < 2 else r"[+-]\d+\.\d \[.*\]"
        assert re.fullmatch(dup, row[5]), row[5]
    assert browser.find_element("css selector", "#nav a[href='#neighbours-section']").is_displayed()
    assert _errors(browser) == []


def test_sorting_by_a_column(browser: Any, report: tuple[pathlib.Path, Any]) -> None:
    path, _ = report
    _open(browser, path)
    header = browser.find_element("css selector", "#standings th[data-key='bot']")
    names = "return [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.dataset.bot)"
    header.click()
    assert browser.execute_script(names) == sorted(NAMES)
    header.click()
    assert browser.execute_script(names) == sorted(NAMES, reverse=True)
    assert header.get_attribute("aria-sort") == "descending"
    browser.find_element("css selector", "#standings th[data-key='rank']").click()
    assert browser.execute_script(names) == [row["bot"] for row in _standings_json(path)]


def test_the_keyboard_steps_every_trick_to_the_final_score(browser: Any, report: tuple[pathlib.Path, Any]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, played = report
    record = played[0]
    _open(browser, path, f"#game={record['game_id']}")
    board = "document.querySelector('.board')"
    total = browser.execute_script("return rookViewer.boards[0].steps.length")
    body = browser.find_element("tag name", "body")
    tricks = sum(len(hand.get("tricks", [])) for hand in record["hands"])
    body.send_keys(Keys.ARROW_DOWN * (tricks - 1))  # in one command: a press steps at most one trick
    presses = tricks - 1
    assert int(browser.execute_script(f"return {board}.dataset.step")) < total - 1
    while int(browser.execute_script(f"return {board}.dataset.step")) < total - 1:
        body.send_keys(Keys.ARROW_DOWN)
        presses += 1
        assert presses < 400
    assert presses >= tricks
    score = browser.execute_script(f"return {board}.querySelector('.score').dataset.scores")
    assert score == ",".join(str(s) for s in record["result"]["scores"])
    body.send_keys(Keys.HOME)
    assert browser.execute_script(f"return {board}.dataset.step") == "0"
    body.send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script(f"return {board}.dataset.step") == "1"
    assert _errors(browser) == []


def _known(v: View) -> set[str]:
    cards = {*v.hand, *(v.nest or ()), *(v.discards or ()), *v.trick, *(c for t in v.tricks for c in t.cards)}
    return {str(c) for c in cards}


COLLECT = """
const viewer = rookViewer;
viewer.seat = arguments[0];
const out = [];
for (let i = 0; i < viewer.boards[0].steps.length; i += 1) {
  viewer.go(i);
  out.push([...document.querySelectorAll('.board')].map(b => ({
    id: b.dataset.game, hand: Number(b.dataset.hand), actions: Number(b.dataset.actions), kind: b.dataset.kind,
    shown: [...new Set(b.innerHTML.match(new RegExp(arguments[1], 'g')) || [])],
    own: arguments[0] === null ? [] : [...b.querySelectorAll('.seat.own [data-card]')].map(c => c.dataset.card),
  })));
}
return out;
"""


@pytest.mark.parametrize("preset_name", ["open-nest", "tournament", "kentucky"])
def test_a_seats_view_never_shows_another_seats_cards(browser: Any, tmp_path: pathlib.Path, preset_name: str) -> None:
    played = _build(tmp_path, preset_name, NAMES[:2], deals=1)
    path = tmp_path / "report.html"
    by_id = {record["game_id"]: record for record in played}
    record = played[0]
    _open(browser, path, f"#game={record['game_id']}")
    pattern = CARD.pattern
    first = browser.execute_script(
        "rookViewer.seat = null; rookViewer.go(0); return [...new Set(document.querySelector('.board').innerHTML"
        ".match(new RegExp(arguments[0], 'g')))].length",
        pattern,
    )
    assert first == len(Rules.from_mapping(record["rules"]).deck)  # everything: every card is drawn
    views: dict[str, list[list[list[View]]]] = {}
    nest_seen = 0
    for seat in range(4):
        steps = browser.execute_script(COLLECT, seat, pattern)
        assert {board["id"] for board in steps[0]} == {record["game_id"], model.partners(played)[record["game_id"]]}
        for step in steps:
            for board in step:
                if board["id"] not in views:
                    views[board["id"]] = web_games.engine_views(by_id[board["id"]])
                seen = views[board["id"]][board["hand"]]
                n = board["actions"]
                if n < len(seen):
                    v = seen[n][seat]
                    assert set(board["shown"]) <= _known(v), (board, sorted(set(board["shown"]) - _known(v)))
                    assert sorted(board["own"]) == sorted(str(c) for c in v.hand)
                    nest_seen += v.nest is not None and v.bidder != seat
                else:  # the hand's last decision is made: the last card is public too
                    hand = by_id[board["id"]]["hands"][board["hand"]]
                    last = hand["tricks"][-1]["cards"] if hand.get("tricks") else []
                    allowed = _known(seen[-1][seat]) | set(last)
                    assert set(board["shown"]) <= allowed, (board, sorted(set(board["shown"]) - allowed))
    if preset(preset_name).rules.nest_seen_by.value == "all":
        assert nest_seen > 0  # the nest shown to the other seats was checked too
    assert _errors(browser) == []


def test_a_dropped_games_jsonl_opens(browser: Any, tmp_path: pathlib.Path) -> None:
    played = web_games.league_records(NAMES[:2], deals=1)
    directory = web_games.write_dir(tmp_path / "dropped", played, NAMES[:2], deals=1)
    found = sources.load([directory])
    path = tmp_path / "empty.html"
    path.write_text(
        page.render(model.report_data(found.records, found.info, found.tails, cap=0), "t"), encoding="utf-8"
    )
    _open(browser, path, f"#game={played[0]['game_id']}")
    assert "not embedded" in browser.find_element("id", "viewer").text
    browser.execute_script(
        "const input = document.createElement('input'); input.type = 'file'; input.id = 'probe';"
        "document.body.append(input);"
    )
    browser.find_element("id", "probe").send_keys(str(directory / "games.jsonl"))
    browser.execute_script(
        "const data = new DataTransfer(); data.items.add(document.getElementById('probe').files[0]);"
        "document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));"
    )
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: d.find_elements("css selector", ".board"))
    shown = browser.execute_script("return [...document.querySelectorAll('.board')].map(b => b.dataset.game)")
    assert shown == [played[0]["game_id"], played[1]["game_id"]]
    options = browser.execute_script("return [...document.querySelectorAll('#game-select option')].map(o => o.value)")
    assert options == [record["game_id"] for record in played]
    assert _errors(browser) == []


def test_a_match_and_a_replay_page_draw_without_errors(browser: Any, tmp_path: pathlib.Path) -> None:
    played = _build(tmp_path, "tournament", NAMES[:2], deals=3)
    _open(browser, tmp_path / "report.html")
    points = browser.execute_script("return document.querySelectorAll('#sprt-plot circle').length")
    assert points == 3  # one LLR per deal pair
    assert browser.execute_script("return document.querySelectorAll('#running-plot circle').length") == 6
    assert _errors(browser) == []
    found = sources.load([tmp_path])
    replay = tmp_path / "game.html"
    replay.write_text(page.render(model.replay_data(found.records, played[2]["game_id"]), "g"), encoding="utf-8")
    _open(browser, replay, "#step=40&seat=3")
    boards = browser.execute_script("return [...document.querySelectorAll('.board')].map(b => b.dataset.game)")
    assert boards == [played[2]["game_id"], played[3]["game_id"]]
    assert browser.execute_script("return document.querySelector('.board').dataset.step") == "40"
    assert browser.find_element("id", "seat-select").get_attribute("value") == "3"
    assert not browser.find_element("id", "report").is_displayed()
    assert _errors(browser) == []


def _settled(driver: Any, script: str, other_than: Any = None, seconds: float = 20.0) -> Any:
    """What ``script`` returns once it returns something, other than ``other_than`` (a page being drawn,
    or redrawn after a click, gives nothing or the old rows for a moment), within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = driver.execute_script(script)
        if (value and value != other_than) or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


@pytest.mark.parametrize("count", [50, 51, 137])
def test_a_bots_faults_are_shown_a_page_at_a_time(browser: Any, tmp_path: pathlib.Path, count: int) -> None:
    """Tens of thousands of faults froze the page while it drew them all: each bot's are drawn 50 at a time,
    with a pager that reaches every one of them, in order."""
    played = web_games.league_records(["alpha", "beta"], deals=70)
    directory = tmp_path / "results"
    web_games.write_dir(directory, played, ["alpha", "beta"], deals=70)
    faulted = list(range(count))
    for index in faulted:  # alpha's fault, at whichever seat it holds
        web_games.add_fault(played, directory, index, played[index]["seats"].index("alpha"))
    web_games.write_dir(directory, played, ["alpha", "beta"], deals=70)
    found = sources.load([directory])
    data = model.report_data(found.records, found.info, found.tails)
    (directory / "report.html").write_text(page.render(data, "test"), encoding="utf-8")
    _open(browser, directory / "report.html")
    shown = "return [...document.querySelectorAll('#faults-section tr.fault td:first-child')].map(td => td.textContent)"
    wanted = [played[index]["game_id"] for index in faulted]
    seen = _settled(browser, shown)  # a large page may still be drawing when it has loaded
    assert seen == wanted[:50]
    pages = -(-count // 50)
    if pages == 1:
        assert browser.find_elements("id", "faults-0-next") == []
        return
    while len(seen) < count:
        before = browser.execute_script(shown)
        browser.find_element("id", "faults-0-next").click()
        seen += _settled(browser, shown, other_than=before)
    assert seen == wanted
    assert browser.find_element("id", "faults-0-next").get_attribute("disabled") is not None
    assert f"page {pages} of {pages}" in browser.find_element("id", "faults-0-pager").text
    browser.find_element("id", "faults-0-first").click()
    assert _settled(browser, shown, other_than=wanted[(pages - 1) * 50 :]) == wanted[:50]
    assert _errors(browser) == []


def test_neighbours_that_never_met_have_a_row_saying_so(browser: Any, tmp_path: pathlib.Path) -> None:
    """A gauntlet's entries meet only its head: two of them next to each other in the standings get a row
    with 0 games and no figures (they had been left out of the table)."""
    names = ["head", "one", "two", "three"]
    played = [g for g in web_games.league_records(names, deals=2, seed=4) if "head" in g["teams"]]
    web_games.write_dir(tmp_path, played, names, deals=2)
    found = sources.load([tmp_path])
    data = model.report_data(found.records, found.info, found.tails)
    (tmp_path / "report.html").write_text(page.render(data, "test"), encoding="utf-8")
    _open(browser, tmp_path / "report.html")
    rows = _rows(browser, "#neighbours", "td.textContent")
    order = [row.name for row in standings.standings(played)]
    assert [r[1:3] for r in rows] == [list(pair) for pair in itertools.pairwise(order)]
    for row in rows:
        met = "head" in row[1:3]
        assert (row[3] != "0") == met and (row[7] == "never met") == (not met), row
    assert any(row[7] == "never met" for row in rows)
    assert _errors(browser) == []
