"""Whatever text a bot puts in its reply's ``action``, the referee judges it: the exact text of a legal
action is played, anything else is an ``illegal`` fault with a reason. A superscript digit (``bid ²``,
``play R¹²``: ``str.isdigit`` accepts them, ``int`` refuses them) or a number of thousands of digits had
raised out of the referee and stopped the whole match or league."""

from __future__ import annotations

import contextlib

import pytest
from fakes import ScriptedSeat, first_legal, reply
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.actions import parse_action
from rookarena.engine.presets import TOURNAMENT
from rookarena.errors import ParseError
from rookarena.wire import records, replies

DIGITS = "0123456789²³¹⁰⁴⁵⁶⁷⁸⁹₀₁₂٠١٢३४५０１２"
NUMBERS = st.one_of(
    st.text(alphabet=DIGITS, min_size=1, max_size=8),
    st.integers(4000, 6000).map(lambda n: "9" * n),
    st.integers(0, 200).map(str),
)
WORDS = st.sampled_from(["bid", "play", "discard", "trump", "pass", "BID", "Play", "rook", "R", "g", "Y", ""])
ACTIONS = st.one_of(
    st.builds(lambda verb, colour, number: f"{verb} {colour}{number}", WORDS, st.sampled_from("RGBYrgby"), NUMBERS),
    st.builds(lambda verb, number: f"{verb} {number}", WORDS, NUMBERS),
    st.builds(lambda colour, number: f"{colour}{number}", st.sampled_from("RGBYx"), NUMBERS),
    st.text(max_size=30),
)


@settings(max_examples=400, deadline=None)
@given(ACTIONS)
def test_any_action_text_is_read_or_refused_in_words(text: str) -> None:
    legal = ["pass", "bid 75", "bid 80", "play R8", "discard G5", "trump B"]
    with contextlib.suppress(ParseError):  # nothing else
        parse_action(text)
    detail = replies.not_legal(text, legal)
    assert "is not one of the 6 legal strings" in detail
    suggestion = replies.nearest_legal(text, legal)
    assert suggestion is None or suggestion in legal


@settings(max_examples=40, deadline=None)
@given(ACTIONS, st.integers(0, 30))
async def test_a_seat_answering_any_text_is_judged_and_the_game_goes_on(text: str, at: int) -> None:
    asked = [0]

    def script(message: dict[str, object]) -> tuple[float, bytes | None]:
        asked[0] += 1
        return reply(message, text) if asked[0] == at + 1 else first_legal(message)

    seats = [ScriptedSeat("odd", script), ScriptedSeat("a"), ScriptedSeat("b"), ScriptedSeat("c")]
    setup = GameSetup(game_id="g1", rules=TOURNAMENT, rules_name="tournament", seed=at)
    record = await Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.SUBSTITUTE).play()
    records.replay(record)
    faults = [fault for fault in record["faults"] if fault["seat"] == 0]
    if asked[0] > at and faults:
        assert [fault["kind"] for fault in faults] == ["illegal"], faults
        assert faults[0]["detail"], faults


@pytest.mark.parametrize(
    "text", ["bid ²", "R³", "play R¹²", "discard G⁵", "bid " + "9" * 5000, "play R" + "9" * 5000, "trump ³"]
)
async def test_the_texts_that_stopped_the_referee_are_illegal(text: str) -> None:
    seats = [ScriptedSeat("odd", lambda m: reply(m, text)), ScriptedSeat("a"), ScriptedSeat("b"), ScriptedSeat("c")]
    setup = GameSetup(game_id="g1", rules=TOURNAMENT, rules_name="tournament", seed=1)
    record = await Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.FORFEIT).play()
    (fault,) = record["faults"]
    assert fault["seat"] == 0 and fault["kind"] == "illegal", fault
    records.replay(record)
