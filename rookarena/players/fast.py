"""A fast trick phase for search: cards as small integers, hands as lists, one playout as a tight loop.

The referee's :class:`rookarena.engine.game.Game` checks everything and records everything, which is right for
refereeing and far too slow for the tens of thousands of plays a search makes per decision. Here a
:class:`Deck` turns one rule set into lists indexed by card number (points, and for each trump the suit
and power of every card), and :func:`playout` plays a hand to its end from any point of a trick, with
the same legality as the engine (:func:`legal_cards` is tested against ``Game.legal_actions``) and a
cheap rollout policy. :func:`hand_value` scores the result as the rules do. Everything is pure: the
randomness is an injected ``random.Random``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence

from rookarena.engine.cards import COLORS, ROOK, Card
from rookarena.engine.rules import BidMade, FirstLead, NestTo, Rules, tables_for


@dataclasses.dataclass(frozen=True, slots=True)
class Deck:
    """One rule set as lists indexed by card number (the position of the card in ``rules.deck``)."""

    rules: Rules
    cards: tuple[Card, ...]
    text: tuple[str, ...]
    index: dict[str, int]
    points: tuple[int, ...]
    rook: int
    colors: tuple[int, ...]  # colour number (0..3, as COLORS) of each card; -1 for the Rook
    suit: tuple[tuple[int, ...], ...]  # suit[trump][card]: the Rook belongs to trump
    power: tuple[tuple[int, ...], ...]  # power[trump][card]: trumps above 1000
    total: int

    @classmethod
    def of(cls, rules: Rules) -> Deck:
        found = _DECKS.get(rules)
        if found is None:
            found = _DECKS[rules] = cls._build(rules)
        return found

    @classmethod
    def _build(cls, rules: Rules) -> Deck:
        tables = tables_for(rules)
        cards = tables.deck
        colors = tuple(-1 if card is ROOK else COLORS.index(card.color) for card in cards)
        suit = tuple(tuple(t if c < 0 else c for c in colors) for t in range(len(COLORS)))
        power = tuple(tuple(tables.power[color][card] for card in cards) for color in COLORS)
        points = tuple(tables.points[card] for card in cards)
        return cls(
            rules=rules,
            cards=cards,
            text=tuple(str(card) for card in cards),
            index={str(card): i for i, card in enumerate(cards)},
            points=points,
            rook=cards.index(ROOK),
            colors=colors,
            suit=suit,
            power=power,
            total=sum(points),
        )

    def ints(self, texts: Sequence[str]) -> list[int]:
        index = self.index
        return [index[text] for text in texts]

    def first_leader(self, dealer: int, bidder: int) -> int:
        lead = self.rules.first_lead
        if lead is FirstLead.LEFT_OF_DEALER:
            return (dealer + 1) % 4
        if lead is FirstLead.BIDDER:
            return bidder
        return (bidder + 1) % 4


_DECKS: dict[Rules, Deck] = {}


def legal_cards(deck: Deck, trump: int, hand: list[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the engine's rule, on card numbers)."""
    if not trick:
        return hand
    suit = deck.suit[trump]
    led = suit[trick[0]]
    follow = [card for card in hand if suit[card] == led]
    rules = deck.rules
    rook = deck.rook
    if follow:
        if led == trump:
            if len(follow) == 1 and follow[0] == rook and not rules.lone_rook_forced:
                return hand
            return follow
        if rules.rook_anytime and rook in hand:
            follow.append(rook)
        return follow
    if rules.must_trump:
        trumps = [card for card in hand if suit[card] == trump]
        if trumps:
            return trumps
    return hand


def playout(
    deck: Deck,
    trump: int,
    hands: list[list[int]],
    leader: int,
    trick: list[int],
    taken: list[int],
    rng: random.Random,
    bidders: int = -1,
) -> int:
    """Play the hand to its end from the trick ``trick`` led by ``leader``; return the last trick's winner.

    ``hands`` (by seat), ``trick`` and ``taken`` (counters by team) are updated in place: pass copies.
    The leader cashes a sure winner of a plain colour if it has one; the bidding team (``bidders``) then
    draws trump; otherwise it leads a small plain card, at random (and now and then any card). Followers
    play as :func:`_follow` says, with every hand in view.
    """
    suit = deck.suit[trump]
    power = deck.power[trump]
    points = deck.points
    rook = deck.rook
    rules = deck.rules
    rook_anytime, lone_rook_forced, must_trump = rules.rook_anytime, rules.lone_rook_forced, rules.must_trump
    draw = rng.random
    seat = (leader + len(trick)) % 4
    led = best_pow = best_pos = pts = 0
    if trick:
        led = suit[trick[0]]
        best_pow, best_pos = _ahead(trick, suit, power, trump)
        pts = sum(points[card] for card in trick)
    while True:
        n = len(trick)
        if n == 4:  # the trick is complete (the caller's card may have completed it)
            winner = (leader + best_pos) % 4
            taken[winner & 1] += pts
            trick.clear()
            leader = seat = winner
            if not hands[winner]:
                return winner
            n = 0
        hand = hands[seat]
        if n == 0:
            if not hand:  # only when called on a finished hand
                return leader
            card = hand[0] if len(hand) == 1 else _lead(hands, seat, bidders, trump, suit, power, points, draw)
            led = suit[card]
            best_pow, best_pos, pts = power[card], 0, points[card]
        else:
            # The legal cards, as legal_cards() (inlined: this is the innermost loop of the search).
            legal = [c for c in hand if suit[c] == led]
            if legal:
                if led == trump:
                    if len(legal) == 1 and legal[0] == rook and not lone_rook_forced:
                        legal = hand
                elif rook_anytime and rook in hand:
                    legal.append(rook)
            elif must_trump:
                legal = [c for c in hand if suit[c] == trump] or hand
            else:
                legal = hand
            if len(legal) == 1:
                card = legal[0]
            else:
                card = _follow(hands, seat, legal, n, best_pow, best_pos, pts, led, trump, deck)
            p = power[card] if suit[card] == led or suit[card] == trump else -1
            if p > best_pow:
                best_pow, best_pos = p, n
            pts += points[card]
        hand.remove(card)
        trick.append(card)
        seat = (seat + 1) % 4


def _ahead(trick: Sequence[int], suit: Sequence[int], power: Sequence[int], trump: int) -> tuple[int, int]:
    """The power and the place in ``trick`` (not empty) of the card that wins it so far: the highest of
    the suit led or of trump (a card of neither has power -1)."""
    led = suit[trick[0]]
    best_pow, best_pos = -1, 0
    for i, card in enumerate(trick):
        p = power[card] if suit[card] == led or suit[card] == trump else -1
        if p > best_pow:
            best_pow, best_pos = p, i
    return best_pow, best_pos


def _lead(
    hands: list[list[int]],
    seat: int,
    bidders: int,
    trump: int,
    suit: tuple[int, ...],
    power: tuple[int, ...],
    points: tuple[int, ...],
    draw: Callable[[], float],
) -> int:
    """The rollout policy of the seat that leads (it holds two cards or more)."""
    hand = hands[seat]
    if draw() < LEAD_NOISE:
        return hand[int(draw() * len(hand))]
    top = [-1, -1, -1, -1]  # by suit, the power of the best card the others hold
    for other in (hands[(seat + 1) % 4], hands[(seat + 2) % 4], hands[(seat + 3) % 4]):
        for c in other:
            if power[c] > top[suit[c]]:  # noqa: PLR1730 (max() is slower here)
                top[suit[c]] = power[c]
    bosses = [c for c in hand if suit[c] != trump and power[c] > top[suit[c]]]
    if bosses:
        return bosses[int(draw() * len(bosses))]
    trumps = [c for c in hand if suit[c] == trump]
    if trumps and (seat & 1) == bidders and top[trump] >= 0:
        high = max(trumps, key=power.__getitem__)
        return high if power[high] > top[trump] else min(trumps, key=power.__getitem__)
    plain = [c for c in hand if suit[c] != trump and not points[c]] or [c for c in hand if suit[c] != trump] or hand
    return plain[int(draw() * len(plain))]


LEAD_NOISE = 0.1  # the share of random leads in a rollout, so that playouts of one deal differ


def _follow(
    hands: list[list[int]],
    seat: int,
    legal: list[int],
    n: int,
    best_pow: int,
    best_pos: int,
    pts: int,
    led: int,
    trump: int,
    deck: Deck,
) -> int:
    """The rollout policy of a seat that does not lead (``n`` cards already in the trick).

    It looks at the hands of the seats still to play (a rollout is played with every card known): it
    feeds counters to a partner who is sure to win, wins with the cheapest sure winner when the trick is
    worth it, and otherwise throws its cheapest card.
    """
    suit, power, points = deck.suit[trump], deck.power[trump], deck.points
    rook, rook_anytime = deck.rook, deck.rules.rook_anytime
    opp_max = mate_max = -1
    for k in range(1, 4 - n):
        later = (seat + k) % 4
        reach = _reach(hands[later], led, trump, suit, power, rook, rook_anytime)
        if k == 2:
            mate_max = reach
        elif reach > opp_max:
            opp_max = reach
    ours = (best_pos & 1) == (n & 1)
    if (ours and best_pow > opp_max) or mate_max > max(best_pow, opp_max):
        plain = [c for c in legal if suit[c] != trump] or legal
        best = plain[0]
        for c in plain:
            if points[c] > points[best] or (points[c] == points[best] and power[c] < power[best]):
                best = c
        return best
    bar = max(best_pow, opp_max)
    sure = [c for c in legal if (power[c] if suit[c] == led or suit[c] == trump else -1) > bar]
    if sure:
        cheapest = min(sure, key=power.__getitem__)
        if suit[cheapest] != trump or pts + points[cheapest] > 0 or led == trump:
            return cheapest
    low = legal[0]
    for c in legal:
        if points[c] < points[low] or (points[c] == points[low] and power[c] < power[low]):
            low = c
    return low


def _reach(
    hand: list[int], led: int, trump: int, suit: tuple[int, ...], power: tuple[int, ...], rook: int, rook_anytime: bool
) -> int:
    """The most power ``hand`` can put on a trick led in ``led`` (-1: it cannot win it)."""
    follow = trumps = -1
    for c in hand:
        sc = suit[c]
        if sc == led:
            if power[c] > follow:  # noqa: PLR1730 (max() is slower here)
                follow = power[c]
        elif sc == trump and power[c] > trumps:
            trumps = power[c]
    if follow >= 0:
        if rook_anytime and rook in hand and power[rook] > follow:
            return power[rook]
        return follow
    return trumps


def score_value(deck: Deck, team: int, bidder: int, bid: int, counters: Sequence[int]) -> int:
    """The hand's score change for ``team`` minus the other team's, from the counters by team (nest included)."""
    bidders = bidder & 1
    if deck.rules.bid_made is BidMade.AT_LEAST:
        made = counters[bidders] >= bid
    else:
        made = counters[bidders] > bid
    change = [counters[0], counters[1]]
    if not made:
        change[bidders] = -bid
    return change[team] - change[1 - team]


def hand_value(deck: Deck, team: int, bidder: int, bid: int, taken: Sequence[int], last: int, nest_points: int) -> int:
    """The hand's score change for ``team`` minus the other team's, as the rules score it."""
    rules = deck.rules
    counters = [taken[0], taken[1]]
    bidders = bidder & 1
    nest_team = last & 1 if rules.nest_to is NestTo.LAST_TRICK else bidders
    counters[nest_team] += nest_points
    if rules.bid_made is BidMade.AT_LEAST:
        made = counters[bidders] >= bid
    else:
        made = counters[bidders] > bid
    if not made:
        counters[bidders] = -bid
    return counters[team] - counters[1 - team]


def solve_options(
    deck: Deck,
    trump: int,
    hands: list[list[int]],
    leader: int,
    trick: list[int],
    team: int,
    options: Sequence[int],
    last_bonus: int = 0,
) -> list[int]:
    """Exact play with every hand known, after each of ``options`` (cards of the seat to play): the
    counters ``team`` is sure to take from the rest of the hand, ``last_bonus`` (the nest, where it goes
    with the last trick) included if it wins that. Maximising the counters is the same as maximising the
    hand's score, which only grows with them.

    The value of a position at the start of a trick depends only on the cards still held and the leader,
    so it is worked out once (with the whole window, so exactly) and kept: the options of one deal share
    every later trick they lead to. Within a trick the search is alpha-beta. ``hands`` and ``trick`` are
    restored on return. Meant for the last few tricks.
    """
    suit, power, points = deck.suit[trump], deck.power[trump], deck.points
    memo: dict[int, int] = {}
    mask = 0
    for hand in hands:
        for card in hand:
            mask |= 1 << card

    def start(leader: int) -> int:
        key = mask << 2 | leader
        found = memo.get(key)
        if found is None:
            found = memo[key] = value(leader, leader, -1, 10**9)
        return found

    def value(seat: int, leader: int, alpha: int, beta: int) -> int:
        nonlocal mask
        if len(trick) == 4:
            winner = (leader + _ahead(trick, suit, power, trump)[1]) % 4
            ours = winner & 1 == team
            gained = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]] if ours else 0
            if not hands[winner]:
                return gained + last_bonus if ours else gained
            cards = trick[:]
            trick.clear()
            rest = start(winner)
            trick.extend(cards)
            return gained + rest
        hand = hands[seat]
        mine = seat & 1 == team
        best = -1 if mine else 10**9
        for card in list(legal_cards(deck, trump, hand, trick)):
            where = hand.index(card)
            del hand[where]
            trick.append(card)
            mask ^= 1 << card
            v = value((seat + 1) % 4, leader, alpha, beta)
            mask ^= 1 << card
            trick.pop()
            hand.insert(where, card)
            if mine:
                if v > best:
                    best = alpha = max(alpha, v)
            elif v < best:
                best = beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    out: list[int] = []
    for card in options:
        where = hand.index(card)
        del hand[where]
        trick.append(card)
        mask ^= 1 << card
        out.append(value((seat + 1) % 4, leader, -1, 10**9))
        mask ^= 1 << card
        trick.pop()
        hand.insert(where, card)
    return out
