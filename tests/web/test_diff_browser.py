"""The decision diff page in a real headless Chromium: it loads offline, and every difference opens the
viewer on the seat's view just before the decision (the viewer's next step is OLD's recorded action)."""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import TEST_BOTS
from test_web_browser import _errors, _open, _requests, browser  # noqa: F401 (browser is a fixture)

from rookarena.cli import main

pytestmark = pytest.mark.slow

VARIANT = f"{sys.executable} {TEST_BOTS / 'variant_bot.py'}"


@pytest.fixture(scope="module")
def diff_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("match")
    runner = CliRunner()
    args = ["match", f"{VARIANT} same", f"{sys.executable} -m rookarena bot random", "--name-a", "old"]
    result = runner.invoke(main, [*args, "--games", "2", "--seed", "5", "--move-time", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    path = out / "diff.html"
    args = ["diff", f"{VARIANT} lowest-lead", "old", "--from", str(out), "--move-time", "5", "-o", str(path)]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    start = text.index('id="rookarena-data">') + len('id="rookarena-data">')
    return path, json.loads(text[start : text.index("</script>", start)])


def test_the_diff_page_loads_offline_and_shows_the_counts(browser: Any, diff_page: tuple[pathlib.Path, Any]) -> None:  # noqa: F811
    path, data = diff_page
    _open(browser, path)
    assert browser.find_element("id", "diff-counts").is_displayed()
    assert _errors(browser) == []
    assert {url.split("#")[0] for url in _requests(browser)} <= {path.as_uri()}
    counts = browser.execute_script(
        "return [...document.querySelectorAll('#diff-counts tbody tr')]"
        ".map(tr => [...tr.children].map(c => c.textContent))"
    )
    assert counts == [
        [c["kind"], str(c["decisions"]), str(c["differ"]), str(c["faults"]), str(c["skipped"])]
        for c in data["diff"]["counts"]
    ]
    rows = browser.find_elements("css selector", "#diff-differences tbody tr")
    assert len(rows) == len(data["diff"]["differences"]) > 0


def test_each_difference_opens_the_viewer_just_before_the_decision(
    browser: Any,  # noqa: F811
    diff_page: tuple[pathlib.Path, Any],
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    path, data = diff_page
    _open(browser, path)
    link = browser.find_element("css selector", "#diff-differences a.diff-link")
    link.click()
    first = data["diff"]["differences"][0]
    board = "document.querySelector('.board')"
    # The link changes the fragment; the page answers the hashchange event in a later task.
    opened = f"const b = {board}; return b ? b.dataset.game : null"
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(opened) == first["game"])
    assert browser.execute_script(f"return {board}.dataset.game") == first["game"]
    assert browser.execute_script(f"return {board}.dataset.step") == str(first["step"])
    assert browser.execute_script("return document.getElementById('seat-select').value") == str(first["seat"])
    viewer_top = "return document.getElementById('viewer-section').getBoundingClientRect().top"
    assert 0 <= browser.execute_script(viewer_top) < 50  # scrolled to the viewer
    note = browser.find_element("id", "diff-note")
    assert note.is_displayed() and first["old"] in note.text and first["new"] in note.text
    # Every difference: the viewer's next step is the seat's recorded action.
    found = browser.execute_script(
        """
        const out = [];
        for (const row of arguments[0]) {
          rookViewer.open(row.game);
          const next = rookViewer.boards[0].steps[row.step + 1];
          out.push(next && next.act ? [next.act.seat, next.act.text] : null);
        }
        return out;
        """,
        data["diff"]["differences"],
    )
    assert found == [[row["seat"], row["old"]] for row in data["diff"]["differences"]]
    assert _errors(browser) == []
