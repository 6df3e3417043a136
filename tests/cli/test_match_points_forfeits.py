"""The points test of ``match --sprt-points`` takes no points from a forfeited game: a game cut short has
the scores of its moment, not a result, and a NEW that crashed late in half its games once passed on them.
NEW's forfeit anywhere in a deal pair stops the test deciding; OLD's leaves the pair out. Real games
between scripted seats, a fault at a generated request of a generated game of the pair."""

from __future__ import annotations

from typing import Any

import trio
from fakes import ScriptedSeat, misbehave, reply
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.cli.match_cmd import _Watch
from rookarena.engine.presets import TOURNAMENT
from rookarena.results import sprt

NEW, OLD = "new", "old"


def eager(message: dict[str, Any]) -> Any:
    """The lowest bid when nobody has bid yet (so that auctions end, contracts are made and games reach the
    target), a pass after; else the first legal action."""
    legal = message["legal"]
    if "pass" in legal and message["view"]["high_bid"] is not None:
        return reply(message, "pass")
    return reply(message, next((action for action in legal if action.startswith("bid")), legal[0]))


def crashes_at(request: int) -> Any:
    asked = iter(range(10_000))

    def script(message: dict[str, Any]) -> Any:
        return misbehave("closed", message) if next(asked) == request else eager(message)

    return script


def game(number: int, names: list[str], seed: int, faulty: str | None, request: int) -> dict[str, Any]:
    seats = [
        ScriptedSeat(name, crashes_at(request) if name == faulty and s < 2 else eager) for s, name in enumerate(names)
    ]
    setup = GameSetup(game_id=f"m-{number:04d}", rules=TOURNAMENT, rules_name="tournament", seed=seed)
    record = trio.run(Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.FORFEIT).play)
    record["teams"] = names[:2]  # as the match writes them
    return record


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    faulty=st.sampled_from([NEW, OLD, None]),
    which=st.integers(0, 1),
    request=st.integers(0, 120),
)
def test_a_forfeited_game_gives_the_points_test_no_points(
    seed: int, faulty: str | None, which: int, request: int
) -> None:
    pair = [
        game(1, [NEW, OLD, NEW, OLD], seed, faulty if which == 0 else None, request),
        game(2, [OLD, NEW, OLD, NEW], seed, faulty if which == 1 else None, request),
    ]
    watch = _Watch(NEW, 2, sprt.SequentialTest(sprt.Model.POINTS, -50, 0), None)
    for record in pair:
        watch._count(record)
    tally = watch.tally
    assert tally is not None
    forfeited = [record["teams"][record["forfeit"]["team"]] for record in pair if record.get("forfeit")]
    if NEW in forfeited:
        assert (tally.pairs, tally.forfeits) == (0, 1), forfeited
    elif forfeited:
        assert (tally.pairs, tally.forfeits) == (0, 0), forfeited
    else:
        assert (tally.pairs, tally.forfeits) == (1, 0)
