"""The hand in progress: where in a game a fault happened, as a record holds it (``unfinished``).

A game stopped by a forfeit leaves a hand that is not among the record's ``hands``: its deal, the calls,
discards, trump and cards played so far, and the seat whose turn it was. ``hand_in_progress`` writes it,
``actions`` reads its actions back in the order the engine asks for them (``protocol/RECORD.md`` §2.2),
and ``decision_index`` numbers a decision within its hand, which a fault keeps as ``decision``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rookarena.engine.actions import Action, parse_action, trump
from rookarena.engine.cards import Color, cards_text
from rookarena.engine.game import Deal, Game, Phase, Trick
from rookarena.engine.rules import NestOrder, Rules
from rookarena.errors import ParseError, RecordError
from rookarena.wire import errorline
from rookarena.wire.names import printable


def hand_opening(number: int, dealer: int, deal: Deal, auction: Sequence[tuple[int, Action]]) -> dict[str, Any]:
    """A hand's record as far as its auction, whether the hand is finished or in progress (RECORD.md)."""
    return {
        "number": number,
        "dealer": dealer,
        "deal": [cards_text(cards) for cards in deal.hands],
        "nest": cards_text(deal.nest),
        "auction": [{"seat": seat, "action": str(action)} for seat, action in auction],
    }


def tricks_text(tricks: Sequence[Trick]) -> list[dict[str, Any]]:
    """Finished tricks as a record holds them."""
    return [
        {"leader": t.leader, "cards": cards_text(t.cards), "winner": t.winner, "counters": t.counters} for t in tricks
    ]


def hand_in_progress(game: Game) -> dict[str, Any] | None:
    """The hand ``game`` is in, up to its next decision; None once the game is over."""
    if game.is_over:
        return None
    auction_over = game.phase is not Phase.BIDDING
    out = hand_opening(game.hand_number, game.dealer, game.deal, game.auction)
    out["bidder"] = game.bidder if auction_over else None
    out["bid"] = game.high_bid if auction_over else None
    if auction_over:
        out["discards"] = cards_text(game.discards)
        out["trump"] = None if game.trump is None else str(game.trump)
        out["tricks"] = tricks_text(game.tricks)
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


# -- the position of a fault, from a record alone (JSON in, JSON out: for show, the viewer, the report) --


def cut(hand: Mapping[str, Any], nest_order: str, decision: int) -> dict[str, Any]:
    """A recorded hand (played, a redeal, or ``unfinished``) as it stood after its first ``decision``
    actions, in the shape of ``unfinished`` (without ``to_act`` and ``phase``)."""
    out: dict[str, Any] = {key: hand[key] for key in ("number", "dealer", "deal", "nest")}
    auction = list(hand.get("auction") or [])
    out["auction"] = auction[:decision]
    left = decision - len(out["auction"])
    won = hand.get("bidder") is not None and left >= 0 and len(out["auction"]) == len(auction)
    out["bidder"] = hand.get("bidder") if won else None
    out["bid"] = hand.get("bid") if won else None
    if not won:
        return out
    discards, colour = list(hand.get("discards") or []), hand.get("trump")
    if nest_order == "trump-then-discard":
        out["trump"] = colour if left >= 1 and colour is not None else None
        out["discards"] = discards[: max(0, left - 1)] if out["trump"] is not None else []
    else:
        out["discards"] = discards[:left]
        out["trump"] = colour if left > len(discards) and colour is not None else None
    left -= len(out["discards"]) + (out["trump"] is not None)
    done = out["trump"] is not None and len(out["discards"]) == len(discards)
    out["tricks"] = []
    if done:
        tricks = list(hand.get("tricks") or [])
        extra = hand.get("trick")
        for trick in tricks:
            if left >= len(trick["cards"]) and len(trick["cards"]) == 4:
                out["tricks"].append(trick)
                left -= 4
            else:
                out["trick"] = {"leader": trick["leader"], "cards": trick["cards"][:left]}
                break
        else:
            if extra is not None:
                out["trick"] = {"leader": extra["leader"], "cards": extra["cards"][:left]}
    return out


def held(part: Mapping[str, Any], seat: int) -> list[str]:
    """The cards ``seat`` held at the position ``part`` (a hand in the shape of ``unfinished``)."""
    cards = list(part["deal"][seat])
    if part.get("bidder") == seat:
        cards += part["nest"]
        for card in part.get("discards") or []:
            cards.remove(card)
    played = [trick for trick in part.get("tricks") or []]
    if part.get("trick"):
        played.append(part["trick"])
    for trick in played:
        for k, card in enumerate(trick["cards"]):
            if (trick["leader"] + k) % 4 == seat and card in cards:
                cards.remove(card)
    return cards


def asked(part: Mapping[str, Any], legal: Sequence[str]) -> str:
    """What the seat to act was asked at ``part``: ``to follow to R10``, ``to lead``, ``to call``..."""
    verb = legal[0].split()[0] if legal else ""
    if verb in ("bid", "pass"):
        high = part.get("auction") or []
        bids = [call["action"] for call in high if call["action"].startswith("bid")]
        return f"to call (after {bids[-1]})" if bids else "to call (no bid yet)"
    if verb == "discard":
        return f"to discard (discard {len(part.get('discards') or []) + 1})"
    if verb == "trump":
        return "to name trump"
    if verb == "play":
        trick = part.get("trick") or {}
        cards = trick.get("cards") or []
        number = len(part.get("tricks") or []) + 1
        if not cards:
            return f"to lead trick {number}"
        return f"to follow to {' '.join(cards)} in trick {number}"
    return "to act"


def fault_part(record: Mapping[str, Any], fault: Mapping[str, Any]) -> dict[str, Any] | None:
    """The position of a fault on a request (one with ``decision``), or None when the record cannot place it."""
    decision, number = fault.get("decision"), fault.get("hand")
    if not isinstance(decision, int) or not isinstance(number, int):
        return None
    nest_order = str((record.get("rules") or {}).get("nest_order", "discard-then-trump"))
    hands = record.get("hands") or []
    unfinished = record.get("unfinished")
    if isinstance(unfinished, Mapping) and unfinished.get("number") == number:
        return cut(unfinished, nest_order, decision)
    if 1 <= number <= len(hands):
        return cut(hands[number - 1], nest_order, decision)
    return None


def action_texts(hand: Mapping[str, Any], nest_order: str) -> list[str]:
    """A recorded hand's actions (played, a redeal, or ``unfinished``) as texts, in the order of decisions."""
    out = [call["action"] for call in hand.get("auction") or []]
    if hand.get("bidder") is None:
        return out
    nest = [f"discard {card}" for card in hand.get("discards") or []]
    if hand.get("trump") is not None:
        named = f"trump {hand['trump']}"
        nest = [named, *nest] if nest_order == "trump-then-discard" else [*nest, named]
    out.extend(nest)
    tricks = [*(hand.get("tricks") or []), *([hand["trick"]] if hand.get("trick") else [])]
    out.extend(f"play {card}" for trick in tricks for card in trick["cards"])
    return out


def comments_of(record: Mapping[str, Any], hand: Mapping[str, Any], seat: int | None = None) -> list[str]:
    """The comments the bots' replies gave in ``hand`` (of ``record``), each as ``seat 1 on 'bid 120':
    "text"`` in the order of the decisions; with ``seat``, that seat's only (a bot's words can name its cards)."""
    number = hand.get("number")
    mine = [
        c
        for c in record.get("comments") or []
        if isinstance(c, Mapping) and c.get("hand") == number and seat in (None, c.get("seat"))
    ]
    if not mine:
        return []
    texts = action_texts(hand, str((record.get("rules") or {}).get("nest_order", "discard-then-trump")))
    out = []
    for c in sorted(mine, key=lambda c: c["decision"] if isinstance(c.get("decision"), int) else -1):
        decision = c.get("decision")
        action = texts[decision] if isinstance(decision, int) and 0 <= decision < len(texts) else "?"
        out.append(f"seat {c.get('seat')} on {action!r}: {quoted(c.get('text'))}")
    return out


def quoted(text: Any) -> str:
    """A bot's text in double quotes, its quotes, backslashes and control characters escaped."""
    return json.dumps(str(text), ensure_ascii=False)


def fault_sentence(
    record: Mapping[str, Any], fault: Mapping[str, Any], cards_text: Callable[[list[str]], str] = " ".join
) -> str:
    """``seat 2 was asked to follow to B10 in trick 3 with B 12 9 · R 5 and answered 'play R5'``, or ""."""
    part = fault_part(record, fault)
    if part is None:
        return ""
    seat, legal = fault["seat"], list(fault.get("legal") or [])
    cards = cards_text(held(part, seat))
    answer = f"answered {fault['line']!r}" if fault.get("line") else f"gave no answer ({fault.get('kind')})"
    return f"seat {seat} was asked {asked(part, legal)} holding {cards} and {answer}"


def fault_where(record: Mapping[str, Any], fault: Mapping[str, Any]) -> str:
    """:func:`fault_sentence` with the cards as ``show`` writes a hand (:func:`hand_text`): the words the
    terminal, the viewer and the report give a fault on a request; "" for any other fault."""
    rules = record.get("rules") or {}
    return fault_sentence(record, fault, lambda cards: hand_text(cards, rules))


def fault_line(record: Mapping[str, Any], fault: Mapping[str, Any]) -> str:
    """A fault on one line for the terminal: the bot, its seat, the game, where in it, what went wrong,
    and for a crash the error the bot printed; every character printable (:func:`printable`)."""
    game = record.get("game_id") or "?"
    kind, detail = fault.get("kind"), fault.get("detail")
    if kind == "withdrawn" or fault.get("hand") == 0:  # decided before the game started: no seat, no hand
        return printable(f"fault: {fault.get('bot')} in {game}, before it started: {kind}: {detail}")
    where = f"hand {fault.get('hand')}"
    part = fault_part(record, fault)
    if part is not None:
        where += f", asked {asked(part, list(fault.get('legal') or []))}"
    line = f"fault: {fault.get('bot')} (seat {fault.get('seat')}) in {game}, {where}: {kind}: {detail}"
    error = fault.get("error")
    if isinstance(error, list) and all(isinstance(text, str) for text in error):
        said = errorline.summary_of(error)
        if said:
            line += f"; its stderr says: {said}"
    return printable(line)


COLOR_ORDER = "RGBY"


def _rank_order(rules: Mapping[str, Any]) -> dict[int, int]:
    return {rank: position for position, rank in enumerate(rules.get("ranks") or range(1, 15))}


def sort_key(card: str, rules: Mapping[str, Any]) -> tuple[int, int]:
    """Colour (R, G, B, Y) then strength, strongest first; the Rook last."""
    if card == "ROOK":
        return (len(COLOR_ORDER), 0)
    return (COLOR_ORDER.index(card[0]), -_rank_order(rules).get(int(card[1:]), 0))


def hand_text(cards: Sequence[str], rules: Mapping[str, Any]) -> str:
    """``R 14 11 8 · G 12 · Y 13 6 · ROOK``: a hand by colour, strongest first."""
    groups: dict[str, list[str]] = {}
    for card in sorted(cards, key=lambda c: sort_key(c, rules)):
        if card == "ROOK":
            groups.setdefault("ROOK", [])
        else:
            groups.setdefault(card[0], []).append(card[1:])
    parts = [key if key == "ROOK" else f"{key} {' '.join(ranks)}" for key, ranks in groups.items()]
    return " · ".join(parts) if parts else "-"
