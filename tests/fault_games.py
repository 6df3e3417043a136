"""Games stopped part-way through, as the referee records a forfeit: for the tests of the position at a
fault (records, show, the viewer, the terminal's fault lines)."""

from __future__ import annotations

import random
from typing import Any

from rookarena.engine.presets import PRESETS
from rookarena.players import random_action
from rookarena.wire import position, records


def stopped(preset: str, seed: int, moves: int) -> tuple[dict[str, Any], Any]:
    """A game of random play stopped after ``moves`` actions, recorded with its hand in progress."""
    rules = PRESETS[preset].rules
    game = records.new_game(rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(random_action(game.legal_actions(), rng))
    record = records.build(game, seed=seed, rules_name=preset, seats=["a", "b", "c", "d"])
    record.update(position.unfinished(game))
    return record, game


def forfeited(preset: str, seed: int, moves: int) -> dict[str, Any]:
    """A stopped game's record with the fault of its seat to act, as the referee writes one."""
    record, game = stopped(preset, seed, moves)
    if game.is_over:
        return record
    seat = game.to_act
    fault = {"seat": seat, "bot": "abc"[seat % 3], "kind": "crash", "detail": "exited with status 1", "line": ""}
    fault.update(hand=game.hand_number, **position.fault_position(game, game.legal_actions()))
    record.update(faults=[fault], forfeit={"seat": seat, "team": seat % 2, "kind": "crash"})
    record["result"] = {
        "winner": 1 - seat % 2,
        "scores": list(game.scores),
        "hands": len(game.history),
        "reason": "forfeit",
    }
    return record
