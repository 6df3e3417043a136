"""The hand in progress: where in a game a fault happened, as a record holds it (``unfinished``).

A game stopped by a forfeit leaves a hand that is not among the record's ``hands``: its deal, the calls,
discards, trump and cards played so far, and the seat whose turn it was. ``hand_in_progress`` writes it,
``actions`` reads its actions back in the order the engine asks for them (``protocol/RECORD.md`` §2.2),
and ``decision_index`` numbers a decision within its hand, which a fault keeps as ``decision``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rookarena.engine.actions import Action, parse_action, trump
from rookarena.engine.cards import Color, cards_text
from rookarena.engine.game import Game, Phase
from rookarena.engine.rules import NestOrder, Rules
from rookarena.errors import ParseError, RecordError


def hand_in_progress(game: Game) -> dict[str, Any] | None:
    """The hand ``game`` is in, up to its next decision; None once the game is over."""
    if game.is_over:
        return None
    auction_over = game.phase is not Phase.BIDDING
    out: dict[str, Any] = {
        "number": game.hand_number,
        "dealer": game.dealer,
        "deal": [cards_text(cards) for cards in game.deal.hands],
        "nest": cards_text(game.deal.nest),
        "auction": [{"seat": seat, "action": str(action)} for seat, action in game.auction],
        "bidder": game.bidder if auction_over else None,
        "bid": game.high_bid if auction_over else None,
    }
    if auction_over:
        out["discards"] = cards_text(game.discards)
        out["trump"] = None if game.trump is None else str(game.trump)
        out["tricks"] = [
            {"leader": t.leader, "cards": cards_text(t.cards), "winner": t.winner, "counters": t.counters}
            for t in game.tricks
        ]
        if game.phase is Phase.PLAY:
            out["trick"] = {"leader": game.trick_leader, "cards": cards_text(game.trick_cards)}
    out["to_act"] = game.to_act
    out["phase"] = game.phase.value
    return out


def decision_index(game: Game) -> int:
    """How many actions the hand ``game`` is in has had: the number (from 0) of its next decision."""
    made = len(game.auction)
    if game.phase is not Phase.BIDDING:
        made += len(game.discards) + (game.trump is not None) + 4 * len(game.tricks) + len(game.trick_cards)
    return made


def actions(hand: Mapping[str, Any], rules: Rules, where: str = "unfinished") -> list[tuple[str, Action]]:
    """The actions of a hand in progress in the order the engine asks for them, each with its field."""
    out: list[tuple[str, Action]] = []

    def add(field: str, text: str) -> None:
        try:
            out.append((f"{where}.{field}", parse_action(text)))
        except ParseError as exc:
            raise RecordError(f"{where}.{field}: {exc}") from None

    for number, entry in enumerate(hand["auction"]):
        add(f"auction[{number}].action", entry["action"])
    if hand["bidder"] is None:
        return out
    nest_start = len(out)
    for number, card in enumerate(hand["discards"]):
        add(f"discards[{number}]", f"discard {card}")
    if hand["trump"] is not None:
        trump_at = nest_start if rules.nest_order is NestOrder.TRUMP_THEN_DISCARD else len(out)
        try:
            out.insert(trump_at, (f"{where}.trump", trump(Color.parse(hand["trump"]))))
        except ParseError as exc:
            raise RecordError(f"{where}.trump: {exc}") from None
    for number, trick in enumerate(hand["tricks"]):
        for position, card in enumerate(trick["cards"]):
            add(f"tricks[{number}].cards[{position}]", f"play {card}")
    for position, card in enumerate((hand.get("trick") or {}).get("cards", [])):
        add(f"trick.cards[{position}]", f"play {card}")
    return out


def unfinished(game: Game) -> dict[str, Any]:
    """The record's ``unfinished`` field for a game that stopped in a hand (nothing once it is over)."""
    hand = hand_in_progress(game)
    return {} if hand is None else {"unfinished": hand}


def fault_position(game: Game, legal: Sequence[Action]) -> dict[str, Any]:
    """A fault's place in its hand (``decision``, its action's number from 0) and the actions the
    request offered (``legal``), for a fault on a request to the seat to act."""
    return {"decision": decision_index(game), "legal": [str(action) for action in legal]}
