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
- Play: every legal card, scored by playouts in deals that respect the voids the plays revealed; the cards
  clearly behind the best on the same deals drop out of the race as the deals double.

The budget is a number of playouts per decision (``playouts``); the deadline, or the level's cap on
thinking time (``think``), stops a search early, at a whole deal. Given its seed and a budget that
neither cuts, the player is deterministic: each decision's random generator is seeded from the
player's seed, the game and the decision's number.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from rookarena.engine.cards import COLORS
from rookarena.engine.rules import KNOBS, BidMade, NestTo, Rules
from rookarena.players import heuristic
from rookarena.players.base import Deadline
from rookarena.players.fast import Deck, hand_value, legal_cards, playout, score_value, solve_options
from rookarena.players.inference import calls, opponent_plays, played_by, sample_fitting
from rookarena.players.worlds import PILE, Knowledge, for_auction, for_bidder, from_view, sample

# Playouts per decision at each level; level 3 is the default.
LEVELS: dict[int, int] = {1: 24, 2: 48, 3: 192, 4: 768}
DEFAULT_LEVEL = 3
# The most seconds a decision of each level may think, whatever the request's deadline allows: the
# default level answers within 0.2 s on a 2-core machine even when its slowest decisions would not.
# Levels without a cap stop at their playouts or at the deadline.
THINK: dict[int, float] = {3: 0.15}

# The auction: the counters the seat's team expects to take as bidder are a blend of the simulated
# ones (playouts under the best trump) and the heuristic's fitted model (MODEL_WEIGHT of it), plus
# BID_BONUS; the seat bids the lowest legal bid while it is within them.
MODEL_WEIGHT = 0.5
BID_BONUS = 10.0
# The game's score in the auction: the limit rises by TRAIL_BONUS when the opponents lead (or are level)
# within ENDGAME of the target, and falls by LEAD_CUT when this seat's team leads within it (docs/bots.md,
# "A third round": 15 won 15 games more of 700 than 0; 30, and a cut of 15, lost).
TRAIL_BONUS = 15.0
LEAD_CUT = 0.0
ENDGAME = 100.0
# The bidder named trump after seeing the nest: deals in which it holds fewer than this share of a hand
# in trumps (played ones included) are drawn again, up to SAMPLE_TRIES times.
BIDDER_TRUMPS = 0.45
# The nest is planned once for all its decisions (a discard for each card, and trump): it gets this
# many decisions' worth of playouts.
NEST_BUDGET = 3
# The nest plans only for this many trump colours, the heuristic's likeliest first (fewer candidates,
# fewer chances for the noise of a few deals to pick a bad one).
NEST_TRUMPS = 2
# The simulated counters of a hand in the auction get this many decisions' worth of playouts.
BID_BUDGET = 1
# A decision of the play gets this many decisions' worth of playouts (4: about the time 1 took before racing
# and grouped deals, docs/bots.md "A fourth round").
PLAY_BUDGET = 4
# In the play, with this many cards or fewer in hand the rest of each deal is solved exactly
# (alpha-beta over every hand) instead of played out.
EXACT = 3
# In the play, the heuristic's choice gets this many points (score difference a deal) ahead.
PRIOR = 0.0
# Overcalling a partner needs this many more counters.
PARTNER_MARGIN = 10.0
# In the play, deals are drawn again (up to SAMPLE_TRIES times) when a seat's hand as dealt (its cards
# now plus those it played) disagrees with its calls in the auction by more than this many counters of
# the heuristic's fitted estimate: a bid says the hand is worth at least it, a pass that it is worth less
# than the bid declined. None: no inference from the auction.
INFER_SLACK: float | None = 5.0
# In the play, a deal also counts a misfit for each of the opponents' last MODEL_PLAYS plays of the hand
# (with a choice) that the heuristic, in their seat with the hand the deal gives them, would have made
# otherwise. 0: no inference from the play.
MODEL_PLAYS = 0
# In the play, racing (RACE standard errors; 0: off): after RACE_FROM deals, and each time the number of
# deals doubles, the options clearly behind the leader on the same deals are dropped, and the playouts they
# would have taken go to more deals for the rest.
RACE = 1.0
RACE_FROM = 8
# Deals are dealt group by group (worlds.sample's ``grouped``), not card by card.
GROUPED = True


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    playouts: int
    partner_margin: float = PARTNER_MARGIN
    model_weight: float = MODEL_WEIGHT
    bid_bonus: float = BID_BONUS
    bidder_trumps: float = BIDDER_TRUMPS
    prior: float = PRIOR
    exact: int = EXACT
    nest_budget: int = NEST_BUDGET
    bid_budget: int = BID_BUDGET
    infer: float | None = INFER_SLACK
    nest_trumps: int = NEST_TRUMPS
    think: float | None = None
    model_plays: int = MODEL_PLAYS
    partner_shift: float = 0.0
    model_eps: float = 0.0
    trail_bonus: float = TRAIL_BONUS
    lead_cut: float = LEAD_CUT
    endgame: float = ENDGAME
    race: float = RACE
    grouped: bool = GROUPED
    play_budget: int = PLAY_BUDGET


def settings_for(level: int | None = None, playouts: int | None = None, think: float | None = None) -> Settings:
    """A level's settings; ``playouts`` and ``think`` (seconds, 0 for no cap) override its own."""
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(map(str, LEVELS))}")
    level = level or DEFAULT_LEVEL
    cap = THINK.get(level) if think is None else think or None
    return Settings(playouts=playouts or LEVELS[level], think=cap)


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
        self.worth = heuristic.Estimator(self.deck.text, heuristic.Cards(self.rules_map))

    def start_game(self, message: dict[str, Any]) -> None:
        self.deck = Deck.of(rules_of(message.get("rules")))
        self.rules_map = message.get("rules") or heuristic.TOURNAMENT
        game_seed = message.get("seed")
        key = game_seed if game_seed is not None else message.get("game", "")
        self.game_key = f"{key}/{message.get('seat', 0)}"
        self.decisions = 0
        self.plans = {}
        self.worth = heuristic.Estimator(self.deck.text, heuristic.Cards(self.rules_map))

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        legal: list[str] = request["legal"]
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{self.seed}/{self.game_key}/{self.decisions}")
        if self.settings.think is not None:
            deadline = deadline.capped(self.settings.think)
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

    def _solved(
        self,
        trump: int,
        hands: list[list[int]],
        leader: int,
        trick: list[int],
        options: list[int],
        team: int,
        bidder: int,
        bid: int,
        counters: list[int],
        nest: int,
    ) -> list[int]:
        """The score difference for ``team`` of exact play after each option (the last tricks of one deal)."""
        deck = self.deck
        points = deck.points
        left = sum(points[c] for h in hands for c in h) + sum(points[c] for c in trick)
        with_last = deck.rules.nest_to is NestTo.LAST_TRICK
        total = counters[0] + counters[1] + left + nest
        out: list[int] = []
        for gained in solve_options(deck, trump, hands, leader, trick, team, options, nest if with_last else 0):
            ours = counters[team] + gained
            if not with_last and bidder % 2 == team:
                ours += nest
            by_team = [ours, total - ours] if team == 0 else [total - ours, ours]
            out.append(score_value(deck, team, bidder, bid, by_team))
        return out

    def _bid(self, view: dict[str, Any], legal: list[str], rng: random.Random, deadline: Deadline) -> str:
        bids = sorted(int(action.split()[1]) for action in legal if action.startswith("bid "))
        if not bids or "pass" not in legal:
            return f"bid {bids[0]}" if bids else legal[0]
        seat: int = view["seat"]
        deck = self.deck
        cards = heuristic.Cards(self.rules_map)
        weight = self.settings.model_weight
        simulated = model = 0.0
        if weight < 1:
            knowledge = for_auction(deck, seat, view["hand"])
            outcomes = self._bidder_outcomes(view, knowledge, rng, deadline)
            team = seat % 2
            simulated = sum(taken[team] + (nest if last % 2 == team else 0) for taken, last, nest in outcomes) / len(
                outcomes
            )
        if weight > 0:
            model = heuristic.estimate(view["hand"], cards)
        limit = weight * model + (1 - weight) * simulated + self.settings.bid_bonus + self._standing(view)
        if deck.rules.bid_made is BidMade.MORE_THAN:
            limit -= 1
        holders = [entry["seat"] for entry in view["auction"] if entry["action"].startswith("bid ")]
        if holders and holders[-1] == (seat + 2) % 4:
            limit -= self.settings.partner_margin
        return f"bid {bids[0]}" if bids[0] <= limit else "pass"

    def _standing(self, view: dict[str, Any]) -> float:
        """What the game's score adds to the auction's limit: more when the opponents are about to win it,
        less when this seat's team is (see TRAIL_BONUS)."""
        near = self.deck.rules.target - self.settings.endgame
        team = view["seat"] % 2
        ours, theirs = view["scores"][team], view["scores"][1 - team]
        if theirs >= near and theirs >= ours:
            return self.settings.trail_bonus
        if ours >= near and ours > theirs:
            return -self.settings.lead_cut
        return 0.0

    def _bidder_outcomes(
        self, view: dict[str, Any], knowledge: Knowledge, rng: random.Random, deadline: Deadline
    ) -> list[tuple[tuple[int, int], int, int]]:
        """Playouts of the hand as bidder: (counters by team, last winner, nest counters) for the best trump."""
        deck, seat = self.deck, view["seat"]
        hand: list[str] = view["hand"]
        leader = deck.first_leader(view["dealer"], seat)
        worlds = max(1, self.settings.bid_budget * self.settings.playouts // len(COLORS))
        by_trump: list[list[tuple[tuple[int, int], int, int]]] = [[] for _ in COLORS]
        cards = heuristic.Cards(self.rules_map)
        for _ in range(worlds):
            held = sample(knowledge, rng, self.settings.grouped)
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
        if named is None:
            colours.sort(key=lambda t: -_trump_strength(full, COLORS[t].value, cards))
            del colours[self.settings.nest_trumps :]
        plans: list[tuple[int, list[str]]] = []
        for trump in colours:
            for safe in (None, True, False):
                plan = (trump, heuristic.plan_discards(full, COLORS[trump].value, cards, safe))
                if plan not in plans:
                    plans.append(plan)
        if len(plans) == 1:
            return plans[0]
        knowledge = for_bidder(deck, seat, full, [])
        leader = deck.first_leader(view["dealer"], seat)
        bid: int = view["high_bid"]
        totals = [0.0] * len(plans)
        worlds = max(1, self.settings.nest_budget * self.settings.playouts // len(plans))
        for _ in range(worlds):
            held = sample(knowledge, rng, self.settings.grouped)
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
        totals = [0.0] * len(options)
        done = 0
        exact = len(hand) <= self.settings.exact
        budget = self.settings.play_budget * self.settings.playouts
        worlds = max(1, budget // len(options))
        suit = deck.suit[trump]
        shown = sum(
            1
            for t in view["tricks"]
            for i, text in enumerate(t["cards"])
            if (t["leader"] + i) % 4 == bidder and suit[deck.index[text]] == trump
        )
        shown += sum(
            1 for i, text in enumerate(view["trick"]) if (leader + i) % 4 == bidder and suit[deck.index[text]] == trump
        )
        wanted = self.settings.bidder_trumps * deck.rules.hand_size - shown if bidder != seat else 0
        slack = self.settings.infer
        bounds = calls(view, deck.rules, slack) if slack is not None else {}
        bounds.pop(bidder, None)  # the bidder's hand before the nest is not known from its cards
        bounds.pop(seat, None)
        mate = (seat + 2) % 4
        if self.settings.partner_shift and mate in bounds:
            # The partner is this bot: it calls to its own limit, above the heuristic's estimate.
            low, high = bounds[mate]
            bounds[mate] = (low - self.settings.partner_shift, high - self.settings.partner_shift)
        played = played_by(view, deck)
        worth_of = self.worth

        checks = [
            (past, deck.ints(past["trick"]), deck.ints(later))
            for past, later in opponent_plays(view, team, self.settings.model_plays)
        ]
        texts = deck.text
        rules_map = self.rules_map

        def unlike(held: list[list[int]]) -> int:
            """The opponents' checked plays the heuristic would not have made with the hands of ``held``."""
            wrong = 0
            for past, trick_then, then_played in checks:
                who: int = past["seat"]
                then = sorted([*held[who], *then_played])  # in deck order, as the referee lists a hand
                choice = legal_cards(deck, trump, then, trick_then)
                if len(choice) < 2:
                    continue
                past["hand"] = [texts[c] for c in then]
                if who == bidder:
                    past["discards"] = discards if discards is not None else [texts[c] for c in held[PILE]]
                legal_then = [f"play {texts[c]}" for c in choice]
                if (
                    heuristic.decide({"legal": legal_then, "view": past}, rules_map)
                    != legal_then[choice.index(then_played[0])]
                ):
                    wrong += 1
            return wrong

        weigh = bool(checks) and self.settings.model_eps > 0

        def misfits(held: list[list[int]]) -> int:
            wrong = int(sum(1 for c in held[bidder] if suit[c] == trump) < wanted)
            for s, (low, high) in bounds.items():
                worth = worth_of([*held[s], *played[s]])
                wrong += worth < low or worth >= high
            return wrong if weigh else wrong + unlike(held)

        race = self.settings.race
        active = list(range(len(options)))
        seen: list[list[float]] = [[] for _ in options]  # by option, its value in each deal (when racing)
        used = 0
        while (used + len(active) <= budget or not done) if race else done < worlds:
            held = sample_fitting(knowledge, rng, misfits, self.settings.grouped)
            nest = known_nest if known_nest is not None else sum(deck.points[card] for card in held[PILE])
            seed = rng.random()
            # A deal's weight: its likelihood when each of the opponents' plays departs from the model's with
            # probability model_eps (1 without weighting).
            weight = self.settings.model_eps ** unlike(held) if weigh else 1
            if exact:
                hands = [list(held[s]) for s in range(4)]
                hands[seat] = list(hand)
                chosen = [options[i] for i in active]
                values = self._solved(trump, hands, leader, trick, chosen, team, bidder, bid, counters, nest)
            else:
                values = []
                for i in active:
                    card = options[i]
                    hands = [list(held[s]) for s in range(4)]
                    hands[seat] = [c for c in hand if c != card]
                    after = [*trick, card]
                    taken = [counters[0], counters[1]]
                    last = playout(deck, trump, hands, leader, after, taken, random.Random(seed), bidder % 2)
                    values.append(hand_value(deck, team, bidder, bid, taken, last, nest))
            for i, v in zip(active, values, strict=True):
                totals[i] += weight * v
                if race:
                    seen[i].append(weight * v)
            used += len(active)
            done += 1
            if deadline.passed():
                break
            if race and len(active) > 1 and done >= RACE_FROM and done & (done - 1) == 0:
                active = _survivors(active, totals, seen, race)
                if len(active) == 1:
                    break
        if self.settings.prior:
            # Near-equal options are told apart by the heuristic's choice, not by the noise of the deals.
            favourite = heuristic.decide({"legal": legal, "view": view}, self.rules_map)
            totals[legal.index(favourite)] += self.settings.prior * done
        best = max(active, key=lambda i: (totals[i], -i))
        return legal[best]


def _survivors(active: list[int], totals: list[float], seen: list[list[float]], z: float) -> list[int]:
    """The options still in the race: those whose mean deficit to the leader, deal by deal over the same
    deals, is within ``z`` standard errors of 0 (an option never better and never worse than the leader in
    any deal is dropped too: it is the same card here)."""
    lead = max(active, key=lambda i: (totals[i], -i))
    best = seen[lead]
    n = len(best)
    keep = []
    for i in active:
        if i == lead:
            keep.append(i)
            continue
        gaps = [b - v for b, v in zip(best, seen[i], strict=True)]
        mean = sum(gaps) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1))
        if spread == 0:
            if mean < 0:
                keep.append(i)
        elif mean <= z * spread / math.sqrt(n):
            keep.append(i)
    return keep


def _trump_strength(hand: list[str], color: str, cards: heuristic.Cards) -> float:
    """How good ``color`` is as trump for ``hand``, as the heuristic ranks colours: length, then strength."""
    top = 2 * len(cards.ranks)
    return sum(1.0 + cards.strength(c) / top for c in hand if c == heuristic.ROOK or c[0] == color)
