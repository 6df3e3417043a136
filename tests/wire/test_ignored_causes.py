"""Each way a bot's reply is ignored gets its own warning from check-bot: a second reply or a late one (an id
already sent), a reply before any request or with an id the bot made up (never sent), with a request open or
not. The lines go through the real conversation, in the order a bot would write them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rookarena.wire.advice import ignored_cause
from rookarena.wire.conversation import Conversation, Ignored

HELLO = b'{"type":"hello","name":"x","version":"1","protocol":"rook/1"}\n'


def reply(request_id: int) -> bytes:
    return b'{"id":%d,"action":"pass"}\n' % request_id


# (what the bot does, the steps: ("ask", id) opens a request, ("end",) abandons it, bytes are the bot's line;
# the words of the warning the last line gets)
CASES = [
    ("a reply before any request", [reply(0)], "no request was open, with an id never sent"),
    ("a reply answered twice", [("ask", 7), reply(7), reply(7)], "answering twice, or late"),
    ("a late reply", [("ask", 7), ("end",), reply(7)], "answering twice, or late"),
    ("an old id while a request is open", [("ask", 7), reply(7), ("ask", 9), reply(7)], "answering twice, or late"),
    ("a made-up id while a request is open", [("ask", 7), reply(8)], "an id that was never sent"),
    ("a made-up id when none is open", [("ask", 7), reply(7), reply(8)], "no request was open, with an id never sent"),
]


@pytest.mark.parametrize(("steps", "words"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_ignored_reply_is_named_by_its_cause(steps: list[object], words: str) -> None:
    conversation = Conversation()
    conversation.receive_data(HELLO)
    events: Sequence[object] = []
    for step in steps:
        if isinstance(step, bytes):
            events = conversation.receive_data(step)
        elif step[0] == "ask":  # type: ignore[index]
            conversation.begin_request(step[1])  # type: ignore[index]
        else:
            conversation.abandon()
    (last,) = events
    assert isinstance(last, Ignored), last
    assert words in ignored_cause(last.reason).detail, last.reason
