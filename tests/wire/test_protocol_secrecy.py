"""No message the referee sends to a seat names a card that seat may not know.

Games are driven in-process through exactly the message builders the referee uses (start of hand,
requests, notifications); every card string in every message to a seat is checked against what that
seat may know at that moment.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from rookarena.engine.cards import Card
from rookarena.engine.game import Game, Phase
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import NestSeenBy
from rookarena.players import random_action
from rookarena.wire import records
from rookarena.wire.messages import act_message, after_action, deal_messages


def card_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        try:
            Card.parse(value)
        except ValueError:
            words = value.split()
            if len(words) == 2 and words[0] in ("play", "discard"):
                yield words[1]
        else:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def forbidden(game: Game, seat: int) -> set[str]:
    """Cards ``seat`` may not see now: other hands, others' discards, and a nest not shown to it."""
    hidden = {str(card) for other in range(4) if other != seat for card in game.hands[other]}
    auction_over = game.phase is not Phase.BIDDING
    nest_public = auction_over and game.bidder is not None and game.rules.nest_seen_by is NestSeenBy.ALL
    if seat != game.bidder or not auction_over:
        hidden |= {str(card) for card in game.discards}
        if not nest_public:
            hidden |= {str(card) for card in game.nest}
    if nest_public:
        # Shown to all when taken: public, even the ones the bidder then discards (which ones those
        # are stays hidden: a non-bidder's view has no discards).
        hidden -= {str(card) for card in game.nest}
    played = {str(card) for trick in game.tricks for card in trick.cards} | {str(c) for c in game.trick_cards}
    return hidden - played


def check(messages: list[dict[str, Any]], game: Game, seat: int) -> None:
    bad = forbidden(game, seat)
    for message in messages:
        leaked = set(card_strings(message)) & bad
        assert not leaked, f"seat {seat} was told {sorted(leaked)} in {message['type']}: {message}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_messages_never_leak_hidden_cards(name: str) -> None:
    rules = PRESETS[name].rules
    hands = 0
    for seed in range(8):
        game = records.new_game(rules, seed)
        rng = random.Random(seed)
        for seat, message in enumerate(deal_messages(game)):
            check([message], game, seat)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            request = act_message(game, seat, legal, 1000, 0)
            check([request], game, seat)
            assert request["view"]["discards"] is None or seat == game.bidder
            action = random_action(legal, rng)
            before = (len(game.history), len(game.tricks))
            game.apply(action)
            hand_ended = len(game.history) > before[0]
            for target, messages in enumerate(after_action(game, seat, action, *before)):
                if not hand_ended:
                    check(messages, game, target)
                    continue
                # The hand is over: its news names only cards played in public (or none, for a redeal);
                # the deal of the next hand is checked against the new hands.
                for message in messages:
                    if message["type"] == "deal":
                        check([message], game, target)
                    elif message["type"] in ("hand_over", "game_over"):
                        assert list(card_strings(message)) == []
                    else:
                        assert message["type"] in ("played", "trick"), message
                        last = game.history[-1]
                        public = {str(card) for trick in last.tricks for card in trick.cards}
                        assert set(card_strings(message)) <= public
        hands += len(game.history)
    assert hands > 30


def test_the_check_catches_a_leak() -> None:
    rules = PRESETS["tournament"].rules
    game = records.new_game(rules, 1)
    other = game.hands[1][0]
    with pytest.raises(AssertionError, match="was told"):
        check([{"type": "deal", "hand": [str(other)]}], game, 0)
