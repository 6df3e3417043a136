"""Whole games between in-process players, fed the messages a referee would send them.

For tests and benchmarks of the built-in players without processes: each seat's player gets the
``game`` message and, for each decision, the ``act`` request with its view, built by
:mod:`rookarena.wire.messages` exactly as the referee builds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rookarena.engine.game import Game
from rookarena.engine.rules import Rules
from rookarena.engine.views import view
from rookarena.players.base import Deadline, Player
from rookarena.wire import records
from rookarena.wire.messages import view_json

Check = Callable[[Game, int, str, list[str]], None]


def play_game(
    rules: Rules,
    seed: int,
    players: Sequence[Player],
    *,
    first_dealer: int = 0,
    game_id: str = "game",
    deadline: Callable[[], Deadline] = Deadline.never,
    check: Check | None = None,
    hands: int | None = None,
) -> Game:
    """Play one game, seat ``s`` played by ``players[s]``; ``check`` sees every decision before it is applied.
    With ``hands``, play stops after that many hands (redeals included) if the game has not ended before."""
    game = records.new_game(rules, seed, first_dealer)
    names = [player.name for player in players]
    for seat, player in enumerate(players):
        player.start_game(
            {
                "type": "game",
                "game": game_id,
                "seed": seed,
                "seat": seat,
                "team": seat % 2,
                "players": names,
                "rules_name": "rules",
                "rules": rules.to_mapping(),
                "first_dealer": first_dealer,
            }
        )
    while not game.is_over and (hands is None or len(game.history) < hands):
        seat = game.to_act
        legal = game.legal_actions()
        texts = [str(action) for action in legal]
        request = {
            "type": "act",
            "deadline_ms": 1000,
            "bank_ms": 0,
            "legal": texts,
            "view": view_json(view(game, seat)),
        }
        answer = players[seat].act(request, deadline())
        if check is not None:
            check(game, seat, answer, texts)
        game.apply(legal[texts.index(answer)], known_legal=True)
    return game
