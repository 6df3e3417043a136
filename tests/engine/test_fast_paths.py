"""The referee's fast paths give exactly the bytes and answers of the plain definitions they replace.

The referee encodes requests with :func:`act_line` and notifications with :func:`after_action_lines`,
and recognises replies with :func:`offered_action`; the protocol is defined by :func:`act_message`,
:func:`after_action`, :func:`encode` and :func:`parse_action`. Over many seeded positions of every
preset, the two agree byte for byte.
"""

from __future__ import annotations

import random

import pytest

from rookarena.engine.actions import PASS, Action, bid, parse_action
from rookarena.engine.game import Game
from rookarena.engine.presets import PRESETS
from rookarena.errors import IllegalActionError
from rookarena.players import random_action
from rookarena.wire.conversation import Conversation, FaultKind, Hello, ProtocolFault, encode
from rookarena.wire.messages import (
    ViewEncoder,
    act_line,
    act_message,
    action_text,
    after_action,
    after_action_lines,
    offered_action,
)
from rookarena.wire.records import derive_seed


def positions(preset: str, games: int) -> list[tuple[Game, int]]:
    """New seeded games of a preset, each with its number."""
    return [(Game(PRESETS[preset].rules, random.Random(derive_seed(41, number))), number) for number in range(games)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_encoded_requests_and_news_match_their_definitions(preset: str) -> None:
    checked = 0
    for game, number in positions(preset, 3):
        rng = random.Random(number)
        views = ViewEncoder()  # one per game, as the referee keeps it: asked for every seat's view here
        while not game.is_over:
            seat, legal = game.to_act, game.legal_actions()
            deadline, bank, request_id = rng.choice([0, 1, 1000]), rng.choice([0, 7, 90_000]), checked + 1
            for with_view in (True, False):
                expected = encode(
                    {**act_message(game, seat, legal, deadline, bank, with_view=with_view), "id": request_id}
                )
                assert act_line(game, seat, legal, deadline, bank, request_id, with_view=with_view) == expected
            for other in range(4):
                expected = encode({**act_message(game, other, legal, deadline, bank), "id": request_id})
                assert act_line(game, other, legal, deadline, bank, request_id, views=views) == expected
            action = random_action(legal, rng)
            before = len(game.history), len(game.tricks), game.phase
            game.apply(action)
            news = after_action_lines(game, seat, action, *before)
            plain = after_action(game, seat, action, before[0], before[1])
            assert news == tuple(b"".join(encode(message) for message in messages) for messages in plain)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("text", "legal", "expected"),
    [
        ("pass", [PASS, bid(75)], PASS),
        ("bid 75", [PASS, bid(75), bid(80)], bid(75)),
        ("bid 85", [PASS, bid(75), bid(80)], None),  # a real action, not offered now
        ("bid  75", [PASS, bid(75)], None),  # not the exact text: parsed the slow way, which explains
        ("Pass", [PASS], None),
        ("", [PASS], None),
        ("play R5", [parse_action("play R5")], parse_action("play R5")),
        ("play R5", [parse_action("play R6")], None),
    ],
)
def test_offered_action_recognises_only_exact_legal_texts(
    text: str, legal: list[Action], expected: Action | None
) -> None:
    for action in legal:  # the texts of the offered actions are known, as after a request
        action_text(action)
    assert offered_action(text, legal) is expected


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("", Hello("b", "1", True)),
        (',"view":true', Hello("b", "1", True)),
        (',"view":false', Hello("b", "1", False)),
        (',"view":"no"', None),
        (',"view":0', None),
        (',"view":null', None),
    ],
)
def test_hello_may_decline_the_view(extra: str, expected: Hello | None) -> None:
    conversation = Conversation()
    line = '{"type":"hello","name":"b","version":"1","protocol":"rook/1"' + extra + "}\n"
    events = conversation.receive_data(line.encode())
    if expected is None:
        assert len(events) == 1 and isinstance(events[0], ProtocolFault)
        assert events[0].kind is FaultKind.MALFORMED and "'view'" in events[0].detail
    else:
        assert events == [expected]


REPLIES = [
    b'{"id":1,"action":"pass"}\n',
    b'{"id":1,"action":"pass"}\r\n',
    b'{"type":"action","id":1,"action":"bid 75","note":"extra keys are ignored"}\n',
    b'{"id":1,"action":"pass","id":2}\n',  # the last of duplicate keys counts: a stale id... of the future
    b'{"id":true,"action":"pass"}\n',
    b'{"id":1.0,"action":"pass"}\n',
    b'{"id":2,"action":"pass"}\n',
    b'{"id":0,"action":"pass"}\n',
    b'{"id":1,"action":7}\n',
    b'{"id":1}\n',
    b'{"type":"hello","name":"x","version":"1"}\n',
    b'{"type":"act","id":1,"action":"pass"}\n',
    b'["id",1]\n',
    b"\n",
    b"   \n",
    b'{"id":1,"action":"p\xe9"}\n',  # not UTF-8
    b'{"id":1,"action":"pass"}\n{"id":1,"action":"pass"}\n',
    b'{"id":1,"action":"pass"}',  # no newline yet
]


@pytest.mark.parametrize("data", REPLIES)
def test_a_whole_reply_read_at_once_means_what_it_means_byte_by_byte(data: bytes) -> None:
    def awaiting() -> Conversation:
        conversation = Conversation()
        conversation.receive_data(b'{"type":"hello","name":"b","version":"1","protocol":"rook/1"}\n')
        conversation.begin_request(1)
        return conversation

    at_once, one_by_one = awaiting(), awaiting()
    slowly = [event for i in range(len(data)) for event in one_by_one.receive_data(data[i : i + 1])]
    assert at_once.receive_data(data) == slowly
    assert (at_once.state, at_once.awaiting) == (one_by_one.state, one_by_one.awaiting)


@pytest.mark.parametrize("preset", ["tournament", "traditional", "kentucky"])
def test_applying_a_known_legal_action_changes_the_game_as_the_checked_apply_does(preset: str) -> None:
    for number in range(3):
        seed = derive_seed(43, number)
        checked = Game(PRESETS[preset].rules, random.Random(seed))
        trusted = Game(PRESETS[preset].rules, random.Random(seed))
        rng = random.Random(number)
        while not checked.is_over:
            legal = checked.legal_actions()
            assert trusted.legal_actions() == legal
            action = random_action(legal, rng)
            checked.apply(action)
            trusted.apply(action, known_legal=True)
            state = {key: value for key, value in vars(checked).items() if key != "_rng"}  # two generators
            assert {key: value for key, value in vars(trusted).items() if key != "_rng"} == state
        assert trusted.outcome == checked.outcome


def test_an_action_of_the_wrong_kind_is_still_refused_when_called_known_legal() -> None:
    game = Game(PRESETS["tournament"].rules, random.Random(1))  # the auction: a card play is of the wrong kind
    with pytest.raises(IllegalActionError):
        game.apply(parse_action("play R5"), known_legal=True)
