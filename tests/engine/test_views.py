"""Views: no seat ever sees a card it may not know, checked over thousands of random positions.

Two checks per position and seat: every card the view shows is one the seat may know; and the view
is blind to the hidden cards (swapping hidden cards between other seats, the nest or the discards
leaves it exactly as it was), which also catches leaks through fields that show no card at all.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator

import pytest

from rookarena.engine.actions import Bid, Pass, parse_action
from rookarena.engine.cards import Card
from rookarena.engine.game import Game, Phase, deal_cards
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import NestSeenBy, Rules
from rookarena.engine.views import View, view
from rookarena.players import random_action

ALL_RULES: dict[str, Rules] = {name: preset.rules for name, preset in PRESETS.items()} | {
    "tournament+nest-seen-by-all": dataclasses.replace(PRESETS["tournament"].rules, nest_seen_by=NestSeenBy.ALL),
    "open-nest+must-trump": dataclasses.replace(PRESETS["open-nest"].rules, must_trump=True),
}
POSITIONS = 2000  # per rule set


def positions(rules: Rules, count: int, seed: int) -> Iterator[Game]:
    """``count`` positions of seeded random games (about one in six, and every end), as the live game."""
    players = random.Random(seed)
    game_seed = seed
    seen = 0
    while seen < count:
        game = Game(rules, random.Random(game_seed), first_dealer=game_seed % 4)
        game_seed += 1
        while seen < count:
            if game.is_over or players.random() < 1 / 6:
                yield game
                seen += 1
            if game.is_over:
                break
            legal = game.legal_actions()
            if type(legal[0]) in (Bid, Pass) and players.random() < 0.2:
                game.apply(players.choice(legal))
            else:
                game.apply(random_action(legal, players))


def shown(seen: View) -> set[Card]:
    cards = set(seen.hand) | set(seen.nest or ()) | set(seen.discards or ()) | set(seen.trick)
    for trick in seen.tricks:
        cards |= set(trick.cards)
    return cards


def check_cards(game: Game, seat: int, seen: View) -> None:
    rules = game.rules
    auction_over = game.phase is not Phase.BIDDING
    bidder = game.bidder if auction_over else None
    public_nest = set(game.nest) if auction_over and rules.nest_seen_by is NestSeenBy.ALL else set()
    visible = shown(seen)
    assert seen.seat == seat
    assert seen.hand == tuple(game.hands[seat])
    for other in range(4):
        if other != seat:
            leaked = (set(game.hands[other]) & visible) - public_nest
            assert not leaked, f"seat {seat} sees {leaked} held by seat {other}"
    # The nest: hidden from everyone in the auction; then to the bidder, or to all where the rules say.
    if not auction_over:
        assert seen.nest is None
        assert seen.bidder is None
        assert not set(game.nest) & visible
    elif seat == bidder or rules.nest_seen_by is NestSeenBy.ALL:
        assert seen.nest == game.nest
    else:
        assert seen.nest is None
    # The discards: only the bidder's view has them.
    if auction_over and seat == bidder:
        assert seen.discards == tuple(game.discards)
    else:
        assert seen.discards is None
        assert not (set(game.discards) & visible) - public_nest
    # Everything public is there as it is.
    assert seen.auction == tuple(game.auction)
    assert seen.scores == (game.scores[0], game.scores[1])
    assert seen.hand_sizes == tuple(len(hand) for hand in game.hands)
    assert seen.tricks == tuple(game.tricks)
    assert seen.trick == tuple(game.trick_cards)
    assert seen.trump is game.trump
    assert seen.high_bid == game.high_bid
    assert seen.phase is game.phase
    assert seen.to_act == (None if game.is_over else game.to_act)


def check_blind(game: Game, seat: int, seen: View, rng: random.Random) -> None:
    """Swapping cards the seat cannot see must not change its view."""
    others = [other for other in range(4) if other != seat]
    a, b = rng.sample(others, 2)
    hands = game.hands
    if hands[a] and hands[b]:
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
        try:
            assert view(game, seat) == seen, f"seat {seat} sees a swap between seats {a} and {b}"
        finally:
            hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    if game.phase is Phase.BIDDING and hands[a]:
        nest = game.nest
        i, j = rng.randrange(len(nest)), rng.randrange(len(hands[a]))
        held = hands[a][j]
        hands[a][j] = nest[i]
        game.nest = (*nest[:i], held, *nest[i + 1 :])
        try:
            assert view(game, seat) == seen, f"seat {seat} sees the nest during the auction"
        finally:
            hands[a][j] = held
            game.nest = nest
    if game.discards and seat != game.bidder and hands[a]:
        i, j = rng.randrange(len(game.discards)), rng.randrange(len(hands[a]))
        game.discards[i], hands[a][j] = hands[a][j], game.discards[i]
        try:
            assert view(game, seat) == seen, f"seat {seat} sees the discards"
        finally:
            game.discards[i], hands[a][j] = hands[a][j], game.discards[i]


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_RULES)
def test_views_show_only_what_a_seat_may_know(name: str) -> None:
    rules = ALL_RULES[name]
    rng = random.Random(name)
    phases: set[Phase] = set()
    for game in positions(rules, POSITIONS, seed=len(name)):
        phases.add(game.phase)
        for seat in range(4):
            seen = view(game, seat)
            check_cards(game, seat, seen)
            check_blind(game, seat, seen, rng)
    assert phases == set(Phase)  # every phase was looked at, the end of a game included


def test_open_nest_is_shown_to_all_and_the_discards_are_not() -> None:
    rules = PRESETS["open-nest"].rules
    game = Game(rules, deals=iter([deal_cards(rules, random.Random(2), 0)]), first_dealer=0)
    for seat in range(4):
        assert view(game, seat).nest is None
    for text in ("pass", "bid 75", "pass", "pass"):
        game.apply(parse_action(text))
    assert (game.bidder, game.phase) == (2, Phase.TRUMP)
    for seat in range(4):
        assert view(game, seat).nest == game.nest
        assert view(game, seat).bidder == 2
    game.apply(parse_action("trump G"))
    held = [card for card in game.hands[2] if card not in game.nest]
    game.apply(parse_action(f"discard {held[0]}"))
    game.apply(parse_action(f"discard {game.nest[0]}"))
    assert view(game, 2).discards == (held[0], game.nest[0])
    for seat in (0, 1, 3):
        seen = view(game, seat)
        assert seen.discards is None
        assert held[0] not in shown(seen)
        assert seen.hand_sizes[2] == rules.hand_size + rules.nest_size - 2


def test_bidder_only_nest() -> None:
    rules = PRESETS["tournament"].rules
    game = Game(rules, deals=iter([deal_cards(rules, random.Random(2), 0)]), first_dealer=0)
    for text in ("pass", "bid 75", "pass", "pass"):
        game.apply(parse_action(text))
    assert game.phase is Phase.DISCARD
    assert view(game, 2).nest == game.nest
    assert set(game.nest) <= set(view(game, 2).hand)
    for seat in (0, 1, 3):
        assert view(game, seat).nest is None
        assert not set(game.nest) & shown(view(game, seat))


def test_a_view_is_a_snapshot() -> None:
    rules = PRESETS["tournament"].rules
    game = Game(rules, random.Random(8))
    players = random.Random(8)
    for _ in range(30):
        before = view(game, 1)
        kept = copy.deepcopy(before)
        game.apply(random_action(game.legal_actions(), players))
        assert before == kept


def test_the_view_of_a_finished_game() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, hand_limit=1)
    game = Game(rules, deals=iter([deal_cards(rules, random.Random(2), 3)]), first_dealer=3)
    for text in ("pass", "pass", "pass", "pass"):
        game.apply(parse_action(text))
    assert game.is_over
    seen = view(game, 0)
    assert (seen.phase, seen.to_act, seen.hand_number, seen.dealer) == (Phase.OVER, None, 1, 3)
