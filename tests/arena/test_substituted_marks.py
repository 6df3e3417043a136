"""diff marks exactly the decisions the referee played in a faulting bot's place (the record's null
``decision_ms``), not every decision of the hand of its first fault and after (all 187 of a game had been
marked, the seat's first bid among them)."""

from __future__ import annotations

import random

import fault_games
import pytest
from fakes import KINDS, Misbehaving, ScriptedSeat

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.wire import transcript
from rookarena.wire.transcript import Decision, News


@pytest.mark.parametrize("seed", range(8))
async def test_the_marked_decisions_are_those_the_referee_played(seed: int) -> None:
    rng = random.Random(seed)
    kinds = [kind for kind in KINDS if kind != "closed"]
    plan = {number: rng.choice(kinds) for number in rng.sample(range(4, 60), rng.randint(1, 4))}
    seats = [ScriptedSeat("odd", Misbehaving(plan)), ScriptedSeat("a"), ScriptedSeat("b"), ScriptedSeat("c")]
    setup = GameSetup(game_id="g1", rules=TOURNAMENT, rules_name="tournament", seed=seed)
    record = await Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.SUBSTITUTE).play()
    played_for = {
        (seat, number)
        for seat, times in enumerate(record["decision_ms"])
        for number, ms in enumerate(times)
        if ms is None
    }
    marked, count = set(), [0] * 4
    for step in transcript.script(record, range(4)):
        if isinstance(step, Decision):
            if step.suspect:
                marked.add((step.seat, count[step.seat]))
            count[step.seat] += 1
    assert played_for, "the referee played no decision for the seat: the case tests nothing"
    assert marked == played_for, (plan, record["faults"])
    assert all(seat == 0 for seat, _ in marked)


@pytest.mark.parametrize("seed", range(10))
def test_a_game_forfeited_mid_hand_asks_the_decisions_of_its_unfinished_hand(seed: int) -> None:
    """diff asks every decision OLD made, those of the hand a forfeit stopped included: a game forfeited
    during its first hand had been left out whole ('played no game that can be replayed'), and the
    decisions of the hand in progress at a forfeit were never asked."""
    moves = random.Random(seed).randrange(1, 60)
    record = fault_games.forfeited("tournament", seed, moves)
    assert "forfeit" in record  # 60 random actions never end a tournament game
    record["bots"] = [{"name": name} for name in record["seats"]]
    assert transcript.playable(record)
    steps = list(transcript.script(record, range(4)))
    asked = [step for step in steps if isinstance(step, Decision)]
    assert len(asked) == moves  # every action of the record, each a decision of the seat that made it
    assert asked[-1].hand == len(record["hands"]) + 1
    last = steps[-1]
    assert isinstance(last, News) and b'"type":"game_over"' in last.data


def test_a_game_forfeited_at_its_first_request_has_nothing_to_ask() -> None:
    record = fault_games.forfeited("tournament", 3, 0)
    record["bots"] = [{"name": name} for name in record["seats"]]
    assert not transcript.playable(record)
