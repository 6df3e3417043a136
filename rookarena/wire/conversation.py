"""The rook/1 conversation, sans I/O: the bytes a bot sends in, events out; the referee's messages in, bytes out.

Theory of operation. Each bot has one :class:`Conversation`. The referee asks it for the bytes of what
it wants to send (``hello``, notifications, requests) and hands it every chunk read from the bot's
stdout (``receive_data``); it answers with :class:`Event` values. A conversation moves through the
states of :class:`State` by a transition table; anything the bot sends that the table does not allow
becomes a :class:`ProtocolFault` naming the :class:`FaultKind`, and the conversation does not change.
A reply whose id is not the one awaited (stale or unknown) is reported as :class:`Ignored`, never
applied. Incoming lines are bounded: a line longer than ``max_line`` bytes is a fault, so a bot can
never make the referee buffer without limit.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections import deque
from collections.abc import Mapping
from typing import Any

from rookarena.wire import VERSION
from rookarena.wire.records import derive_seed
from rookarena.wire.replies import Number, clean_comment, comment_problem, describe, reply_problems, whole

DEFAULT_MAX_LINE = 64 * 1024
REQUEST_ID_BITS = 53  # request ids are exact in every JSON reader (IEEE doubles hold 53-bit integers)
KEPT_IDS = 64  # the ids of the last requests a conversation sent, to tell a stale reply from an unknown one


def request_id(game_seed: int, seat: int, number: int) -> int:
    """The id of a seat's ``number``-th request (from 0) in the game dealt from ``game_seed``.

    Drawn from a sha256 stream of its own, not from the generator that deals the cards: a bot learns
    nothing about the deal from its ids, and cannot tell the id of a request before it is sent, so no
    timing can make a reply written ahead of its request match it. The same game gets the same ids, so
    records, transcripts and example conversations reproduce byte for byte.
    """
    return derive_seed(game_seed, "request", seat, number) & ((1 << REQUEST_ID_BITS) - 1)


class FaultKind(enum.Enum):
    """Why a bot lost control of its seat. Each is recorded under its value."""

    TIMEOUT = "timeout"  # no reply (or not reading its input) before the deadline
    CRASH = "crash"  # exited, or closed its stdout
    MALFORMED = "malformed"  # a line that is not a JSON object of the expected shape
    ILLEGAL = "illegal"  # a well-formed reply whose action is not among the legal ones
    PROTOCOL = "protocol"  # a message out of turn, a version mismatch, an over-long line
    LIMIT = "limit"  # a resource limit was hit (memory, CPU time, output size)

    def __str__(self) -> str:
        return self.value


class State(enum.Enum):
    AWAIT_HELLO = "await-hello"
    IDLE = "idle"
    AWAIT_REPLY = "await-reply"
    CLOSED = "closed"


@dataclasses.dataclass(frozen=True, slots=True)
class Hello:
    name: str
    version: str
    view: bool = True  # False: the bot asked for requests without its view (it follows the game from the news)
    missing: tuple[str, ...] = dataclasses.field(
        default=(), compare=False
    )  # recommended fields the hello left out ("version", "protocol")


@dataclasses.dataclass(frozen=True, slots=True)
class Reply:
    id: int
    action: str
    line: str
    comment: str | None = None  # why the bot chose, as kept (see ``replies.clean_comment``)


@dataclasses.dataclass(frozen=True, slots=True)
class Ignored:
    """A line that is logged and dropped: a stale or unknown id, or a reply nobody asked for."""

    reason: str
    line: str


EMPTY_LINE = Ignored("empty line", "")


@dataclasses.dataclass(frozen=True, slots=True)
class ProtocolFault:
    kind: FaultKind
    detail: str
    line: str = ""


Event = Hello | Reply | Ignored | ProtocolFault


class LineBuffer:
    """Splits a byte stream into ``\\n``-terminated lines, refusing to hold more than ``max_line`` bytes."""

    def __init__(self, max_line: int = DEFAULT_MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data``; return the complete lines (without ``\\n``, a trailing ``\\r`` removed).

        Raises :class:`LineTooLongError` when a line (complete or not) exceeds the limit; the error holds
        the complete lines that came before it, so the outcome never depends on how the bytes were split.
        """
        if not self._buffer and 0 < len(data) <= self.max_line and data.find(b"\n") == len(data) - 1:
            return [data[:-2] if data.endswith(b"\r\n") else data[:-1]]  # one whole line: the usual case
        self._buffer += data
        end = self._buffer.rfind(b"\n")
        if end >= 0:  # whole lines, split at once (a flood of short lines costs little; see _lines)
            whole = bytes(self._buffer[:end])
            parts = whole.split(b"\n")
            if max(map(len, parts)) <= self.max_line:
                del self._buffer[: end + 1]
                lines = [part.removesuffix(b"\r") for part in parts] if b"\r" in whole else parts
                if len(self._buffer) > self.max_line:
                    raise LineTooLongError(len(self._buffer), lines)
                return lines
        return self._lines()

    def _lines(self) -> list[bytes]:
        """The whole lines in the buffer one at a time, up to one over the limit (raised, with those before
        it), as :meth:`feed` splits them."""
        lines: list[bytes] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end < 0:
                break
            if end - start > self.max_line:
                del self._buffer[:start]
                raise LineTooLongError(end - start, lines)
            line = bytes(self._buffer[start:end])
            lines.append(line[:-1] if line.endswith(b"\r") else line)
            start = end + 1
        del self._buffer[:start]
        if len(self._buffer) > self.max_line:
            raise LineTooLongError(len(self._buffer), lines)
        return lines

    @property
    def pending(self) -> int:
        return len(self._buffer)

    def waiting(self) -> bytes:
        """The start of a line received without its newline yet (at most 500 bytes)."""
        return bytes(self._buffer[:500])


class LineTooLongError(Exception):
    def __init__(self, size: int, lines: list[bytes] | None = None) -> None:
        super().__init__(size)
        self.size = size
        self.lines = lines or []  # the complete lines before the over-long one


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one UTF-8 JSON line."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


# Which incoming message kinds each state accepts; everything else is a protocol fault.
_ACCEPTS: dict[State, frozenset[str]] = {
    State.AWAIT_HELLO: frozenset({"hello"}),
    State.IDLE: frozenset(),
    State.AWAIT_REPLY: frozenset({"action"}),
    State.CLOSED: frozenset(),
}


class Conversation:
    """The referee's side of the protocol with one bot."""

    def __init__(self, max_line: int = DEFAULT_MAX_LINE) -> None:
        self.state = State.AWAIT_HELLO
        self.buffer = LineBuffer(max_line)
        self.awaiting: int | None = None
        self._sent: deque[int] = deque(maxlen=KEPT_IDS)
        self.hello: Hello | None = None

    # -- outgoing -------------------------------------------------------------------------------

    def request(self, message: dict[str, Any], request_id: int) -> bytes:
        """Stamp a request with its id (see :func:`request_id`) and start awaiting its reply."""
        self.begin_request(request_id)
        return encode({**message, "id": request_id})

    def begin_request(self, request_id: int) -> int:
        """Start awaiting the reply to the request ``request_id`` (the caller encodes it); return the id."""
        if self.state is not State.IDLE:
            raise RuntimeError(f"cannot send a request in state {self.state.value}")
        self._sent.append(request_id)
        self.awaiting = request_id
        self.state = State.AWAIT_REPLY
        return request_id

    def abandon(self) -> None:
        """Stop awaiting the current reply, however the request ended (a reply timeout, a write that did not
        complete, an exit, a limit, a cancellation); a late reply will then be ignored. Idempotent."""
        if self.state is State.AWAIT_REPLY:
            self.state, self.awaiting = State.IDLE, None

    def close(self) -> None:
        self.state, self.awaiting = State.CLOSED, None

    # -- incoming -------------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> list[Event]:
        """Feed bytes read from the bot; return what they mean, in order."""
        overflow: ProtocolFault | None = None
        try:
            lines = self.buffer.feed(data)
        except LineTooLongError as exc:
            lines = exc.lines
            limit = self.buffer.max_line
            overflow = ProtocolFault(FaultKind.LIMIT, f"line: longer than {limit} bytes ({exc.size} so far)")
        events: list[Event] = []
        for raw in lines:
            event = self._receive_line(raw)
            events.append(event)
            if isinstance(event, ProtocolFault):
                return events
        if overflow is not None:
            events.append(overflow)
        return events

    def _receive_line(self, raw: bytes) -> Event:
        """One line from the bot, judged by the contract of PROTOCOL.md §6 and §9."""
        if not raw:
            return EMPTY_LINE  # (one event for all: a flood of empty lines costs little)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return ProtocolFault(FaultKind.MALFORMED, "line is not valid UTF-8", _quote(raw))
        if not text.strip():
            return Ignored("empty line", text)
        if text.startswith("\ufeff"):
            detail = "line starts with a byte order mark: send UTF-8 without one"
            return ProtocolFault(FaultKind.MALFORMED, detail, text)
        if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
            detail = f"line is not JSON the referee reads: nested more than {MAX_DEPTH} levels deep"
            return ProtocolFault(FaultKind.MALFORMED, detail, text)
        try:
            message = _STRICT.decode(text)
        except _NotJSONError as exc:
            return ProtocolFault(FaultKind.MALFORMED, f"line is not JSON (RFC 8259): {exc}", text)
        except RecursionError:
            return ProtocolFault(FaultKind.MALFORMED, "line is not JSON the referee reads: nested too deep", text)
        except ValueError as exc:  # not JSON, or an integer longer than Python reads (sys.int_info)
            if "integer string conversion" in str(exc):
                detail = "line is not JSON the referee reads: an integer with thousands of digits"
                return ProtocolFault(FaultKind.MALFORMED, detail, text)
            return ProtocolFault(FaultKind.MALFORMED, "line is not JSON", text)
        if not isinstance(message, dict):
            return ProtocolFault(FaultKind.MALFORMED, f"expected a JSON object, got {describe(message)}", text)
        kind = message.get("type", "action")  # a reply may leave its type out
        if self.state is State.AWAIT_HELLO and "type" not in message and not {"id", "action"} & message.keys():
            return ProtocolFault(FaultKind.MALFORMED, 'hello has no \'type\' (it is "type": "hello")', text)
        if kind not in ("hello", "action"):
            shown = repr(kind) if isinstance(kind, str) else json.dumps(kind)[:60]
            return ProtocolFault(
                FaultKind.PROTOCOL, f"unknown message type {shown}: a bot sends only its hello and replies", text
            )
        if kind not in _ACCEPTS[self.state] and not (kind == "action" and self.state is State.IDLE):
            if self.state is State.AWAIT_HELLO:
                detail = "a reply before the bot's hello: answer the referee's hello first"
            elif kind == "hello":
                detail = "a second hello: send it once, at the start"
            else:
                detail = f"unexpected {kind} in state {self.state.value}"
            return ProtocolFault(FaultKind.PROTOCOL, detail, text)
        if kind == "hello":
            return self._receive_hello(message, text)
        return self._receive_action(message, text)

    def _receive_hello(self, message: dict[str, Any], text: str) -> Event:
        missing = tuple(field for field in ("version", "protocol") if field not in message)
        protocol = message.get("protocol", VERSION)
        if protocol != VERSION:
            shown = repr(protocol) if isinstance(protocol, str) else describe(protocol)
            return ProtocolFault(FaultKind.PROTOCOL, f"bot speaks protocol {shown}, the referee {VERSION!r}", text)
        name, version = message.get("name"), message.get("version", "")
        if "name" not in message:
            return ProtocolFault(FaultKind.MALFORMED, "hello has no 'name' (a non-empty string)", text)
        if not isinstance(name, str) or not name:
            return ProtocolFault(
                FaultKind.MALFORMED, f"hello's 'name' must be a non-empty string, got {describe(name)}", text
            )
        if not isinstance(version, str):
            return ProtocolFault(
                FaultKind.MALFORMED, f"hello's 'version' must be a string, got {describe(version)}", text
            )
        wants_view = message.get("view", True)
        if not isinstance(wants_view, bool):
            return ProtocolFault(
                FaultKind.MALFORMED, f"hello's 'view' must be true or false, got {describe(wants_view)}", text
            )
        self.hello = Hello(name, version, wants_view, missing)
        self.state = State.IDLE
        return self.hello

    def _receive_action(self, message: dict[str, Any], text: str) -> Event:
        request_id: Any = message.get("id")
        action: Any = message.get("action")
        if request_id.__class__ is not int or action.__class__ is not str:  # the usual reply passes this one test
            problems = reply_problems(message)
            if problems:
                return ProtocolFault(FaultKind.MALFORMED, "; ".join(problems), text)
            request_id = whole(request_id)  # 7.0 is the integer 7, as in JSON Schema (PROTOCOL.md §6)
        comment: Any = message.get("comment")
        if comment is not None:  # rare: most replies carry none, and cost this one lookup
            problem = comment_problem(comment)
            if problem is not None:
                return ProtocolFault(FaultKind.MALFORMED, problem, text)
            comment = clean_comment(comment)
        if request_id == self.awaiting and self.state is State.AWAIT_REPLY:
            self.state, self.awaiting = State.IDLE, None
            return Reply(request_id, action, text, comment)
        shown = str(request_id)
        age = "an earlier request's (stale)" if request_id in self._sent else "never sent (unknown)"
        if self.state is State.IDLE:
            return Ignored(f"a reply with id {shown} arrived when no request was open: that id is {age}", text)
        return Ignored(f"a reply with id {shown} arrived while {self.awaiting} was awaited: that id is {age}", text)


# The deepest nesting of arrays and objects the referee reads in a line (a reply is one flat object; deeper, the
# parser's own limit would depend on how deep the referee's stack happens to be).
MAX_DEPTH = 100


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings left out)."""
    deepest = depth = 0
    quoted = escaped = False
    for char in text:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class _NotJSONError(ValueError):
    """Text Python's reader takes but RFC 8259 does not (or leaves ambiguous): the referee refuses it."""


def _constant(name: str) -> Any:
    raise _NotJSONError(f"{name} is not a JSON value")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    message = dict(pairs)
    if len(message) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:  # pragma: no branch - a duplicate is there
            if key in seen:
                raise _NotJSONError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return message


# RFC 8259 and no more: no NaN or Infinity, no object with a key twice (which value counts is not defined).
_STRICT = json.JSONDecoder(parse_float=Number, parse_constant=_constant, object_pairs_hook=_object)


def _quote(raw: bytes) -> str:
    return raw[:200].decode("utf-8", "replace")
