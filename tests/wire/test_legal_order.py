"""The order of ``legal`` is the one PROTOCOL.md §5 states, in every phase of random games of every preset:
calls with ``pass`` first (where allowed), then the bids from the lowest; trump colours R G B Y; discards and
plays in the order of the seat's hand, the Rook allowed to come last where it is played off its suit."""

from __future__ import annotations

import random

import pytest

from rookarena.engine.cards import ROOK
from rookarena.engine.game import Game, Phase
from rookarena.engine.presets import PRESETS
from rookarena.players import random_action


def in_hand_order(cards: list[str], hand: list[str]) -> bool:
    ranks = [hand.index(card) for card in cards]
    rest = ranks[:-1] if cards and cards[-1] == str(ROOK) else ranks  # the Rook may close the list
    return rest == sorted(rest) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seed", range(6))
def test_legal_comes_in_the_documented_order(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(PRESETS[preset].rules, random.Random(seed))
    seen = set()
    while game.phase is not Phase.OVER:
        legal = [str(action) for action in game.legal_actions()]
        hand = [str(card) for card in game.hands[game.to_act]]
        phase = game.phase
        seen.add(phase)
        if phase is Phase.BIDDING:
            bids = [int(call.split()[1]) for call in legal if call != "pass"]
            assert legal[: legal.count("pass")] == ["pass"] * legal.count("pass") and legal.count("pass") <= 1
            assert bids == sorted(bids) and len(bids) == len(set(bids)), legal
        elif phase is Phase.TRUMP:
            assert legal == ["trump R", "trump G", "trump B", "trump Y"]
        else:
            assert in_hand_order([action.split()[1] for action in legal], hand), (legal, hand)
        game.apply(random_action(game.legal_actions(), rng))
    assert {Phase.BIDDING, Phase.TRUMP, Phase.DISCARD, Phase.PLAY} <= seen
