"""The search player: every answer legal, every sampled deal consistent with the seat's knowledge,
the fast trick phase agreeing with the engine, and the same play given the same seed and budget."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rookarena.engine.cards import COLORS, ROOK
from rookarena.engine.game import Game, Phase
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import Rules
from rookarena.engine.views import view
from rookarena.players import RandomPlayer, heuristic, random_action
from rookarena.players.base import Deadline, Player
from rookarena.players.fast import Deck, legal_cards, playout, solve_options
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inference import SAMPLE_TRIES, calls, opponent_plays, played_by, sample_fitting
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer, Settings, _survivors, settings_for
from rookarena.players.worlds import PILE, for_auction, from_view, sample
from rookarena.wire.messages import view_json

ALL_RULES = [pytest.param(preset.rules, id=name) for name, preset in PRESETS.items()]
MUST_TRUMP = Rules(must_trump=True, lone_rook_forced=False, rook_anytime=False)


def _random_positions(rules: Rules, seed: int, count: int) -> list[Game]:
    """Games stopped at random points of the play phase, reached by random play from seeded deals."""
    out = []
    rng = random.Random(seed)
    for k in range(count):
        game = Game(rules, random.Random(seed * 1000 + k))
        stop = rng.randrange(1, rules.hand_size * 4)
        played = 0
        while not game.is_over:
            if game.phase is Phase.PLAY:
                if played == stop:
                    break
                played += 1
            game.apply(random_action(game.legal_actions(), rng))
        if game.phase is Phase.PLAY:
            out.append(game)
    return out


@pytest.mark.parametrize("rules", [*ALL_RULES, pytest.param(MUST_TRUMP, id="must-trump")])
def test_fast_legality_is_the_engines(rules: Rules) -> None:
    deck = Deck.of(rules)
    for game in _random_positions(rules, 3, 60):
        assert game.trump is not None
        trump = COLORS.index(game.trump)
        hand = deck.ints([str(card) for card in game.hands[game.to_act]])
        trick = deck.ints([str(card) for card in game.trick_cards])
        fast = sorted(deck.text[card] for card in legal_cards(deck, trump, hand, trick))
        engine = sorted(str(action).split()[1] for action in game.legal_actions())
        assert fast == engine


@pytest.mark.parametrize("rules", ALL_RULES)
def test_playout_finishes_the_hand_with_every_counter(rules: Rules) -> None:
    deck = Deck.of(rules)
    rng = random.Random(5)
    for game in _random_positions(rules, 4, 20):
        assert game.trump is not None
        hands = [deck.ints([str(card) for card in hand]) for hand in game.hands]
        held = sum(deck.points[card] for hand in hands for card in hand)
        trick = deck.ints([str(card) for card in game.trick_cards])
        held += sum(deck.points[card] for card in trick)
        taken = list(game.taken)
        last = playout(deck, COLORS.index(game.trump), hands, game.trick_leader, trick, taken, rng)
        assert all(not hand for hand in hands) and not trick
        assert last in range(4)
        assert sum(taken) == sum(game.taken) + held


def _forbidden_by_plays(game: Game, seat: int) -> dict[int, set[str]]:
    """Independently of the sampler: the cards each other seat cannot hold, read from the tricks."""
    rules = game.rules
    trump = game.trump
    assert trump is not None

    def suit(card: Any) -> Any:
        return trump if card is ROOK else card.color

    out: dict[int, set[str]] = {s: set() for s in range(4)}
    tricks = [(t.leader, t.cards) for t in game.tricks]
    if game.trick_cards:
        tricks.append((game.trick_leader, tuple(game.trick_cards)))
    for leader, cards in tricks:
        led = suit(cards[0])
        for i, card in enumerate(cards[1:], 1):
            who = (leader + i) % 4
            if suit(card) is led or (card is ROOK and rules.rook_anytime):
                continue
            for other in rules.deck:
                if suit(other) is led and not (other is ROOK and not rules.lone_rook_forced):
                    out[who].add(str(other))
    return out


@pytest.mark.parametrize("grouped", [False, True], ids=["card-by-card", "grouped"])
@pytest.mark.parametrize("rules", [*ALL_RULES, pytest.param(MUST_TRUMP, id="must-trump")])
def test_sampled_deals_never_contradict_the_seat(rules: Rules, grouped: bool) -> None:
    deck = Deck.of(rules)
    rng = random.Random(11)
    for game in _random_positions(rules, 7, 40):
        for seat in range(4):
            v = view_json(view(game, seat))
            knowledge = from_view(deck, v)
            forbidden = _forbidden_by_plays(game, seat)
            for _ in range(5):
                held = sample(knowledge, rng, grouped)
                texts = [{deck.text[card] for card in cards} for cards in held]
                assert not texts[seat]
                mine = {str(card) for card in game.hands[seat]}
                for s in range(4):
                    if s != seat:
                        assert len(texts[s]) == len(game.hands[s])
                        assert not texts[s] & mine
                        assert not texts[s] & forbidden[s], (s, texts[s] & forbidden[s])
                played = {str(card) for t in game.tricks for card in t.cards} | {str(c) for c in game.trick_cards}
                everything = set().union(*texts) | mine | played
                if seat == game.bidder:
                    assert not texts[PILE]
                    everything |= {str(card) for card in game.discards}
                else:
                    assert len(texts[PILE]) == rules.nest_size
                    if v["nest"] is not None:  # an open nest: its cards are with the bidder or discarded
                        assert game.bidder is not None
                        for card in set(v["nest"]) - played:
                            assert card in texts[game.bidder] | texts[PILE]
                assert everything == {str(card) for card in rules.deck}


@pytest.mark.parametrize("grouped", [False, True], ids=["card-by-card", "grouped"])
def test_sampling_finds_a_deal_when_only_one_fits(grouped: bool) -> None:
    deck = Deck.of(Rules())
    knowledge = for_auction(deck, 0, [deck.text[c] for c in range(9)])
    # Tie the cards down: each unknown card may go to one holder only (the true deal's).
    truth = {card: 1 + (i % 3) if i < 27 else PILE for i, card in enumerate(knowledge.unknown)}
    pinned = type(knowledge)(
        knowledge.seat, knowledge.unknown, knowledge.capacity, tuple((truth[c],) for c in knowledge.unknown)
    )
    for seed in range(5):
        held = sample(pinned, random.Random(seed), grouped)
        assert all(truth[card] == holder for holder, cards in enumerate(held) for card in cards)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_every_answer_is_legal(rules: Rules) -> None:
    def check(game: Game, seat: int, answer: str, legal: list[str]) -> None:
        assert answer in legal, (answer, legal)

    search = SearchPlayer(Settings(playouts=12), seed=3)
    players: list[Player] = [search, RandomPlayer(1), search, HeuristicPlayer()]
    for seed in (1, 2):
        game = play_game(rules, seed, players, first_dealer=seed % 4, check=check)
        assert game.is_over


def _decisions(seed: int, settings: Settings) -> list[str]:
    answers: list[str] = []

    def check(game: Game, seat: int, answer: str, legal: list[str]) -> None:
        if seat % 2 == 0:
            answers.append(answer)

    players: list[Player] = [SearchPlayer(settings, seed=seed), HeuristicPlayer()] * 2
    play_game(Rules(), 9, players, check=check)
    return answers


@pytest.mark.parametrize(
    "settings",
    [Settings(playouts=16), Settings(playouts=16, race=1.0, grouped=True)],
    ids=["default", "racing-grouped"],
)
def test_the_same_seed_and_budget_play_the_same(settings: Settings) -> None:
    first = _decisions(1, settings)
    assert first == _decisions(1, settings)
    assert first != _decisions(2, settings)


def test_racing_drops_the_options_clearly_behind_and_the_same_as_the_leader() -> None:
    lead = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]
    seen = [
        lead,
        [v - 30 + (5 if i % 2 else -5) for i, v in enumerate(lead)],  # behind by 30 every deal, give or take 5
        [v + (40 if i % 2 else -45) for i, v in enumerate(lead)],  # behind by 2.5 on average, widely spread
        list(lead),  # the same as the leader in every deal
    ]
    totals = [sum(values) for values in seen]
    assert _survivors([0, 1, 2, 3], totals, seen, 1.0) == [0, 2]
    assert _survivors([1, 2], totals, seen, 1.0) == [2]  # 1 is behind the new leader, 2, by 27.5 a deal


def test_the_deadline_stops_a_search_early() -> None:
    ticks = iter(range(10**6))
    # A clock that says the deadline has passed from the first look: one deal only.
    deadline = Deadline(lambda: float(next(ticks)), 0.5)
    game = Game(Rules(), random.Random(4))
    while game.phase is not Phase.PLAY or len(game.legal_actions()) < 2:
        game.apply(random_action(game.legal_actions(), random.Random(1)))
    request = {"legal": [str(a) for a in game.legal_actions()], "view": view_json(view(game, game.to_act))}
    player = SearchPlayer(Settings(playouts=10**9), seed=1)
    player.start_game({"game": "g", "seat": game.to_act, "rules": Rules().to_mapping()})
    assert player.act(request, deadline) in request["legal"]
    assert next(ticks) < 10  # it looked at the clock a few times, not 10**9 / 4 times


def _next_float(ticks: Iterator[int]) -> float:
    return float(next(ticks))


def test_the_think_cap_stops_a_search_the_deadline_would_not() -> None:
    game = Game(Rules(), random.Random(4))
    while game.phase is not Phase.PLAY or len(game.legal_actions()) < 2:
        game.apply(random_action(game.legal_actions(), random.Random(1)))
    request = {"legal": [str(a) for a in game.legal_actions()], "view": view_json(view(game, game.to_act))}
    looks = []
    for think in (None, 2.5):
        ticks = iter(range(10**6))
        # One second a look at the clock; the deadline never comes.
        deadline = Deadline(functools.partial(_next_float, ticks), float("inf"))
        player = SearchPlayer(Settings(playouts=500, think=think, race=0.0), seed=1)  # no race: every deal
        player.start_game({"game": "g", "seat": game.to_act, "rules": Rules().to_mapping()})
        assert player.act(request, deadline) in request["legal"]
        looks.append(next(ticks))
    uncapped, capped = looks
    assert capped <= 4  # the cap: the start, then a look after each deal until 2.5 s have passed
    assert uncapped > 100, uncapped  # 500 playouts, four times that in the play, over at most 13 cards


def test_levels() -> None:
    assert settings_for() == settings_for(3)
    assert [settings_for(level).playouts for level in (1, 2, 3, 4)] == [24, 48, 192, 768]
    assert settings_for(3).think == 0.15  # the default level answers within 0.2 s
    assert settings_for(4).think is None
    assert settings_for(3, think=0).think is None
    assert settings_for(1, think=0.5).think == 0.5
    assert settings_for(3, playouts=7).playouts == 7
    with pytest.raises(ValueError, match="unknown level 9"):
        settings_for(9)


def _brute(deck: Deck, trump: int, hands: list[list[int]], leader: int, trick: list[int], team: int, bonus: int) -> int:
    """Plain minimax, no pruning: what :func:`solve_options` must equal."""
    if len(trick) == 4:
        led = deck.suit[trump][trick[0]]
        powers = [deck.power[trump][c] if deck.suit[trump][c] in (led, trump) else -1 for c in trick]
        winner = (leader + powers.index(max(powers))) % 4
        gained = sum(deck.points[c] for c in trick) if winner % 2 == team else 0
        if not hands[winner]:
            return gained + (bonus if winner % 2 == team else 0)
        return gained + _brute(deck, trump, hands, winner, [], team, bonus)
    seat = (leader + len(trick)) % 4
    values = []
    for card in list(legal_cards(deck, trump, hands[seat], trick)):
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        values.append(_brute(deck, trump, rest, leader, [*trick, card], team, bonus))
    return max(values) if seat % 2 == team else min(values)


@pytest.mark.parametrize("rules", [Rules(), PRESETS["kentucky"].rules, MUST_TRUMP])
def test_the_exact_endgame_is_minimax_for_every_option(rules: Rules) -> None:
    """:func:`solve_options` values each option, in one search shared between them, as plain minimax does
    after that card; and restores the hands and the trick."""
    deck = Deck.of(rules)
    rng = random.Random(8)
    checked = 0
    for game in _random_positions(rules, 12, 300):
        if len(game.hands[game.to_act]) > 3:  # plain minimax of four cards a seat takes seconds
            continue
        assert game.trump is not None
        trump = COLORS.index(game.trump)
        hands = [deck.ints([str(card) for card in hand]) for hand in game.hands]
        trick = deck.ints([str(card) for card in game.trick_cards])
        seat = game.to_act
        options = list(legal_cards(deck, trump, hands[seat], trick))
        before = ([list(h) for h in hands], list(trick))
        team, bonus = rng.randrange(2), rng.choice([0, 15])
        each = []
        for card in options:
            rest = [list(h) for h in hands]
            rest[seat].remove(card)
            each.append(_brute(deck, trump, rest, game.trick_leader, [*trick, card], team, bonus))
        assert solve_options(deck, trump, hands, game.trick_leader, trick, team, options, bonus) == each
        assert (hands, trick) == before
        checked += 1
    assert checked >= 20


def _auction(*calls_made: tuple[int, str]) -> dict[str, Any]:
    return {"auction": [{"seat": seat, "action": action} for seat, action in calls_made]}


def test_calls_bound_each_hand_by_what_it_bid_and_declined() -> None:
    view_ = _auction((1, "bid 70"), (2, "pass"), (3, "bid 80"), (0, "pass"), (1, "pass"))
    bounds = calls(view_, Rules(), 5.0)
    inf = float("inf")
    assert bounds[1] == (65.0, 100.0)  # declined 85 over its partner: the overcall margin (10) more
    assert bounds[2] == (-inf, 80.0)  # declined 75
    assert bounds[3] == (75.0, inf)
    assert bounds[0] == (-inf, 90.0)  # declined 85 over an opponent
    # Where the opener must bid, its first bid says nothing; a later one does.
    forced = calls(_auction((1, "bid 70"), (2, "bid 75"), (1, "bid 80")), PRESETS["bidders-nest"].rules, 0.0)
    assert forced[1] == (80.0, inf)
    assert forced[2] == (75.0, inf)
    assert calls(_auction((1, "bid 70")), PRESETS["bidders-nest"].rules, 0.0)[1] == (-inf, inf)


def testplayed_by_reads_every_trick_and_the_current_one() -> None:
    deck = Deck.of(Rules())
    game = _random_positions(Rules(), 21, 10)[-1]
    v = view_json(view(game, 0))
    played = played_by(v, deck)
    assert sum(len(cards) for cards in played) == 4 * len(game.tricks) + len(game.trick_cards)
    for s in range(4):
        assert len(played[s]) + len(game.hands[s]) == Rules().hand_size


def test_sample_fitting_keeps_the_deal_that_breaks_fewest_bounds() -> None:
    deck = Deck.of(Rules())
    knowledge = for_auction(deck, 0, [deck.text[c] for c in range(9)])
    seen: list[list[list[int]]] = []

    def misfits(held: list[list[int]]) -> int:
        seen.append(held)
        return [3, 2, 4, 1, 2, 5, 1, 3, 2][len(seen) - 1]

    assert sample_fitting(knowledge, random.Random(1), misfits) is seen[3]
    assert len(seen) == 1 + SAMPLE_TRIES
    seen.clear()

    def fits(held: list[list[int]]) -> int:
        seen.append(held)
        return 0

    assert sample_fitting(knowledge, random.Random(1), fits) is seen[0]
    assert len(seen) == 1


def _plain_estimate(hand: list[str], cards: heuristic.Cards) -> float:
    """The hand model of heuristic.estimate written plainly on card texts: the reference."""
    trump = heuristic.choose_trump(hand, cards)
    trumps = [card for card in hand if heuristic.Cards.suit(card, trump) == trump]
    top = 2 * len(cards.ranks)
    aces = kings = voids = 0
    for color in "RGBY":
        if color == trump:
            continue
        numbers = {int(card[1:]) for card in hand if card[0] == color and card != heuristic.ROOK}
        voids += not numbers
        if cards.ranks[-1] in numbers:
            aces += 1
            kings += cards.ranks[-2] in numbers
    share = (
        0.445
        + 0.208 * (len(trumps) / cards.tricks)
        + 0.552 * (sum(cards.strength(card) for card in trumps) / top / cards.tricks)
        + 0.058 * (heuristic.ROOK in hand)
        + 0.033 * aces
        + 0.013 * kings
        + 0.018 * voids
        + 0.157 * (sum(cards.points(card) for card in hand) / cards.total)
    )
    return float(min(1.0, share) * cards.total)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_the_hand_estimate_on_card_numbers_is_the_plain_model_to_the_bit(rules: Rules) -> None:
    deck = Deck.of(rules)
    cards = heuristic.Cards(rules.to_mapping())
    worth = heuristic.Estimator(deck.text, cards)
    rng = random.Random(f"estimator/{rules}")
    hands = [rng.sample(range(len(deck.text)), rng.randint(0, 18)) for _ in range(2000)]
    # Ties between trump colours go to the first colour, as choose_trump breaks them.
    hands.append([deck.index[f"{color.value}{rank}"] for color in COLORS for rank in rules.ranks[:2]])
    for hand in hands:
        texts = [deck.text[c] for c in hand]
        assert worth(hand) == heuristic.estimate(texts, cards) == _plain_estimate(texts, cards), texts


@pytest.mark.parametrize("rules", ALL_RULES)
def test_the_opponents_plays_are_the_heuristics_with_their_true_hands(rules: Rules) -> None:
    """The views :func:`opponent_plays` rebuilds, given each seat's true cards, make the heuristic play
    what it played: the model of the opponents' play finds no misfit in the true deal."""
    deck = Deck.of(rules)
    mapping = rules.to_mapping()
    checked = 0
    for seed in range(2):
        game = Game(rules, random.Random(seed))
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            texts = [str(action) for action in legal]
            v = view_json(view(game, seat))
            if v["phase"] == "play" and game.trump is not None:
                trump = COLORS.index(game.trump)
                for past, later in opponent_plays(v, seat % 2, 40):
                    who = past["seat"]
                    then = sorted(deck.ints([str(card) for card in game.hands[who]]) + deck.ints(later))
                    choice = legal_cards(deck, trump, then, deck.ints(past["trick"]))
                    past["hand"] = [deck.text[c] for c in then]
                    if who == game.bidder:
                        past["discards"] = [str(card) for card in game.discards]
                    options = [f"play {deck.text[c]}" for c in choice]
                    assert heuristic.decide({"legal": options, "view": past}, mapping) == f"play {later[0]}"
                    checked += 1
            answer = heuristic.decide({"legal": texts, "view": v}, mapping)
            game.apply(legal[texts.index(answer)], known_legal=True)
    assert checked >= 500


@pytest.mark.parametrize(
    ("seat", "scores", "shift"),
    [
        (0, (100, 250), 15.0),  # the opponents lead, within 100 of 300
        (1, (250, 100), 15.0),
        (0, (230, 230), 15.0),  # level, both within reach: the opponents may win it
        (0, (250, 100), -7.0),  # this team leads within reach
        (3, (100, 250), -7.0),
        (0, (100, 190), 0.0),  # the leader is not yet within reach
        (0, (150, 100), 0.0),
    ],
)
def test_the_score_moves_the_auctions_limit_only_near_the_end(seat: int, scores: tuple[int, int], shift: float) -> None:
    player = SearchPlayer(Settings(playouts=8, trail_bonus=15.0, lead_cut=7.0, endgame=100.0))
    assert player._standing({"seat": seat, "scores": list(scores)}) == shift
    assert SearchPlayer(Settings(playouts=8, trail_bonus=0.0))._standing({"seat": seat, "scores": list(scores)}) == 0.0
