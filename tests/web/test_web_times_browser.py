"""Decision times in the viewer, in a real headless Chromium: at every step that is a seat's decision the
acting seat and the step's details show that decision's time from the record's ``decision_ms`` (or that
the referee played for the seat), the slowest of the game is marked once and can be jumped to, and a
record without the field shows only the per-seat summary of ``timing``."""

from __future__ import annotations

import pathlib
import random
from typing import Any

import pytest
import web_games
from click.testing import CliRunner
from test_web_browser import _errors, _open, browser  # noqa: F401 (browser is a fixture)

from rookarena.cli import main
from rookarena.engine.presets import preset

pytestmark = pytest.mark.slow

NAMES = ["alpha", "beta"]

SHOWN_AT = (  # what the board shows of decision times, for the seat arguments[0]
    "const shown = (seat) => {"
    " const b = document.querySelector('.board');"
    " const t = b.querySelector(`.seat[data-seat='${seat}'] .decision-time`);"
    " const d = b.querySelector('.info dd.time');"
    " return [b.querySelectorAll('.seat .decision-time').length, t && t.textContent, d && d.textContent,"
    " b.querySelectorAll('.decision-time.slowest').length]; };"
)
SHOWN = SHOWN_AT + "return shown(arguments[0]);"
# The same at each of the steps arguments[0] ([step, seat] pairs), each shown in turn: one call to the browser.
SHOWN_AT_EACH = SHOWN_AT + "return arguments[0].map(([step, seat]) => { rookViewer.go(step); return shown(seat); });"


@pytest.mark.parametrize("preset_name", ["tournament", "open-nest"])
def test_each_decision_shows_its_time_at_its_step(browser: Any, tmp_path: pathlib.Path, preset_name: str) -> None:  # noqa: F811
    played = web_games.league_records(NAMES, deals=1, rules=preset(preset_name).rules)
    rng = random.Random(preset_name)
    times = [web_games.add_times(record, rng) for record in played]
    old = played[1]
    del old["decision_ms"]
    old["timing"] = [{"count": 5, "median": 1.5, "max": 9.25, "total": 12.0}] * 4
    web_games.write_dir(tmp_path, played, NAMES, deals=1)
    result = CliRunner().invoke(main, ["report", str(tmp_path), "--embed", "2"])
    assert result.exit_code == 0, result.output
    _open(browser, tmp_path / "report.html")
    record = played[0]
    browser.execute_script("rookViewer.pair = false; rookViewer.open(arguments[0])", record["game_id"])
    acts = browser.execute_script("return rookViewer.boards[0].steps.map(s => s.act && [s.act.seat, s.act.text])")
    made = web_games.decisions(record)
    steps = [index for index, act in enumerate(acts) if act is not None]
    assert [tuple(acts[i]) for i in steps] == [(seat, action) for _, seat, action in made]
    slowest = []
    asked = [[index, seat] for index, (_, seat, _) in zip(steps, made, strict=True)]
    shown = browser.execute_script(SHOWN_AT_EACH, asked)
    for index, (_, seat, _), ms, (count, at_seat, detail, marked) in zip(steps, made, times[0], shown, strict=True):
        assert count == 1, index
        if ms is None:
            assert at_seat == "played by the referee" and detail == "played by the referee", index
        else:
            assert at_seat.startswith(f"this decision: {ms:.1f} ms"), (index, at_seat)
            assert detail.startswith(f"{ms:.1f} ms by seat {seat}"), (index, detail)
        if marked:
            slowest.append(index)
            assert "slowest of the game" in at_seat and ms == max(t for t in times[0] if t is not None)
    assert len(slowest) == 1
    browser.execute_script("rookViewer.go(0)")
    assert browser.execute_script(SHOWN, 0)[:3] == [0, None, None]  # a deal is no decision
    browser.find_element("id", "slowest-button").click()
    assert browser.execute_script("return rookViewer.boards[0].at") == slowest[0]
    assert "987.6 ms" in browser.find_element("css selector", ".slowest-note").text

    browser.execute_script("rookViewer.open(arguments[0])", old["game_id"])
    for index in range(0, 60, 7):
        browser.execute_script("rookViewer.go(arguments[0])", index)
        assert (
            browser.execute_script(SHOWN, 0)[0] == 0
            and browser.execute_script("return document.querySelectorAll('.info dd.time, .slowest-note').length") == 0
        )
    summary = browser.execute_script(
        "return [...document.querySelector('.board').querySelectorAll('.timing')].map(t => t.textContent)"
    )
    assert summary == ["5 decisions · median 1.50 ms · longest 9.25 ms"] * 4
    assert _errors(browser) == []
