"""The position of a fault in the viewer, in a real headless Chromium: a game a fault stopped ends on the
hand in progress (the cards each seat held, the calls, the trick so far) with the fault said there, and
a fault the referee played through is said at the position its seat was asked at. A seat's view of
another seat's fault shows neither that seat's cards nor the referee's words."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest
from fault_games import forfeited
from test_web_browser import _errors, _open, browser  # noqa: F401 (browser is a fixture)

from rookarena.web import model, page
from rookarena.wire import position

pytestmark = pytest.mark.slow

BOARD = (
    "const b = document.querySelector('.board');"
    "return [[0, 1, 2, 3].map(s => [...b.querySelectorAll(`.seat[data-seat='${s}'] .hand .card[data-card]`)]"
    ".map(c => c.dataset.card).sort()),"
    " [...b.querySelectorAll('.slot .card[data-card]')].map(c => c.dataset.card).sort(),"
    " [...b.querySelectorAll('.fault-here')].map(p => p.textContent), b.dataset.hand]"
)
# Stopped: before any call, in the auction, at the discards, at the trump, leading, following, in a later hand.
CASES = [("tournament", 5, m) for m in (0, 2, 6, 9, 11, 13, 15, 60)] + [("open-nest", 8, 10), ("kentucky", 3, 24)]


def _page(directory: pathlib.Path, records: list[tuple[str, dict[str, Any]]]) -> pathlib.Path:
    path = directory / "game.html"
    path.write_text(page.render(model.replay_page(records), "g"), encoding="utf-8")
    return path


@pytest.mark.parametrize(("preset_name", "seed", "moves"), CASES)
def test_a_forfeit_is_shown_at_its_position(
    browser: Any,  # noqa: F811
    tmp_path: pathlib.Path,
    preset_name: str,
    seed: int,
    moves: int,
) -> None:
    record = forfeited(preset_name, seed, moves)
    hand, fault = record["unfinished"], record["faults"][0]
    _open(browser, _page(tmp_path, [("g1", record)]))
    browser.execute_script("rookViewer.go(Infinity)")
    held, trick, said, at = browser.execute_script(BOARD)
    assert held == [sorted(position.held(hand, seat)) for seat in range(4)]
    assert trick == sorted((hand.get("trick") or {}).get("cards", []))
    assert int(at) == len(record["hands"])
    assert len(said) == 1 and f"seat {fault['seat']} " in said[0] and "crash" in said[0] and "status 1" in said[0]
    other = (fault["seat"] + 1) % 4
    browser.execute_script(
        "document.querySelector('#seat-select').value = arguments[0];"
        "document.querySelector('#seat-select').dispatchEvent(new Event('change'))",
        str(other),
    )
    held, _, said, _ = browser.execute_script(BOARD)
    assert held[fault["seat"]] == [] and held[other] == sorted(position.held(hand, other))
    assert len(said) == 1 and "status 1" not in said[0]
    assert _errors(browser) == []


def test_a_substituted_fault_is_shown_where_its_seat_was_asked(browser: Any, tmp_path: pathlib.Path) -> None:  # noqa: F811
    record = forfeited("tournament", 5, 13)
    full = forfeited("tournament", 5, 10_000)  # the same deals played to the end
    fault = dict(record["faults"][0], kind="timeout", detail="no reply within 1.0 s")
    full["faults"] = [fault]
    _open(browser, _page(tmp_path, [("g1", full)]))
    steps = browser.execute_script("return rookViewer.boards[0].steps.map(s => (s.faults || []).length)")
    assert sum(steps) == 1
    browser.execute_script("rookViewer.go(arguments[0])", steps.index(1))
    held, _, said, at = browser.execute_script(BOARD)
    part = position.fault_part(full, fault)
    assert part is not None and int(at) == fault["hand"] - 1
    assert held == [sorted(position.held(part, seat)) for seat in range(4)]
    assert len(said) == 1 and "timeout" in said[0]
    assert _errors(browser) == []
