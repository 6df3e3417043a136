"""The referee's judgement of replies, faults and time, against scripted seats: no process is started."""

from __future__ import annotations

from typing import Any

import pytest
from fakes import Answer, ScriptedSeat, first_legal, reply
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.wire import records


def setup(seed: int = 3) -> GameSetup:
    return GameSetup(game_id="g1", rules=TOURNAMENT, rules_name="tournament", seed=seed)


async def play(seats: list[ScriptedSeat], time: TimeControl, policy: FaultPolicy, seed: int = 3) -> dict[str, Any]:
    return await Referee(seats, setup(seed), time, policy).play()


def slow_on_discards(message: dict[str, Any]) -> Answer:
    """Bids as high as it may, then takes too long over every discard."""
    legal = message["legal"]
    if legal[0].startswith("discard"):
        return 1.0, None  # past the deadline: the referee discards for it
    return reply(message, legal[-1] if legal[-1].startswith("bid") else legal[0], 0.01)


async def test_a_substituted_discard_is_told_to_the_bidder_only() -> None:
    seats = [ScriptedSeat("slow", slow_on_discards), ScriptedSeat("quick"), ScriptedSeat("slow", slow_on_discards)]
    seats.append(ScriptedSeat("quick"))
    record = await play(seats, TimeControl(move=0.15), FaultPolicy.SUBSTITUTE)
    assert any(fault["kind"] == "timeout" for fault in record["faults"])
    discarded = {seat: 0 for seat in range(4)}
    for hand in record["hands"]:
        if hand.get("bidder") is not None and hand["discards"]:
            discarded[hand["bidder"]] += len(hand["discards"])
    assert discarded[0] + discarded[2] > 0, "the slow bots never won an auction: the script tests nothing"
    for seat, bot in enumerate(seats):
        told = [m for m in bot.received if m["type"] == "played" and m["action"].startswith("discard")]
        assert len(told) == (discarded[seat] if seat in (0, 2) else 0), seat
    records.replay(record)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b"not json\n", "malformed"),
        (b'{"id": %d, "action": "fly away"}\n', "illegal"),
        (None, "crash"),
    ],
)
async def test_a_bad_reply_forfeits_the_game_for_its_team(line: bytes | None, kind: str) -> None:
    def bad(message: dict[str, Any]) -> Answer:
        return 0.0, None if line is None else (line % message["id"] if b"%d" in line else line)

    seats = [ScriptedSeat("good"), ScriptedSeat("good"), ScriptedSeat("bad", bad), ScriptedSeat("good")]
    record = await play(seats, TimeControl(move=1.0), FaultPolicy.FORFEIT)
    assert record["forfeit"] == {"seat": 2, "team": 0, "kind": kind}
    assert record["result"]["winner"] == 1
    assert record["result"]["reason"].startswith("forfeit: seat 2 (bad) ")
    # Every bot that can still be talked to is told the game is over (an illegal action leaves it so).
    assert all(bot.received[-1]["type"] == "game_over" for bot in seats if bot.alive)
    assert seats[2].alive is (kind == "illegal")


async def test_a_reply_to_another_request_is_ignored_and_the_seat_times_out() -> None:
    def stale(message: dict[str, Any]) -> Answer:
        return 0.0, b'{"id": %d, "action": "pass"}\n' % (message["id"] ^ 1)

    seats = [ScriptedSeat("stale", stale), ScriptedSeat("good"), ScriptedSeat("good"), ScriptedSeat("good")]
    record = await play(seats, TimeControl(move=0.5), FaultPolicy.SUBSTITUTE)
    assert seats[0].ignored
    assert {fault["kind"] for fault in record["faults"]} == {"timeout"}
    assert all(fault["seat"] == 0 for fault in record["faults"])
    records.replay(record)


@settings(max_examples=8, deadline=None)
@given(
    move=st.sampled_from([0.1, 0.5, 1.0]),
    bank=st.sampled_from([0.0, 0.3, 2.0]),
    takes=st.lists(st.floats(min_value=0.0, max_value=3.0), min_size=1, max_size=8),
)
def test_the_bank_is_granted_and_charged_decision_by_decision(move: float, bank: float, takes: list[float]) -> None:
    import trio

    clock = TimeControl(move=move, bank=bank)
    asked: list[tuple[int, int]] = []
    index = iter(range(10_000))

    def timed(message: dict[str, Any]) -> Answer:
        asked.append((message["deadline_ms"], message["bank_ms"]))
        return reply(message, message["legal"][0], takes[next(index) % len(takes)])

    seats = [ScriptedSeat("timed", timed), ScriptedSeat("a"), ScriptedSeat("b"), ScriptedSeat("c")]
    record = trio.run(play, seats, clock, FaultPolicy.SUBSTITUTE)
    left = bank
    for number, (deadline_ms, bank_ms) in enumerate(asked):
        assert (deadline_ms, bank_ms) == (round(move * 1000), round(left * 1000)), number
        # A late reply is a timeout after all the time granted; the seat is asked again next time.
        left = clock.charge(left, min(takes[number % len(takes)], clock.grant(left)))
    assert record["timing"][0]["count"] == len(asked)
    records.replay(record)


async def test_every_seat_is_told_the_same_game_as_the_record() -> None:
    seats = [ScriptedSeat(name, first_legal) for name in ("a", "b", "c", "d")]
    record = await play(seats, TimeControl(), FaultPolicy.FORFEIT, seed=11)
    assert record["faults"] == []
    for seat, bot in enumerate(seats):
        game = next(m for m in bot.received if m["type"] == "game")
        assert game["seat"] == seat and game["players"] == ["a", "b", "c", "d"]
        assert bot.received[-1]["type"] == "game_over"
    records.replay(record)
