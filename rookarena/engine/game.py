"""The game engine: one Rook game from the first deal to the outcome, as a mutable state.

Theory of operation. A :class:`Game` is always in one :class:`Phase` with exactly one seat to act
(``to_act``) until it is over. ``legal_actions()`` lists what that seat may do, in a stable order;
``apply(action)`` checks the action against that list and advances the state, raising
:class:`IllegalActionError` (and changing nothing) otherwise. A hand runs bidding → nest exchange
(discard and trump, in the order the rules give) → nine (or more) tricks; when its last trick is played
the hand is scored, its :class:`HandResult` appended to ``history``, the end of the game tested, and the
next hand dealt. A hand in which everybody passes is recorded as a redeal.

The only randomness is the shuffle, drawn from an injected ``random.Random`` using only its
``random()`` method, whose output Python guarantees for a given seed across versions. A shuffle always
consumes the same number of draws, so the deals of a game depend only on the seed, never on play.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from rookarena.engine import scoring
from rookarena.engine.actions import PASS, Action, Bid, Discard, Pass, Play, Trump, bid, discard, play, trump
from rookarena.engine.cards import COLORS, ROOK, Card, Color, sort_cards
from rookarena.engine.rules import (
    SEATS,
    AllPass,
    FirstLead,
    NestOrder,
    Rules,
    _Choice,
    tables_for,
)
from rookarena.engine.scoring import Outcome
from rookarena.errors import IllegalActionError, RecordError


class Phase(_Choice):
    BIDDING = "bidding"
    DISCARD = "discard"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0; seats 1 and 3 are team 1."""
    return seat % 2


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand as dealt: four hands (by seat) and the nest."""

    hands: tuple[tuple[Card, ...], ...]
    nest: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]  # in play order, starting with the leader's
    winner: int
    counters: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandResult:
    """Everything that happened in one hand. ``bidder is None`` means all passed and it was redealt."""

    number: int
    dealer: int
    deal: Deal
    auction: tuple[tuple[int, Action], ...]
    bidder: int | None = None
    bid: int | None = None
    discards: tuple[Card, ...] = ()
    trump: Color | None = None
    tricks: tuple[Trick, ...] = ()
    nest_counters: int = 0
    nest_team: int | None = None
    counters: tuple[int, int] = (0, 0)
    made: bool | None = None
    score_change: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)


class Game:
    """One game of Rook under ``rules``. Deals come from ``rng`` or, when replaying, from ``deals``."""

    def __init__(
        self,
        rules: Rules,
        rng: random.Random | None = None,
        *,
        first_dealer: int = 0,
        deals: Iterator[Deal] | None = None,
    ) -> None:
        if (rng is None) == (deals is None):
            raise ValueError("give exactly one of rng and deals")
        if first_dealer not in range(SEATS):
            raise ValueError(f"first_dealer {first_dealer!r} out of range 0..3")
        self.rules = rules
        self.tables = tables_for(rules)
        self._rng = rng
        self._deals = deals
        self.first_dealer = first_dealer
        self.scores = [0, 0]
        self.history: list[HandResult] = []
        self.outcome: Outcome | None = None
        self.dealer = first_dealer
        self._start_hand()

    # -- public queries -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def hand_number(self) -> int:
        """1 for the first hand of the game, counting redeals."""
        return len(self.history) + 1

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress."""
        return tuple(self.trick_cards)

    def legal_actions(self) -> list[Action]:
        """What the seat to act may do, in a stable order (empty only when the game is over)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return [play(card) for card in self._legal_cards(self.to_act)]
        if phase is Phase.BIDDING:
            return self._legal_calls()
        if phase is Phase.DISCARD:
            return [discard(card) for card in self.hands[self.to_act]]
        if phase is Phase.TRUMP:
            return [trump(color) for color in COLORS]
        return []

    def apply(self, action: Action, *, known_legal: bool = False) -> None:
        """Play ``action`` for the seat to act; raise :class:`IllegalActionError` if it is not legal.

        ``known_legal=True`` says the action is one of this very state's ``legal_actions()`` (the referee
        has just picked it from that list): the list is then not derived again.
        """
        phase = self.phase
        if phase is Phase.PLAY and type(action) is Play:
            if not known_legal and action.card not in self._legal_cards(self.to_act):
                raise IllegalActionError(self._why_illegal(action))
            self._play(action.card)
        elif phase is Phase.BIDDING and type(action) in (Bid, Pass):
            if not known_legal and action not in self._legal_calls():
                raise IllegalActionError(self._why_illegal(action))
            self._call(action)
        elif phase is Phase.DISCARD and type(action) is Discard:
            if not known_legal and action.card not in self.hands[self.to_act]:
                raise IllegalActionError(self._why_illegal(action))
            self._discard(action.card)
        elif phase is Phase.TRUMP and type(action) is Trump:
            self._name_trump(action.color)
        else:
            raise IllegalActionError(self._why_illegal(action))

    # -- the deal -------------------------------------------------------------------------------

    def _start_hand(self) -> None:
        deal = self._next_deal()
        self.deal = deal
        self.hands: list[list[Card]] = [sort_cards(list(hand)) for hand in deal.hands]
        self.nest = deal.nest
        self.auction: list[tuple[int, Action]] = []
        self.passed = [False] * SEATS
        self.high_bid: int | None = None
        self.bidder: int | None = None
        self.discards: list[Card] = []
        self.trump: Color | None = None
        self.tricks: list[Trick] = []
        self.trick_leader = 0
        self.trick_cards: list[Card] = []
        self.taken = [0, 0]
        self.phase = Phase.BIDDING
        self.to_act = (self.dealer + 1) % SEATS

    def _next_deal(self) -> Deal:
        if self._deals is not None:
            try:
                deal = next(self._deals)
            except StopIteration:
                raise RecordError(f"no deal given for hand {self.hand_number}") from None
            self._check_deal(deal)
            return deal
        assert self._rng is not None
        return deal_cards(self.rules, self._rng, self.dealer)

    def _check_deal(self, deal: Deal) -> None:
        cards = [card for hand in deal.hands for card in hand] + list(deal.nest)
        size = self.rules.hand_size
        if (
            sorted(cards, key=lambda c: c.sort_key) != list(self.tables.deck)
            or len(deal.hands) != SEATS
            or any(len(hand) != size for hand in deal.hands)
        ):
            raise RecordError(
                f"hand {self.hand_number}: the deal is not the rules' deck split into {SEATS} hands of "
                f"{size} and a nest of {self.rules.nest_size}"
            )

    # -- bidding --------------------------------------------------------------------------------

    def _legal_calls(self) -> list[Action]:
        rules = self.rules
        if self.high_bid is None:
            if rules.all_pass is AllPass.DEALER_MUST_BID and sum(self.passed) == SEATS - 1:
                return [bid(rules.bid_min)]
            calls: list[Action] = [bid(amount) for amount in rules.bids]
            if rules.opener_may_pass or self.auction:
                calls.insert(0, PASS)
            return calls
        return [PASS, *(bid(amount) for amount in rules.bids if amount > self.high_bid)]

    def _call(self, action: Action) -> None:
        seat = self.to_act
        self.auction.append((seat, action))
        if type(action) is Bid:
            self.high_bid, self.bidder = action.amount, seat
            if action.amount == self.rules.bid_max:
                self._take_nest()
                return
        else:
            self.passed[seat] = True
        passes = sum(self.passed)
        if passes == SEATS:
            self._redeal()
        elif passes == SEATS - 1 and self.high_bid is not None:
            self._take_nest()
        else:
            nxt = (seat + 1) % SEATS
            while self.passed[nxt]:
                nxt = (nxt + 1) % SEATS
            self.to_act = nxt

    def _hand_so_far(self) -> HandResult:
        """This hand as far as every hand goes: its deal, its auction and the scores now."""
        return HandResult(
            number=self.hand_number,
            dealer=self.dealer,
            deal=self.deal,
            auction=tuple(self.auction),
            scores=(self.scores[0], self.scores[1]),
        )

    def _redeal(self) -> None:
        self.history.append(self._hand_so_far())
        if self.rules.all_pass is not AllPass.REDEAL_SAME_DEALER:
            self.dealer = (self.dealer + 1) % SEATS
        self.outcome = self._at_limit()
        if self.outcome is None:
            self._start_hand()
        else:
            self.phase = Phase.OVER

    # -- the nest -------------------------------------------------------------------------------

    def _the_bidder(self) -> int:
        """The seat that won the auction (only asked once there is one)."""
        assert self.bidder is not None
        return self.bidder

    def _take_nest(self) -> None:
        bidder = self._the_bidder()
        self.hands[bidder] = sort_cards(self.hands[bidder] + list(self.nest))
        self.to_act = bidder
        self.phase = Phase.DISCARD if self.rules.nest_order is NestOrder.DISCARD_THEN_TRUMP else Phase.TRUMP

    def _discard(self, card: Card) -> None:
        self.hands[self.to_act].remove(card)
        self.discards.append(card)
        if len(self.discards) == self.rules.nest_size:
            if self.rules.nest_order is NestOrder.DISCARD_THEN_TRUMP:
                self.phase = Phase.TRUMP
            else:
                self._start_play()

    def _name_trump(self, color: Color) -> None:
        self.trump = color
        self._suit_of = self.tables.suit_of[color]
        self._power = self.tables.power[color]
        if self.rules.nest_order is NestOrder.DISCARD_THEN_TRUMP:
            self._start_play()
        else:
            self.phase = Phase.DISCARD

    # -- trick play -----------------------------------------------------------------------------

    def _start_play(self) -> None:
        bidder = self._the_bidder()
        lead = self.rules.first_lead
        if lead is FirstLead.LEFT_OF_DEALER:
            leader = (self.dealer + 1) % SEATS
        elif lead is FirstLead.BIDDER:
            leader = bidder
        else:
            leader = (bidder + 1) % SEATS
        self.phase = Phase.PLAY
        self.trick_leader = self.to_act = leader

    def _legal_cards(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if not self.trick_cards:
            return hand
        suit_of = self._suit_of
        led = suit_of[self.trick_cards[0]]
        follow = [card for card in hand if suit_of[card] is led]
        rules = self.rules
        if follow:
            if led is self.trump:
                if follow[0] is ROOK and len(follow) == 1 and not rules.lone_rook_forced:
                    return hand
                return follow
            if rules.rook_anytime and hand[-1] is ROOK:
                follow.append(ROOK)
            return follow
        if rules.must_trump:
            trumps = [card for card in hand if suit_of[card] is self.trump]
            if trumps:
                return trumps
        return hand

    def _play(self, card: Card) -> None:
        seat = self.to_act
        self.hands[seat].remove(card)
        cards = self.trick_cards
        cards.append(card)
        if len(cards) < SEATS:
            self.to_act = (seat + 1) % SEATS
            return
        suit_of, power = self._suit_of, self._power
        led = suit_of[cards[0]]
        best, best_power = 0, -1
        for i, played in enumerate(cards):
            value = power[played] if suit_of[played] is self.trump or suit_of[played] is led else -1
            if value > best_power:
                best, best_power = i, value
        winner = (self.trick_leader + best) % SEATS
        points = self.tables.points
        counters = points[cards[0]] + points[cards[1]] + points[cards[2]] + points[cards[3]]
        self.tricks.append(Trick(self.trick_leader, tuple(cards), winner, counters))
        self.taken[winner % 2] += counters
        self.trick_cards = []
        if self.hands[winner]:
            self.trick_leader = self.to_act = winner
        else:
            self._score_hand()

    # -- scoring --------------------------------------------------------------------------------

    def _score_hand(self) -> None:
        bidder, high_bid, trump_color = self.bidder, self.high_bid, self.trump
        assert bidder is not None and high_bid is not None and trump_color is not None
        tally = scoring.score_hand(
            self.rules, self.tables.points, bidder, high_bid, self.taken, self.tricks[-1].winner, self.discards
        )
        self.scores[0] += tally.change[0]
        self.scores[1] += tally.change[1]
        played = dataclasses.replace(
            self._hand_so_far(),
            bidder=bidder,
            bid=high_bid,
            discards=tuple(self.discards),
            trump=trump_color,
            tricks=tuple(self.tricks),
            nest_counters=tally.nest_counters,
            nest_team=tally.nest_team,
            counters=tally.counters,
            made=tally.made,
            score_change=tally.change,
        )
        self.history.append(played)
        scores, hands = (self.scores[0], self.scores[1]), len(self.history)
        self.outcome = scoring.decide(self.rules, scores, hands, team_of(bidder)) or self._at_limit()
        if self.outcome is None:
            self.dealer = (self.dealer + 1) % SEATS
            self._start_hand()
        else:
            self.phase = Phase.OVER

    def _at_limit(self) -> Outcome | None:
        return scoring.at_limit(self.rules, (self.scores[0], self.scores[1]), len(self.history))

    # -- explanations ---------------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str:
        seat = self.to_act
        head = f"illegal {str(action)!r} by seat {seat}"
        phase = self.phase
        if phase is Phase.OVER:
            return f"{head}: the game is over"
        expected = {
            Phase.BIDDING: "a bid or a pass",
            Phase.DISCARD: "a discard",
            Phase.TRUMP: "a trump colour",
            Phase.PLAY: "a card to play",
        }[phase]
        kinds = {
            Phase.BIDDING: (Bid, Pass),
            Phase.DISCARD: (Discard,),
            Phase.TRUMP: (Trump,),
            Phase.PLAY: (Play,),
        }
        if not isinstance(action, kinds[phase]):
            return f"{head}: expected {expected} in the {phase} phase"
        if phase is Phase.BIDDING:
            return f"{head}: {self._why_bid_illegal(action)}"
        hand = self.hands[seat]
        held = ", ".join(str(card) for card in hand)
        assert isinstance(action, (Discard, Play))
        if action.card not in hand:
            return f"{head}: seat {seat} does not hold {action.card} (holds {held})"
        legal = self._legal_cards(seat)
        led = self._suit_of[self.trick_cards[0]]
        if all(self._suit_of[card] is led for card in legal if card is not ROOK) and any(
            self._suit_of[card] is led for card in legal
        ):
            same = ", ".join(str(card) for card in legal)
            return f"{head}: must follow {led.name.lower()} (holds {same})"
        trumps = ", ".join(str(card) for card in legal)
        return f"{head}: void in {led.name.lower()}, must play trump (holds {trumps})"

    def _why_bid_illegal(self, action: Action) -> str:
        rules = self.rules
        stuck = rules.all_pass is AllPass.DEALER_MUST_BID and self.high_bid is None and sum(self.passed) == SEATS - 1
        if type(action) is Pass:
            if stuck:
                return f"the dealer must bid {rules.bid_min} when the other three have passed"
            return "the opener must bid"
        assert type(action) is Bid
        amount = action.amount
        if stuck:
            return f"the dealer must bid exactly {rules.bid_min}"
        if amount < rules.bid_min or amount > rules.bid_max or (amount - rules.bid_min) % rules.bid_step:
            return f"bids are {rules.bid_min} to {rules.bid_max} in steps of {rules.bid_step}"
        return f"must bid more than the current high bid of {self.high_bid}"


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> Deal:
    """Shuffle the rules' deck with ``rng`` and deal it the official way.

    One card to each player from the dealer's left, then one to the nest, until the nest is full (a
    player stops receiving once the hand is full); then the rest round the table.
    """
    cards = list(rules.deck)
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    size, nest_size = rules.hand_size, rules.nest_size
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    nest: list[Card] = []
    order = [(dealer + 1 + k) % SEATS for k in range(SEATS)]
    pile = iter(cards)
    while len(nest) < nest_size or len(hands[order[-1]]) < size:
        for seat in order:
            if len(hands[seat]) < size:
                hands[seat].append(next(pile))
        if len(nest) < nest_size:
            nest.append(next(pile))
    return Deal(tuple(tuple(hand) for hand in hands), tuple(nest))
