"""Every seed of a run, each kind under a name of its own, derived from one base seed the same way on every machine."""

from __future__ import annotations

import hashlib

SEED_BITS = 128  # the bits of a league or match seed drawn when none is given
SEAT_SEED_BITS = 31  # a seat's seed fits a signed 32-bit integer, and is exact in every JSON reader
REQUEST_ID_BITS = 53  # a request's id is exact in every JSON reader (a double's mantissa)


def derive_seed(base: int, *parts: object) -> int:
    """A 63-bit seed from ``base`` and labels, the same on every machine and Python version."""
    text = "/".join(str(part) for part in (base, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def deal_seed(league_seed: int, deal: int) -> int:
    """The seed that deals every hand of a league's or match's ``deal``-th deal (from 0)."""
    return derive_seed(league_seed, "deal", deal)


def substitute_seed(deal_seed: int) -> int:
    """The seed of the random moves the referee plays for a seat it substitutes in the game dealt from ``deal_seed``."""
    return derive_seed(deal_seed, "substitute")


def players_seed(seed: int) -> int:
    """The seed of the in-process players of a simulated game."""
    return derive_seed(seed, "players")


def seat_seed(deal_seed: int, seat: int) -> int:
    """The seed a seat is given for a game: a function of the game's deal seed and the seat only, so a
    replayed or resumed game gives its bots the same seeds, and with duplicate deals the bot at a seat
    gets the seed the other team's bot had at that seat on the same cards."""
    text = f"{deal_seed}/seat/{seat}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> (32 - SEAT_SEED_BITS)


def request_seed(deal_seed: int, seat: int, number: int) -> int:
    """The id of a seat's ``number``-th request (from 0) in the game dealt from ``deal_seed``."""
    return derive_seed(deal_seed, "request", seat, number) & ((1 << REQUEST_ID_BITS) - 1)
