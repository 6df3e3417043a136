"""What a seat was told in a recorded game: every message the referee sent it, and each of its decisions.

A game record holds the deals and every action, so the conversation the referee had with a seat can be
rebuilt from it line for line: the ``game`` and ``deal`` messages, the news after every action, an
``act`` request at each of the seat's decisions, and the ``game_over``. :func:`script` walks a record
through the engine and yields, in the order the referee produced them, :class:`News` (lines for one
seat, which the referee sends with that seat's next request or at the end of the game) and
:class:`Decision` (a request the seat answered, with the action the record says it chose). The game
always follows the record. ``rookarena diff`` feeds this script to another bot and compares its answers.

A game that stopped before its end (a forfeit) is rebuilt up to its last recorded hand: the hand in
progress when it stopped is not in the record, so its decisions cannot be asked again.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from rookarena.engine.actions import Action, discard, play, trump
from rookarena.engine.game import Deal, Game, HandResult, Phase, deal_cards
from rookarena.engine.rules import NestOrder, Rules
from rookarena.engine.views import view
from rookarena.wire import position as in_progress
from rookarena.wire import records
from rookarena.wire.conversation import encode, request_id
from rookarena.wire.messages import (
    after_action_lines,
    deal_messages,
    encode_per_seat,
    game_message,
    seat_seed,
    view_json,
)


class DecisionKind(enum.Enum):
    """What a decision is about; a card play is a lead (the trick is empty) or a follow."""

    BID = "bid"
    DISCARD = "discard"
    TRUMP = "trump"
    LEAD = "lead"
    FOLLOW = "follow"

    def __str__(self) -> str:
        return self.value


KINDS = tuple(DecisionKind)


@dataclasses.dataclass(frozen=True, slots=True)
class News:
    """Encoded notifications for ``seat``: sent before its next request, or when the game ends."""

    seat: int
    data: bytes


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One request a seat answered in the recorded game, and what it answered."""

    game_id: str
    seat: int
    hand: int  # the hand's number, from 1
    trick: int | None  # the trick's number in the hand, from 1, in the play phase
    kind: DecisionKind
    legal: tuple[str, ...]
    view: Mapping[str, Any]  # the seat's view, as the request's ``view`` field carries it
    old: str  # the action the record says the seat chose
    step: int  # the replay viewer's step showing the table just before this decision
    suspect: bool  # the seat had faulted earlier in the game: the referee may have chosen ``old`` for it
    request_id: int = 0  # the id the referee gave this request (``protocol.request_id``)
    old_comment: str | None = None  # the comment the record keeps with ``old`` (RECORD.md §2), if any

    def request(self, request_id: int, deadline_ms: int, bank_ms: int, *, with_view: bool = True) -> bytes:
        """The ``act`` line, as the referee encodes it (``rookarena.wire.messages.act_line``)."""
        message: dict[str, Any] = {
            "type": "act",
            "deadline_ms": deadline_ms,
            "bank_ms": bank_ms,
            "legal": list(self.legal),
        }
        if with_view:
            message["view"] = self.view
        message["id"] = request_id
        return encode(message)


@dataclasses.dataclass(frozen=True, slots=True)
class Answer:
    """What the bot under test answered at a decision: an action, or the fault that stood in for one."""

    decision: Decision
    action: str | None
    fault: str | None = None  # "timeout: ...", "crash: ...", "illegal: ...", or "skipped: ..." after one
    comment: str | None = None  # the comment the bot's reply gave, if any

    @property
    def differs(self) -> bool:
        return self.fault is None and self.action != self.decision.old


Step = News | Decision


def game_id(record: Mapping[str, Any], index: int) -> str:
    """The record's ``game_id``, else its position in its file (as the report names it)."""
    value = record.get("game_id")
    return str(value) if value is not None else f"game {index + 1}"


def seats_of(record: Mapping[str, Any], name: str) -> list[int]:
    """The seats ``name`` held in the game, in seat order."""
    return [seat for seat, held in enumerate(record.get("seats") or []) if held == name]


def playable(record: Mapping[str, Any]) -> bool:
    """Whether the game was played with its bots at all: a game forfeited before any action (a bot that
    was withdrawn, or never started, or faulted at the first request) has nothing to ask again; one
    forfeited during its first hand has the decisions of its ``unfinished`` hand."""
    if "bots" not in record:
        return False
    if not record.get("forfeit") or record.get("hands"):
        return True
    unfinished = record.get("unfinished")
    return isinstance(unfinished, Mapping) and bool(unfinished.get("auction"))


# The faults after which the referee's process of a bot is gone (it is started again for its next game);
# the referee's notes on how a bot exited at the end of a run are not among them.
_FATAL = frozenset({"crash", "malformed", "protocol", "limit"})
_AT_EXIT = ("did not exit within", "exited leaving")


def died(record: Mapping[str, Any], seat: int) -> bool:
    """Whether the process playing ``seat`` was lost during the game (a crash, a broken protocol, a limit):
    the referee starts that program again for its next game, so its next process starts from a hello."""
    return any(
        fault.get("seat") == seat
        and fault.get("kind") in _FATAL
        and not str(fault.get("detail", "")).startswith(_AT_EXIT)
        for fault in record.get("faults") or []
    )


def unit_of(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """The run of games the referee played with one set of bot processes: a league's (or match's) pairing."""
    league = record.get("league") or {}
    return (league.get("name"), tuple(league.get("pairing") or ()))


def select(
    played: Sequence[Mapping[str, Any]], old: str, wanted: Collection[str] = (), limit: int | None = None
) -> list[tuple[str, Mapping[str, Any]]]:
    """The games ``old`` played a seat of (those of ``wanted`` only, when given), each with its id, a
    pairing's games together in the order they were played; at most ``limit`` of them."""
    groups: dict[tuple[Any, ...], list[tuple[int, str, Mapping[str, Any]]]] = {}
    for index, record in enumerate(played):
        gid = game_id(record, index)
        if seats_of(record, old) and playable(record) and (not wanted or gid in wanted):
            order = (record.get("league") or {}).get("index")
            groups.setdefault(unit_of(record), []).append((order if isinstance(order, int) else index, gid, record))
    chosen = [(gid, record) for group in groups.values() for _, gid, record in sorted(group, key=lambda g: g[0])]
    return chosen if limit is None else chosen[:limit]


def script(record: Mapping[str, Any], seats: Collection[int], gid: str | None = None) -> Iterator[Step]:
    """The messages the referee sent ``seats`` in the game of ``record``, with their decisions, in order.

    The record is replayed (and so verified) first: :class:`rookarena.errors.RecordError` if it does not.
    """
    history = records.replay(record).history
    rules = Rules.from_mapping(record["rules"], where="rules")
    seed, first_dealer = record["seed"], record["first_dealer"]
    gid = gid if gid is not None else game_id(record, 0)
    if seed is not None:
        game = records.new_game(rules, seed, first_dealer)
    else:
        game = Game(rules, first_dealer=first_dealer, deals=_deals(history, rules))
    wanted = frozenset(seats)
    faulted = _first_faults(record)
    times = _decision_times(record)
    numbers = [0] * 4  # each seat's decisions so far: the number its request's id is drawn for
    id_seed = seed if isinstance(seed, int) else 0
    for seat, lines in enumerate(encode_per_seat(_start(record, rules, game, gid))):
        if seat in wanted:
            yield News(seat, lines)
    base = 0  # the replay viewer's step for each hand's deal (then one per action, then the score)
    said = _comments(record)
    hands: list[tuple[int, list[Action]]] = [(hand.number, _actions(hand, rules)) for hand in history]
    unfinished = record.get("unfinished")
    if unfinished is not None and seed is not None:  # the hand a forfeit stopped: its decisions were asked too
        hands.append((len(history) + 1, [action for _, action in in_progress.actions(unfinished, rules)]))
    for hand_number, actions in hands:
        step = base
        for number, action in enumerate(actions):
            seat = game.to_act
            legal = game.legal_actions()
            if seat in wanted:
                stamp = request_id(id_seed, seat, numbers[seat])
                first = faulted.get(seat)
                suspect = (
                    _played_by_referee(times, seat, numbers[seat])
                    if times is not None
                    else first is not None and first <= game.hand_number
                )
                decision = _decision(game, gid, seat, legal, action, step, suspect, stamp)
                comment = said.get((hand_number, number, seat))
                yield decision if comment is None else dataclasses.replace(decision, old_comment=comment)
            numbers[seat] += 1
            hands_before, tricks_before, phase_before = len(game.history), len(game.tricks), game.phase
            game.apply(action)
            step += 1
            for target, lines in enumerate(
                after_action_lines(game, seat, action, hands_before, tricks_before, phase_before)
            ):
                if target in wanted and lines:
                    yield News(target, lines)
        base = step + 2
    if not game.is_over and record.get("result") is not None:
        result = record["result"]
        over = {
            "type": "game_over",
            "winner": result["winner"],
            "scores": list(game.scores),
            "reason": result["reason"],
        }
        for seat in sorted(wanted):
            yield News(seat, encode(over))


def _start(record: Mapping[str, Any], rules: Rules, game: Game, gid: str) -> list[list[dict[str, Any]]]:
    deals = deal_messages(game)
    return [
        [
            game_message(
                game_id=gid,
                seat=seat,
                rules=rules,
                rules_name=record["rules_name"],
                players=record["seats"],
                first_dealer=record["first_dealer"],
                seed=seat_seed(record["seed"], seat),
            ),
            deals[seat],
        ]
        for seat in range(4)
    ]


def _decision(
    game: Game,
    gid: str,
    seat: int,
    legal: Sequence[Action],
    action: Action,
    step: int,
    suspect: bool,
    stamp: int,
) -> Decision:
    phase = game.phase
    if phase is Phase.BIDDING:
        kind = DecisionKind.BID
    elif phase is Phase.DISCARD:
        kind = DecisionKind.DISCARD
    elif phase is Phase.TRUMP:
        kind = DecisionKind.TRUMP
    else:
        kind = DecisionKind.FOLLOW if game.trick_cards else DecisionKind.LEAD
    return Decision(
        game_id=gid,
        seat=seat,
        hand=game.hand_number,
        trick=len(game.tricks) + 1 if phase is Phase.PLAY else None,
        kind=kind,
        legal=tuple(str(option) for option in legal),
        view=view_json(view(game, seat)),
        old=str(action),
        step=step,
        suspect=suspect,
        request_id=stamp,
    )


def _comments(record: Mapping[str, Any]) -> dict[tuple[int, int, int], str]:
    """The record's comments by hand number, decision within the hand and seat."""
    out: dict[tuple[int, int, int], str] = {}
    for c in record.get("comments") or []:
        if isinstance(c, Mapping) and isinstance(c.get("text"), str):
            key = (c.get("hand"), c.get("decision"), c.get("seat"))
            if all(isinstance(part, int) for part in key):
                out[key] = c["text"]  # type: ignore[index]
    return out


def _decision_times(record: Mapping[str, Any]) -> list[list[Any]] | None:
    """The record's ``decision_ms`` (each seat's decisions, null where the referee played for it), or None
    for a record without it (written before it existed)."""
    times = record.get("decision_ms")
    if isinstance(times, list) and len(times) == 4 and all(isinstance(seat, list) for seat in times):
        return times
    return None


def _played_by_referee(times: list[list[Any]], seat: int, number: int) -> bool:
    """Whether the seat's decision ``number`` (from 0) was played by the referee in the bot's place."""
    return number < len(times[seat]) and times[seat][number] is None


def _first_faults(record: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's first faulted hand (under the substitute policy the game went on without the bot)."""
    out: dict[int, int] = {}
    for fault in record.get("faults") or []:
        seat, hand = fault.get("seat"), fault.get("hand")
        if isinstance(seat, int) and isinstance(hand, int) and fault.get("kind") != "protocol":
            out[seat] = min(out.get(seat, hand), hand)
    return out


def _actions(hand: HandResult, rules: Rules) -> list[Action]:
    """A recorded hand's actions in the order the engine asks for them."""
    out = [action for _, action in hand.auction]
    if hand.bidder is None:
        return out
    nest: list[Action] = [discard(card) for card in hand.discards]
    assert hand.trump is not None
    named = trump(hand.trump)
    nest = [named, *nest] if rules.nest_order is NestOrder.TRUMP_THEN_DISCARD else [*nest, named]
    out.extend(nest)
    out.extend(play(card) for trick in hand.tricks for card in trick.cards)
    return out


def _deals(history: Sequence[HandResult], rules: Rules) -> Iterator[Deal]:
    """The recorded deals, then any deal (the engine deals the next hand of a game that stopped early)."""
    for hand in history:
        yield hand.deal
    rng = random.Random(0)
    while True:
        yield deal_cards(rules, rng, 0)
