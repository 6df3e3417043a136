"""Standings, crosstable and head-to-head from a small hand-built league, every figure worked by hand."""

from __future__ import annotations

import ast
import itertools
import math
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import assume as hypothesis_assume
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.results import export, ratings, standings, stats, store, tables
from rookarena.results.standings import Cell, Standing
from rookarena.results.store import GameResult, ResultStore

Record = dict[str, Any]
Hand = tuple[int | None, int, bool]  # (bidder seat or None for a redeal, bid, made)


def record(
    teams: Sequence[str] | None,
    scores: Sequence[int],
    winner: int | None,
    *,
    hands: Sequence[Hand] = (),
    faults: Sequence[tuple[int, str]] = (),
    deal: int | None = None,
    swapped: bool = False,
    league: str = "L",
    seats: Sequence[str] | None = None,
    seed: int | None = None,
    result: bool = True,
) -> Record:
    """A minimal record: only the fields the standings read (``deal=None``: no ``league`` field)."""
    out: Record = {
        "seed": seed,
        "seats": list(seats) if seats is not None else [teams[0], teams[1]] * 2 if teams else ["?"] * 4,
        "hands": [
            {"bidder": None, "bid": None, "redeal": True, "scores": list(scores)}
            if bidder is None
            else {"bidder": bidder, "bid": bid, "made": made, "scores": list(scores)}
            for bidder, bid, made in hands
        ],
        "faults": [{"seat": seat, "bot": "?", "kind": kind} for seat, kind in faults],
        "result": {"winner": winner, "scores": list(scores), "hands": len(hands), "reason": "test"} if result else None,
    }
    if teams is not None:
        out["teams"] = list(teams)
    if deal is not None:
        assert teams is not None
        out["league"] = {"name": league, "pairing": sorted(teams), "deal": deal, "swapped": swapped, "index": 0}
    return out


# A league of three entries with duplicate deals. Team 0 sits at seats 0 and 2, team 1 at 1 and 3.
LEAGUE = [
    # g1: A (team 0) beats B 320-150. A bid 100 and made it; B bid 80 and was set; a redeal.
    record(["A", "B"], [320, 150], 0, hands=[(0, 100, True), (1, 80, False), (None, 0, False)], deal=0),
    # g2: the same cards, swapped: B (team 0) beats A 310-200. B made 90; A was set at 120.
    record(["B", "A"], [310, 200], 0, hands=[(2, 90, True), (3, 120, False)], deal=0, swapped=True),
    # g3: A and C draw 250-250 at the hand limit; C made 70.
    record(["A", "C"], [250, 250], None, hands=[(1, 70, True)], deal=0),
    # g4: the same cards, swapped: C was set at 75, A made 80, then seat 1 (A) timed out: forfeit, C wins.
    record(
        ["C", "A"],
        [-35, 125],
        0,
        hands=[(0, 75, False), (1, 80, True)],
        faults=[(1, "timeout")],
        deal=0,
        swapped=True,
    ),
    # g5: B beats C 300-100; B made 100, C was set at 85; faults: seat 0 and 2 (B), seat 3 (C).
    record(
        ["B", "C"],
        [300, 100],
        0,
        hands=[(0, 100, True), (3, 85, False)],
        faults=[(0, "malformed"), (3, "crash"), (2, "timeout")],
        deal=0,
    ),
    # g6: deal 1 of B-C, whose second game was not played: C (team 1) wins 305-180; C made 95.
    record(["B", "C"], [180, 305], 1, hands=[(1, 95, True)], deal=1),
]


def by_name(rows: list[Standing]) -> dict[str, Standing]:
    return {row.name: row for row in rows}


@pytest.mark.parametrize("module", [standings, store], ids=["standings", "store"])
def test_standings_module_is_pure(module: ModuleType) -> None:
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert modules <= {
        "__future__",
        "array",
        "dataclasses",
        "itertools",
        "collections",
        "collections.abc",
        "typing",
        "rookarena",
        "rookarena.results",
        "rookarena.results.store",
    }


def test_results_and_points() -> None:
    rows = by_name(standings.standings(LEAGUE))
    # A: g1 W, g2 L, g3 D, g4 L (forfeit) → 1-1-2, score 1.5; for 320+200+250+125 = 895, against
    #    150+310+250−35 = 675.
    # B: g1 L, g2 W, g5 W, g6 L → 2-0-2, score 2; for 150+310+300+180 = 940, against 320+200+100+305 = 925.
    # C: g3 D, g4 W, g5 L, g6 W → 2-1-1, score 2.5; for 250−35+100+305 = 620, against 250+125+300+180 = 855.
    expected = {
        "A": (4, 1, 2, 1, 1.5, 895 / 4, 675 / 4),
        "B": (4, 2, 2, 0, 2.0, 940 / 4, 925 / 4),
        "C": (4, 2, 1, 1, 2.5, 620 / 4, 855 / 4),
    }
    for name, (games, wins, losses, draws, score, pts_for, pts_against) in expected.items():
        row = rows[name]
        assert (row.games, row.wins, row.losses, row.draws, row.score) == (games, wins, losses, draws, score)
        assert (row.points_for, row.points_against) == (pts_for, pts_against)
        assert row.win_rate == stats.wilson(score, games)
    # Wilson for B's 2 of 4 (worked in test_stats): [0.1500390, 0.8499610].
    assert rows["B"].win_rate.estimate == 0.5
    assert rows["B"].win_rate.lo == pytest.approx(0.1500390, abs=1e-7)


def test_bids_and_faults() -> None:
    rows = by_name(standings.standings(LEAGUE))
    # A bid 100 (made, g1), 120 (set, g2), 80 (made, g4): 3 won, 2 made, 1 set, average 100;
    #   its opponents were set twice (B at 80 in g1, C at 75 in g4).
    # B bid 80 (set, g1), 90 (made, g2), 100 (made, g5): average 90; opponents set: A at 120, C at 85.
    # C bid 70 (made, g3), 75 (set, g4), 85 (set, g5), 95 (made, g6): average 81.25; opponents never set.
    expected = {
        "A": (3, 2, 1, 2, 100.0, 2 / 3, (("timeout", 1),)),
        "B": (3, 2, 1, 2, 90.0, 2 / 3, (("malformed", 1), ("timeout", 1))),
        "C": (4, 2, 2, 0, 81.25, 0.5, (("crash", 1),)),
    }
    for name, (won, made, sets, opp_set, avg, rate, faults) in expected.items():
        row = rows[name]
        assert (row.bids_won, row.bids_made, row.sets, row.opponents_set) == (won, made, sets, opp_set)
        assert (row.average_bid, row.made_rate, row.faults) == (avg, rate, faults)


def test_duplicate_differences() -> None:
    rows = by_name(standings.standings(LEAGUE))
    # A-B deal 0: A (320 − 150) + (200 − 310) = +60. A-C deal 0: A (250 − 250) + (125 − (−35)) = +160.
    # B-C has one game of each deal: no pair.
    # A: [60, 160] → mean 110, sd 70.71, se 50, half-width t(0.975, 1)·50 = 12.7062047·50 = 635.3102.
    a = rows["A"].duplicate
    assert a is not None
    assert (a.n, a.mean) == (2, 110)
    assert a.half_width == pytest.approx(635.3102368, abs=1e-6)
    assert rows["B"].duplicate == stats.MeanInterval(1, -60, math.inf)
    assert rows["C"].duplicate == stats.MeanInterval(1, -160, math.inf)
    pairs = standings.duplicate_pairs(store.game_results(LEAGUE))
    assert [(p.record is LEAGUE[0], q.record is LEAGUE[1]) for p, q in pairs[:1]] == [(True, True)]
    assert len(pairs) == 2


def test_ratings_and_ranking() -> None:
    rows = standings.standings(LEAGUE)
    # With duplicate pairs the units are the pairs: A-B deal 0 (A 1 of 2), A-C deal 0 (A 0.5 of 2), and
    # B-C's two games of different deals, one cluster each; the errors are the cluster-robust ones.
    fit = ratings.bradley_terry_clustered([("A", "B", 1.0, 2), ("A", "C", 0.5, 2), ("B", "C", 1, 1), ("B", "C", 0, 1)])
    for row in rows:
        assert row.rating == fit[row.name]
    assert {row.name: row.pairs for row in rows} == {"A": 2, "B": 1, "C": 1}
    # The fit itself is the one over games.
    games = ratings.bradley_terry(
        [("A", "B", 1), ("B", "A", 1), ("A", "C", 0.5), ("C", "A", 1), ("B", "C", 1), ("B", "C", 0)]
    )
    for row in rows:
        assert row.rating.elo == pytest.approx(games[row.name].elo, abs=1e-9)
    # C took 1.5 of 2 from A and split with B; B split with both; A took 0.5 of 2 from C.
    assert [(row.rank, row.name) for row in rows] == [(1, "C"), (2, "B"), (3, "A")]
    assert rows[0].rating.elo > rows[1].rating.elo > rows[2].rating.elo


def test_ties_share_a_rank_and_a_prior_can_be_chosen() -> None:
    split = [record(["B", "A"], [300, 0], 0), record(["A", "B"], [300, 0], 0)]
    rows = standings.standings(split)
    assert [(row.rank, row.name) for row in rows] == [(1, "A"), (1, "B")]  # equal figures: one rank, by name
    assert [line.split()[0] for line in tables.standings_table(rows, "plain").splitlines()[1:3]] == ["1=", "1="]
    assert [r["rank"] for r in export.standings_json(rows)["standings"]] == [1, 1]
    assert [line.split(",")[0] for line in export.standings_csv(rows).splitlines()[1:]] == ["1", "1"]
    assert rows[0].rating.elo == rows[1].rating.elo == 0
    assert rows[0].duplicate is None  # no league field and no seed: no pairs
    # Without a prior, a split pair still has finite ratings; an unbeaten entry does not.
    assert standings.standings(split, prior_draws=0)[0].rating.elo == pytest.approx(0)
    with pytest.raises(ValueError, match="prior_draws"):
        standings.standings(split[:1], prior_draws=0)


def test_null_results_self_play_and_seat_names() -> None:
    games = [
        # No result: a draw, the points those of the last hand.
        record(["A", "B"], [40, 60], None, hands=[(1, 70, True)], result=False),
        # An entry against itself is left out.
        record(["A", "A"], [300, 0], 0),
        # No teams: named by the bots at seats 0 and 1.
        record(None, [0, 300], 1, seats=["B", "A", "B", "A"]),
    ]
    rows = by_name(standings.standings(games))
    a = rows["A"]
    assert (a.games, a.wins, a.draws, a.losses) == (2, 1, 1, 0)
    assert (a.points_for, a.points_against) == ((40 + 300) / 2, (60 + 0) / 2)
    assert set(rows) == {"A", "B"}
    assert standings.standings([]) == []


def test_crosstable() -> None:
    order = [row.name for row in standings.standings(LEAGUE)]
    table = standings.crosstable(LEAGUE, order)
    assert table.entries == ("C", "B", "A")
    # A-B: 1 win each. A-C: a draw and C's forfeit win. B-C: one win each.
    assert table.cell("A", "B") == Cell(1, 0, 1)
    assert table.cell("B", "A") == Cell(1, 0, 1)
    assert table.cell("A", "C") == Cell(0, 1, 1)
    assert table.cell("C", "A") == Cell(1, 1, 0)
    assert table.cell("B", "C") == Cell(1, 0, 1)
    assert table.cell("A", "A") == Cell()
    assert table.cell("A", "C").score_rate == 0.25
    assert table.cell("C", "A").score_rate == 0.75
    assert Cell().score_rate is None
    assert standings.crosstable(LEAGUE).entries == ("A", "B", "C")
    with pytest.raises(ValueError, match=r"order lacks \['C'\]"):
        standings.crosstable(LEAGUE, ["A", "B"])


def test_head_to_head_in_a_league() -> None:
    h = standings.head_to_head(LEAGUE, "A", "C")
    # g3 draw 250-250, g4 forfeit lost with 125 to −35: 0 W, 1 D, 1 L, points (250 + 125)/2, (250 − 35)/2.
    assert (h.games, h.wins, h.draws, h.losses) == (2, 0, 1, 1)
    assert (h.points_for, h.points_against) == (187.5, 107.5)
    assert h.win_rate == stats.wilson(0.5, 2)
    # One deal pair: the units are pairs, and one pair has no spread, so the interval is the Wilson
    # interval of the score (0.5 of 2) mapped to Elo, and the LOS that of the games, Φ((0 − 1)/√1).
    assert h.pairs == 1
    bounds = stats.wilson(0.5, 2)
    assert h.elo.elo == pytest.approx(-190.8485, abs=1e-4)
    assert (h.elo.lo, h.elo.hi) == (stats.elo_from_score(bounds.lo), stats.elo_from_score(bounds.hi))
    assert h.los == pytest.approx(0.1586553, abs=1e-7)
    assert h.duplicate == stats.MeanInterval(1, 160, math.inf)
    # From the other side.
    c = standings.head_to_head(LEAGUE, "C", "A")
    assert (c.wins, c.draws, c.losses) == (1, 1, 0)
    assert c.los == pytest.approx(1 - 0.1586553, abs=1e-7)
    assert c.duplicate == stats.MeanInterval(1, -160, math.inf)
    assert standings.game_scores(LEAGUE, "A", "C") == [0.5, 0.0]


def test_head_to_head_of_match_records_pairs_deals_by_seed() -> None:
    # Records without ``teams`` or ``league``: the teams are the bots at seats 0 and 1, a deal pair is
    # two games with the same seed and the entries swapped.
    x_first, y_first = ["X", "Y", "X", "Y"], ["Y", "X", "Y", "X"]
    games = [
        record(None, [300, 200], 0, seats=x_first, seed=5),  # X wins
        record(None, [310, 240], 0, seats=y_first, seed=5),  # Y wins
        record(None, [305, 100], 0, seats=x_first, seed=6),  # X wins
        record(None, [150, 300], 1, seats=y_first, seed=6),  # X wins
        record(None, [100, 300], 1, seats=x_first, seed=7),  # Y wins; its pair was not played
    ]
    h = standings.head_to_head(games, "X", "Y")
    assert (h.games, h.wins, h.draws, h.losses) == (5, 3, 0, 2)
    # Seed 5: (300 − 200) + (240 − 310) = 30. Seed 6: (305 − 100) + (300 − 150) = 355.
    # mean 192.5, sd = √(2·162.5²) = 229.81, se = 162.5, half-width 12.7062047·162.5 = 2064.7583
    assert h.duplicate is not None
    assert (h.duplicate.n, h.duplicate.mean) == (2, 192.5)
    assert h.duplicate.half_width == pytest.approx(2064.7582696, abs=1e-6)
    # Elo from 3-0-2: s = 0.6, elo = −400·log10(1/0.6 − 1) = 70.4365. The units are the two pairs
    # (X scored 1 and 2 of 2) and the lone game (0 of 1): Σ (S − n·m)² = 0.2² + 0.8² + 0.6² = 1.04,
    # var = 1.04 / 5² = 0.0416, se = 0.2039608; interval 0.6 ± 1.959964·0.2039608 = [0.2002442, 0.9997558];
    # LOS Φ(0.1 / 0.2039608) = Φ(0.4902903) = 0.6880358 (scipy.stats.norm.cdf).
    assert h.pairs == 2
    assert h.elo.elo == pytest.approx(70.4365, abs=1e-4)
    assert h.elo.lo == pytest.approx(-400 * math.log10(1 / 0.2002442 - 1), abs=1e-3)
    assert h.elo.hi == pytest.approx(-400 * math.log10(1 / 0.9997558 - 1), abs=1e-1)
    assert h.los == pytest.approx(0.6880358, abs=1e-7)
    assert standings.game_scores(games, "X", "Y") == [1.0, 0.0, 1.0, 1.0, 0.0]


def test_head_to_head_without_games() -> None:
    h = standings.head_to_head(LEAGUE, "A", "Z")
    assert (h.games, h.points_for, h.duplicate, h.los) == (0, 0.0, None, 0.5)
    assert h.win_rate == stats.Interval(0.5, 0.0, 1.0)
    with pytest.raises(ValueError, match="two different entries"):
        standings.head_to_head(LEAGUE, "A", "A")


def forfeited(teams: list[str], deal: int, swapped: bool, loser: int) -> Record:
    """A game forfeited before its first hand: 0-0, the forfeiting team (``loser``) loses."""
    out = record(teams, [0, 0], 1 - loser, deal=deal, swapped=swapped, faults=[(loser, "crash")])
    out["forfeit"] = {"seat": loser, "team": loser, "kind": "crash"}
    return out


def test_a_bot_that_only_forfeits_has_no_points_difference() -> None:
    # "dead" crashes at the start of every game: its 0-0 games say nothing about points.
    games = []
    for deal in range(4):
        games.append(forfeited(["live", "dead"], deal, False, loser=1))
        games.append(forfeited(["dead", "live"], deal, True, loser=0))
    rows = by_name(standings.standings(games))
    assert rows["dead"].duplicate is None and rows["live"].duplicate is None
    assert (rows["live"].wins, rows["dead"].losses, rows["dead"].pairs) == (8, 8, 4)
    assert rows["live"].rating.elo > 0 > rows["dead"].rating.elo
    assert rows["dead"].rating.error > 0
    h = standings.head_to_head(games, "dead", "live")
    assert h.duplicate is None and h.elo.hi < 0


def test_equal_figures_rank_by_name_whatever_the_order_of_the_records() -> None:
    # "zeta" and "alpha" have the same results against "mid" (a pair split each way): equal ratings
    # up to rounding noise, which must not decide; the name does.
    games = []
    for deal, first in enumerate(["zeta", "alpha", "zeta", "alpha"]):
        games.append(record([first, "mid"], [300, 100], 0, deal=deal))
        games.append(record(["mid", first], [300, 100], 0, deal=deal, swapped=True))
    games.append(record(["zeta", "mid"], [300, 100], 0, deal=9))
    games.append(record(["alpha", "mid"], [300, 100], 0, deal=8))
    for order in (games, games[::-1]):
        rows = standings.standings(order)
        assert [row.name for row in rows] == ["alpha", "zeta", "mid"]
        assert rows[0].rating.elo == pytest.approx(rows[1].rating.elo, abs=1e-9)


def test_pair_outcome_from_either_side() -> None:
    first, second = LEAGUE[0], LEAGUE[1]
    # A-B deal 0: A wins g1, loses g2 → 1 of 2; points +60 for A.
    assert standings.pair_outcome(first, second, "A") == (1.0, 60)
    assert standings.pair_outcome(first, second, "B") == (1.0, -60)
    assert standings.pair_outcome(LEAGUE[2], LEAGUE[3], "C") == (1.5, -160)
    assert standings.pair_outcome(LEAGUE[4], LEAGUE[5], "B") is None  # two deals: not a pair
    assert standings.pair_outcome(first, second, "C") is None
    dead = [forfeited(["live", "dead"], 0, False, 1), forfeited(["dead", "live"], 0, True, 0)]
    assert standings.pair_outcome(dead[0], dead[1], "live") == (2.0, None)


# -- the compact store of many results ----------------------------------------------------------------

_names = st.text(min_size=1, max_size=8)
_ints = st.one_of(st.integers(-1000, 1000), st.integers(-(2**70), 2**70))
_deal_keys = st.one_of(
    st.none(),
    st.tuples(st.just("league"), _names, st.tuples(_names, _names), _ints),
    st.tuples(st.just("seed"), st.tuples(_names, _names), _ints),
    st.tuples(st.just("odd"), _names),
    st.just(()),
    _names,
)
_results = st.builds(
    GameResult,
    teams=st.tuples(_names, _names),
    score=st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(-2, 2)),
    points=st.tuples(_ints, _ints),
    record=st.one_of(st.none(), st.just({"seed": 1})),
    bids=st.tuples(st.tuples(_ints, _ints, _ints, _ints), st.tuples(_ints, _ints, _ints, _ints)),
    faults=st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["crash", "timeout"])), max_size=3).map(tuple),
    deal_key=_deal_keys,
    hands_played=st.booleans(),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_results, max_size=20))
def test_the_result_store_gives_back_every_result_it_was_given(results: list[GameResult]) -> None:
    store = ResultStore(results)
    assert len(store) == len(results)
    assert list(store) == results
    assert [store[i] for i in range(-len(results), 0)] == results
    assert store[1:3] == results[1:3]
    fair = [g for g in results if g.score in (0.0, 0.5, 1.0)]
    assert standings.standings(ResultStore(fair)) == standings.standings(fair)


def test_the_result_store_keeps_a_game_in_under_100_bytes() -> None:
    names = [f"bot{n:03d}" for n in range(100)]
    results = [
        GameResult(
            (names[n % 100], names[(n * 7 + 1) % 100]),
            (n % 3) / 2,
            (300 + n % 50, -120 + n),
            None,
            ((3, 300, 2, 1), (1, 100, 0, 0)),
            (),
            ("league", "big", (names[n % 100], names[(n * 7 + 1) % 100]), n // 2),
        )
        for n in range(20_000)
    ]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        store = ResultStore(results)
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert list(store) == results
    assert used / len(results) < 100, used / len(results)


# -- neighbours: each entry against the next one ------------------------------------------------------

_league_games = st.lists(
    st.tuples(
        st.sampled_from(["A", "B", "C", "D"]),
        st.sampled_from(["A", "B", "C", "D"]),
        st.tuples(st.integers(-200, 400), st.integers(-200, 400)),
        st.integers(0, 5),
        st.booleans(),
    ).filter(lambda g: g[0] != g[1]),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(_league_games, st.permutations(["A", "B", "C", "D"]))
def test_neighbours_are_the_head_to_heads_of_adjacent_entries(games: list[Any], order: list[str]) -> None:
    records = [
        record(
            [a, b],
            list(scores),
            None if scores[0] == scores[1] else int(scores[1] > scores[0]),
            hands=[(0, 70, True)],
            deal=deal,
            swapped=swapped,
        )
        for a, b, scores, deal, swapped in games
    ]
    met = {frozenset((a, b)) for a, b, *_ in games}
    expected = [standings.head_to_head(records, a, b) for a, b in itertools.pairwise(order) if {a, b} in met]
    assert standings.neighbours(records, order) == expected
    assert standings.neighbours(ResultStore(store.game_results(records)), order) == expected


def test_neighbours_say_which_are_apart() -> None:
    # A beats B on every deal pair by a margin that varies, B and C split: A-B apart, B-C not.
    records = []
    for deal, split in enumerate([30, -30, 50, -50, 10, -10]):
        margin = 100 + 10 * deal
        records.append(record(["A", "B"], [300, 300 - margin], 0, hands=[(0, 70, True)], deal=deal))
        records.append(record(["B", "A"], [200, 300], 1, hands=[(0, 70, True)], deal=deal, swapped=True))
        records.append(record(["B", "C"], [300, 200 - split], 0, hands=[(0, 70, True)], deal=deal))
        records.append(record(["C", "B"], [300, 200], 0, hands=[(0, 70, True)], deal=deal, swapped=True))
    pairs = standings.neighbours(records, ["A", "B", "C"])
    assert [(p.a, p.b, p.games) for p in pairs] == [("A", "B", 12), ("B", "C", 12)]
    assert [tables.apart(p) for p in pairs] == [True, False]
    text = tables.neighbours_text(pairs, {"A": 1, "B": 2, "C": 3}, "simple")
    lines = text.splitlines()
    heads = ["ranks", "higher", "lower", "games", "score", "%", "dup", "diff", "Elo", "diff", "apart"]
    assert lines[0].split() == heads
    assert lines[2].split()[:4] == ["1-2", "A", "B", "12"] and lines[2].split()[-1] == "yes"
    assert lines[3].split()[:4] == ["2-3", "B", "C", "12"] and lines[3].split()[-1] == "no"
    # Too narrow for the names: the ranks say who; the note is wrapped to the width.
    long = {"A" * 30: 1, "B" * 30: 2, "C" * 30: 3}
    renamed = standings.neighbours(
        [
            {
                **r,
                "teams": [n * 30 for n in r["teams"]],
                "league": {**r["league"], "pairing": sorted(n * 30 for n in r["teams"])},
            }
            for r in records
        ],
        list(long),
    )
    narrow = tables.neighbours_text(renamed, long, "simple", width=60)
    assert all(len(line) <= 60 for line in narrow.splitlines())
    assert "AAAA" not in narrow and narrow.splitlines()[2].split()[0] == "1-2"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("ABCDE"),
            st.sampled_from("ABCDE"),
            st.sampled_from([0, 1, None]),
        ),
        min_size=1,
        max_size=24,
    )
)
def test_a_rank_is_one_more_than_the_entries_with_better_figures(games: list[tuple[str, str, int | None]]) -> None:
    played = [record([a, b], [300, 100] if w == 0 else [100, 300], w) for a, b, w in games if a != b]
    hypothesis_assume(played)
    rows = standings.standings(played)

    def figures(row: standings.Standing) -> tuple[float, float]:
        return (-round(row.rating.elo, 6), -round(row.win_rate.estimate, 9))

    for row in rows:
        assert row.rank == 1 + sum(figures(other) < figures(row) for other in rows)
    for a, b in itertools.pairwise(rows):
        assert (a.rank == b.rank) == (figures(a) == figures(b))
        assert a.rank < b.rank or a.name < b.name
    shared = standings.tied(rows)
    texts = [line.split()[0] for line in tables.standings_table(rows, "plain").splitlines()[1 : 1 + len(rows)]]
    assert texts == [f"{row.rank}=" if row.rank in shared else str(row.rank) for row in rows]
