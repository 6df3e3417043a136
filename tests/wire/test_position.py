"""The hand in progress at a fault: written by the referee, replayed exactly, refused when changed."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
import trio
from fakes import Misbehaving, Script, ScriptedSeat, reply
from fault_games import forfeited, stopped
from hypothesis import given, settings
from hypothesis import strategies as st
from record_schema import schema_errors

from rookarena.arena.referee import FaultPolicy, GameSetup, Referee, TimeControl
from rookarena.engine.presets import PRESETS
from rookarena.errors import RecordError
from rookarena.players import random_action
from rookarena.web.text import game_text, hand_text
from rookarena.wire import position, records


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**40), moves=st.integers(0, 120))
def test_a_hand_in_progress_replays_to_the_same_position(preset: str, seed: int, moves: int) -> None:
    record, game = stopped(preset, seed, moves)
    assert schema_errors(record) == []
    replayed = records.replay(records.loads(records.dumps(record)))
    assert position.hand_in_progress(replayed) == position.hand_in_progress(game)
    if not game.is_over:
        hand = record["unfinished"]
        assert hand["number"] == len(record["hands"]) + 1
        assert hand["to_act"] == game.to_act
        assert len(position.actions(hand, game.rules)) == position.decision_index(game)


def tampered() -> list[tuple[str, Any]]:
    return [
        ("a card played that was not", lambda h: h["trick"]["cards"].append("ROOK")),
        ("a call changed", lambda h: h["auction"][0].update(action="bid 120")),
        ("another seat to act", lambda h: h.update(to_act=(h["to_act"] + 1) % 4)),
        ("another deal", lambda h: h["deal"][0].reverse()),
        ("a trick's winner", lambda h: h["tricks"][0].update(winner=(h["tricks"][0]["winner"] + 1) % 4)),
        ("the phase", lambda h: h.update(phase="bidding")),
    ]


@pytest.mark.parametrize(("what", "change"), tampered(), ids=[what for what, _ in tampered()])
def test_a_changed_hand_in_progress_does_not_replay(what: str, change: Any) -> None:
    for seed in range(200):  # a game stopped in the middle of a trick after at least one trick
        record, _ = stopped("tournament", seed, 20 + seed % 25)
        hand = record.get("unfinished")
        if hand and hand.get("trick", {}).get("cards") and hand["tricks"] and hand["auction"]:
            break
    else:  # pragma: no cover
        pytest.fail("no seed stops in a trick")
    records.replay(record)
    bad = copy.deepcopy(record)
    change(bad["unfinished"])
    with pytest.raises(RecordError, match="unfinished"):
        records.replay(bad)


def test_a_finished_game_has_no_hand_in_progress() -> None:
    record, game = stopped("tournament", 3, 10_000)
    assert game.is_over and "unfinished" not in record
    bad = dict(record, unfinished=stopped("tournament", 3, 0)[0]["unfinished"])
    with pytest.raises(RecordError, match="unfinished"):
        records.replay(bad)


BAD_BOT = {"crash-mid": "closed", "garbage": "garbage", "illegal": "illegal"}  # tests/bots/bad_bot.py's modes


def random_script(seed: int) -> Script:
    rng = random.Random(seed)
    return lambda message: reply(message, rng.choice(message["legal"]))


def referee_game(mode: str, policy: FaultPolicy) -> dict[str, Any]:
    """A tournament game with two misbehaving seats (0 and 2) against random ones, on scripted seats."""
    rules = PRESETS["tournament"].rules
    setup = GameSetup(game_id="g1", rules=rules, rules_name="tournament", seed=11)

    def seat(number: int) -> ScriptedSeat:
        if number % 2 == 0:
            return ScriptedSeat(f"bad-{mode}", Misbehaving({4: BAD_BOT[mode]}))  # its fifth request
        return ScriptedSeat("random", random_script(number))

    seats = [seat(number) for number in range(4)]
    return trio.run(Referee(seats, setup, TimeControl(move=0.5), policy).play)


@pytest.mark.parametrize("mode", ["crash-mid", "illegal", "garbage"])
def test_the_referee_records_where_a_forfeit_happened(mode: str) -> None:
    record = referee_game(mode, FaultPolicy.FORFEIT)
    fault = record["faults"][-1]
    hand = record["unfinished"]
    assert hand["number"] == fault["hand"] == len(record["hands"]) + 1
    assert hand["to_act"] == fault["seat"]
    assert len(position.actions(hand, PRESETS["tournament"].rules)) == fault["decision"]
    assert fault["legal"] and all(isinstance(text, str) for text in fault["legal"])
    assert schema_errors(record) == []
    records.replay(record)


def test_a_substituted_fault_names_its_decision_in_a_recorded_hand() -> None:
    record = referee_game("illegal", FaultPolicy.SUBSTITUTE)
    assert "unfinished" not in record
    fault = record["faults"][0]
    hand = record["hands"][fault["hand"] - 1]
    rules = PRESETS["tournament"].rules
    acts = position.actions(dict(hand, trick=None), rules, "hand")
    assert fault["decision"] < len(acts)
    records.replay(record)


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**40))
def test_a_recorded_hand_cut_at_any_decision_is_the_engine_position(preset: str, seed: int) -> None:
    rules = PRESETS[preset].rules
    game = records.new_game(rules, seed)
    rng = random.Random(seed)
    snapshots: list[tuple[int, dict[str, Any], list[list[str]]]] = []
    while not game.is_over and len(game.history) < 3:
        now = position.hand_in_progress(game)
        assert now is not None
        held = [sorted(str(card) for card in cards) for cards in game.hands]
        snapshots.append((position.decision_index(game), now, held))
        game.apply(random_action(game.legal_actions(), rng))
    record = records.build(game, seed=seed, rules_name=preset, seats=["a", "b", "c", "d"])
    order = rules.nest_order.value
    for decision, now, cards in snapshots:
        hand = record["hands"][now["number"] - 1]
        part = position.cut(hand, order, decision)
        assert part == {key: value for key, value in now.items() if key not in ("to_act", "phase")}
        assert [sorted(position.held(part, seat)) for seat in range(4)] == cards
        assert position.cut(now, order, decision) == part


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**40), moves=st.integers(0, 100))
def test_show_prints_the_position_of_a_forfeit_and_only_to_whom_may_see_it(preset: str, seed: int, moves: int) -> None:
    record = forfeited(preset, seed, moves)
    if "unfinished" not in record:
        return
    records.replay(record)
    hand, fault = record["unfinished"], record["faults"][0]
    rules = record["rules"]
    text = game_text(record)
    assert f"hand {hand['number']}, dealer seat {hand['dealer']}, stopped by the fault" in text
    assert f"in hand {hand['number']} (forfeit" in text
    held = hand_text(position.held(hand, fault["seat"]), rules)
    assert f"at the fault: seat {fault['seat']} was asked" in text and held in text
    for seat in range(4):
        seen = game_text(record, seat=seat)
        mine = position.held(hand, seat)
        assert hand_text(mine, rules) in seen
        assert ("at the fault" in seen) == (seat == fault["seat"])
        for other in range(4):
            theirs = position.held(hand, other)
            if other != seat and theirs:
                assert f"seat {other} {record['seats'][other]:<14} {len(theirs)} cards" in seen
