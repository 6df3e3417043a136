"""The text tables as a terminal shows them: names from the records written printable in every format,
columns lined up by display width (a wide character takes two columns), and only the on-screen format
fitted to a width."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.results import tables
from rookarena.results.ratings import Rating
from rookarena.results.standings import Cell, Crosstable, HeadToHead, Standing
from rookarena.results.stats import EloDifference, Interval, MeanInterval
from rookarena.wire.names import display_width

# What a forged record can hold: an OSC title, a bell, a screen clear, a bidi override, markup.
EVIL = "<img src=x>\x1b]0;PWNED\x07\x1b[2J\u202eevil"
BAD = "\x00\x07\x08\x0b\x0c\r\n\t\x1b\x7f\x85\x9b\u061c\u200b\u200d\u200e\u200f\u2028\u2029"
BAD += "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\U000e0001\xa0\u3000"
WIDE = "漢字ｆｕｌｌ한국어"
COMBINING = "\u0301\u0308\u20dd"
TEXT_FORMATS = ["simple", "plain", "grid", "github", "psql", "rst", "pipe", "html", "tsv", "latex", "mediawiki"]
# Formats whose every line has the same display width when the columns line up (a frame on both sides).
FRAMED = ["grid", "github", "psql", "pipe", "orgtbl", "fancy_grid", "rounded_grid", "simple_grid", "outline"]

names_with = st.text(alphabet=st.sampled_from(BAD + WIDE + COMBINING + "ab-<>&é"), min_size=1, max_size=12)
wide_names = st.text(alphabet=st.sampled_from(WIDE + "abc-_" + "é"), min_size=1, max_size=10)
wide_or_combining = st.builds(
    lambda head, tail: head + tail,
    st.text(alphabet=st.sampled_from(WIDE + "abc"), min_size=1, max_size=6),
    st.text(alphabet=st.sampled_from(WIDE + COMBINING + "xyz"), max_size=6),
)


def unsafe(text: str, fmt: str = "") -> list[str]:
    """The characters of ``text`` that could drive a terminal or reorder its line: every one that is not
    printable, the newlines between lines aside (and the tabs between a TSV table's cells)."""
    allowed = "\n\t" if fmt == "tsv" else "\n"
    return [ch for ch in text if ch not in allowed and not ch.isprintable()]


def row(rank: int, name: str, kinds: tuple[str, ...] = ("timeout",)) -> Standing:
    return Standing(
        rank=rank,
        name=name,
        games=12,
        wins=6,
        losses=5,
        draws=1,
        win_rate=Interval(0.54, 0.3, 0.75),
        points_for=200.0,
        points_against=190.5,
        bids_won=10,
        bids_made=7,
        sets=3,
        opponents_set=2,
        average_bid=85.0,
        faults=tuple((kind, 3 - i) for i, kind in enumerate(kinds[:3])),
        rating=Rating(40.0 - 30 * rank, 55.0),
        duplicate=MeanInterval(6, 10.5, 30.0),
        pairs=6,
    )


def pair(a: str, b: str) -> HeadToHead:
    return HeadToHead(
        a=a,
        b=b,
        games=8,
        wins=5,
        draws=0,
        losses=3,
        win_rate=Interval(0.625, 0.3, 0.86),
        points_for=210.0,
        points_against=180.0,
        elo=EloDifference(8, 0.625, 88.0, -60.0, 240.0),
        los=0.8,
        duplicate=MeanInterval(4, 20.0, 35.0),
        pairs=4,
    )


def crosstable(names: list[str]) -> Crosstable:
    cells = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            cells[(a, b)], cells[(b, a)] = Cell(2, 1, 1), Cell(1, 1, 2)
    return Crosstable(tuple(names), cells)


def every_text(
    names: list[str], kinds: tuple[str, ...], width: int | None, formats: list[str] = TEXT_FORMATS
) -> list[tuple[str, str]]:
    """Every table and summary :mod:`rookarena.results.tables` writes of these names and fault kinds, each
    with its format."""
    rows = [row(rank, name, kinds) for rank, name in enumerate(names, 1)]
    pairs = [pair(a, b) for a, b in itertools.pairwise(names)]
    ranks = {name: rank for rank, name in enumerate(names, 1)}
    texts = []
    for fmt in formats:
        texts.append((fmt, tables.standings_table(rows, fmt, width=width)))
        texts.append((fmt, tables.standings_table(rows, fmt, wide=True, width=width)))
        texts.append((fmt, tables.crosstable_text(crosstable(names), fmt)))
        texts.append((fmt, tables.crosstable_fitted(crosstable(names), fmt, width or 80)))
        texts.append((fmt, tables.neighbours_text(pairs, ranks, fmt, width)))
    texts.append(("", tables.match_summary(pairs[0])))
    texts.append(("", tables.faults_text(rows[0].faults)))
    texts.append(("", tables.compact_faults(rows[0].faults)))
    return texts


def test_a_forged_name_and_fault_kind_are_written_printable() -> None:
    names = ["alpha" + EVIL, "beta\u202e", "gamma\x1b[31m"]
    for fmt, text in every_text(names, ("timeout" + EVIL, "crash\x07"), 60):
        assert unsafe(text, fmt) == [], text
    shown = tables.standings_table([row(1, names[0], ("timeout" + EVIL,))], "simple", wide=True)
    assert shown.count("<img src=x>\\x1b]0;PWNED\\x07\\x1b[2J\\u202eevil") == 2, shown  # the name, the fault's kind


@settings(max_examples=30, deadline=None)
@given(
    names=st.lists(names_with, min_size=2, max_size=4, unique=True),
    kinds=st.lists(names_with, min_size=1, max_size=3).map(tuple),
    width=st.sampled_from([None, 40, 80]),
    formats=st.lists(st.sampled_from(TEXT_FORMATS), min_size=1, max_size=3, unique=True),
)
def test_every_table_of_any_names_is_printable(
    names: list[str], kinds: tuple[str, ...], width: int | None, formats: list[str]
) -> None:
    for fmt, text in every_text(names, kinds, width, formats):
        assert unsafe(text, fmt) == [], text


# -- display width ------------------------------------------------------------------------------------


def test_display_width() -> None:
    assert display_width("heuristic-v1") == 12
    assert display_width("漢字漢字") == 8
    assert display_width("ｆｕｌｌ") == 8
    assert display_width("e\u0301te\u0301") == 3
    assert display_width("a\u200db\u202e") == 2
    assert display_width("") == 0


@given(st.text(), st.text())
def test_display_width_adds_up(a: str, b: str) -> None:
    assert display_width(a + b) == display_width(a) + display_width(b)
    assert display_width(a) <= 2 * len(a)
    if a.isascii() and a.isprintable():
        assert display_width(a) == len(a)


def columns_at(line: str, char: str) -> list[int]:
    """The display columns at which ``char`` stands in ``line``."""
    out, at = [], 0
    for ch in line:
        if ch == char:
            out.append(at)
        at += display_width(ch)
    return out


def cut(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """``line`` cut at the display columns of ``spans`` (each cell stripped)."""
    cells = []
    for start, end in spans:
        text, at = "", 0
        for ch in line:
            width = display_width(ch)
            if start <= (at if width else at - 1) < end:  # a combining mark goes with the letter before it
                text += ch
            at += width
        cells.append(text.strip())
    return cells


def spans_of(rule: str) -> list[tuple[int, int]]:
    """The display columns each column takes, from a ``simple`` table's rule of dashes."""
    return [(found.start(), found.end()) for found in re.finditer("-+", rule)]


def assert_framed_lines_up(text: str) -> None:
    """Every line of a framed table as wide as every other, and the bars between cells in the same columns."""
    lines = [line for line in text.splitlines() if line.strip()]
    assert len({display_width(line) for line in lines}) == 1, "\n".join(lines)
    cells = [line for line in lines if not re.fullmatch(r"[-+=|:\s]+", line)]  # not a rule between rows
    assert len({tuple(columns_at(line, "|")) for line in cells}) == 1, "\n".join(lines)


def assert_simple_lines_up(text: str, expected: list[list[str]], columns: int | None = None) -> None:
    """Each row of a ``simple`` table, cut at the display columns its rule of dashes gives, is the expected
    cells (its first ``columns``)."""
    lines = text.splitlines()
    spans = spans_of(lines[1])[:columns]
    assert [cut(line, spans) for line in lines[2 : 2 + len(expected)]] == expected, text


@settings(max_examples=40, deadline=None)
@given(names=st.lists(wide_or_combining, min_size=2, max_size=4, unique=True))
def test_wide_names_line_up_in_every_table(names: list[str]) -> None:
    rows = [row(rank, name) for rank, name in enumerate(names, 1)]
    pairs = [pair(a, b) for a, b in itertools.pairwise(names)]
    ranks = {name: rank for rank, name in enumerate(names, 1)}
    cross = crosstable(names)
    for fmt in FRAMED:
        assert_framed_lines_up(tables.standings_table(rows, fmt).rsplit("\n", 1)[0])
        assert_framed_lines_up(tables.standings_table(rows, fmt, wide=True).rsplit("\n", 1)[0])
        assert_framed_lines_up(tables.crosstable_text(cross, fmt))
        assert_framed_lines_up(tables.neighbours_text(pairs, ranks, fmt).rsplit("\n", 1)[0])
    simple = tables.standings_table(rows, "simple")
    assert_simple_lines_up(simple, [[str(r.rank), r.name, "12", "54.0"] for r in rows], columns=4)
    expected = [
        [name, *("x" if i == j else "2-1-1 (62%)" if i < j else "1-1-2 (38%)" for j in range(len(names)))]
        for i, name in enumerate(names)
    ]
    assert_simple_lines_up(tables.crosstable_text(cross, "simple"), expected)


def test_a_wide_name_lines_up_in_the_simple_table() -> None:
    rows = [row(1, "漢字漢字"), row(2, "alpha"), row(3, "e\u0301te\u0301")]
    text = tables.standings_table(rows, "simple")
    lines = text.splitlines()
    spans = spans_of(lines[1])
    assert [cut(line, spans)[:3] for line in lines[2:5]] == [
        ["1", "漢字漢字", "12"],
        ["2", "alpha", "12"],
        ["3", "e\u0301te\u0301", "12"],
    ], text
    # Every row ends at the same column (the faults column is the same text in each).
    assert len({display_width(line) for line in lines[2:5]}) == 1, text


@settings(max_examples=40, deadline=None)
@given(names=st.lists(wide_names, min_size=2, max_size=5, unique=True), width=st.integers(50, 120))
def test_a_fitted_table_of_wide_names_fits_its_width(names: list[str], width: int) -> None:
    rows = [row(rank, name * 4) for rank, name in enumerate(names, 1)]
    text = tables.standings_table(rows, "simple", width=width)
    table = text.rsplit("\n", 1)[0]
    least = tables.standings_table([row(r.rank, "x" * tables.MIN_NAME) for r in rows], "simple").rsplit("\n", 1)[0]
    if tables._widest(least) <= width:
        assert tables._widest(table) <= width, table
    shown = [cut(line, spans_of(table.splitlines()[1]))[1] for line in table.splitlines()[2:]]
    for name, cell in zip([r.name for r in rows], shown, strict=True):
        assert cell == name or (cell.endswith("…") and name.startswith(cell[:-1])), (name, cell)
        assert display_width(cell) >= min(display_width(name), tables.MIN_NAME - 1)


def test_shortening_counts_columns() -> None:
    assert tables._shorten("漢字漢字漢字", 6) == "漢字…"
    assert tables._shorten("漢字漢字漢字", 12) == "漢字漢字漢字"
    assert tables._shorten("abcdefghij", 6) == "abcde…"
    assert display_width(tables._shorten("a漢字漢字", 4)) <= 4


# -- only the on-screen table is fitted --------------------------------------------------------------


LONG = ["heuristic-v1", "heuristic-v2", "a-very-long-bot-name-indeed-version-3"]


@pytest.mark.parametrize("fmt", ["html", "tsv", "latex", "grid", "plain", "github", "mediawiki", "unsafehtml"])
def test_no_other_format_is_fitted(fmt: str) -> None:
    rows = [row(rank, name) for rank, name in enumerate(LONG, 1)]
    pairs = [pair(a, b) for a, b in itertools.pairwise(LONG)]
    ranks = {name: rank for rank, name in enumerate(LONG, 1)}
    for text in (
        tables.standings_table(rows, fmt, width=30),
        tables.crosstable_fitted(crosstable(LONG), fmt, 30),
        tables.neighbours_text(pairs, ranks, fmt, 30),
    ):
        assert "…" not in text, text
        assert all(name in text for name in LONG), text
    assert tables.crosstable_fitted(crosstable(LONG), fmt, 30) == tables.crosstable_text(crosstable(LONG), fmt)


def test_the_screen_table_is_fitted() -> None:
    rows = [row(rank, name) for rank, name in enumerate(LONG, 1)]
    text = tables.standings_table(rows, tables.SCREEN_FORMAT, width=70)
    assert "a-very-long-bot-name-indeed-version-3" not in text and "…" in text
    assert tables._widest(text.rsplit("\n", 1)[0]) <= 70
