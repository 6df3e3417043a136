"""The bot side of a rook/1 conversation, one loop for every bot the package ships.

It reads the referee's lines, skips (with one line on stderr) a blank line or one that is not a message,
and hands each message to the bot's own functions by its type until ``bye`` or the end of input. How a
bot answers, what its hello says and how it writes JSON stay the bot's: the callers keep their bytes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from rookarena.errors import ParseError
from rookarena.wire.replies import describe

Message = dict[str, Any]


def converse(
    source: Iterable[str],
    name: str,
    *,
    hello: Callable[[], Message],
    act: Callable[[Message, float], Message],
    send: Callable[[Message], None],
    game: Callable[[Message], None],
    other: Callable[[Message], None] | None = None,
) -> None:
    """Answer ``source``'s lines: ``act`` gets each request and the monotonic time its line arrived.

    An ``act`` that raises :class:`ParseError` (a legal action it cannot read) skips the request with a
    line on stderr naming the input line.
    """
    for number, line in enumerate(source, 1):
        received = time.monotonic()
        if not line.strip():
            continue
        message = referee_message(line)
        if isinstance(message, str):  # never from the referee; from a person trying the bot by hand
            print(f"{name}: line {number} of its input: {message}: skipped", file=sys.stderr, flush=True)
            continue
        kind = message.get("type")
        if kind == "act":
            try:
                reply = act(message, received)
            except ParseError as exc:
                print(f"{name}: line {number} of its input: {exc}: skipped", file=sys.stderr, flush=True)
                continue
            send(reply)
        elif kind == "hello":
            send(hello())
        elif kind == "game":
            game(message)
        elif kind == "bye":
            return
        elif other is not None:
            other(message)


def referee_message(line: str) -> dict[str, Any] | str:
    """What a bot makes of a line from the referee (for the built-in bots): the message, or why it is not
    one, in a few words. The referee only ever sends messages; a person typing at a bot may not."""
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg} at column {exc.colno})"
    except (ValueError, RecursionError):
        return "not JSON"
    if not isinstance(message, dict):
        return f"expected a JSON object, got {describe(message)}"
    if message.get("type") == "act":
        legal = message.get("legal")
        if (
            "id" not in message
            or not isinstance(legal, list)
            or not legal
            or not all(isinstance(a, str) for a in legal)
        ):
            return "an 'act' request needs an 'id' and a non-empty 'legal' list of strings"
    return message
