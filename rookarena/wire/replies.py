"""What a bot's reply must be, in words a bot author can act on: pure functions, no I/O.

The rule (PROTOCOL.md §4, §6): a reply is a JSON object with an integer ``id`` and a string ``action``,
and the action is one of the request's ``legal`` strings exactly as written. This module describes JSON
values as JSON (never as Python reprs) and finds the legal string a wrong action was nearest to, so that
a fault can say "did you mean 'play R8'?".
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

from rookarena.engine.cards import ascii_number

_COLOURS = {
    "r": "R",
    "red": "R",
    "g": "G",
    "green": "G",
    "b": "B",
    "black": "B",
    "blue": "B",
    "y": "Y",
    "yellow": "Y",
}
_VERBS = ("pass", "bid", "discard", "trump", "play")
_MAX_SHOWN = 60  # characters of a bot's value quoted in a message
COMMENT_MAX = 240  # characters of a reply's comment kept, after trimming (PROTOCOL.md §6)
CUT_MARK = "…"  # ends a comment cut to COMMENT_MAX characters
# Characters that could move a terminal's cursor, colour its text or reorder what it shows: a comment
# keeps none of them (each becomes a space), so it prints as one plain line wherever it is shown.
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def describe(value: Any) -> str:
    """A JSON value as a bot author wrote it: ``the string '7'``, ``the number 7.0``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the string {_clip(value)!r}"
    if isinstance(value, int):
        return f"the integer {_clip(str(value))}"
    if isinstance(value, Number):
        return f"the number {_clip(value.text)}"
    if isinstance(value, float):
        return f"the number {_clip(json.dumps(value))}"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def reply_problems(message: dict[str, Any]) -> list[str]:
    """What keeps a JSON object from being a well-formed reply (an empty list when it is one)."""
    problems = []
    request_id, action = message.get("id"), message.get("action")
    if "id" not in message:
        problems.append("reply has no 'id' (copy the request's id, a JSON integer)")
    elif not _integer(request_id):
        problems.append(f"reply's 'id' must be a JSON integer, got {describe(request_id)}")
    if "action" not in message:
        problems.append("reply has no 'action' (one of the request's legal strings)")
    elif not isinstance(action, str):
        problems.append(f"reply's 'action' must be a string, got {describe(action)}")
    return problems


def comment_problem(value: Any) -> str | None:
    """Why a reply's ``comment`` is not one (None when it is a string, or null: no comment)."""
    if value is None or isinstance(value, str):
        return None
    return f"reply's 'comment' must be a string, got {describe(value)}"


def clean_comment(text: str) -> str | None:
    """A comment as it is kept: control and direction characters made spaces, a lone surrogate made U+FFFD,
    trimmed, cut to ``COMMENT_MAX`` characters (its last then ``CUT_MARK``); None when nothing is left."""
    if not text.isascii() or not text.isprintable():
        text = _UNSHOWN.sub(" ", text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
    text = text.strip()
    if len(text) > COMMENT_MAX:
        text = text[: COMMENT_MAX - 1].rstrip() + CUT_MARK
    return text or None


class Number(float):
    """A JSON number written with a fraction or an exponent, as the referee reads it (``parse_float``): its
    float, and the text it was written as, from which whether it is an integer is decided exactly
    (``3476862797083632.0000001`` is a float's integer, not JSON Schema's)."""

    text: str

    def __new__(cls, text: str) -> Number:
        number = super().__new__(cls, text)
        number.text = text
        return number


# The most digits an id is read with; a longer integer (1e400) is an id never sent.
ID_DIGITS = 30


def whole(value: Any) -> int | str | None:
    """A reply's id as the integer it is (``7``, ``7.0``, ``7e0``), or its text when it is an integer of more
    than ``ID_DIGITS`` digits written with an exponent (an id never sent); None when it is not an integer
    as JSON Schema counts them."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, Number):
        import decimal  # noqa: PLC0415 (rare: only ids written as 7.0 or 7e0 come here)

        exact = decimal.Decimal(value.text)  # (read exactly, and only with operations that never round)
        _, digits, exponent = exact.as_tuple()
        assert isinstance(exponent, int)  # a JSON number is finite
        if exponent < 0 and any(digits[exponent:]):
            return None  # a fraction
        return int(exact) if exact.is_zero() or exact.adjusted() < ID_DIGITS else value.text
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _integer(value: Any) -> bool:
    """Whether a JSON value is an integer as JSON Schema counts them: ``7``, and ``7.0`` or ``7e0`` too."""
    return whole(value) is not None


def _canonical(text: str) -> str | None:
    """The action a sloppy text most plausibly meant, written the referee's way, or None.

    Case, spacing, colour names and leading zeros are forgiven here, and only here: the result is a
    suggestion, never applied.
    """
    words = text.strip().split()
    if not words:
        return None
    verb = words[0].lower()
    rest = words[1:]
    if verb not in _VERBS:
        if len(words) == 1:  # a bare card or colour: the verb is supplied by the legal list
            card = _card(words[0]) or _COLOURS.get(words[0].lower())
            return card
        return None
    if verb == "pass":
        return "pass" if not rest else None
    if len(rest) != 1:
        return None
    word = rest[0]
    if verb == "bid":
        amount = ascii_number(word)
        return f"bid {amount}" if amount is not None else None
    if verb == "trump":
        colour = _COLOURS.get(word.lower())
        return f"trump {colour}" if colour else None
    card = _card(word)
    return f"{verb} {card}" if card else None


def _card(word: str) -> str | None:
    if word.lower() == "rook":
        return "ROOK"
    head, number = word[:1].lower(), word[1:]
    colour = _COLOURS.get(head) if len(head) == 1 else None
    rank = ascii_number(number)
    if colour and rank is not None and 1 <= rank <= 14:
        return f"{colour}{rank}"
    return None


def nearest_legal(text: str, legal: Sequence[str]) -> str | None:
    """The legal string ``text`` was most likely meant to be, or None when nothing is close."""
    guess = _canonical(text)
    if guess is not None:
        if guess in legal:
            return guess
        for action in legal:  # a bare card or colour: "R8" for "play R8", "G" for "trump G"
            if action.split(" ", 1)[-1] == guess:
                return action
    lowered = {action.lower(): action for action in legal}
    close = difflib.get_close_matches(text.strip().lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def not_legal(text: str, legal: Sequence[str]) -> str:
    """The fault detail for an action that is not one of ``legal`` (the engine's reason is added by the caller)."""
    shown = ", ".join(repr(action) for action in legal[:6]) + (", ..." if len(legal) > 6 else "")
    detail = f"{_clip(text)!r} is not one of the {len(legal)} legal strings ({shown})"
    suggestion = nearest_legal(text, legal)
    if suggestion is not None:
        detail += f"; did you mean {suggestion!r}?"
    return detail
