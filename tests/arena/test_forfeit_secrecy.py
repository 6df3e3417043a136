"""A forfeit tells the bots who faulted and the fault's class, nothing more: the fault's detail lists the
faulting seat's legal cards (an illegal reply's) and quotes what the bot wrote, so sent to every seat it
would show one seat's hand to the others, and let a bot pass words to its partner. Generated faults at
generated moments, against scripted seats; the record keeps the detail."""

from __future__ import annotations

import json
import re
from typing import Any

import trio
from fakes import KINDS, Answer, ScriptedSeat, first_legal, misbehave
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.presets import PRESETS

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[RGBY](?:1[0-4]|[1-9])|ROOK)(?![A-Za-z0-9])")
NAMES = ("north", "east", "south", "west")


class FaultsOnce:
    """The first legal action, but at request ``at`` the wrong answer ``kind`` (a name of fakes.KINDS), or
    the line ``line`` when ``kind`` is ``"line"``."""

    def __init__(self, at: int, kind: str, line: bytes) -> None:
        self.at, self.kind, self.line = at, kind, line
        self.asked = 0

    def __call__(self, message: dict[str, Any]) -> Answer:
        number, self.asked = self.asked, self.asked + 1
        if number != self.at:
            return first_legal(message)
        if self.kind == "line":
            return 0.0, self.line
        return misbehave(self.kind, message)


def lines(draw: st.DrawFn) -> bytes:
    """What a bot that wants its partner to read its hand might write: its legal cards in an action, in a
    comment, or as plain text."""
    words = draw(st.lists(st.sampled_from(["R7", "G13", "B1", "Y10", "ROOK", "play", "discard", "bid", "x"])))
    text = " ".join(words)
    shape = draw(st.sampled_from(["action", "comment", "text"]))
    if shape == "text":
        return text.encode() + b"\n"
    body: dict[str, Any] = {"id": draw(st.integers(-2, 200)), "action": text}
    if shape == "comment":
        body["comment"] = text
    return json.dumps(body).encode() + b"\n"


@settings(max_examples=60, deadline=None)
@given(
    seat=st.integers(0, 3),
    at=st.integers(0, 60),
    kind=st.sampled_from([*KINDS, "line", "line"]),
    data=st.data(),
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32),
)
def test_a_forfeit_tells_the_bots_no_card_and_nothing_the_bot_wrote(
    seat: int, at: int, kind: str, data: st.DataObject, preset: str, seed: int
) -> None:
    line = data.draw(st.composite(lines)()) if kind == "line" else b""
    seats = [ScriptedSeat(NAMES[s], FaultsOnce(at, kind, line) if s == seat else first_legal) for s in range(4)]
    setup = GameSetup(game_id="g", rules=PRESETS[preset].rules, rules_name=preset, seed=seed)
    record = trio.run(Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.FORFEIT).play)
    forfeit = record.get("forfeit")
    if forfeit is None:
        return  # the game ended before the fault's request, or the line was a fault no policy forfeits for
    assert forfeit["seat"] == seat
    fault = record["faults"][-1]
    notice = f"forfeit: seat {seat} ({NAMES[seat]}) {forfeit['kind']}"
    assert record["result"]["reason"] == f"{notice}: {fault['detail']}"  # the organiser's record keeps the detail
    told = 0
    for other in seats:
        overs = [message for message in other.received if message["type"] == "game_over"]
        assert len(overs) == (other.fault is None) or (other is seats[seat] and len(overs) <= 1), other.received
        for over in overs:
            assert over["reason"] == notice
            assert not CARD.findall(json.dumps(over)), over
            told += 1
    assert told >= 3
