"""Determinization: deals of the hidden cards that agree with everything one seat knows.

A :class:`Knowledge` lists the cards the seat cannot place, the holders they may be in (the other
three seats, and the pile of the nest or of the bidder's discards, number 4) with how many each holds,
and for each card the holders it may be with. What a seat knows (:func:`from_view`): its own hand, every
card played, its discards if it made them, the nest where it was shown (its cards are then in the
bidder's hand or among the discards), and the voids the plays reveal: a seat that did not follow the
led colour holds none of it (the Rook excepted where it may be played at any time), and under
``must_trump`` none of trump either.

:func:`sample` deals the unknown cards at random, the most constrained first, each to an allowed
holder with room, chosen in proportion to the room left; when a card has nowhere to go, an augmenting
path moves earlier cards along (as in bipartite matching), so a deal is always found when one exists.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Sequence
from typing import Any

from rookarena.engine.cards import COLORS
from rookarena.players.fast import Deck

PILE = 4  # the holder number of the nest (in the auction) or the bidder's discards (afterwards)


@dataclasses.dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    unknown: tuple[int, ...]
    capacity: tuple[int, ...]  # by holder: seats 0..3 (the seat's own is 0), then the pile
    allowed: tuple[tuple[int, ...], ...]  # for each unknown card (same order), the holders it may be with


def for_auction(deck: Deck, seat: int, hand: Sequence[str]) -> Knowledge:
    """Before the nest is taken: the other three hands and the nest, from the cards the seat does not hold."""
    size = deck.rules.hand_size
    mine = set(deck.ints(hand))
    unknown = tuple(card for card in range(len(deck.cards)) if card not in mine)
    capacity = (*(0 if s == seat else size for s in range(4)), deck.rules.nest_size)
    holders = tuple(h for h in range(5) if capacity[h])
    return Knowledge(seat, unknown, capacity, tuple(holders for _ in unknown))


def for_bidder(deck: Deck, seat: int, hand: Sequence[str], discards: Sequence[str]) -> Knowledge:
    """The bidder during the nest exchange: the other three hands, from the cards it has not seen."""
    size = deck.rules.hand_size
    seen = set(deck.ints(hand)) | set(deck.ints(discards))
    unknown = tuple(card for card in range(len(deck.cards)) if card not in seen)
    capacity = (*(0 if s == seat else size for s in range(4)), 0)
    holders = tuple(h for h in range(4) if capacity[h])
    return Knowledge(seat, unknown, capacity, tuple(holders for _ in unknown))


def from_view(deck: Deck, view: dict[str, Any]) -> Knowledge:
    """What the seat of a play-phase ``view`` knows of where the other cards are."""
    seat: int = view["seat"]
    trump = COLORS.index(_color(view["trump"]))
    suit = deck.suit[trump]
    rules = deck.rules
    rook = deck.rook
    seen = set(deck.ints(view["hand"]))
    forbidden: list[set[int]] = [set() for _ in range(4)]
    by_suit: list[list[int]] = [[] for _ in range(4)]
    for card in range(len(deck.cards)):
        by_suit[suit[card]].append(card)
    trumps = set(by_suit[trump])
    plays = [(trick["leader"], trick["cards"]) for trick in view["tricks"]]
    if view["trick"]:
        plays.append((view["trick_leader"], view["trick"]))
    for leader, texts in plays:
        cards = deck.ints(texts)
        seen.update(cards)
        led = suit[cards[0]]
        for i, card in enumerate(cards[1:], 1):
            if suit[card] == led:
                continue
            who = forbidden[(leader + i) % 4]
            if card == rook:  # led is not trump here
                if not rules.rook_anytime:
                    who.update(by_suit[led])
                continue
            who.update(by_suit[led])
            if led == trump and not rules.lone_rook_forced:
                who.discard(rook)  # a lone Rook need not follow a trump lead
            if led != trump and rules.must_trump and suit[card] != trump:
                who.update(trumps)
    discards = view["discards"]
    if discards is not None:
        seen.update(deck.ints(discards))
    unknown = tuple(card for card in range(len(deck.cards)) if card not in seen)
    sizes: list[int] = view["hand_sizes"]
    capacity = (*(0 if s == seat else sizes[s] for s in range(4)), 0 if discards is not None else rules.nest_size)
    bidder: int = view["bidder"]
    nest = set(deck.ints(view["nest"])) if view["nest"] is not None and bidder != seat else set()
    allowed = []
    for card in unknown:
        if card in nest:
            holders = tuple(h for h in (bidder, PILE) if capacity[h] and card not in _forbidden(forbidden, h))
        else:
            holders = tuple(h for h in range(5) if capacity[h] and card not in _forbidden(forbidden, h))
        allowed.append(holders)
    return Knowledge(seat, unknown, capacity, tuple(allowed))


def _forbidden(forbidden: list[set[int]], holder: int) -> set[int]:
    return forbidden[holder] if holder < 4 else _NONE


_NONE: set[int] = set()


def _color(text: str) -> Any:
    for color in COLORS:
        if color.value == text:
            return color
    raise ValueError(f"unknown trump {text!r}: expected one of R, G, B, Y")


def sample(knowledge: Knowledge, rng: random.Random, grouped: bool = False) -> list[list[int]]:
    """One deal of the unknown cards: a list of cards for each holder (seats 0..3, then the pile).

    ``grouped``: the cards that may go to the same holders are dealt together, the most constrained group
    first, into places drawn at random among those their holders have left (the same as dealing them one
    by one in proportion to the room left, with one draw a card and no search of where each may go).
    """
    if grouped:
        found = _grouped(knowledge, rng)
        if found is not None:
            return found
    room = list(knowledge.capacity)
    held: list[list[int]] = [[] for _ in range(5)]
    where: dict[int, int] = {}
    order = list(range(len(knowledge.unknown)))
    rng.shuffle(order)
    allowed = knowledge.allowed
    order.sort(key=lambda i: len(allowed[i]))
    unknown = knowledge.unknown
    allowed_of: dict[int, tuple[int, ...]] = {}  # filled the first time a card needs an augmenting path
    draw = rng.random
    for i in order:
        card = unknown[i]
        options = [h for h in allowed[i] if room[h]]
        if options:
            total = sum(room[h] for h in options)
            pick = draw() * total
            for holder in options:
                pick -= room[holder]
                if pick < 0:
                    break
        else:
            if not allowed_of:
                allowed_of.update(zip(unknown, allowed, strict=True))
            holder = _augment(card, allowed_of, held, where, room)
        held[holder].append(card)
        where[card] = holder
        room[holder] -= 1
    return held


def _grouped(knowledge: Knowledge, rng: random.Random) -> list[list[int]] | None:
    """A deal group by group (see :func:`sample`), or None where a group finds too few places left."""
    room = list(knowledge.capacity)
    held: list[list[int]] = [[] for _ in range(5)]
    draw = rng.random
    for holders, cards in _groups(knowledge):
        slots: list[int] = []
        for h in holders:
            slots += [h] * room[h]
        n = len(slots)
        if n < len(cards):
            return None
        # The cards in a random order (so that a hand's cards are not in the deck's order), each to one of
        # the first len(cards) places of a random permutation of the slots (Fisher-Yates from the front).
        order = list(cards)
        k = len(order)
        for i in range(k - 1):
            j = i + int(draw() * (k - i))
            order[i], order[j] = order[j], order[i]
        for i, card in enumerate(order):
            j = i + int(draw() * (n - i))
            holder = slots[j]
            slots[j] = slots[i]
            held[holder].append(card)
            room[holder] -= 1
    return held


@functools.lru_cache(maxsize=256)
def _groups(knowledge: Knowledge) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The unknown cards by the holders they may go to, the groups with fewest holders first."""
    by_holders: dict[tuple[int, ...], list[int]] = {}
    for card, holders in zip(knowledge.unknown, knowledge.allowed, strict=True):
        by_holders.setdefault(holders, []).append(card)
    return tuple(sorted(((h, tuple(c)) for h, c in by_holders.items()), key=lambda group: len(group[0])))


def _augment(
    card: int, allowed_of: dict[int, tuple[int, ...]], held: list[list[int]], where: dict[int, int], room: list[int]
) -> int:
    """Make room for ``card`` by moving placed cards along a path to a holder with room; return its holder.

    Breadth-first over holders: from a full holder ``h`` the search may move any card of ``h`` to
    another holder allowed for it. The cards moved free a place in one of ``card``'s own holders.
    """
    start = allowed_of[card]
    parent: dict[int, tuple[int, int] | None] = dict.fromkeys(start)
    queue = list(start)
    end = -1
    while queue and end < 0:
        nxt: list[int] = []
        for holder in queue:
            for moved in held[holder]:
                for other in allowed_of[moved]:
                    if other in parent:
                        continue
                    parent[other] = (holder, moved)
                    if room[other]:
                        end = other
                        break
                    nxt.append(other)
                if end >= 0:
                    break
            if end >= 0:
                break
        queue = nxt
    if end < 0:
        raise ValueError(f"no deal agrees with what seat knows: card {card!r} has no place")
    # Walk back: each step moves one card from its holder to the next holder of the path.
    holder = end
    step = parent[holder]
    while step is not None:
        source, moved = step
        held[source].remove(moved)
        held[holder].append(moved)
        where[moved] = holder
        holder = source
        step = parent[holder]
    room[end] -= 1
    room[holder] += 1  # the first holder of the path gave one card away: the caller fills it
    return holder
