"""The report page of a larger league in a real headless Chromium: the standings fit 1280 px with the key
columns first, the plots keep long names, the games list is paged and searched, the viewer opens at the
top, plays on its own, marks the leader, shows decision times, steps a pair to both ends, and a dropped
file replaces the page's games."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
import web_games
from click.testing import CliRunner
from test_web_browser import _errors, _open, browser  # noqa: F401 (browser is a fixture)

from rookarena.cli import main

pytestmark = pytest.mark.slow

NAMES = ["alpha", "beta", "a-bot-with-a-rather-long-name-indeed", "delta"]
DEALS = 12
KINDS = ["timeout", "crash", "illegal"]


def _league(directory: pathlib.Path, names: list[str], deals: int, prefix: str = "") -> list[dict[str, Any]]:
    played = web_games.league_records(names, deals)
    for number, record in enumerate(played):
        record["game_id"] = prefix + record["game_id"]
        record["timing"] = [
            {"count": 10 + seat, "median": 1.25 + seat, "max": 20.5 + seat, "total": 30.0 + seat} for seat in range(4)
        ]
        if number % 7 == 3:
            seat = number % 4
            kind = KINDS[number % 3]
            fault = {"seat": seat, "bot": record["seats"][seat], "kind": kind, "detail": "x", "line": "", "hand": 1}
            record["faults"] = [fault]
    web_games.write_dir(directory, played, names, deals)
    return played


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, list[dict[str, Any]]]:
    directory = tmp_path_factory.mktemp("big")
    played = _league(directory, NAMES, DEALS)
    result = CliRunner().invoke(main, ["report", str(directory), "--embed", "60"])
    assert result.exit_code == 0, result.output
    return directory / "report.html", played


@pytest.fixture
def window(browser: Any) -> Iterator[Any]:  # noqa: F811 (the fixture of test_web_browser)
    browser.set_window_size(1280, 1000)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1200)


def test_the_standings_fit_1280_px_with_the_key_columns_first(window: Any, big: tuple[pathlib.Path, Any]) -> None:
    path, _ = big
    _open(window, path)
    shown = "[...document.querySelectorAll('#standings thead th')].filter(th => th.offsetParent)"
    keys = window.execute_script(f"return {shown}.map(th => th.dataset.key)")
    assert keys[:5] == ["rank", "bot", "rating", "duplicate", "win_rate"]
    fits = "const s = document.querySelector('#standings').parentElement; return [s.scrollWidth, s.clientWidth]"
    wide, room = window.execute_script(fits)
    assert wide <= room, (wide, room)
    window.find_element("id", "all-columns").click()
    more = window.execute_script(
        "return [...document.querySelectorAll('#standings thead th')].filter(th => th.offsetParent).length"
    )
    assert more > len(keys)
    assert _errors(window) == []


def test_the_plots_use_the_width_and_keep_the_names(window: Any, big: tuple[pathlib.Path, Any]) -> None:
    path, _ = big
    _open(window, path)
    plot = window.execute_script("return document.getElementById('elo-plot').getBoundingClientRect().width")
    section = window.execute_script("return document.getElementById('ratings-section').clientWidth")
    assert plot > 0.8 * section
    names = window.execute_script(
        "return [...document.querySelectorAll('#elo-plot text.name')].map(t => {const b = t.getBBox();"
        " return [t.textContent, b.x, b.x + b.width]})"
    )
    assert sorted(n for n, _, _ in names) == sorted(NAMES)
    assert all(left >= 0 for _, left, _ in names), names


def _count(driver: Any) -> str:
    return str(driver.find_element("id", "games-count").text)


def test_the_games_list_is_paged_and_searched(browser: Any, big: tuple[pathlib.Path, Any]) -> None:  # noqa: F811
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import Select, WebDriverWait

    path, played = big
    _open(browser, path)
    rows = "return [...document.querySelectorAll('#games tbody tr')].map(tr => tr.dataset.game)"
    try:  # (once, on a loaded machine, the list was read empty: the wait says whether it ever fills)
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(rows))
    except TimeoutException:
        state = browser.execute_script("return [document.readyState, document.title, location.href]")
        raise AssertionError(f"the games list stayed empty: {state}, errors {_errors(browser)}") from None
    first = browser.execute_script(rows)
    assert len(first) == 50 and _count(browser).startswith(f"{len(played)} of {len(played)} games match")
    browser.find_element("id", "games-next").click()
    second = browser.execute_script(rows)
    assert second == [r["game_id"] for r in played[50:100]]
    Select(browser.find_element("id", "filter-bot")).select_by_value("beta")
    Select(browser.find_element("id", "filter-result")).select_by_value("won")
    won = [r for r in played if "beta" in r["teams"] and r["teams"][r["result"]["winner"]] == "beta"]
    assert _count(browser).startswith(f"{len(won)} of {len(played)} games match")
    assert browser.execute_script(rows) == [r["game_id"] for r in won[:50]]
    Select(browser.find_element("id", "filter-result")).select_by_value("")
    Select(browser.find_element("id", "filter-fault")).select_by_value("crash")
    crashed = [r for r in played if "beta" in r["teams"] and any(f["kind"] == "crash" for f in r["faults"])]
    assert crashed and _count(browser).startswith(f"{len(crashed)} of {len(played)} games match")
    assert browser.execute_script(rows) == [r["game_id"] for r in crashed[:50]]
    assert _errors(browser) == []


def test_a_chosen_game_opens_at_the_top(browser: Any, big: tuple[pathlib.Path, Any]) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait

    path, _ = big
    _open(browser, path)
    assert browser.execute_script("return document.querySelector('main').firstElementChild.id") == "report"
    note = browser.find_element("id", "embed-note").text
    assert "60 of" in note and "rookarena replay" in note and "games.jsonl" in note
    link = browser.find_element("css selector", "#games tbody a.game-link")
    gid = link.get_attribute("data-game")
    link.click()
    # The link changes the fragment; the page answers the hashchange event in a later task.
    first = "return document.querySelector('main').firstElementChild.id"
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(first) == "viewer-section")
    top = browser.execute_script("return document.getElementById('viewer-section').getBoundingClientRect().top")
    assert -2 <= top <= 50
    assert browser.execute_script("return document.querySelector('.board').dataset.game") == gid
    assert _errors(browser) == []


def _open_paired(driver: Any, played: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open an embedded game whose deal partner is embedded too; the two records."""
    embedded = set(driver.execute_script("return Object.keys(rookViewer.games)"))
    by_id = {r["game_id"]: r for r in played}
    for record in played:
        gid = record["game_id"]
        partner = driver.execute_script("return (rookViewer.summaries[arguments[0]] || {}).partner", gid)
        if gid in embedded and partner in embedded:
            driver.execute_script("rookViewer.open(arguments[0])", gid)
            return record, by_id[partner]
    raise AssertionError("no embedded pair")


def test_the_viewer_marks_the_leader_and_keeps_the_trick_alone_in_the_middle(
    browser: Any,  # noqa: F811
    big: tuple[pathlib.Path, Any],
) -> None:
    path, played = big
    _open(browser, path)
    _open_paired(browser, played)
    steps = browser.execute_script("return rookViewer.boards[0].steps.map(s => s.trick && s.trick.leader)")
    checked = 0
    for index, leader in enumerate(steps):
        if leader is None or index % 5:
            continue
        browser.execute_script("rookViewer.go(arguments[0])", index)
        marked = browser.execute_script(
            "const b = document.querySelector('.board'); return [[...b.querySelectorAll('.center .slot.leader')]"
            ".map(s => Number(s.dataset.seat)), b.querySelectorAll('.center .nest, .center .discards').length,"
            " b.querySelectorAll('.side .nest').length]"
        )
        assert marked == [[leader], 0, 1], (index, marked)
        checked += 1
    assert checked > 5
    timing = browser.execute_script(
        "return [...document.querySelector('.board').querySelectorAll('.timing')].map(t => t.textContent)"
    )
    assert timing == [f"{10 + s} decisions · median {1.25 + s:.2f} ms · longest {20.5 + s:.1f} ms" for s in range(4)]
    assert _errors(browser) == []


def test_autoplay_the_slider_and_both_ends_of_a_pair(browser: Any, big: tuple[pathlib.Path, Any]) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select, WebDriverWait

    path, played = big
    _open(browser, path)
    _open_paired(browser, played)
    at = "return [...document.querySelectorAll('.board')].map(b => Number(b.dataset.step))"
    lengths = browser.execute_script("return rookViewer.boards.map(b => b.steps.length)")
    Select(browser.find_element("id", "speed-select")).select_by_value("16")
    browser.find_element("id", "play-button").click()
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(at)[0] >= 3)
    assert browser.find_element("id", "play-button").text == "❚❚ pause"
    browser.find_element("id", "play-button").click()
    stopped = browser.execute_script(at)
    assert browser.find_element("id", "play-button").text == "▶ play"
    assert browser.execute_script(at) == stopped
    # The slider: the main board to its value, the other to the same hand and decision.
    browser.execute_script(
        "const s = document.getElementById('step-slider'); s.value = 30; s.dispatchEvent(new Event('input'))"
    )
    moment = "return [...document.querySelectorAll('.board')].map(b => [b.dataset.hand, b.dataset.actions])"
    assert browser.execute_script(at)[0] == 30
    both = browser.execute_script(moment)
    assert both[0] == both[1]
    # The end: each game of the pair at its own end, whichever is longer.
    browser.find_element("css selector", "button[title='end (End)']").click()
    assert browser.execute_script(at) == [n - 1 for n in lengths]
    assert browser.execute_script("return Number(document.getElementById('step-slider').max)") == lengths[0] - 1
    assert _errors(browser) == []


def _drop(driver: Any, path: pathlib.Path) -> None:
    """``path`` dropped on the page, as a file dragged from the desktop is."""
    driver.execute_script(
        "const input = document.createElement('input'); input.type = 'file'; input.id = 'probe';"
        "document.body.append(input);"
    )
    driver.find_element("id", "probe").send_keys(str(path))
    driver.execute_script(
        "const data = new DataTransfer(); data.items.add(document.getElementById('probe').files[0]);"
        "document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));"
    )


def test_a_dropped_file_replaces_the_games_of_the_page(
    browser: Any,  # noqa: F811
    big: tuple[pathlib.Path, Any],
    tmp_path: pathlib.Path,
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    path, played = big
    other = _league(tmp_path / "other", ["x", "y"], 2, prefix="other-")
    _open(browser, path)
    _drop(browser, tmp_path / "other" / "games.jsonl")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements("css selector", ".board[data-game^='other-']"))
    options = browser.execute_script("return [...document.querySelectorAll('#game-select option')].map(o => o.value)")
    assert options == [r["game_id"] for r in other]
    assert browser.execute_script("return Object.keys(rookViewer.games).length") == len(other)
    assert _count(browser).startswith(f"{len(other)} of {len(other)} games match")
    listed = browser.execute_script(
        "return [...document.querySelectorAll('#games tbody tr')].map(tr => tr.dataset.game)"
    )
    assert listed == [r["game_id"] for r in other]
    assert "replace" in browser.find_element("id", "embed-note").text
    assert browser.execute_script("return document.querySelector('main').firstElementChild.id") == "viewer-section"
    assert len(played) > len(other) and _errors(browser) == []


def test_a_file_too_large_to_read_is_refused_with_what_to_do(
    browser: Any,  # noqa: F811
    big: tuple[pathlib.Path, Any],
    tmp_path: pathlib.Path,
) -> None:
    """A browser reads at most about 512 MiB of a file's text: a 600 MiB games.jsonl was said to hold 'no game
    records'. Past the page's limit (lowered here to 1 KiB) the file is refused, naming its size and what to
    do, and the page's games stay."""
    from selenium.webdriver.support.ui import WebDriverWait

    path, _ = big
    _league(tmp_path / "other", ["x", "y"], 2, prefix="other-")
    _open(browser, path)
    browser.execute_script("window.rookDropLimit = 1024;")
    _drop(browser, tmp_path / "other" / "games.jsonl")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements("css selector", "#viewer p.error"))
    said = browser.find_element("css selector", "#viewer p.error").text
    assert said.startswith("games.jsonl: ") and "more than a browser can read at once" in said, said
    assert "rookarena replay DIR GAME_ID" in said and "no game records" not in said
    assert browser.execute_script("return Object.keys(rookViewer.games).length") == 60  # --embed 60: kept
    assert _errors(browser) == []
