"""The rules of one variant as data: every knob RULES.md names, validated, hashable, serialisable.

A :class:`Rules` value is the only place variants differ; the engine reads its fields where they matter
and never asks which preset it is playing. ``to_mapping``/``from_mapping`` round-trip through plain
JSON/YAML values, and ``digest`` names one exact rule set in records.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping
from typing import Any, TypeVar

from rookarena.engine.cards import COLORS, ROOK, Card, Color, ascii_number
from rookarena.errors import RulesError

SEATS = 4
# The most of each number knob: what the protocol carries, and more than any variant plays. A bid travels as
# `bid N` with at most five digits (PROTOCOL.md §6, parse_action); a hand's points are at most what a bid can
# name; the hand limit keeps a game's record and its time bounded; and so every score fits a 32-bit integer.
BID_MOST = 99_999
POINTS_MOST = BID_MOST  # the points of a whole hand: counters and the Rook together
HAND_LIMIT_MOST = 1_000
TARGET_MOST = HAND_LIMIT_MOST * POINTS_MOST  # the most a team can score in a game


class _Choice(enum.Enum):
    """An enum whose values are the kebab-case words used in YAML and JSON."""

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class RookRank(_Choice):
    HIGH = "high"  # the highest trump
    TEN_HALF = "ten-half"  # between the 10 and the 11 of trump


class AllPass(_Choice):
    REDEAL_NEXT_DEALER = "redeal-next-dealer"
    REDEAL_SAME_DEALER = "redeal-same-dealer"
    DEALER_MUST_BID = "dealer-must-bid"  # after three passes the dealer is forced to bid the minimum


class NestSeenBy(_Choice):
    BIDDER = "bidder"
    ALL = "all"  # shown to every player when the bidder takes it; the discards stay hidden


class NestOrder(_Choice):
    DISCARD_THEN_TRUMP = "discard-then-trump"
    TRUMP_THEN_DISCARD = "trump-then-discard"


class FirstLead(_Choice):
    LEFT_OF_DEALER = "left-of-dealer"
    BIDDER = "bidder"
    LEFT_OF_BIDDER = "left-of-bidder"


class NestTo(_Choice):
    LAST_TRICK = "last-trick"
    BIDDER_TEAM = "bidder-team"


class BidMade(_Choice):
    AT_LEAST = "at-least"  # counters >= bid
    MORE_THAN = "more-than"  # counters > bid


class TargetRule(_Choice):
    REACH = "reach"  # score >= target
    EXCEED = "exceed"  # score > target


class BothCross(_Choice):
    HIGHER_TOTAL = "higher-total"  # an exact tie plays another hand
    BIDDER_WINS = "bidder-wins"


_E = TypeVar("_E", bound=_Choice)


@dataclasses.dataclass(frozen=True, slots=True)
class Knob:
    """What the documentation and error messages say about one field of :class:`Rules`."""

    help: str
    allowed: str


KNOBS: dict[str, Knob] = {
    "ranks": Knob("card numbers in each colour, weakest first", "distinct numbers 1 to 14"),
    "rook_rank": Knob("where the Rook ranks in the trump suit", "high | ten-half"),
    "counters": Knob(
        "points of each card number that counts", f"a mapping of number to points, {POINTS_MOST} in a hand at most"
    ),
    "rook_points": Knob("points of the Rook", f"a whole number 0 to {POINTS_MOST}"),
    "nest_size": Knob("cards in the nest", "a whole number >= 1"),
    "bid_min": Knob("lowest bid", f"a whole number 1 to {BID_MOST}"),
    "bid_max": Knob("highest bid; bidding it ends the auction", f"a whole number bid_min to {BID_MOST}"),
    "bid_step": Knob("bids are bid_min plus a multiple of this", f"a whole number 1 to {BID_MOST}"),
    "opener_may_pass": Knob("whether the first bidder may pass", "true | false"),
    "all_pass": Knob("what happens when nobody bids", "redeal-next-dealer | redeal-same-dealer | dealer-must-bid"),
    "nest_seen_by": Knob("who sees the nest when the bidder takes it", "bidder | all"),
    "nest_order": Knob("the bidder's order after taking the nest", "discard-then-trump | trump-then-discard"),
    "first_lead": Knob("who leads the first trick", "left-of-dealer | bidder | left-of-bidder"),
    "rook_anytime": Knob("whether the Rook may be played even when able to follow", "true | false"),
    "lone_rook_forced": Knob("whether a trump lead forces out a Rook that is the only trump held", "true | false"),
    "must_trump": Knob("whether a player void in the led colour must play trump if able", "true | false"),
    "nest_to": Knob("who scores the counters in the nest (the discards)", "last-trick | bidder-team"),
    "bid_made": Knob("how many counters make the bid", "at-least | more-than"),
    "target": Knob("the game score to play to", f"a whole number 1 to {TARGET_MOST}"),
    "target_rule": Knob("whether the target must be reached or passed", "reach | exceed"),
    "both_cross": Knob("who wins when both teams pass the target on one hand", "higher-total | bidder-wins"),
    "hand_limit": Knob(
        "a safety stop: after this many hands (redeals included) the higher total wins, equal totals draw",
        f"a whole number 1 to {HAND_LIMIT_MOST}",
    ),
}
# The most of each number knob that has one (nest_size is bounded by the deck, bid_max by bid_min too).
MOST = {
    "rook_points": POINTS_MOST,
    "bid_min": BID_MOST,
    "bid_max": BID_MOST,
    "bid_step": BID_MOST,
    "target": TARGET_MOST,
    "hand_limit": HAND_LIMIT_MOST,
}


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a four-player partnership Rook game. Defaults are the official tournament game."""

    ranks: tuple[int, ...] = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
    rook_rank: RookRank = RookRank.HIGH
    counters: tuple[tuple[int, int], ...] = ((5, 5), (10, 10), (14, 10))
    rook_points: int = 20
    nest_size: int = 5
    bid_min: int = 70
    bid_max: int = 120
    bid_step: int = 5
    opener_may_pass: bool = True
    all_pass: AllPass = AllPass.REDEAL_NEXT_DEALER
    nest_seen_by: NestSeenBy = NestSeenBy.BIDDER
    nest_order: NestOrder = NestOrder.DISCARD_THEN_TRUMP
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    rook_anytime: bool = True
    lone_rook_forced: bool = True
    must_trump: bool = False
    nest_to: NestTo = NestTo.LAST_TRICK
    bid_made: BidMade = BidMade.AT_LEAST
    target: int = 300
    target_rule: TargetRule = TargetRule.REACH
    both_cross: BothCross = BothCross.HIGHER_TOTAL
    hand_limit: int = 200

    def __post_init__(self) -> None:
        self._check()

    # -- derived values -------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck in sorted order."""
        return _deck(self.ranks)

    @property
    def hand_size(self) -> int:
        return (len(self.ranks) * len(COLORS) + 1 - self.nest_size) // SEATS

    @property
    def total_counters(self) -> int:
        return sum(self.card_points(card) for card in self.deck)

    def card_points(self, card: Card) -> int:
        if card is ROOK:
            return self.rook_points
        return dict(self.counters).get(card.rank, 0)

    @property
    def bids(self) -> tuple[int, ...]:
        """Every allowed bid, lowest first."""
        return tuple(range(self.bid_min, self.bid_max + 1, self.bid_step))

    @property
    def digest(self) -> str:
        """A short hash naming this exact rule set (stable across machines and versions)."""
        text = json.dumps(self.to_mapping(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # -- conversion -----------------------------------------------------------------------------

    def to_mapping(self) -> dict[str, Any]:
        """Every knob as plain JSON/YAML values; ``from_mapping`` reads it back."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "ranks":
                value = list(value)
            elif field.name == "counters":
                value = {str(rank): points for rank, points in value}
            elif isinstance(value, _Choice):
                value = value.value
            out[field.name] = value
        return out

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], base: Rules | None = None, where: str = "rules") -> Rules:
        """Apply the knobs in ``mapping`` on top of ``base`` (the tournament rules by default).

        Unknown knobs, wrong types and unplayable combinations raise :class:`RulesError` naming the knob
        (prefixed by ``where``) and what was expected.
        """
        if not isinstance(mapping, Mapping):
            raise RulesError(f"{where}: expected a mapping of knobs, got {mapping!r}")
        changes: dict[str, Any] = {}
        for key, raw in mapping.items():
            if key not in KNOBS:
                raise RulesError(f"{where}.{key}: unknown rules knob {key!r}: expected one of {', '.join(KNOBS)}")
            changes[key] = _convert(key, raw, f"{where}.{key}")
        try:
            return dataclasses.replace(base or cls(), **changes)
        except RulesError as exc:
            raise RulesError(f"{where}.{exc}") from None

    # -- validation -----------------------------------------------------------------------------

    def _check(self) -> None:
        ranks = self.ranks
        if not ranks or len(set(ranks)) != len(ranks) or not all(_is_int(r) and 1 <= r <= 14 for r in ranks):
            _bad("ranks", ranks)
        if self.rook_rank is RookRank.TEN_HALF and not (10 in ranks and 11 in ranks):
            raise RulesError("rook_rank: 'ten-half' needs both 10 and 11 in ranks")
        for rank, points in self.counters:
            if rank not in ranks or not _is_int(points) or points < 0:
                raise RulesError(
                    f"counters: {rank!r}: {points!r}: expected a number in ranks {list(ranks)} worth >= 0 points"
                )
        for name in ("rook_points", "nest_size", "bid_min", "bid_max", "bid_step", "target", "hand_limit"):
            value = getattr(self, name)
            if not _is_int(value) or not (0 if name == "rook_points" else 1) <= value <= MOST.get(name, value):
                _bad(name, value)
        if self.total_counters > POINTS_MOST:
            raise RulesError(
                f"counters: {dict(self.counters)!r} and rook_points {self.rook_points!r} make {self.total_counters} "
                f"points in a hand: expected at most {POINTS_MOST} (the highest bid the protocol carries)"
            )
        dealt = len(ranks) * len(COLORS) + 1 - self.nest_size
        if dealt <= 0 or dealt % SEATS:
            raise RulesError(
                f"nest_size: {self.nest_size!r}: a deck of {len(ranks) * len(COLORS) + 1} cards minus the nest "
                f"must split evenly among {SEATS} players"
            )
        if self.bid_min > self.bid_max:
            raise RulesError(f"bid_max: {self.bid_max!r}: expected at least bid_min ({self.bid_min})")
        if (self.bid_max - self.bid_min) % self.bid_step:
            raise RulesError(
                f"bid_step: {self.bid_step!r}: expected a step that divides bid_max - bid_min "
                f"({self.bid_max} - {self.bid_min})"
            )
        for name, kind in _CHOICE_FIELDS.items():
            if not isinstance(getattr(self, name), kind):
                _bad(name, getattr(self, name))
        for name in _BOOL_FIELDS:
            if not isinstance(getattr(self, name), bool):
                _bad(name, getattr(self, name))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(name: str, value: object) -> None:
    raise RulesError(f"{name}: {value!r}: expected {KNOBS[name].allowed}")


_CHOICE_FIELDS: dict[str, type[_Choice]] = {
    "rook_rank": RookRank,
    "all_pass": AllPass,
    "nest_seen_by": NestSeenBy,
    "nest_order": NestOrder,
    "first_lead": FirstLead,
    "nest_to": NestTo,
    "bid_made": BidMade,
    "target_rule": TargetRule,
    "both_cross": BothCross,
}
_BOOL_FIELDS = ("opener_may_pass", "rook_anytime", "lone_rook_forced", "must_trump")


def _convert(key: str, raw: Any, where: str) -> Any:
    """Turn one YAML/JSON value into the field's type, or raise naming the knob."""
    expected = KNOBS[key].allowed
    if key in _CHOICE_FIELDS:
        kind = _CHOICE_FIELDS[key]
        for member in kind:
            if raw == member.value:
                return member
        raise RulesError(f"{where}: {raw!r}: expected {expected}")
    if key in _BOOL_FIELDS:
        if isinstance(raw, bool):
            return raw
        raise RulesError(f"{where}: {raw!r}: expected {expected}")
    if key == "ranks":
        if isinstance(raw, list) and all(_is_int(r) for r in raw):
            return tuple(raw)
        raise RulesError(f"{where}: {raw!r}: expected a list of {expected}")
    if key == "counters":
        if not isinstance(raw, Mapping):
            raise RulesError(f"{where}: {raw!r}: expected {expected}")
        pairs = []
        for rank, points in raw.items():
            read = ascii_number(rank) if isinstance(rank, str) else None
            number = rank if read is None else read
            if not _is_int(number) or not _is_int(points):
                raise RulesError(f"{where}: {rank!r}: {points!r}: expected whole numbers")
            pairs.append((number, points))
        return tuple(sorted(pairs))
    if _is_int(raw):
        return raw
    raise RulesError(f"{where}: {raw!r}: expected {expected}")


_DECKS: dict[tuple[int, ...], tuple[Card, ...]] = {}


def _deck(ranks: tuple[int, ...]) -> tuple[Card, ...]:
    deck = _DECKS.get(ranks)
    if deck is None:
        cards = [Card(color, rank) for color in COLORS for rank in sorted(ranks)]
        deck = _DECKS[ranks] = (*cards, ROOK)
    return deck


class Tables:
    """Per-rules lookup tables the engine uses in its hot loops (computed once per rule set)."""

    def __init__(self, rules: Rules) -> None:
        self.deck = rules.deck
        self.points = {card: rules.card_points(card) for card in self.deck}
        order = {rank: 2 * i for i, rank in enumerate(rules.ranks)}
        self.strength = {card: order.get(card.rank, 0) for card in self.deck}
        if rules.rook_rank is RookRank.HIGH:
            self.strength[ROOK] = 2 * len(rules.ranks)
        else:
            self.strength[ROOK] = order[10] + 1
        # For each trump colour: the suit each card belongs to (the Rook joins trump) and its power in
        # a trick (trumps above everything else; a card of neither led nor trump suit never wins).
        self.suit_of: dict[Color, dict[Card, Color]] = {}
        self.power: dict[Color, dict[Card, int]] = {}
        for trump in COLORS:
            suits = {card: (trump if card is ROOK else card.color) for card in self.deck}
            self.suit_of[trump] = suits  # type: ignore[assignment]
            self.power[trump] = {
                card: self.strength[card] + (1000 if suits[card] is trump else 0) for card in self.deck
            }


_TABLES: dict[Rules, Tables] = {}


def tables_for(rules: Rules) -> Tables:
    """The lookup tables of ``rules``, built once per rule set."""
    found = _TABLES.get(rules)
    if found is None:
        found = _TABLES[rules] = Tables(rules)
    return found
