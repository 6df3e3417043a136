"""Random in-process games and the summary figures of a batch of records."""

from __future__ import annotations

from typing import Any

import pytest

from rookarena.engine.presets import PRESETS, preset
from rookarena.players.simulate import Summary, random_game, summarize
from rookarena.wire import records
from rookarena.wire.records import derive_seed


def test_derive_seed_is_pinned_and_63_bits() -> None:
    # sha256("1/0"), first 8 bytes, shifted right by one: the same on every machine and Python version.
    assert derive_seed(1, 0) == 0x18D6E1CAC2A8ADAF >> 1
    seeds = {derive_seed(base, *parts) for base in (0, 1, 2) for parts in [(), (0,), (1,), ("players",), (0, 1)]}
    assert len(seeds) == 15
    assert all(0 <= seed < 2**63 for seed in seeds)


def test_random_game_depends_only_on_its_seed() -> None:
    rules = preset("tournament").rules
    first = random_game(rules, 11, "tournament")
    assert random_game(rules, 11, "tournament") == first
    assert random_game(rules, 12, "tournament")["hands"][0]["deal"] != first["hands"][0]["deal"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_games_finish_and_are_labelled(name: str) -> None:
    record = random_game(preset(name).rules, 4, name)
    assert record["seed"] == 4 and record["rules_name"] == name
    assert record["seats"] == ["random"] * 4
    assert record["result"] is not None
    assert record["result"]["hands"] == len(record["hands"])
    assert record["result"]["scores"] == record["hands"][-1]["scores"]


def _hand(bid: int | None = None, made: bool | None = None) -> dict[str, Any]:
    if bid is None:
        return {"bidder": None, "bid": None, "redeal": True}
    return {"bidder": 0, "bid": bid, "made": made}


def test_summarize_a_hand_built_batch() -> None:
    batch: list[dict[str, Any]] = [
        {"hands": [_hand(), _hand(80, True), _hand(100, False)], "result": {"winner": 1}},
        {"hands": [_hand(70, True)], "result": {"winner": 1}},
        {"hands": [_hand(90, False), _hand()], "result": {"winner": 0}},
        {"hands": [_hand(120, True)], "result": {"winner": None}},  # a draw at the hand limit
        {"hands": [], "result": None},  # a game that never ended counts as a draw
    ]
    assert summarize(batch) == Summary(
        games=5,
        hands=7,
        redeals=2,
        average_bid=(80 + 100 + 70 + 90 + 120) / 5,
        bids_made=3,
        bids=5,
        wins=(1, 2),
        draws=2,
    )


def test_summarize_nothing() -> None:
    assert summarize([]) == Summary(0, 0, 0, 0.0, 0, 0, (0, 0), 0)


def test_summary_agrees_with_the_records() -> None:
    rules = preset("tournament").rules
    batch = [random_game(rules, derive_seed(5, index), "tournament") for index in range(12)]
    summary = summarize(batch)
    hands = [hand for record in batch for hand in record["hands"]]
    played = [hand for hand in hands if hand["bidder"] is not None]
    assert summary.games == 12
    assert summary.wins[0] + summary.wins[1] + summary.draws == summary.games
    assert summary.hands == len(hands) == summary.bids + summary.redeals
    assert summary.bids_made == sum(hand["made"] for hand in played)
    assert summary.average_bid == pytest.approx(sum(hand["bid"] for hand in played) / len(played))
    winners = [record["result"]["winner"] for record in batch]
    assert summary.wins == (winners.count(0), winners.count(1))
    for record in batch:
        records.replay(record)
