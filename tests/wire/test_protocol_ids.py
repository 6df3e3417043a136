"""Request ids: deterministic, 53-bit, unrelated to the deal; a reply with any other id than the open
request's is never applied; and however a request ends, the conversation is ready for the next one."""

from __future__ import annotations

import itertools
import json

from hypothesis import given
from hypothesis import strategies as st

from rookarena.wire.conversation import REQUEST_ID_BITS, Conversation, Hello, Ignored, Reply, State, request_id
from rookarena.wire.records import derive_seed

HELLO = b'{"type":"hello","name":"b","version":"1","protocol":"rook/1"}\n'
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def ready() -> Conversation:
    conversation = Conversation()
    assert conversation.receive_data(HELLO) == [Hello("b", "1")]
    return conversation


def line(reply_id: int | float, action: str = "pass") -> bytes:
    return json.dumps({"id": reply_id, "action": action}).encode() + b"\n"


@given(SEEDS, st.integers(0, 3), st.integers(0, 10_000))
def test_ids_are_deterministic_53_bit_integers(seed: int, seat: int, number: int) -> None:
    value = request_id(seed, seat, number)
    assert value == request_id(seed, seat, number)
    assert 0 <= value < 2**REQUEST_ID_BITS
    assert float(value) == value  # exact in every JSON reader
    assert value != derive_seed(seed, "deal") & (2**REQUEST_ID_BITS - 1)


def test_a_game_s_ids_are_distinct_and_not_a_count() -> None:
    ids = [request_id(12345, seat, number) for seat in range(4) for number in range(200)]
    assert len(set(ids)) == len(ids)
    gaps = {b - a for a, b in itertools.pairwise(ids)}
    assert len(gaps) > 700  # nothing like "the next id is this one plus one"


@given(SEEDS, st.lists(st.integers(0, 2**53 + 10) | st.floats(allow_nan=False, allow_infinity=False), max_size=8))
def test_only_the_open_request_s_id_is_ever_applied(seed: int, guesses: list[int | float]) -> None:
    conversation = ready()
    for number in range(3):
        open_id = conversation.begin_request(request_id(seed, 0, number))
        for guess in guesses:
            for event in conversation.receive_data(line(guess)):
                if isinstance(event, Reply):
                    assert event.id == open_id and guess == open_id
        if conversation.state is State.AWAIT_REPLY:
            (event,) = conversation.receive_data(line(open_id))
            assert isinstance(event, Reply) and event.id == open_id
        assert conversation.state is State.IDLE


@given(st.lists(st.sampled_from(["reply", "stale", "abandon", "garbage", "early"]), max_size=30))
def test_every_ending_leaves_the_conversation_ready(endings: list[str]) -> None:
    """Whatever ends each request (its reply, a stale or early line, a timeout's abandon), the next request
    can be sent: the referee never meets "cannot send a request in state await-reply"."""
    conversation = ready()
    for number, ending in enumerate(endings):
        open_id = conversation.begin_request(request_id(7, 1, number))
        if ending == "reply":
            assert isinstance(conversation.receive_data(line(open_id))[0], Reply)
        elif ending == "stale":
            assert isinstance(conversation.receive_data(line(request_id(7, 1, number - 1)))[0], Ignored)
        elif ending == "garbage":
            conversation.receive_data(b"{not json\n")  # a fault: the bot is gone, but the state is unchanged
        elif ending == "early":
            assert isinstance(conversation.receive_data(line(request_id(7, 1, number + 1)))[0], Ignored)
        conversation.abandon()  # what BotProcess.ask does on every way out
        assert conversation.state is State.IDLE and conversation.awaiting is None
