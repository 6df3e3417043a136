"""The game record: one JSON object per game, enough for another program to replay and verify it.

``build`` turns a finished (or abandoned) :class:`Game` into a record, ``dumps``/``loads`` convert one
record to and from one line of JSON, and ``replay`` plays a record's actions through the engine from
its recorded deals, checking that every recorded result is what the rules give. The format is specified
in ``protocol/RECORD.md`` and ``protocol/schemas/record.schema.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from rookarena.engine.actions import Action
from rookarena.engine.cards import Card, cards_text
from rookarena.engine.game import Deal, Game, HandResult, deal_cards
from rookarena.engine.rules import SEATS, Rules
from rookarena.engine.scoring import Outcome
from rookarena.engine.seeding import SEED_BITS as SEED_BITS  # noqa: PLC0414 (the name its readers use)
from rookarena.engine.seeding import derive_seed as derive_seed  # noqa: PLC0414 (the name its readers use)
from rookarena.errors import IllegalActionError, ParseError, RecordError, RookError, RulesError
from rookarena.wire import position
from rookarena.wire import position as in_progress

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
    out = position.hand_opening(hand.number, hand.dealer, hand.deal, hand.auction)
    out.update(bidder=hand.bidder, bid=hand.bid)
    if hand.bidder is None:
        out["redeal"] = True
    else:
        out.update(
            discards=cards_text(hand.discards),
            trump=str(hand.trump),
            tricks=position.tricks_text(hand.tricks),
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
    """One record as one line of JSON (no newline), always encodable as UTF-8.

    A bot's text (its hello, a reply quoted in a fault) may hold a lone surrogate from a JSON escape such
    as ``"\\ud800"``; such a record is written with every non-ASCII character escaped, which reads back the same.
    """
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:
            return json.dumps(record, separators=(",", ":"))
    return text


def loads(line: str) -> dict[str, Any]:
    """One record from one line of JSON; :class:`RecordError` if it is not a JSON object."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    except RecursionError:
        raise RecordError("not JSON a reader takes: nested too deep") from None
    except ValueError as exc:  # an integer longer than Python reads (sys.int_info)
        raise RecordError(f"not JSON a reader takes: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(f"expected a JSON object, got {type(record).__name__}")
    return record


def load_record(line: str) -> dict[str, Any]:
    """One game record from one line: :func:`loads`, and :class:`RecordError` unless the fields every reader
    relies on have the shape a league writes (a line of other JSON is a damaged record, not a crash)."""
    record = loads(line)
    problem = shape_problem(record)
    if problem is not None:
        raise RecordError(f"not a game record: {problem}")
    return record


def _names(value: Any, count: int) -> bool:
    return isinstance(value, list) and len(value) == count and all(isinstance(name, str) for name in value)


def _points(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)


def _league(value: Any) -> bool:
    """Whether a record's ``league`` has the shape a league or match writes (each field may be missing)."""
    if not isinstance(value, dict):
        return False
    whole = all(type(value.get(key, 0)) is int for key in ("deal", "index"))
    return (
        whole
        and isinstance(value.get("name", ""), str)
        and ("pairing" not in value or _names(value["pairing"], 2))
        and isinstance(value.get("swapped", False), bool)
    )


def _shown(value: Any) -> str:
    return json.dumps(value)[:40]


def shape_problem(record: Mapping[str, Any]) -> str | None:
    """What is wrong with the top of a record, or None."""
    if not _names(record.get("seats"), 4):
        return "'seats' must be a list of 4 names"
    if "teams" in record and not _names(record["teams"], 2):
        return "'teams' must be a list of 2 names"
    if "game_id" in record and not isinstance(record["game_id"], str):
        return "'game_id' must be a string"
    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, dict) and _points(hand.get("scores")) for hand in hands):
        return "'hands' must be a list of hands, each with its 'scores'"
    for number, hand in enumerate(hands):
        bidder = hand.get("bidder")
        if bidder is not None and not (type(bidder) is int and 0 <= bidder <= 3):
            return f"hands[{number}].bidder must be a seat (0 to 3) or null, got {_shown(bidder)}"
        if bidder is not None and not (type(hand.get("bid")) is int and type(hand.get("made")) is bool):
            return f"hands[{number}] must hold its 'bid' (a whole number) and 'made' (true or false)"
    result = record.get("result")
    if result is not None and not (
        isinstance(result, dict) and _points(result.get("scores")) and result.get("winner") in (None, 0, 1)
    ):
        return "'result' must hold the 'scores' and the 'winner' (0, 1 or null)"
    league = record.get("league")
    if league is not None and not _league(league):
        return (
            "'league' must be an object: 'name' a string, 'pairing' 2 names, 'deal' and 'index' whole numbers, "
            "'swapped' true or false"
        )
    faults = record.get("faults", [])
    if not isinstance(faults, list) or not all(
        isinstance(f, dict) and f.get("seat") in (0, 1, 2, 3) and isinstance(f.get("kind"), str) for f in faults
    ):
        return "'faults' must be a list of faults, each with its 'seat' (0 to 3) and 'kind'"
    return None


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

    Raises :class:`RecordError` naming the first field that disagrees with the rules, as a path such as
    ``hands[3].tricks[2].winner`` (array indices from 0): an illegal action, a trick winner or score
    that is not what the rules give, or deals that do not come from the seed. Top-level fields other
    than the ones :func:`build` writes are ignored. A game that stopped before its end (a forfeit)
    replays to a game that is not over.
    """
    try:
        return _replay(record)
    except RecordError:
        raise
    except KeyError as exc:
        raise RecordError(f"record does not replay: missing field {exc}") from None
    except (RookError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RecordError(f"record does not replay: {exc}") from None


def _replay(record: Mapping[str, Any]) -> Game:
    if record.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {record.get('format')!r}")
    try:
        rules = Rules.from_mapping(record["rules"], where="rules")
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    _compare(record["rules"], rules.to_mapping(), "rules")
    if record["rules_hash"] != rules.digest:
        raise RecordError(f"rules_hash: {record['rules_hash']!r} is not the hash of the rules ({rules.digest})")
    seed, first_dealer = record["seed"], record["first_dealer"]
    if seed is not None and not _is_int(seed):
        raise RecordError(f"seed: {seed!r}: expected a whole number or null")
    if not _is_int(first_dealer) or first_dealer not in range(SEATS):
        raise RecordError(f"first_dealer: {first_dealer!r}: expected a seat 0 to {SEATS - 1}")
    seats = record["seats"]
    if not isinstance(seats, list) or len(seats) != SEATS or not all(isinstance(name, str) for name in seats):
        raise RecordError(f"seats: expected a list of {SEATS} names, got {_short(seats)}")
    hands = record["hands"]
    if not isinstance(hands, list):
        raise RecordError(f"hands: expected a list, got {_short(hands)}")
    deals = [_parse_deal(hand, index, rules) for index, hand in enumerate(hands)]
    unfinished = record.get("unfinished")  # the hand in progress when the game stopped, if recorded
    if unfinished is not None:
        deals.append(_parse_deal(unfinished, len(hands), rules, "unfinished"))
    replayed: list[Game] = []

    def dealer() -> int:
        return replayed[0].dealer if replayed else first_dealer

    game = Game(rules, first_dealer=first_dealer, deals=_seeded(deals, rules, seed, dealer, unfinished is not None))
    replayed.append(game)
    for index, hand in enumerate(hands):
        if game.is_over:
            raise RecordError(f"hands[{index}]: the game was already over")
        for where, action in _actions(hand, rules, index):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"{where}: {exc}") from None
    if unfinished is not None:
        if game.is_over:
            raise RecordError("unfinished: the game was already over")
        for where, action in in_progress.actions(unfinished, rules):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"{where}: {exc}") from None
    rebuilt = build(game, seed=seed, rules_name=record["rules_name"], seats=seats)
    if unfinished is not None:
        rebuilt["unfinished"] = in_progress.hand_in_progress(game)
    if not game.is_over and record.get("result") is not None:
        rebuilt["result"] = _stopped_result(record["result"], game)
    for key, value in rebuilt.items():
        if key not in record:
            raise RecordError(f"{key}: missing (the rules give {_short(value)})")
        _compare(record[key], value, key)
    if record.get("forfeit") is not None:
        _check_forfeit(record, game)
    return game


def _check_forfeit(record: Mapping[str, Any], game: Game) -> None:
    """A forfeit as the referee writes it: of a game stopped before its end, by a fault of the forfeiting
    seat that ``faults`` holds, on that seat's team, and the game given to the other team."""
    forfeit = record["forfeit"]
    found = forfeit.get("seat") if isinstance(forfeit, dict) else None
    if not isinstance(found, int) or isinstance(found, bool) or found not in range(SEATS):
        raise RecordError(f"forfeit: {_short(forfeit)}: expected {{'seat', 'team', 'kind'}} with a seat 0 to 3")
    seat = found
    assert isinstance(forfeit, dict)
    team = forfeit.get("team")
    if team != seat % 2 or not _is_int(team):
        raise RecordError(f"forfeit.team: the record says {_short(team)}, seat {seat} plays for team {seat % 2}")
    if game.is_over:
        raise RecordError("forfeit: the game was played to its end")
    result = record.get("result")
    winner = result.get("winner") if isinstance(result, dict) else None
    if winner != 1 - team:
        raise RecordError(
            f"result.winner: the record says {_short(winner)}, the forfeit of seat {seat} gives the game to team "
            f"{1 - team}"
        )
    faults = record.get("faults")
    kind = forfeit.get("kind")
    if not isinstance(faults, list) or not any(
        isinstance(fault, dict) and fault.get("seat") == seat and fault.get("kind") == kind for fault in faults
    ):
        raise RecordError(f"forfeit: no {_short(kind)} fault of seat {seat} among the record's faults")


def _compare(recorded: Any, expected: Any, where: str) -> None:
    """Raise naming the first place where ``recorded`` differs from ``expected`` (JSON values)."""
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for key, value in expected.items():
            if key not in recorded:
                raise RecordError(f"{where}.{key}: missing (the rules give {_short(value)})")
            _compare(recorded[key], value, f"{where}.{key}")
        for key in recorded:
            if key not in expected:
                raise RecordError(f"{where}.{key}: unexpected field")
    elif isinstance(recorded, list) and isinstance(expected, list):
        for index, (got, want) in enumerate(zip(recorded, expected, strict=False)):
            _compare(got, want, f"{where}[{index}]")
        if len(recorded) != len(expected):
            raise RecordError(f"{where}: the record has {len(recorded)} entries, the rules give {len(expected)}")
    elif type(recorded) is not type(expected) or recorded != expected:
        raise RecordError(f"{where}: the record says {_short(recorded)}, the rules give {_short(expected)}")


def _stopped_result(result: Any, game: Game) -> Any:
    """The result a game that stopped before its end may have: a winner decided outside the rules (a
    forfeit), with the scores and the number of hands as the recorded hands leave them."""
    if not isinstance(result, dict):
        return None
    winner, reason = result.get("winner"), result.get("reason")
    if winner is not None and (not _is_int(winner) or winner not in (0, 1)):
        raise RecordError(f"result.winner: {winner!r}: expected 0, 1 or null")
    if not isinstance(reason, str) or not reason:
        raise RecordError(f"result.reason: {reason!r}: expected a reason")
    return {"winner": winner, "scores": list(game.scores), "hands": len(game.history), "reason": reason}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_deal(hand: Mapping[str, Any], index: int, rules: Rules, where: str = "") -> Deal:
    where = where or f"hands[{index}]"
    try:
        cards = tuple(tuple(Card.parse(text) for text in seat) for seat in hand["deal"])
    except ParseError as exc:
        raise RecordError(f"{where}.deal: {exc}") from None
    try:
        nest = tuple(Card.parse(text) for text in hand["nest"])
    except ParseError as exc:
        raise RecordError(f"{where}.nest: {exc}") from None
    if len(cards) != SEATS or any(len(seat) != rules.hand_size for seat in cards):
        raise RecordError(f"{where}.deal: expected {SEATS} hands of {rules.hand_size} cards")
    if len(nest) != rules.nest_size:
        raise RecordError(f"{where}.nest: expected {rules.nest_size} cards, got {len(nest)}")
    dealt = sorted((card for seat in (*cards, nest) for card in seat), key=lambda card: card.sort_key)
    if dealt != list(rules.deck):
        raise RecordError(f"{where}.deal: the hands and the nest are not the rules' deck, each card once")
    return Deal(cards, nest)


def _seeded(
    deals: list[Deal], rules: Rules, seed: int | None, dealer: Callable[[], int], unfinished: bool = False
) -> Iterator[Deal]:
    """The recorded deals in order, each checked against the seed when the engine asks for it; with
    ``unfinished`` the last is the deal of the hand in progress."""
    rng = random.Random(seed) if seed is not None else None
    for index, deal in enumerate(deals):
        if rng is not None and deal_cards(rules, rng, dealer()) != deal:
            if unfinished and index == len(deals) - 1:
                raise RecordError(f"unfinished.deal: not the deal that seed {seed!r} gives")
            if index == 0:
                raise RecordError(f"seed: {seed!r} does not give the deal of hands[0]")
            raise RecordError(f"hands[{index}].deal: not the deal that seed {seed!r} gives")
        yield deal
    # A game that stopped early: the engine deals the next hand at once. Any deal will do, as it is
    # neither played nor recorded.
    yield deal_cards(rules, rng or random.Random(0), dealer())


def _actions(hand: Mapping[str, Any], rules: Rules, index: int) -> list[tuple[str, Action]]:
    """The hand's actions in the order the engine asks for them, each with the field it comes from."""
    return position.actions(hand, rules, where=f"hands[{index}]")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def new_game(rules: Rules, seed: int, first_dealer: int = 0) -> Game:
    """A game whose deals come from ``seed``: the one way records and the referee seed games."""
    return Game(rules, random.Random(seed), first_dealer=first_dealer)


def seed_commitment(seed: int) -> str:
    """The SHA-256 (hex) of ``rookarena-seed:`` and the seed in decimal: published before the games, it
    shows afterwards that the seed revealed is the one drawn, while (with 128 random bits) not giving it away."""
    return hashlib.sha256(f"rookarena-seed:{seed}".encode("ascii")).hexdigest()


GUESSABLE_BITS = 64  # a seed of fewer bits can be found by trying them all


def guessable(seed: int) -> bool:
    """Whether ``seed`` is short enough for a bot to find by trying every seed up to it: its deals, and so
    every hidden card, would follow from the seat seeds it is sent."""
    return seed.bit_length() < GUESSABLE_BITS
