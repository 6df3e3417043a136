"""The rook/1 bot protocol, sans I/O: bytes in, messages out; messages in, bytes out.

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
import hashlib
import json
import operator
from collections import deque
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

from rookarena.engine.actions import Action, Bid, Discard, Pass
from rookarena.engine.cards import Card, cards_text
from rookarena.engine.game import Game, HandResult, Phase, Trick
from rookarena.engine.rules import NestSeenBy, Rules
from rookarena.engine.views import View, view
from rookarena.wire.records import derive_seed
from rookarena.wire.replies import describe, reply_problems

VERSION = "rook/1"
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


@dataclasses.dataclass(frozen=True, slots=True)
class Ignored:
    """A line that is logged and dropped: a stale or unknown id, or a reply nobody asked for."""

    reason: str
    line: str


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
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return ProtocolFault(FaultKind.MALFORMED, "line is not valid UTF-8", _quote(raw))
        if not text.strip():
            return Ignored("empty line", text)
        if text.startswith("\ufeff"):
            detail = "line starts with a byte order mark: send UTF-8 without one"
            return ProtocolFault(FaultKind.MALFORMED, detail, text)
        try:
            message = _STRICT.decode(text)
        except _NotJSONError as exc:
            return ProtocolFault(FaultKind.MALFORMED, f"line is not JSON (RFC 8259): {exc}", text)
        except (ValueError, RecursionError):  # not JSON, or JSON too deep or with too long a number
            return ProtocolFault(FaultKind.MALFORMED, "line is not JSON", text)
        if not isinstance(message, dict):
            return ProtocolFault(FaultKind.MALFORMED, f"expected a JSON object, got {describe(message)}", text)
        kind = message.get("type", "action")  # a reply may leave its type out
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
            request_id = int(request_id)  # 7.0 is the integer 7, as in JSON Schema (PROTOCOL.md §6)
        if request_id == self.awaiting and self.state is State.AWAIT_REPLY:
            self.state, self.awaiting = State.IDLE, None
            return Reply(request_id, action, text)
        shown = str(request_id)
        if self.state is State.IDLE:
            return Ignored(f"a reply with id {shown} arrived when no request was open", text)
        age = "an earlier request's (stale)" if request_id in self._sent else "never sent (unknown)"
        return Ignored(f"a reply with id {shown} arrived while {self.awaiting} was awaited: that id is {age}", text)


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
_STRICT = json.JSONDecoder(parse_constant=_constant, object_pairs_hook=_object)


def _quote(raw: bytes) -> str:
    return raw[:200].decode("utf-8", "replace")


# -- messages the referee sends --------------------------------------------------------------------


def hello_message(referee: str) -> dict[str, Any]:
    return {"type": "hello", "protocol": VERSION, "referee": referee}


def game_message(
    *,
    game_id: str,
    seat: int,
    rules: Rules,
    rules_name: str,
    players: Sequence[str],
    first_dealer: int,
    seed: int,
) -> dict[str, Any]:
    """The start of a game for one seat. ``seed`` is the seat's own seed for the game (see :func:`seat_seed`)."""
    return {
        "type": "game",
        "game": game_id,
        "seat": seat,
        "team": seat % 2,
        "players": list(players),
        "rules_name": rules_name,
        "rules": rules.to_mapping(),
        "first_dealer": first_dealer,
        "seed": seed,
    }


SEAT_SEED_BITS = 31  # a seat's seed fits a signed 32-bit integer, and is exact in every JSON reader


def seat_seed(deal_seed: int, seat: int) -> int:
    """The seed a seat is given for a game: a function of the game's deal seed and the seat only, so a
    replayed or resumed game gives its bots the same seeds, and with duplicate deals the bot at a seat
    gets the seed the other team's bot had at that seat on the same cards."""
    text = f"{deal_seed}/seat/{seat}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> (32 - SEAT_SEED_BITS)


def view_json(v: View) -> dict[str, Any]:
    return {
        "seat": v.seat,
        "hand_number": v.hand_number,
        "dealer": v.dealer,
        "phase": v.phase.value,
        "to_act": v.to_act,
        "scores": list(v.scores),
        "hand": cards_text(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "auction": [{"seat": seat, "action": str(action)} for seat, action in v.auction],
        "high_bid": v.high_bid,
        "bidder": v.bidder,
        "nest": None if v.nest is None else cards_text(v.nest),
        "discards": None if v.discards is None else cards_text(v.discards),
        "trump": None if v.trump is None else str(v.trump),
        "tricks": [_trick(trick) for trick in v.tricks],
        "trick_leader": v.trick_leader,
        "trick": cards_text(v.trick),
        "counters": list(v.counters),
    }


def act_message(
    game: Game, seat: int, legal: Sequence[Action], deadline_ms: int, bank_ms: int, *, with_view: bool = True
) -> dict[str, Any]:
    """A request for the seat to act: the legal answers and (unless the bot declined it) its full view.
    ``id`` is added on send."""
    message: dict[str, Any] = {
        "type": "act",
        "deadline_ms": deadline_ms,
        "bank_ms": bank_ms,
        "legal": [str(action) for action in legal],
    }
    if with_view:
        message["view"] = view_json(view(game, seat))
    return message


class _Encoded(NamedTuple):
    action: Action  # kept here, so that the identity it is filed under stays its own
    text: str
    json: bytes  # the text as a JSON string, quotes included


# Actions and their encodings, filed by the action's identity: the engine's actions are interned (a few
# hundred in all), and looking one up by identity costs less than hashing it.
_ACTIONS: dict[int, _Encoded] = {}
_TEXT_ACTION: dict[str, Action] = {}  # the inverse, for the texts of every action ever encoded


def _encoded(action: Action) -> _Encoded:
    entry = _ACTIONS.get(id(action))
    if entry is None:
        text = str(action)
        entry = _ACTIONS[id(action)] = _Encoded(action, text, json.dumps(text).encode())
        _TEXT_ACTION.setdefault(text, action)
    return entry


def action_text(action: Action) -> str:
    """``str(action)``, remembered (with its inverse, see :func:`offered_action`)."""
    return _encoded(action).text


def offered_action(text: str, legal: Sequence[Action]) -> Action | None:
    """The legal action whose text is exactly ``text`` (the usual reply), or None (then parse it to learn why)."""
    action = _TEXT_ACTION.get(text)
    if action is None or not any(map(operator.is_, legal, repeat(action))):  # actions are interned: by identity
        return None
    return action


def act_line(
    game: Game,
    seat: int,
    legal: Sequence[Action],
    deadline_ms: int,
    bank_ms: int,
    request_id: int,
    *,
    with_view: bool = True,
    views: ViewEncoder | None = None,
) -> bytes:
    """The encoded request, byte for byte ``encode({**act_message(...), "id": request_id})``, built faster:
    the referee sends one per decision. ``views`` keeps what the views of one game share (give the same
    one for every request of a game)."""
    known = _ACTIONS
    parts = [(known.get(id(action)) or _encoded(action)).json for action in legal]
    head = b'{"type":"act","deadline_ms":%d,"bank_ms":%d,"legal":[%b]' % (deadline_ms, bank_ms, b",".join(parts))
    if with_view:
        head += b',"view":' + (views or ViewEncoder()).encode(game, seat)
    return head + b',"id":%d}\n' % request_id


class ViewEncoder:
    """Encodes views exactly as ``encode(view_json(view(game, seat)))`` does, without building them first.

    The public history of a hand (its calls and finished tricks) only grows, so its encoding is kept and
    extended from one request to the next; everything else is written out afresh.
    """

    def __init__(self) -> None:
        self._hand = -1
        self._auction: list[str] = []
        self._tricks: list[str] = []

    def encode(self, game: Game, seat: int) -> bytes:
        phase = game.phase
        over = phase is Phase.OVER
        if over:
            return json.dumps(view_json(view(game, seat)), separators=(",", ":")).encode()
        if self._hand != len(game.history):
            self._hand, self._auction, self._tricks = len(game.history), [], []
        auction, tricks = self._auction, self._tricks
        for caller, action in game.auction[len(auction) :]:
            auction.append(f'{{"seat":{caller},"action":"{action_text(action)}"}}')
        for trick in game.tricks[len(tricks) :]:
            cards = _cards_json(trick.cards)
            tricks.append(
                f'{{"leader":{trick.leader},"cards":{cards},"winner":{trick.winner},"counters":{trick.counters}}}'
            )
        auction_over = phase is not Phase.BIDDING
        bidder = game.bidder if auction_over else None
        shown = auction_over and bidder is not None and (seat == bidder or game.rules.nest_seen_by is NestSeenBy.ALL)
        nest = _cards_json(game.nest) if shown else "null"
        discards = _cards_json(game.discards) if auction_over and seat == game.bidder else "null"
        trump = "null" if game.trump is None else f'"{game.trump.value}"'
        leader = game.trick_leader if phase is Phase.PLAY else "null"
        sizes = ",".join([str(len(hand)) for hand in game.hands])
        scores, taken = game.scores, game.taken
        return (
            f'{{"seat":{seat},"hand_number":{game.hand_number},"dealer":{game.dealer},"phase":"{phase.value}",'
            f'"to_act":{game.to_act},"scores":[{scores[0]},{scores[1]}],"hand":{_cards_json(game.hands[seat])},'
            f'"hand_sizes":[{sizes}],"auction":[{",".join(auction)}],"high_bid":{_json_int(game.high_bid)},'
            f'"bidder":{_json_int(bidder)},"nest":{nest},"discards":{discards},"trump":{trump},'
            f'"tricks":[{",".join(tricks)}],"trick_leader":{leader},"trick":{_cards_json(game.trick_cards)},'
            f'"counters":[{taken[0]},{taken[1]}]}}'
        ).encode()


def _cards_json(cards: Sequence[Card]) -> str:
    return '["' + '","'.join([str(card) for card in cards]) + '"]' if cards else "[]"


def _json_int(value: int | None) -> str:
    return "null" if value is None else str(value)


def _trick(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": cards_text(trick.cards),
        "winner": trick.winner,
        "counters": trick.counters,
    }


def deal_messages(game: Game) -> list[dict[str, Any]]:
    """Per seat, the start of the current hand: dealer and the seat's cards."""
    return [
        {
            "type": "deal",
            "hand_number": game.hand_number,
            "dealer": game.dealer,
            "hand": cards_text(game.hands[seat]),
        }
        for seat in range(4)
    ]


def after_action(
    game: Game, seat: int, action: Action, hands_before: int, tricks_before: int
) -> list[list[dict[str, Any]]]:
    """The notifications each seat gets after ``seat`` played ``action`` (already applied to ``game``).

    Public actions go to everyone (the same message object in every seat's list); a discard is told to
    nobody. When the auction ends each seat learns
    who won it, with the nest where the rules show it to that seat; a completed trick, a finished hand
    and the next deal are announced as they happen.
    """
    out: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    if not isinstance(action, Discard):
        played = {"type": "played", "seat": seat, "action": str(action)}
        for messages in out:
            messages.append(played)
    finished = game.history[hands_before:]
    current_hand = finished[0] if finished else None
    if current_hand is None and isinstance(action, (Bid, Pass)) and game.phase is not Phase.BIDDING:
        for target, messages in enumerate(out):
            messages.append(_nest_message(game.rules, game.bidder, game.high_bid, game.nest, target))
    tricks = current_hand.tricks if current_hand is not None else tuple(game.tricks)
    if len(tricks) > tricks_before:
        trick = {"type": "trick", **_trick(tricks[-1])}
        for messages in out:
            messages.append(trick)
    for hand in finished:
        over = _hand_over(hand)
        for messages in out:
            messages.append(over)
    if game.outcome is not None:
        result = {
            "type": "game_over",
            "winner": game.outcome.winner,
            "scores": list(game.outcome.scores),
            "reason": game.outcome.reason,
        }
        for messages in out:
            messages.append(result)
    elif finished:
        for target, message in enumerate(deal_messages(game)):
            out[target].append(message)
    return out


News = tuple[bytes, bytes, bytes, bytes]  # encoded lines for each seat, in seat order
_QUIET: News = (b"", b"", b"", b"")
_PLAYED: dict[tuple[int, int], News] = {}  # by seat and the action's identity (the action is kept in _ACTIONS)


def encode_per_seat(per_seat: Sequence[Sequence[Mapping[str, Any]]]) -> News:
    """Each seat's messages as one block of lines; a message given to several seats is encoded once."""
    encoded: dict[int, bytes] = {}
    blocks: list[bytes] = []
    for messages in per_seat:
        lines = []
        for message in messages:
            data = encoded.get(id(message))
            if data is None:
                data = encoded[id(message)] = encode(message)
            lines.append(data)
        blocks.append(b"".join(lines))
    return (blocks[0], blocks[1], blocks[2], blocks[3])


def after_action_lines(
    game: Game, seat: int, action: Action, hands_before: int, tricks_before: int, phase_before: Phase
) -> News:
    """:func:`after_action`, encoded: each seat's notifications as one block of lines.

    The usual case, an action that completes nothing, is the same cached line for every seat; so is a
    completed trick in a hand that goes on.
    """
    if len(game.history) == hands_before and game.phase is phase_before:
        tricks = len(game.tricks)
        if tricks == tricks_before:
            return _QUIET if isinstance(action, Discard) else _played(seat, action)
        if tricks == tricks_before + 1:
            line = _played(seat, action)[0] + encode({"type": "trick", **_trick(game.tricks[-1])})
            return (line, line, line, line)
    return encode_per_seat(after_action(game, seat, action, hands_before, tricks_before))


def _played(seat: int, action: Action) -> News:
    news = _PLAYED.get((seat, id(action)))
    if news is None:
        line = encode({"type": "played", "seat": seat, "action": action_text(action)})
        news = _PLAYED[(seat, id(action))] = (line, line, line, line)
    return news


def _nest_message(
    rules: Rules, bidder: int | None, bid: int | None, nest: tuple[Card, ...], target: int
) -> dict[str, Any]:
    shown = target == bidder or rules.nest_seen_by is NestSeenBy.ALL
    return {"type": "auction_won", "bidder": bidder, "bid": bid, "nest": cards_text(nest) if shown else None}


def _hand_over(hand: HandResult) -> dict[str, Any]:
    if hand.bidder is None:
        return {"type": "hand_over", "hand_number": hand.number, "redeal": True, "scores": list(hand.scores)}
    return {
        "type": "hand_over",
        "hand_number": hand.number,
        "redeal": False,
        "bidder": hand.bidder,
        "bid": hand.bid,
        "counters": list(hand.counters),
        "nest_counters": hand.nest_counters,
        "made": hand.made,
        "score_change": list(hand.score_change),
        "scores": list(hand.scores),
    }


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


def bye_message() -> dict[str, Any]:
    """The end of the match: the bot should exit (it must also exit on end of input)."""
    return {"type": "bye"}
