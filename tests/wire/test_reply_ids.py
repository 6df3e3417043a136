"""A reply's id is an integer exactly as JSON Schema counts them (PROTOCOL.md §6): ``7``, ``7.0``, ``70e-1``
are the integer 7; ``7.5`` and ``3476862797083632.0000001`` are not integers at all (a malformed reply), however
a double would round them; an integer too long to be any request's (``1e400``) is an id never sent. Generated
number texts, judged against exact decimal arithmetic."""

from __future__ import annotations

import decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.wire.conversation import Conversation, Ignored, ProtocolFault, Reply

HELLO = b'{"type":"hello","name":"x","version":"1","protocol":"rook/1"}\n'


def judged(id_text: str, awaited: int) -> object:
    conversation = Conversation()
    conversation.receive_data(HELLO)
    conversation.begin_request(awaited)
    (event,) = conversation.receive_data(b'{"id":' + id_text.encode() + b',"action":"pass"}\n')
    return event


@st.composite
def number_texts(draw: st.DrawFn) -> str:
    """JSON number texts near an id: its digits, a fraction of zeros and maybe a last digit, an exponent."""
    whole = draw(st.integers(0, 2**64))
    text = ("-" if draw(st.booleans()) else "") + str(whole)
    if draw(st.booleans()):
        zeros = "0" * draw(st.integers(0, 30))
        text += "." + zeros + draw(st.sampled_from(["", "0", "1", "5", "9"]))
        if text.endswith("."):
            text += "0"
    if draw(st.booleans()):
        text += draw(st.sampled_from(["e", "E", "e+", "e-"])) + str(draw(st.integers(0, 40)))
    return text


@settings(max_examples=400, deadline=None)
@given(text=number_texts(), near=st.booleans())
def test_an_id_is_the_integer_its_text_is_exactly(text: str, near: bool) -> None:
    exact = decimal.Decimal(text)
    integral = exact == exact.to_integral_value()
    awaited = int(exact) if integral and near and 0 <= exact < 2**63 else 7
    event = judged(text, awaited)
    if not integral:
        assert isinstance(event, ProtocolFault) and "'id' must be a JSON integer" in event.detail, (text, event)
        assert f"the number {text}"[:40] in event.detail  # as written, not as a double rounds it
    elif exact == awaited:
        assert isinstance(event, Reply) and event.id == awaited, (text, event)
    else:
        assert isinstance(event, Ignored), (text, event)


def test_an_integer_of_a_billion_digits_is_an_id_never_sent_kept_as_its_text() -> None:
    event = judged("1e999999999", 7)  # (made into an int, it would take a gigabyte and minutes)
    assert isinstance(event, Ignored) and "id 1e999999999 " in event.reason
