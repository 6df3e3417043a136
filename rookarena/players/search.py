"""The search player: perfect-information Monte Carlo (PIMC) over deals that agree with what it knows.

Every decision samples deals of the hidden cards (:mod:`rookarena.players.worlds`), plays each candidate
out in each deal with the fast rollout of :mod:`rookarena.players.fast`, and picks the candidate with
the best mean score difference for its team over the same deals (common random numbers: every candidate
meets the same deals and the same rollout seeds, so their difference is measured, not their luck).

- Auction: for each sampled deal (other hands and nest), each trump colour, the nest planned as the
  heuristic plans it, a playout of the hand as bidder; the mean over deals of the best colour gives the
  score of bidding each amount; it bids the lowest legal bid while that score beats passing.
- Nest: each trump colour with the heuristic's discards for it, scored by playouts from the real hand;
  the best colour is named and its discards made.
- Play: every legal card, scored by playouts in deals that respect the voids the plays revealed.

The budget is a number of playouts per decision (``playouts``); the deadline stops a search early, at a
whole deal. Given its seed and a budget that the deadline never cuts, the player is deterministic: each
decision's random generator is seeded from the player's seed, the game and the decision's number.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from rookarena.cards import COLORS
from rookarena.players import heuristic
from rookarena.players.base import Deadline
from rookarena.players.fast import Deck, hand_value, playout
from rookarena.players.worlds import PILE, Knowledge, for_auction, for_bidder, from_view, sample
from rookarena.rules import KNOBS, Rules

# Playouts per decision at each level; level 2 is the default.
LEVELS: dict[int, int] = {1: 48, 2: 240, 3: 960}
DEFAULT_LEVEL = 2

# Passing is worth this much (score difference for the team, per hand) against bidding: a team that
# passes defends, and defending costs on average about what it lets the bidders make over the others.
PASS_VALUE = -20.0
# Overcalling a partner needs this much more than bidding over an opponent.
PARTNER_MARGIN = 20.0


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    playouts: int
    pass_value: float = PASS_VALUE
    partner_margin: float = PARTNER_MARGIN


def settings_for(level: int | None = None, playouts: int | None = None) -> Settings:
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(map(str, LEVELS))}")
    return Settings(playouts=playouts or LEVELS[level or DEFAULT_LEVEL])


def rules_of(mapping: dict[str, Any] | None) -> Rules:
    """The rules of a ``game`` message, ignoring knobs this version does not know."""
    if not mapping:
        return Rules()
    return Rules.from_mapping({key: value for key, value in mapping.items() if key in KNOBS})


class SearchPlayer:
    """A seat played by PIMC search; see the module's docstring."""

    name = "rookarena-search"
    view = True

    def __init__(self, settings: Settings, seed: int | str = 0) -> None:
        self.settings = settings
        self.seed = seed
        self.deck = Deck.of(Rules())
        self.rules_map: dict[str, Any] = heuristic.TOURNAMENT
        self.game_key = "0"
        self.decisions = 0
        self.plans: dict[tuple[int, int], tuple[int, list[str]]] = {}

    def start_game(self, message: dict[str, Any]) -> None:
        self.deck = Deck.of(rules_of(message.get("rules")))
        self.rules_map = message.get("rules") or heuristic.TOURNAMENT
        game_seed = message.get("seed")
        key = game_seed if game_seed is not None else message.get("game", "")
        self.game_key = f"{key}/{message.get('seat', 0)}"
        self.decisions = 0
        self.plans = {}

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        legal: list[str] = request["legal"]
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{self.seed}/{self.game_key}/{self.decisions}")
        view: dict[str, Any] = request["view"]
        phase = view["phase"]
        if phase == "play":
            action = self._play(view, legal, rng, deadline)
        elif phase == "bidding":
            action = self._bid(view, legal, rng, deadline)
        else:
            action = self._nest(view, legal, rng, deadline)
        return action if action in legal else legal[0]

    # -- the auction ----------------------------------------------------------------------------

    def _bid(self, view: dict[str, Any], legal: list[str], rng: random.Random, deadline: Deadline) -> str:
        bids = sorted(int(action.split()[1]) for action in legal if action.startswith("bid "))
        if not bids or "pass" not in legal:
            return f"bid {bids[0]}" if bids else legal[0]
        seat: int = view["seat"]
        deck = self.deck
        knowledge = for_auction(deck, seat, view["hand"])
        outcomes = self._bidder_outcomes(view, knowledge, rng, deadline)
        amount = bids[0]
        value = sum(hand_value_of(deck, seat, amount, taken, last, nest) for taken, last, nest in outcomes) / len(
            outcomes
        )
        holders = [entry["seat"] for entry in view["auction"] if entry["action"].startswith("bid ")]
        needed = self.settings.pass_value
        if holders and holders[-1] == (seat + 2) % 4:
            needed += self.settings.partner_margin
        return f"bid {amount}" if value > needed else "pass"

    def _bidder_outcomes(
        self, view: dict[str, Any], knowledge: Knowledge, rng: random.Random, deadline: Deadline
    ) -> list[tuple[tuple[int, int], int, int]]:
        """Playouts of the hand as bidder: (counters by team, last winner, nest counters) for the best trump."""
        deck, seat = self.deck, view["seat"]
        hand: list[str] = view["hand"]
        leader = deck.first_leader(view["dealer"], seat)
        worlds = max(1, self.settings.playouts // len(COLORS))
        by_trump: list[list[tuple[tuple[int, int], int, int]]] = [[] for _ in COLORS]
        cards = heuristic.Cards(self.rules_map)
        for _ in range(worlds):
            held = sample(knowledge, rng)
            full = hand + [deck.text[card] for card in held[PILE]]
            seed = rng.random()
            for trump, color in enumerate(COLORS):
                discards = deck.ints(heuristic.plan_discards(full, color.value, cards))
                mine = [card for card in deck.ints(full) if card not in discards]
                hands = [mine if s == seat else list(held[s]) for s in range(4)]
                taken = [0, 0]
                last = playout(deck, trump, hands, leader, [], taken, random.Random(seed), seat % 2)
                nest = sum(deck.points[card] for card in discards)
                by_trump[trump].append(((taken[0], taken[1]), last, nest))
            if deadline.passed():
                break
        team = seat % 2

        def mean_counters(results: list[tuple[tuple[int, int], int, int]]) -> float:
            return sum(taken[team] + (nest if last % 2 == team else 0) for taken, last, nest in results)

        return max(by_trump, key=mean_counters)

    # -- the nest -------------------------------------------------------------------------------

    def _nest(self, view: dict[str, Any], legal: list[str], rng: random.Random, deadline: Deadline) -> str:
        hand: list[str] = view["hand"]
        done: list[str] = view["discards"] or []
        key = (int(view["hand_number"]), len(hand) + len(done))
        plan = self.plans.get(key)
        if plan is None or (view["trump"] is not None and COLORS[plan[0]].value != view["trump"]):
            plan = self._plan_nest(view, rng, deadline)
            self.plans[key] = plan
        trump, discards = plan
        if view["phase"] == "trump":
            return f"trump {COLORS[trump].value}"
        for card in discards:
            if card in hand:
                return f"discard {card}"
        return legal[0]

    def _plan_nest(self, view: dict[str, Any], rng: random.Random, deadline: Deadline) -> tuple[int, list[str]]:
        """The trump colour and its discards with the best mean playout score (trump fixed if named)."""
        deck, seat = self.deck, view["seat"]
        hand: list[str] = view["hand"]
        done: list[str] = view["discards"] or []
        full = hand + done
        cards = heuristic.Cards(self.rules_map)
        named = view["trump"]
        colours = [COLORS.index(c) for c in COLORS if named is None or c.value == named]
        plans = [(trump, heuristic.plan_discards(full, COLORS[trump].value, cards)) for trump in colours]
        if len(plans) == 1:
            return plans[0]
        knowledge = for_bidder(deck, seat, full, [])
        leader = deck.first_leader(view["dealer"], seat)
        bid: int = view["high_bid"]
        totals = [0.0] * len(plans)
        worlds = max(1, self.settings.playouts // len(plans))
        for _ in range(worlds):
            held = sample(knowledge, rng)
            seed = rng.random()
            for i, (trump, discards) in enumerate(plans):
                buried = deck.ints(discards)
                mine = [card for card in deck.ints(full) if card not in buried]
                hands = [mine if s == seat else list(held[s]) for s in range(4)]
                taken = [0, 0]
                last = playout(deck, trump, hands, leader, [], taken, random.Random(seed), seat % 2)
                nest = sum(deck.points[card] for card in buried)
                totals[i] += hand_value(deck, seat % 2, seat, bid, taken, last, nest)
            if deadline.passed():
                break
        best = max(range(len(plans)), key=lambda i: (totals[i], -i))
        return plans[best]

    # -- trick play -----------------------------------------------------------------------------

    def _play(self, view: dict[str, Any], legal: list[str], rng: random.Random, deadline: Deadline) -> str:
        deck, seat = self.deck, view["seat"]
        trump = COLORS.index(next(c for c in COLORS if c.value == view["trump"]))
        knowledge = from_view(deck, view)
        hand = deck.ints(view["hand"])
        options = [deck.index[action.split()[1]] for action in legal]
        trick = deck.ints(view["trick"])
        leader: int = view["trick_leader"]
        bidder: int = view["bidder"]
        bid: int = view["high_bid"]
        counters: list[int] = view["counters"]
        discards = view["discards"]
        known_nest = sum(deck.points[card] for card in deck.ints(discards)) if discards is not None else None
        team = seat % 2
        totals = [0] * len(options)
        worlds = max(1, self.settings.playouts // len(options))
        for _ in range(worlds):
            held = sample(knowledge, rng)
            nest = known_nest if known_nest is not None else sum(deck.points[card] for card in held[PILE])
            seed = rng.random()
            for i, card in enumerate(options):
                hands = [list(held[s]) for s in range(4)]
                hands[seat] = [c for c in hand if c != card]
                played = [*trick, card]
                taken = [counters[0], counters[1]]
                last = playout(deck, trump, hands, leader, played, taken, random.Random(seed), bidder % 2)
                totals[i] += hand_value(deck, team, bidder, bid, taken, last, nest)
            if deadline.passed():
                break
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return legal[best]


def hand_value_of(deck: Deck, seat: int, bid: int, taken: tuple[int, int], last: int, nest: int) -> int:
    """The score difference for ``seat``'s team of one bidder playout, had the seat bid ``bid``."""
    return hand_value(deck, seat % 2, seat, bid, taken, last, nest)
