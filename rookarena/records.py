"""The game record: one JSON object per game, enough for another program to replay and verify it.

``build`` turns a finished (or abandoned) :class:`Game` into a record, ``dumps``/``loads`` convert one
record to and from one line of JSON, and ``replay`` plays a record's actions through the engine from
its recorded deals, checking that every recorded result is what the rules give. The format is specified
in ``protocol/RECORD.md`` and ``protocol/schemas/record.schema.json``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from rookarena.actions import Action, parse_action
from rookarena.cards import Card, Color, cards_text
from rookarena.errors import ParseError, RecordError, RookError
from rookarena.game import Deal, Game, HandResult, Outcome, deal_cards
from rookarena.rules import SEATS, NestOrder, Rules

FORMAT = "rookarena.record/1"


def build(
    game: Game,
    *,
    seed: int | None,
    rules_name: str,
    seats: Sequence[str],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of ``game``; ``extra`` holds fields the referee adds (timings, faults, ids)."""
    if len(seats) != SEATS:
        raise ValueError(f"expected {SEATS} seat names, got {len(seats)}")
    record: dict[str, Any] = {
        "format": FORMAT,
        "seed": seed,
        "rules_name": rules_name,
        "rules_hash": game.rules.digest,
        "rules": game.rules.to_mapping(),
        "seats": list(seats),
        "first_dealer": game.first_dealer,
        "hands": [_hand(hand) for hand in game.history],
        "result": _result(game.outcome),
    }
    if extra:
        record.update(extra)
    return record


def _hand(hand: HandResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": hand.number,
        "dealer": hand.dealer,
        "deal": [cards_text(cards) for cards in hand.deal.hands],
        "nest": cards_text(hand.deal.nest),
        "auction": [{"seat": seat, "action": str(action)} for seat, action in hand.auction],
        "bidder": hand.bidder,
        "bid": hand.bid,
    }
    if hand.bidder is None:
        out["redeal"] = True
    else:
        out.update(
            discards=cards_text(hand.discards),
            trump=str(hand.trump),
            tricks=[
                {"leader": t.leader, "cards": cards_text(t.cards), "winner": t.winner, "counters": t.counters}
                for t in hand.tricks
            ],
            nest_counters=hand.nest_counters,
            nest_team=hand.nest_team,
            counters=list(hand.counters),
            made=hand.made,
        )
    out["score_change"] = list(hand.score_change)
    out["scores"] = list(hand.scores)
    return out


def _result(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "scores": list(outcome.scores),
        "hands": outcome.hands,
        "reason": outcome.reason,
    }


def dumps(record: Mapping[str, Any]) -> str:
    """One record as one line of JSON (no newline)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def loads(line: str) -> dict[str, Any]:
    """One record from one line of JSON; :class:`RecordError` if it is not a JSON object."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(f"expected a JSON object, got {type(record).__name__}")
    return record


def write(stream: IO[str], record: Mapping[str, Any]) -> None:
    stream.write(dumps(record) + "\n")


def read(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Records from JSON lines, skipping blank lines; errors name the line number."""
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                yield loads(line)
            except RecordError as exc:
                raise RecordError(f"line {number}: {exc}") from None


def replay(record: Mapping[str, Any]) -> Game:
    """Play ``record`` through the engine and check it; return the replayed game.

    Raises :class:`RecordError` naming the first field that disagrees with the rules: an illegal action,
    a trick winner or score that is not what the rules give, or deals that do not come from the seed.
    """
    try:
        return _replay(record)
    except RecordError:
        raise
    except (RookError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"record does not replay: {exc}") from None


def _replay(record: Mapping[str, Any]) -> Game:
    if record.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {record.get('format')!r}")
    rules = Rules.from_mapping(record["rules"], where="rules")
    if rules.digest != record["rules_hash"]:
        raise RecordError(f"rules_hash: {record['rules_hash']!r} is not the hash of the rules ({rules.digest})")
    hands = record["hands"]
    deals = [_parse_deal(hand, i) for i, hand in enumerate(hands, 1)]
    game = Game(rules, first_dealer=record["first_dealer"], deals=iter(deals))
    for number, hand in enumerate(hands, 1):
        if game.is_over:
            raise RecordError(f"hands[{number}]: the game was already over")
        for action in _actions(hand, rules, number):
            game.apply(action)
    seed = record.get("seed")
    if seed is not None:
        _check_seed(rules, seed, game.history)
    rebuilt = build(game, seed=seed, rules_name=record["rules_name"], seats=record["seats"])
    for key, value in rebuilt.items():
        if record.get(key) != value:
            raise RecordError(f"{key}: the record says {_short(record.get(key))}, the rules give {_short(value)}")
    return game


def _parse_deal(hand: Mapping[str, Any], number: int) -> Deal:
    try:
        cards = tuple(tuple(Card.parse(text) for text in seat) for seat in hand["deal"])
        nest = tuple(Card.parse(text) for text in hand["nest"])
    except ParseError as exc:
        raise RecordError(f"hands[{number}].deal: {exc}") from None
    return Deal(cards, nest)


def _actions(hand: Mapping[str, Any], rules: Rules, number: int) -> list[Action]:
    """The hand's actions in the order the engine asks for them."""
    actions = [parse_action(entry["action"]) for entry in hand["auction"]]
    if hand.get("bidder") is None:
        return actions
    nest_phase = [parse_action(f"discard {card}") for card in hand["discards"]]
    trump_action = parse_action(f"trump {Color.parse(hand['trump'])}")
    if rules.nest_order is NestOrder.DISCARD_THEN_TRUMP:
        actions += [*nest_phase, trump_action]
    else:
        actions += [trump_action, *nest_phase]
    for trick in hand["tricks"]:
        actions += [parse_action(f"play {card}") for card in trick["cards"]]
    return actions


def _check_seed(rules: Rules, seed: int, history: list[HandResult]) -> None:
    rng = random.Random(seed)
    for hand in history:
        if deal_cards(rules, rng, hand.dealer) != hand.deal:
            raise RecordError(f"hands[{hand.number}].deal: not the deal that seed {seed} gives")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def new_game(rules: Rules, seed: int, first_dealer: int = 0) -> Game:
    """A game whose deals come from ``seed``: the one way records and the referee seed games."""
    return Game(rules, random.Random(seed), first_dealer=first_dealer)
