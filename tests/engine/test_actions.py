"""Actions: ``parse_action``/``str`` round trips for every kind, interning, and refusals quoting the input."""

from __future__ import annotations

import copy
import pickle

import pytest

from rookarena.engine.actions import (
    PASS,
    Action,
    Bid,
    Discard,
    Pass,
    Play,
    Trump,
    bid,
    discard,
    parse_action,
    play,
    trump,
)
from rookarena.engine.cards import COLORS, Card, Color
from rookarena.engine.presets import PRESETS
from rookarena.errors import ParseError

ALL_CARDS = sorted({card for preset in PRESETS.values() for card in preset.rules.deck}, key=str)
ALL_BIDS = sorted({amount for preset in PRESETS.values() for amount in preset.rules.bids})


def every_action() -> list[Action]:
    actions: list[Action] = [PASS]
    actions += [bid(amount) for amount in ALL_BIDS]
    actions += [discard(card) for card in ALL_CARDS]
    actions += [trump(color) for color in COLORS]
    actions += [play(card) for card in ALL_CARDS]
    return actions


EVERY_ACTION = every_action()


def test_every_kind_is_covered() -> None:
    kinds = {type(action) for action in EVERY_ACTION}
    assert kinds == {Pass, Bid, Discard, Trump, Play}
    # 70..120 and 100..180 in steps of 5
    assert ALL_BIDS[0] == 70
    assert ALL_BIDS[-1] == 180
    assert len(ALL_BIDS) == 23


@pytest.mark.parametrize("action", EVERY_ACTION, ids=str)
def test_action_text_round_trip(action: Action) -> None:
    parsed = parse_action(str(action))
    assert parsed == action
    assert parsed is action  # the parser hands out the interned values
    assert type(parsed) is type(action)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pass", Pass()),
        ("bid 75", Bid(75)),
        ("discard r5", Discard(Card.parse("R5"))),
        ("trump green", Trump(Color.GREEN)),
        ("trump g", Trump(Color.GREEN)),
        ("play rook", Play(Card.parse("ROOK"))),
        ("  play   G14  ", Play(Card.parse("G14"))),
    ],
)
def test_action_parse_is_lenient_about_case_and_space(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (PASS, "pass"),
        (bid(120), "bid 120"),
        (discard(Card.parse("Y1")), "discard Y1"),
        (trump(Color.BLACK), "trump B"),
        (play(Card.parse("ROOK")), "play ROOK"),
    ],
)
def test_action_text(action: Action, text: str) -> None:
    assert str(action) == text


def test_interned_constructors() -> None:
    card = Card.parse("G7")
    assert bid(85) is bid(85)
    assert play(card) is play(Card.parse("g7"))
    assert discard(card) is discard(card)
    assert trump(Color.RED) is trump(Color.parse("red"))
    # A value made by hand is equal to the interned one, so the engine accepts it.
    assert Bid(85) == bid(85)
    assert Play(card) == play(card)
    played: object = Play(card)
    assert played != Discard(card)
    assert bid(85) != bid(90)


@pytest.mark.parametrize("action", EVERY_ACTION[:: max(1, len(EVERY_ACTION) // 40)], ids=str)
def test_action_copies(action: Action) -> None:
    for copied in (pickle.loads(pickle.dumps(action)), copy.deepcopy(action)):
        assert copied == action
        assert str(copied) == str(action)
        card = getattr(action, "card", None)
        if card is not None:
            assert getattr(copied, "card", None) is card


def test_actions_are_frozen() -> None:
    action = bid(70)
    with pytest.raises(AttributeError):
        action.amount = 75  # type: ignore[misc]
    assert bid(70).amount == 70


# (input, the part of it the message must quote): the whole input, or the offending piece of it.
BAD_ACTIONS: list[tuple[object, object]] = [
    ("", ""),
    ("bid", "bid"),
    ("bid x", "bid x"),
    ("bid -5", "bid -5"),
    ("bid 7.5", "bid 7.5"),
    ("bid 1000000", "bid 1000000"),
    ("bid 70 75", "bid 70 75"),
    ("play", "play"),
    ("play R15", 15),
    ("play XX", "XX"),
    ("discard", "discard"),
    ("discard X5", "X"),
    ("trump Q", "Q"),
    ("trump ROOK", "ROOK"),
    ("fold", "fold"),
    ("pass now", "pass now"),
    ("PASS", "PASS"),
    ("play R5 G5", "play R5 G5"),
    (None, None),
    (70, 70),
]


@pytest.mark.parametrize(("text", "quoted"), BAD_ACTIONS, ids=repr)
def test_bad_action_text_is_refused(text: object, quoted: object) -> None:
    with pytest.raises(ParseError) as info:
        parse_action(text)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(text) in message or repr(quoted) in message, message
    assert message[0].islower(), message


@pytest.mark.parametrize("text", ["bid ²", "bid ５", "play R٣"])
def test_non_ascii_digits_raise_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)
