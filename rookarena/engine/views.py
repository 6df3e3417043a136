"""What one seat may know: the single place where hidden information is cut away.

A seat sees its own hand, every public call and card, the scores, the nest only where the rules show
it (to the bidder once taken; to everyone under ``nest_seen_by: all``), and the discards only if it made
them. Everything a bot is ever told is built from a :class:`View`.
"""

from __future__ import annotations

import dataclasses

from rookarena.engine.actions import Action
from rookarena.engine.cards import Card, Color
from rookarena.engine.game import Game, Phase, Trick
from rookarena.engine.rules import NestSeenBy


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    seat: int
    hand_number: int
    dealer: int
    phase: Phase
    to_act: int | None
    scores: tuple[int, int]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    auction: tuple[tuple[int, Action], ...]
    high_bid: int | None
    bidder: int | None
    nest: tuple[Card, ...] | None
    discards: tuple[Card, ...] | None
    trump: Color | None
    tricks: tuple[Trick, ...]
    trick_leader: int | None
    trick: tuple[Card, ...]
    counters: tuple[int, int]  # counters won in tricks so far this hand, by team (the nest not included)


def view(game: Game, seat: int) -> View:
    """The view of ``seat`` of the game's current hand."""
    phase = game.phase
    auction_over = phase is not Phase.BIDDING
    bidder = game.bidder if auction_over else None
    nest_shown = (
        auction_over and game.bidder is not None and (seat == game.bidder or game.rules.nest_seen_by is NestSeenBy.ALL)
    )
    # When the game is over the state still holds its last hand, whose dealer did not move on.
    over = phase is Phase.OVER
    return View(
        seat=seat,
        hand_number=game.history[-1].number if over else game.hand_number,
        dealer=game.history[-1].dealer if over else game.dealer,
        phase=phase,
        to_act=None if over else game.to_act,
        scores=(game.scores[0], game.scores[1]),
        hand=tuple(game.hands[seat]),
        hand_sizes=tuple(len(hand) for hand in game.hands),
        auction=tuple(game.auction),
        high_bid=game.high_bid,
        bidder=bidder,
        nest=game.nest if nest_shown else None,
        discards=tuple(game.discards) if auction_over and seat == game.bidder else None,
        trump=game.trump,
        tricks=tuple(game.tricks),
        trick_leader=game.trick_leader if phase is Phase.PLAY else None,
        trick=tuple(game.trick_cards),
        counters=(game.taken[0], game.taken[1]),
    )
