"""The messages the referee sends in rook/1, built from the game: ``hello``, ``game``, ``act`` with the
seat's view, and the news after each action (played cards, the nest, hand and game results).

Pure: each function maps the engine's state to a JSON-ready dict (or its encoded line); the
:class:`~rookarena.wire.conversation.Conversation` sends them and reads the replies. A message for a seat
holds only what that seat may see.
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

from rookarena.engine.actions import Action, Bid, Discard, Pass
from rookarena.engine.cards import Card, cards_text
from rookarena.engine.game import Game, HandResult, Phase, Trick
from rookarena.engine.rules import NestSeenBy, Rules
from rookarena.engine.views import View, view
from rookarena.wire import VERSION
from rookarena.wire.conversation import encode


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


def bye_message() -> dict[str, Any]:
    """The end of the match: the bot should exit (it must also exit on end of input)."""
    return {"type": "bye"}
