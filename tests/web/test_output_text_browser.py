"""A bot's words on the pages, in a real headless Chromium: the line a faulting bot sent, its comment and
the end of its stderr log show their bidi controls, ESC and BEL as escapes, never raw, so that no bot
can make the referee's own words read reversed; in the report's faults table and in the viewer."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest
import web_games
from fault_games import forfeited
from test_web_browser import _errors, _open, browser  # noqa: F401 (browser is a fixture)

from rookarena.web import model, page, sources

pytestmark = pytest.mark.slow

SENT = "play R5\u202e\x1b[31m\x07 !tluaf on"  # would read "no fault! ..." reversed
SAID = "good \u2066luck\u2069\u200f\x1b]0;PWNED\x07"
LOGGED = "Traceback\u202e\x1b[2J\x07 done"
RAW = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\x1b\x07"


def raw(text: str) -> list[str]:
    """The bidi controls, ESC and BEL of ``text``."""
    return [ch for ch in text if ch in RAW]


def test_the_report_shows_a_bots_words_escaped(browser: Any, tmp_path: pathlib.Path) -> None:  # noqa: F811
    names = ["alpha", "beta"]
    directory = tmp_path / "league"
    (directory / "logs").mkdir(parents=True)
    played = web_games.league_records(names, deals=1)
    fault = web_games.add_fault(played, directory, 1, 2)
    fault.update(line=SENT, detail=f"illegal: {SENT}", kind="illegal")
    log = next((directory / "logs").iterdir())
    log.write_text(log.read_text() + LOGGED + "\n", encoding="utf-8")
    web_games.write_dir(directory, played, names, deals=1)
    found = sources.load([directory])
    path = directory / "report.html"
    path.write_text(page.render(model.report_data(found.records, found.info, found.tails), "report"), encoding="utf-8")
    _open(browser, path)
    row = browser.find_element("css selector", "#faults-section tr.fault")
    cells = [cell.get_attribute("textContent") for cell in row.find_elements("css selector", "td")]
    message, sent, log_text = cells[4], cells[6], cells[7]
    assert sent == "play R5\\u202e\\x1b[31m\\x07 !tluaf on", cells
    assert message == "illegal: play R5\\u202e\\x1b[31m\\x07 !tluaf on", cells
    assert "Traceback\\u202e\\x1b[2J\\x07 done" in log_text and "log line 30" in log_text, cells
    assert "\n" in log_text  # the log's lines stay lines
    assert raw(browser.find_element("id", "report").get_attribute("textContent")) == []
    assert _errors(browser) == []


def test_the_viewer_shows_a_bots_words_escaped(browser: Any, tmp_path: pathlib.Path) -> None:  # noqa: F811
    record: dict[str, Any] = forfeited("tournament", 5, 13)
    fault = record["faults"][0]
    fault.update(kind="illegal", line=SENT, detail=f"illegal: {SENT}")
    record["comments"] = [{"seat": fault["seat"], "hand": fault["hand"], "decision": 0, "text": SAID}]
    path = tmp_path / "game.html"
    path.write_text(page.render(model.replay_page([("g1", record)]), "g"), encoding="utf-8")
    _open(browser, path)
    browser.execute_script("rookViewer.go(Infinity)")
    said = browser.execute_script("return [...document.querySelectorAll('.fault-here')].map(p => p.textContent)")
    assert len(said) == 1, said
    assert "answered play R5\\u202e\\x1b[31m\\x07 !tluaf on" in said[0], said
    assert raw(said[0]) == [], said
    steps = browser.execute_script("return rookViewer.boards[0].steps.map(s => (s.comments || []).length)")
    browser.execute_script("rookViewer.go(arguments[0])", steps.index(1))
    comment = browser.execute_script("return document.querySelector('.comment').textContent")
    assert "good \\u2066luck\\u2069\\u200f\\x1b]0;PWNED\\x07" in comment, comment
    assert raw(browser.find_element("id", "viewer").get_attribute("textContent")) == []
    assert _errors(browser) == []
