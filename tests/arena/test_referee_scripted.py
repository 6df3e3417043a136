"""The referee's judgement of replies, faults and time, against scripted seats: no process is started."""

from __future__ import annotations

import re
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


class SlowOnDiscards:
    """Bids as high as it may, then takes too long over every other discard (never three requests in a row,
    which would have the referee play for it to the game's end)."""

    def __init__(self) -> None:
        self.discards = 0

    def __call__(self, message: dict[str, Any]) -> Answer:
        legal = message["legal"]
        if legal[0].startswith("discard"):
            self.discards += 1
            if self.discards % 2:
                return 1.0, None  # past the deadline: the referee discards for it
            return reply(message, legal[0], 0.01)
        return reply(message, legal[-1] if legal[-1].startswith("bid") else legal[0], 0.01)


async def test_a_substituted_discard_is_told_to_the_bidder_only() -> None:
    seats = [ScriptedSeat("slow", SlowOnDiscards()), ScriptedSeat("quick"), ScriptedSeat("slow", SlowOnDiscards())]
    seats.append(ScriptedSeat("quick"))
    record = await play(seats, TimeControl(move=0.15), FaultPolicy.SUBSTITUTE)
    substituted = {seat: 0 for seat in range(4)}
    for fault in record["faults"]:
        assert fault["kind"] == "timeout" and fault["legal"][0].startswith("discard"), fault
        substituted[fault["seat"]] += 1
    assert substituted[0] + substituted[2] > 0, "the slow bots never won an auction: the script tests nothing"
    for seat, bot in enumerate(seats):
        told = [m for m in bot.received if m["type"] == "played" and m["action"].startswith("discard")]
        assert len(told) == substituted[seat], seat
    records.replay(record)


def always_late(message: dict[str, Any]) -> Answer:
    return 1.0, None  # hung: never a reply within the deadline


def late_twice_then_on_time() -> Any:
    asked = [0]

    def script(message: dict[str, Any]) -> Answer:
        asked[0] += 1
        return (1.0, None) if asked[0] % 3 else first_legal(message)

    return script


@pytest.mark.parametrize("policy", [FaultPolicy.SUBSTITUTE, FaultPolicy.FORFEIT])
async def test_three_timeouts_in_a_row_and_the_referee_plays_for_the_seat(policy: FaultPolicy) -> None:
    """A hung bot costs three move times a game, not one a turn: under ``substitute`` the referee plays for
    it after its third timeout in a row (a reply of any kind starts the count again); ``forfeit`` ends the
    game at the first."""
    hung, steady = ScriptedSeat("hung", always_late), ScriptedSeat("steady", late_twice_then_on_time())
    seats = [hung, ScriptedSeat("quick"), steady, ScriptedSeat("quick")]
    record = await play(seats, TimeControl(move=0.15), policy)
    faults = {seat: [f for f in record["faults"] if f["seat"] == seat] for seat in range(4)}
    if policy is FaultPolicy.FORFEIT:
        assert len(record["faults"]) == 1 and record["forfeit"]["team"] == 0
        return
    assert [f["kind"] for f in faults[0]] == ["timeout"] * 3
    assert faults[0][-1]["detail"].endswith("(3 in a row: the referee plays for this seat to the game's end)")
    assert sum(1 for m in hung.received if m["type"] == "act") == 3  # never asked again
    asked = sum(1 for m in steady.received if m["type"] == "act")
    assert len(faults[2]) == asked - asked // 3 > 3  # late twice in every three, and asked to the end
    assert not any("in a row" in f["detail"] for f in faults[2])
    assert faults[1] == faults[3] == []
    assert record["result"] is not None
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
        # Whole milliseconds never more than the seat has: rounded down, to the float product's noise.
        assert move * 1000 - 1 < deadline_ms <= move * 1000 + 1e-6, number
        assert left * 1000 - 1 < bank_ms <= left * 1000 + 1e-6, (number, left)
        # A late reply is a timeout after all the time granted; the seat is asked again next time.
        left = clock.charge(left, min(takes[number % len(takes)], clock.grant(left)))
    assert record["timing"][0]["count"] == len(asked)
    records.replay(record)


@pytest.mark.parametrize(("bank", "takes"), [(0.0, 0.25), (1.0, 0.25), (0.5, 0.4)])
async def test_a_timeout_says_what_its_grant_was_made_of(bank: float, takes: float) -> None:
    """'no reply within 0.193 s' alone leaves a user who set 0.1 s guessing: the bank's part is named."""
    seats = [ScriptedSeat("slow", lambda message: reply(message, message["legal"][0], takes))]
    seats += [ScriptedSeat(name) for name in ("a", "b", "c")]
    record = await play(seats, TimeControl(move=0.1, bank=bank), FaultPolicy.FORFEIT)
    (fault,) = record["faults"]
    detail = fault["detail"]
    if bank == 0:
        assert detail == "no reply within 0.1 s", detail
        return
    found = re.fullmatch(
        r"no reply within ([0-9.]+) s \(its move time of 0.1 s and the ([0-9.]+) s left of its bank\)", detail
    )
    assert found is not None, detail
    assert abs(float(found[1]) - 0.1 - float(found[2])) <= 0.0011, detail
    assert 0 < float(found[2]) < takes - 0.1, detail


async def test_every_seat_is_told_the_same_game_as_the_record() -> None:
    seats = [ScriptedSeat(name, first_legal) for name in ("a", "b", "c", "d")]
    record = await play(seats, TimeControl(), FaultPolicy.FORFEIT, seed=11)
    assert record["faults"] == []
    for seat, bot in enumerate(seats):
        game = next(m for m in bot.received if m["type"] == "game")
        assert game["seat"] == seat and game["players"] == ["a", "b", "c", "d"]
        assert bot.received[-1]["type"] == "game_over"
    records.replay(record)
