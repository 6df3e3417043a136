"""The actions a seat can take, with ``parse``/``str`` round trips (``bid 75``, ``pass``, ``discard R5``,
``trump G``, ``play ROOK``).

Action values are interned where the engine makes many of them, so building legal-action lists is cheap.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rookarena.engine.cards import Card, Color, ascii_number
from rookarena.errors import ParseError


@dataclasses.dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True, slots=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclasses.dataclass(frozen=True, slots=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Trump:
    color: Color

    def __str__(self) -> str:
        return f"trump {self.color}"


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


Action = Pass | Bid | Discard | Trump | Play

PASS = Pass()


class _Interned:
    """Caches of the action values the engine hands out on every decision."""

    bids: ClassVar[dict[int, Bid]] = {}
    discards: ClassVar[dict[Card, Discard]] = {}
    plays: ClassVar[dict[Card, Play]] = {}
    trumps: ClassVar[dict[Color, Trump]] = {color: Trump(color) for color in Color}


def bid(amount: int) -> Bid:
    found = _Interned.bids.get(amount)
    if found is None:
        found = _Interned.bids[amount] = Bid(amount)
    return found


def discard(card: Card) -> Discard:
    found = _Interned.discards.get(card)
    if found is None:
        found = _Interned.discards[card] = Discard(card)
    return found


def play(card: Card) -> Play:
    found = _Interned.plays.get(card)
    if found is None:
        found = _Interned.plays[card] = Play(card)
    return found


def trump(color: Color) -> Trump:
    return _Interned.trumps[color]


def parse_action(text: str) -> Action:
    """Read an action from its text form; the inverse of ``str(action)``."""
    if not isinstance(text, str):
        raise ParseError(f"expected an action such as 'play R5' or 'pass', got {text!r}")
    words = text.split()
    if words == ["pass"]:
        return PASS
    if len(words) == 2:
        verb, arg = words
        if verb == "bid":
            if (amount := ascii_number(arg, 5)) is not None:
                return bid(amount)
            raise ParseError(f"bad bid {text!r}: expected 'bid' and a whole number")
        if verb == "discard":
            return discard(Card.parse(arg))
        if verb == "play":
            return play(Card.parse(arg))
        if verb == "trump":
            return trump(Color.parse(arg))
    raise ParseError(
        f"unknown action {text!r}: expected 'pass', 'bid N', 'discard CARD', 'trump COLOUR' or 'play CARD'"
    )
