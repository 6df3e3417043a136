"""Cards and colours.

Cards are interned: ``Card(Color.RED, 5) is Card.parse("R5")``, so equality and hashing are identity
and cost nothing in the engine's hot loops. The Rook has no colour of its own; which suit it belongs to
is decided by the trump of the hand (see :mod:`rookarena.engine.game`).
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from rookarena.errors import ParseError


class Color(enum.Enum):
    """The four colours, in the order cards are sorted."""

    RED = "R"
    GREEN = "G"
    BLACK = "B"
    YELLOW = "Y"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read a colour from its letter (``R``) or name (``red``), any case."""
        key = text.strip().upper()
        for color in cls:
            if key in (color.value, color.name):
                return color
        raise ParseError(f"unknown colour {text!r}: expected one of R, G, B, Y")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}"


COLORS: tuple[Color, ...] = tuple(Color)
_COLOR_INDEX = {color: i for i, color in enumerate(COLORS)}

ROOK_TEXT = "ROOK"
ROOK_SORT_KEY = 99


def ascii_number(text: str, most_digits: int = 6) -> int | None:
    """The whole number ``text`` writes in ASCII digits (``"07"``: 7), at most ``most_digits`` of them, or None.

    Every number read from a bot's or a file's text goes through here: ``str.isdigit`` also accepts
    superscripts and other scripts' digits, which ``int`` refuses, and ``int`` refuses more than 4,300 digits.
    """
    if 0 < len(text) <= most_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


class Card:
    """One card: a colour and a number 1–14, or the Rook (no colour, number 0)."""

    __slots__ = ("_text", "color", "rank", "sort_key")
    _interned: ClassVar[dict[tuple[Color | None, int], Card]] = {}

    color: Color | None
    rank: int
    sort_key: int
    _text: str

    def __new__(cls, color: Color | None, rank: int) -> Card:
        key = (color, rank)
        card = cls._interned.get(key)
        if card is not None:
            return card
        if color is None:
            if rank != 0:
                raise ParseError(f"the Rook has no number, got {rank!r}")
            text, sort_key = ROOK_TEXT, ROOK_SORT_KEY
        else:
            if not isinstance(rank, int) or not 1 <= rank <= 14:
                raise ParseError(f"card number {rank!r} out of range: expected 1 to 14")
            text, sort_key = f"{color.value}{rank}", _COLOR_INDEX[color] * 16 + rank
        card = object.__new__(cls)
        for name, value in (("color", color), ("rank", rank), ("sort_key", sort_key), ("_text", text)):
            object.__setattr__(card, name, value)
        cls._interned[key] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Color | None, int]]:
        return (Card, (self.color, self.rank))

    @property
    def is_rook(self) -> bool:
        return self.color is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``R14``, ``g5``, ``ROOK``; the inverse of ``str(card)``."""
        card = _BY_TEXT.get(text) if type(text) is str else None
        if card is not None:  # a card's own text, as every record and reply writes it
            return card
        if not isinstance(text, str):
            raise ParseError(f"expected a card such as 'R14' or 'ROOK', got {text!r}")
        key = text.strip().upper()
        if key == ROOK_TEXT:
            return ROOK
        number = ascii_number(key[1:])
        if number is None:
            raise ParseError(f"unknown card {text!r}: expected a colour letter and a number, or 'ROOK'")
        return cls(Color.parse(key[0]), number)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"


ROOK = Card(None, 0)
# Each card by its own text (``str(card)``), the one spelling that parse reads most; other spellings
# (``g5``, `` R14``) take the long way, so the table never holds more than the cards.
_BY_TEXT: dict[str, Card] = {ROOK_TEXT: ROOK}
_BY_TEXT.update((f"{color.value}{rank}", Card(color, rank)) for color in COLORS for rank in range(1, 15))


def sort_cards(cards: list[Card]) -> list[Card]:
    """Cards in the stable order used everywhere: by colour (R, G, B, Y), number, the Rook last."""
    return sorted(cards, key=_sort_key)


def _sort_key(card: Card) -> int:
    return card.sort_key


def cards_text(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def parse_cards(texts: list[str]) -> list[Card]:
    return [Card.parse(text) for text in texts]
