"""Every fault the referee records on a request is placed at the position its seat was asked at.

Seats misbehave at generated requests, in generated ways (garbage, an illegal action, a reply under the
wrong key, a legal action in the wrong case, a stale id, a reply past the deadline, output closed), under every preset
and both fault policies, against scripted seats (no process). For each fault the record's position is
checked against the request the seat was really sent: the same hand, the same legal actions, the same
cards held; ``show`` says it for the faulting seat only, and the record replays and fits its schema.
"""

from __future__ import annotations

import trio
from fakes import KINDS, Misbehaving, ScriptedSeat
from hypothesis import given, settings
from hypothesis import strategies as st
from record_schema import schema_errors

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.presets import PRESETS
from rookarena.web.text import game_text
from rookarena.wire import position, records

MOVE = 0.5  # seconds a decision may take


plans = st.dictionaries(st.integers(0, 60), st.sampled_from(KINDS), max_size=3)


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32),
    policy=st.sampled_from([FaultPolicy.FORFEIT, FaultPolicy.SUBSTITUTE]),
    seat_plans=st.lists(plans, min_size=4, max_size=4),
)
def test_each_fault_is_placed_where_its_seat_was_asked(
    preset: str, seed: int, policy: FaultPolicy, seat_plans: list[dict[int, str]]
) -> None:
    scripts = [Misbehaving(plan) for plan in seat_plans]
    seats = [ScriptedSeat(f"bot{n}", script) for n, script in enumerate(scripts)]
    setup = GameSetup(game_id="g1", rules=PRESETS[preset].rules, rules_name=preset, seed=seed)
    record = trio.run(Referee(seats, setup, TimeControl(move=MOVE), policy).play)
    assert schema_errors(record) == []
    records.replay(records.loads(records.dumps(record)))
    shown = game_text(record)
    placed = {seat: 0 for seat in range(4)}
    for fault in record["faults"]:
        seat = fault["seat"]
        asked = scripts[seat].wronged[placed[seat]]  # the request this fault answered
        placed[seat] += 1
        view = asked["view"]
        assert fault["hand"] == view["hand_number"]
        assert fault["legal"] == asked["legal"]
        part = position.fault_part(record, fault)
        assert part is not None, fault
        assert sorted(position.held(part, seat)) == sorted(view["hand"])
        where = position.fault_where(record, fault)
        assert where.startswith(f"seat {seat} was asked ")
        assert f"at the fault: {where}" in shown
        for other in range(4):
            assert (where in game_text(record, seat=other)) == (other == seat)
    for seat, script in enumerate(scripts):
        if policy is FaultPolicy.SUBSTITUTE or not record.get("forfeit"):
            # every wrong answer is a fault, but after a closed output nothing is asked again
            assert placed[seat] == len(script.wronged), (seat, script.plan, record["faults"])
    if record.get("forfeit"):
        assert record["unfinished"]["number"] == record["faults"][-1]["hand"]
