"""Rendering of standings, crosstable and match summary: hand-made values in, exact text out."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math

import pytest

from rookarena.results import export, tables
from rookarena.results.ratings import Rating
from rookarena.results.sprt import Hypothesis, Model, SPRTResult
from rookarena.results.standings import Cell, Crosstable, HeadToHead, Standing
from rookarena.results.stats import EloDifference, Interval, MeanInterval

ALPHA = Standing(
    rank=1,
    name="alpha",
    games=16,
    wins=10,
    losses=5,
    draws=1,
    win_rate=Interval(10.5 / 16, 0.4301, 0.8279),
    points_for=251.3125,
    points_against=198.0,
    bids_won=30,
    bids_made=21,
    sets=9,
    opponents_set=7,
    average_bid=86.5,
    faults=(("timeout", 3), ("crash", 1)),
    rating=Rating(35.2, 40.44),
    duplicate=MeanInterval(8, 12.5, 30.125),
    pairs=8,
)
BETA = Standing(
    rank=2,
    name="beta",
    games=16,
    wins=5,
    losses=10,
    draws=1,
    win_rate=Interval(5.5 / 16, 0.1721, 0.5699),
    points_for=198.0,
    points_against=251.3125,
    bids_won=0,
    bids_made=0,
    sets=0,
    opponents_set=9,
    average_bid=None,
    faults=(),
    rating=Rating(-0.2, 40.44),
    duplicate=MeanInterval(1, -12.5, math.inf),
    pairs=8,
)
GAMMA = dataclasses.replace(BETA, name="gamma", duplicate=None, pairs=0)
PAIRED_NOTE = (
    "± are 95% half-widths. Elo: Bradley–Terry, relative to the table's mean, errors over deal pairs. "
    "dup diff: points per deal pair (both games summed), t-interval."
)


ALPHA_TAIL = ["timeout 3, crash 1", "+35 ± 40", "+12.5 ± 30.1"]


def test_cell_texts() -> None:
    # 10.5/16 = 0.65625 → "65.6"; bounds 43.01 % and 82.79 % → "43.0", "82.8".
    assert tables.win_rate_text(ALPHA) == "65.6 [43.0, 82.8]"
    assert tables.faults_text(ALPHA.faults) == "timeout 3, crash 1"
    assert tables.faults_text(()) == "-"
    assert tables.duplicate_text(ALPHA.duplicate) == "+12.5 ± 30.1"
    assert tables.duplicate_text(BETA.duplicate) == "-12.5 ± inf"
    assert tables.duplicate_text(None) == "-"
    # 21/30 made = 70.0 %; beta has no bids; −0.2 Elo rounds to "+0", never "-0".
    BETA_TAIL = ["+0 ± 40", "-12.5 ± inf"]  # noqa: N806
    assert tables.standings_rows([ALPHA, BETA]) == [
        ["1", "alpha", 16, 10, 5, 1, "65.6 [43.0, 82.8]", "251.3", "198.0", 30, "70.0", 9, "86.5", *ALPHA_TAIL],
        ["2", "beta", 16, 5, 10, 1, "34.4 [17.2, 57.0]", "198.0", "251.3", 0, "-", 0, "-", "-", *BETA_TAIL],
    ]


def test_standings_table_github_wide() -> None:
    assert tables.standings_table([ALPHA, BETA], "github", wide=True).splitlines() == [
        "|   rank | bot   |   games |   wins |   losses |   draws |    win % [95% CI] |   pts/game |   against/game "
        "|   bids won |   made % |   sets |   avg bid | faults             |      Elo |     dup diff |",
        "|--------|-------|---------|--------|----------|---------|-------------------|------------|----------------"
        "|------------|----------|--------|-----------|--------------------|----------|--------------|",
        "|      1 | alpha |      16 |     10 |        5 |       1 | 65.6 [43.0, 82.8] |      251.3 |          198.0 "
        "|         30 |     70.0 |      9 |      86.5 | timeout 3, crash 1 | +35 ± 40 | +12.5 ± 30.1 |",
        "|      2 | beta  |      16 |      5 |       10 |       1 | 34.4 [17.2, 57.0] |      198.0 |          251.3 "
        "|          0 |        - |      0 |         - | -                  |  +0 ± 40 |  -12.5 ± inf |",
        PAIRED_NOTE,
    ]


def test_standings_table_compact() -> None:
    assert tables.standings_table([ALPHA, BETA]).splitlines() == [
        "  #  bot      games    score %       Elo    dup diff  faults",
        "---  -----  -------  ---------  --------  ----------  ------------",
        "  1  alpha       16       65.6  +35 ± 40    +12 ± 30  timeout 3 +1",
        "  2  beta        16       34.4   +0 ± 40   -12 ± inf  -",
        PAIRED_NOTE,
    ]
    # No faults: no faults column; no pairs: no dup diff, and the note says the units are games.
    assert tables.standings_table([GAMMA]).splitlines() == [
        "  #  bot      games    score %      Elo",
        "---  -----  -------  ---------  -------",
        "  2  gamma       16       34.4  +0 ± 40",
        "± are 95% half-widths. Elo: Bradley–Terry, relative to the table's mean, errors over games.",
    ]


def test_compact_faults() -> None:
    assert tables.compact_faults(()) == "-"
    assert tables.compact_faults((("timeout", 18),)) == "timeout 18"
    assert tables.compact_faults((("withdrawn", 500), ("crash", 2), ("limit", 1))) == "withdrawn 500 +3"


def many(names: list[str]) -> list[Standing]:
    """A table with every optional column, wide figures and the given names."""
    return [
        dataclasses.replace(
            ALPHA,
            rank=i,
            name=name,
            games=1200,
            rating=Rating(-434.5 + 300 * i, 123.0),
            duplicate=MeanInterval(600, -434.0, 123.0),
            faults=(("timeout", 18), ("crash", 2)),
        )
        for i, name in enumerate(names, 1)
    ]


@pytest.mark.parametrize("width", [80, 100])
def test_the_compact_table_fits_the_terminal_with_sixteen_character_names(width: int) -> None:
    rows = many(["heuristic-random", "packaged-random1", "x" * 16, "random-js"])
    text = tables.standings_table(rows, width=width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert "heuristic-random" in text  # not shortened: it fits


def test_longer_names_are_shortened_to_fit() -> None:
    rows = many(["a-very-long-bot-name-indeed-version-2", "short"])
    text = tables.standings_table(rows, width=75)
    assert max(len(line) for line in text.splitlines()) <= 75
    shown = text.splitlines()[2].split()[1]
    assert shown.startswith("a-very-") and shown.endswith("…") and len(shown) < 37
    # Never below MIN_NAME characters, even when the table cannot fit.
    assert "  a-very-…  " in tables.standings_table(rows, width=40)
    assert "a-very-long-bot-name-indeed-version-2" in tables.standings_table(rows, width=200)
    assert "a-very-long-bot-name-indeed-version-2" in tables.standings_table(rows)  # no width: no fitting
    assert "a-very-long-bot-name-indeed-version-2" in tables.standings_table(rows, width=40, wide=True)


def test_standings_table_formats_and_the_optional_column() -> None:
    plain = tables.standings_table([ALPHA, GAMMA], "plain")
    assert "dup diff" not in tables.standings_table([GAMMA], "plain")
    assert "dup diff" in plain
    assert plain.splitlines()[2].split()[-2] == "-"  # gamma's duplicate cell, before its faults
    grid = tables.standings_table([ALPHA], "grid")
    assert grid.startswith("+--") and "| alpha |" in grid
    empty = tables.standings_table([], "simple").splitlines()
    assert empty[0].split() == ["#", "bot", "games", "score", "%", "Elo"]
    assert len(empty) == 3
    wide = tables.standings_table([], "simple", wide=True).splitlines()
    assert wide[0].split() == " ".join(tables.STANDINGS_HEADERS[:-1]).split()


def test_standings_csv() -> None:
    text = export.standings_csv([ALPHA, BETA])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == (
        "rank,bot,games,wins,losses,draws,score,win_rate,win_rate_lo,win_rate_hi,points_for,points_against,"
        "bids_won,bids_made,made_rate,sets,opponents_set,average_bid,faults,faults_timeout,faults_crash,"
        "faults_malformed,faults_illegal,faults_protocol,faults_limit,faults_withdrawn,faults_other,"
        "elo,elo_error,elo_lo,elo_hi,rating_unit,pairs,dup_pairs,dup_diff,dup_lo,dup_hi"
    )
    # The same columns whatever the faults: a table without any has them all too.
    assert export.standings_csv([GAMMA]).splitlines()[0] == text.splitlines()[0]
    alpha, beta = rows
    # score 10 + 1/2; made rate 21/30 = 0.7; Elo 35.2 ± 40.44 → [−5.24, 75.64]; dup 12.5 ± 30.125.
    assert alpha["score"] == "10.5" and alpha["win_rate"] == "0.65625"
    assert (alpha["win_rate_lo"], alpha["win_rate_hi"]) == ("0.4301", "0.8279")
    assert (alpha["made_rate"], alpha["average_bid"]) == ("0.7", "86.5")
    assert (alpha["faults"], alpha["faults_crash"], alpha["faults_timeout"]) == ("4", "1", "3")
    assert (alpha["elo"], alpha["elo_error"], alpha["elo_lo"], alpha["elo_hi"]) == ("35.2", "40.44", "-5.24", "75.64")
    assert (alpha["dup_pairs"], alpha["dup_diff"], alpha["dup_lo"], alpha["dup_hi"]) == (
        "8",
        "12.5",
        "-17.625",
        "42.625",
    )
    assert (beta["made_rate"], beta["average_bid"], beta["faults"], beta["faults_crash"]) == ("", "", "0", "0")
    assert (beta["elo"], beta["dup_pairs"], beta["dup_lo"], beta["dup_hi"]) == ("-0.2", "1", "-inf", "inf")
    gamma = next(csv.DictReader(io.StringIO(export.standings_csv([GAMMA]))))
    assert (gamma["dup_pairs"], gamma["dup_diff"], gamma["dup_lo"]) == ("0", "", "")
    assert (gamma["faults_crash"], gamma["faults_other"], gamma["rating_unit"]) == ("0", "0", "games")
    assert (alpha["rating_unit"], alpha["pairs"]) == ("deal pairs", "8")
    odd = dataclasses.replace(GAMMA, faults=(("gremlins", 2),))
    assert next(csv.DictReader(io.StringIO(export.standings_csv([odd]))))["faults_other"] == "2"


def test_standings_json() -> None:
    data = export.standings_json([ALPHA, BETA, GAMMA])
    text = json.dumps(data, allow_nan=False)  # strict JSON: no Infinity
    alpha, beta, gamma = json.loads(text)["standings"]
    assert alpha["win_rate"] == {"estimate": 0.65625, "lo": 0.4301, "hi": 0.8279}
    assert alpha["faults"] == {"timeout": 3, "crash": 1}
    assert alpha["rating"] == {"elo": 35.2, "error": 40.44}
    assert alpha["duplicate"] == {"pairs": 8, "mean": 12.5, "half_width": 30.125, "lo": -17.625, "hi": 42.625}
    assert (alpha["score"], alpha["made_rate"], alpha["bids_won"], alpha["opponents_set"]) == (10.5, 0.7, 30, 7)
    assert beta["duplicate"] == {"pairs": 1, "mean": -12.5, "half_width": None, "lo": None, "hi": None}
    assert (beta["made_rate"], beta["average_bid"], beta["faults"]) == (None, None, {})
    assert gamma["duplicate"] is None
    assert (data["rating_unit"], alpha["pairs"], gamma["pairs"]) == ("deal pairs", 8, 0)
    assert data["note"] == PAIRED_NOTE


def test_crosstable_text() -> None:
    table = Crosstable(("b", "a", "c"), {("a", "b"): Cell(2, 1, 1), ("b", "a"): Cell(1, 1, 2)})
    # a against b: 2 wins, 1 draw, 1 loss = 2.5 of 4 = 62.5 % → "62%" (rounded half to even); c met nobody.
    assert tables.crosstable_text(table).splitlines() == [
        "    b            a            c",
        "--  -----------  -----------  ---",
        "b   x            1-1-2 (38%)  .",
        "a   2-1-1 (62%)  x            .",
        "c   .            .            x",
    ]


SUMMARY = HeadToHead(
    a="alpha",
    b="beta",
    games=40,
    wins=30,
    draws=0,
    losses=10,
    points_for=250.04,
    points_against=180.0,
    win_rate=Interval(0.75, 0.5981, 0.8581),
    elo=EloDifference(40, 0.75, 190.8485, 81.9606, 353.1191),
    los=0.9992,
    duplicate=MeanInterval(20, 35.27, 20.0),
    pairs=20,
)


def test_match_summary() -> None:
    sprt = SPRTResult(40, 3.125, -2.944, 2.944, 0, 10, Hypothesis.H1, Model.PENTANOMIAL, 20)
    assert tables.match_summary(SUMMARY, sprt).splitlines() == [
        "alpha vs beta: 40 games, alpha 30 wins, 0 draws, 10 losses",
        "score rate 75.0 [59.8, 85.8] %, points per game 250.0 to 180.0",
        "Elo difference +190.8 [+82.0, +353.1], LOS 99.9 % (over 20 deal pairs)",
        "duplicate difference +35.3 ± 20.0 points per deal pair (20 pairs)",
        "(only 20 deal pairs: under 50 the 95% intervals cover less than they say; read them as rough)",
        "(the Elo difference is alpha's minus beta's; the standings rate each against the mean of the two, so "
        "about half of it each, from a fit with a prior)",
        "SPRT [0, 10] over deal pairs: LLR 3.12 (-2.94, 2.94) after 40 games (20 pairs): accept H1",
        "question: is NEW better than OLD? (H0: +0 Elo, not better; H1: +10 Elo, better)",
        "answer: yes: NEW is better",
    ]


def test_match_summary_without_duplicates_or_sprt() -> None:
    one = HeadToHead(
        a="x",
        b="y",
        games=1,
        wins=1,
        draws=0,
        losses=0,
        points_for=300.0,
        points_against=0.0,
        win_rate=Interval(1.0, 0.2066, 1.0),
        elo=EloDifference(1, 1.0, math.inf, math.inf, math.inf),
        los=0.8413,
        duplicate=None,
    )
    assert tables.match_summary(one).splitlines() == [
        "x vs y: 1 game, x 1 win, 0 draws, 0 losses",
        "score rate 100.0 [20.7, 100.0] %, points per game 300.0 to 0.0",
        "Elo difference +inf [+inf, +inf], LOS 84.1 %",
        "(only 1 game: under 50 the 95% intervals cover less than they say; read them as rough)",
        "(the Elo difference is x's minus y's; the standings rate each against the mean of the two, so about "
        "half of it each, from a fit with a prior)",
    ]


@pytest.mark.parametrize(
    ("pairs", "half_width", "line", "marked"),
    [
        (
            4,
            0.0,
            "duplicate difference +832.5 (the same in every pair: no spread, no interval) points per deal pair",
            True,
        ),
        (49, 12.5, "duplicate difference +832.5 ± 12.5 points per deal pair (49 pairs)", True),
        (50, 12.5, "duplicate difference +832.5 ± 12.5 points per deal pair (50 pairs)", False),
    ],
)
def test_match_summary_says_when_its_intervals_are_rough(
    pairs: int, half_width: float, line: str, marked: bool
) -> None:
    summary = dataclasses.replace(
        SUMMARY, games=2 * pairs, pairs=pairs, duplicate=MeanInterval(pairs, 832.5, half_width)
    )
    lines = tables.match_summary(summary).splitlines()
    assert any(text.startswith(line) for text in lines), lines
    assert "± 0.0" not in "\n".join(lines)
    assert any(text.startswith(f"(only {pairs} deal pairs: under 50") for text in lines) is marked


def test_sprt_text_never_prints_an_undecided_llr_as_its_bound() -> None:
    inside = SPRTResult(202, 2.9412, -2.9444, 2.9444, -10, 0, None, Model.PENTANOMIAL, 101)
    assert "LLR 2.941 (-2.944, 2.944) after 202 games (101 pairs): continue" in tables.sprt_text(inside)
    decided = dataclasses.replace(inside, llr=2.9451, decision=Hypothesis.H1)
    assert "LLR 2.95 (-2.94, 2.94)" in tables.sprt_text(decided)


def test_sprt_text_says_why_a_points_test_cannot_decide() -> None:
    result = SPRTResult(240, 0.0, -2.94, 2.94, -20, 0, None, Model.POINTS, 0, 120)
    assert tables.sprt_text(result).endswith(
        "after 240 games: cannot decide (120 deal pairs forfeited by NEW, without points)"
    )


@pytest.mark.parametrize(
    ("decision", "verdict"), [(None, "continue"), (Hypothesis.H0, "accept H0"), (Hypothesis.H1, "accept H1")]
)
def test_sprt_text(decision: Hypothesis | None, verdict: str) -> None:
    result = SPRTResult(12, -0.5, -1.5, 2.08, -5, 5.5, decision)
    assert tables.sprt_text(result) == f"SPRT [-5, 5.5] over games: LLR -0.50 (-1.50, 2.08) after 12 games: {verdict}"
    points = SPRTResult(12, -0.5, -1.5, 2.08, -50, 0, decision, Model.POINTS, 6)
    assert tables.sprt_text(points) == (
        f"points test [-50, 0] per deal pair: LLR -0.50 (-1.50, 2.08) after 12 games (6 pairs): {verdict}"
    )


@pytest.mark.parametrize("entries", [2, 3, 5, 8, 12, 30])
@pytest.mark.parametrize("width", [40, 60, 80, 100, 200])
def test_the_crosstable_fits_the_terminal_or_says_how_to_see_it(entries: int, width: int) -> None:
    """Generated crosstables of long and short names: the text shown fits ``width`` columns, and it is
    the full table whenever that fits."""
    import random

    from rookarena.results.standings import Cell, Crosstable

    rng = random.Random(entries * 1000 + width)
    names = tuple(f"bot-{index}-" + "x" * rng.randrange(0, 12) for index in range(entries))
    cells = {}
    for a in names:
        for b in names:
            if a < b and rng.random() < 0.9:
                won, drawn, lost = rng.randrange(5), rng.randrange(2), rng.randrange(5)
                cells[(a, b)], cells[(b, a)] = Cell(won, drawn, lost), Cell(lost, drawn, won)
    table = Crosstable(names, cells)
    full = tables.crosstable_text(table, "simple")
    shown = tables.crosstable_fitted(table, "simple", width)
    widest = max(len(line) for line in shown.splitlines())
    assert widest <= width, shown
    if max(len(line) for line in full.splitlines()) <= width:
        assert shown == full
    if shown.startswith("crosstable of"):
        assert f"{entries} entries" in shown and "--wide" in shown
