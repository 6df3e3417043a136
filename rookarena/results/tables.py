"""The standings, crosstable and match summary as text, CSV and JSON: values in, strings out; never prints.

Every text taken from the records (a name, a fault's kind) is written :func:`printable`: a results
directory may come from someone else, and a forged name must not drive the terminal showing the table.
Widths are display widths (:func:`display_width`: a wide character takes two columns), both where the
tables are fitted and where tabulate pads their columns.
"""

from __future__ import annotations

import itertools
import math
import textwrap
import types
from collections.abc import Sequence
from typing import Any

from rookarena.results.sprt import Model, SPRTResult, verdict
from rookarena.results.standings import Crosstable, HeadToHead, Standing, tied
from rookarena.results.stats import MeanInterval
from rookarena.wire.names import display_width, printable

COMPACT_HEADERS = ["#", "bot", "games", "score %", "Elo", "dup diff", "faults"]
MIN_NAME = 8  # names are shortened to fit the terminal, never below this
# The one format that is fitted to a terminal's width: the default, on-screen table. Every other format
# (markup, TSV, LaTeX, a table asked for by name) is for something else, and gets every name whole.
SCREEN_FORMAT = "simple"

COUNT_HEADERS = ("rank", "bot", "games", "wins", "losses", "draws")  # the first columns of the table and the CSV
STANDINGS_HEADERS = [
    *COUNT_HEADERS,
    "win % [95% CI]",
    "pts/game",
    "against/game",
    "bids won",
    "made %",
    "sets",
    "avg bid",
    "faults",
    "Elo",
    "dup diff",
]


def _fixed(value: float | None, digits: int = 1, sign: bool = False) -> str:
    """A number with ``digits`` decimals (``inf`` for infinities), or ``-`` for None."""
    if value is None:
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 and sign else "inf" if value > 0 else "-inf"
    value = round(value, digits) + 0.0  # no "-0.0"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def win_rate_text(row: Standing | HeadToHead) -> str:
    """``62.5 [48.1, 75.0]``: the score percentage and its interval."""
    rate = row.win_rate
    return f"{100 * rate.estimate:.1f} [{100 * rate.lo:.1f}, {100 * rate.hi:.1f}]"


def faults_text(faults: Sequence[tuple[str, int]]) -> str:
    """``timeout 3, crash 1``, or ``-`` without faults."""
    return ", ".join(f"{printable(str(kind))} {count}" for kind, count in faults) or "-"


def duplicate_text(duplicate: MeanInterval | None) -> str:
    """``+12.5 ± 30.1``: the mean duplicate difference per deal pair and the t-interval's half-width."""
    if duplicate is None:
        return "-"
    return f"{_fixed(duplicate.mean, sign=True)} ± {_fixed(duplicate.half_width)}"


def elo_text(row: Standing) -> str:
    """``+35 ± 40``: the entry's Elo and its 95% half-width, whole points; ``+0 fixed`` for an anchor,
    whose rating is given, not measured."""
    if row.anchor:
        return f"{_fixed(row.rating.elo, 0, sign=True)} fixed"
    return f"{_fixed(row.rating.elo, 0, sign=True)} ± {_fixed(row.rating.error, 0)}"


def rank_text(row: Standing, shared: set[int]) -> str:
    """``2`` or, for a rank that entries share, ``2=``."""
    return f"{row.rank}=" if row.rank in shared else str(row.rank)


def _who(row: Standing, shared: set[int]) -> tuple[str, str, int]:
    """The cells every standings table starts with: the rank, the name (printable) and the games played."""
    return rank_text(row, shared), printable(row.name), row.games


def standings_rows(rows: Sequence[Standing]) -> list[list[Any]]:
    """The cells of the standings table, one list per entry, in the order of ``STANDINGS_HEADERS``."""
    shared = tied(rows)
    return [
        [
            *_who(row, shared),
            row.wins,
            row.losses,
            row.draws,
            win_rate_text(row),
            _fixed(row.points_for),
            _fixed(row.points_against),
            row.bids_won,
            _fixed(None if row.made_rate is None else 100 * row.made_rate),
            row.sets,
            _fixed(row.average_bid),
            faults_text(row.faults),
            elo_text(row),
            duplicate_text(row.duplicate),
        ]
        for row in rows
    ]


def compact_rows(rows: Sequence[Standing]) -> list[list[Any]]:
    """The cells of the compact table, in the order of ``COMPACT_HEADERS``."""
    shared = tied(rows)
    return [
        [
            *_who(row, shared),
            f"{100 * row.win_rate.estimate:.1f}",
            elo_text(row),
            "-"
            if row.duplicate is None
            else f"{_fixed(row.duplicate.mean, 0, sign=True)} ± {_fixed(row.duplicate.half_width, 0)}",
            compact_faults(row.faults),
        ]
        for row in rows
    ]


def compact_faults(faults: Sequence[tuple[str, int]]) -> str:
    """``timeout 18``: the most frequent kind and its count, then ``+N`` for the faults of other kinds."""
    if not faults:
        return "-"
    (kind, count), rest = faults[0], sum(n for _, n in faults[1:])
    return f"{printable(str(kind))} {count}" + (f" +{rest}" if rest else "")


def model_note(rows: Sequence[Standing], width: int | None = None) -> str:
    """The line under the table: what the ± are, and which model gave them (shortened to ``width``)."""
    paired = any(row.pairs for row in rows)
    dup = any(row.duplicate is not None for row in rows)
    if any(row.anchor for row in rows):
        unit = "deal pairs" if paired else "games"
        variants = [
            f"± are 95% half-widths. Elo: Bradley–Terry against the anchors (fixed), errors over {unit}."
            + (" dup diff: points per deal pair (both games summed), t-interval." if dup else ""),
            f"± 95%. Elo: Bradley–Terry vs the fixed anchors, over {unit}."
            + (" dup diff: points per deal pair." if dup else ""),
            f"± 95%, Bradley–Terry vs fixed anchors, by {unit}",
        ]
    elif paired:
        variants = [
            "± are 95% half-widths. Elo: Bradley–Terry, relative to the table's mean, errors over deal pairs."
            + (" dup diff: points per deal pair (both games summed), t-interval." if dup else ""),
            "± 95%. Elo: Bradley–Terry vs the table's mean, over deal pairs."
            + (" dup diff: points per deal pair." if dup else ""),
            "± 95%. Elo: Bradley–Terry vs the mean, by deal pairs." + (" dup: points per pair." if dup else ""),
            "± 95%, Bradley–Terry, by deal pairs",
        ]
    else:
        variants = [
            "± are 95% half-widths. Elo: Bradley–Terry, relative to the table's mean, errors over games.",
            "± 95%. Elo: Bradley–Terry vs the table's mean, over games.",
            "± 95%, Bradley–Terry, by games",
        ]
    if width is None:
        return variants[0]
    return next((text for text in variants if display_width(text) <= width), variants[-1])


def standings_table(
    rows: Sequence[Standing], fmt: str = "simple", *, wide: bool = False, width: int | None = None
) -> str:
    """The standings in any tabulate format (``simple``, ``github``, ``grid``, ``plain`` ...), then the model line.

    Compact by default: rank, bot, games, score %, Elo ±, the paired difference (with duplicate deals)
    and the fault count (when any); ``wide`` gives every column, never shortened. With ``width`` (a
    terminal's columns) and the on-screen format (:data:`SCREEN_FORMAT`), long names are shortened with
    ``…`` until the compact table fits, down to ``MIN_NAME`` columns; any other format is never fitted.
    """
    if fmt != SCREEN_FORMAT:
        width = None
    if wide:
        width = None  # every column, every name whole: wider than a terminal if need be
        headers, cells = list(STANDINGS_HEADERS), standings_rows(rows)
        align = ["right", "left", *["right"] * (len(headers) - 2)]
        align[headers.index("faults")] = "left"
        drop = [] if any(row.duplicate is not None for row in rows) else ["dup diff"]
    else:
        headers, cells = list(COMPACT_HEADERS), compact_rows(rows)
        align = ["right", "left", *["right"] * (len(headers) - 3), "left"]
        drop = [] if any(row.duplicate is not None for row in rows) else ["dup diff"]
        if not any(row.faults for row in rows):
            drop.append("faults")
    keep = [i for i, header in enumerate(headers) if header not in drop]
    headers, align = [headers[i] for i in keep], [align[i] for i in keep]
    cells = [[line[i] for i in keep] for line in cells]

    def render(limit: int | None) -> str:
        shown = [[line[0], _shorten(line[1], limit), *line[2:]] for line in cells]
        # Numbers are formatted here: tabulate must not reparse "-" or "62.5 [..]" cells.
        return tabulate(shown, headers=headers, tablefmt=fmt, colalign=align, disable_numparse=True)

    text = render(None)
    longest = max((display_width(line[1]) for line in cells), default=0)
    over = _widest(text) - (width or 0)
    if width is not None and over > 0 and longest > MIN_NAME:
        text = render(max(MIN_NAME, longest - over))
    return text + "\n" + model_note(rows, width)


def _shorten(name: str, limit: int | None) -> str:
    """``name`` in at most ``limit`` columns: cut, with ``…``, when it is wider."""
    if limit is None or display_width(name) <= limit:
        return name
    kept, used = [], 1  # the "…"
    for ch in name:
        used += display_width(ch)
        if used > limit:
            break
        kept.append(ch)
    return "".join(kept) + "…"


def crosstable_text(table: Crosstable, fmt: str = "simple") -> str:
    """Row entry against column entry: ``W-D-L (score %)``; ``x`` on the diagonal, ``.`` where they never met."""
    cells = []
    for row in table.entries:
        line = [printable(row)]
        for column in table.entries:
            cell = table.cell(row, column)
            if row == column:
                line.append("x")
            elif cell.score_rate is None:
                line.append(".")
            else:
                line.append(f"{cell.wins}-{cell.draws}-{cell.losses} ({100 * cell.score_rate:.0f}%)")
        cells.append(line)
    headers = ["", *(printable(entry) for entry in table.entries)]
    return tabulate(cells, headers=headers, tablefmt=fmt, disable_numparse=True)


def crosstable_fitted(table: Crosstable, fmt: str, width: int) -> str:
    """:func:`crosstable_text` when it fits ``width`` columns; else the same crosstable with entries
    numbered and each cell the row's score percentage; else one line saying how to see it whole. Only the
    on-screen format (:data:`SCREEN_FORMAT`) is fitted: any other is the whole crosstable."""
    full = crosstable_text(table, fmt)
    if fmt != SCREEN_FORMAT or _widest(full) <= width:
        return full
    numbers = {name: str(number) for number, name in enumerate(table.entries, 1)}
    cells = []
    for row in table.entries:
        line = [f"{numbers[row]} {printable(row)}"]
        for column in table.entries:
            rate = table.cell(row, column).score_rate
            line.append("x" if row == column else "." if rate is None else f"{100 * rate:.0f}")
        cells.append(line)
    compact = tabulate(cells, headers=["score %", *numbers.values()], tablefmt=fmt, disable_numparse=True)
    if _widest(compact) <= width:
        return compact
    return f"crosstable of {len(table.entries)} entries: too wide,\nsee --wide or crosstable.txt"


NEIGHBOURS_NOTE = (
    "Neighbours: each entry against the next one below it, over their own games; dup diff: points per "
    "deal pair ± 95% (with two pairs or more); Elo diff [95% CI]; apart: the dup diff's interval excludes "
    "0, or without one the Elo diff's."
)


def adjacent(pairs: Sequence[HeadToHead], order: Sequence[str]) -> list[tuple[str, str, HeadToHead | None]]:
    """Each entry of ``order`` (the standings') and the next, with their head-to-head from ``pairs`` (those of
    :func:`rookarena.results.standings.neighbours`), or None for two that never met."""
    met = {frozenset((p.a, p.b)): p for p in pairs}
    return [(a, b, met.get(frozenset((a, b)))) for a, b in itertools.pairwise(order)]


def pair_difference(pair: HeadToHead) -> tuple[str, float, float, float]:
    """The difference a neighbours table shows for ``pair``: ("dup", mean, lo, hi) of its deal pairs when
    it has two or more, else ("elo", difference, lo, hi)."""
    dup = pair.duplicate
    if dup is not None and dup.n > 1:
        return "dup", dup.mean, dup.lo, dup.hi
    return "elo", pair.elo.elo, pair.elo.lo, pair.elo.hi


def apart(pair: HeadToHead) -> bool:
    """Whether the interval of ``pair``'s difference (:func:`pair_difference`) excludes 0."""
    _, _, lo, hi = pair_difference(pair)
    return lo > 0 or hi < 0


def _dup_text(pair: HeadToHead) -> str:
    """The pair's dup diff in points per deal pair, or ``-`` with fewer than two pairs."""
    return duplicate_text(pair.duplicate) if pair.duplicate is not None and pair.duplicate.n > 1 else "-"


def _elo_text(pair: HeadToHead) -> str:
    elo = pair.elo
    return f"{_fixed(elo.elo, 0, sign=True)} [{_fixed(elo.lo, 0, sign=True)}, {_fixed(elo.hi, 0, sign=True)}]"


def neighbours_text(pairs: Sequence[HeadToHead], ranks: dict[str, int], fmt: str, width: int | None = None) -> str:
    """The table of :func:`rookarena.results.standings.neighbours` with its note, fitted to ``width``: a row for
    each entry of ``ranks`` (in the standings' order) and the next, "never met" where ``pairs`` has none; names are
    shortened, then left out (the ranks say who), then a difference column that ``apart`` does not use
    is left out, when the table is still too wide. Each column holds one unit. Only the on-screen format
    (:data:`SCREEN_FORMAT`) is fitted."""
    if fmt != SCREEN_FORMAT:
        width = None
    headers = ["ranks", "higher", "lower", "games", "score %", "dup diff", "Elo diff", "apart"]
    shared = {rank for rank in ranks.values() if list(ranks.values()).count(rank) > 1}

    def rank(name: str) -> str:
        return f"{ranks[name]}=" if ranks[name] in shared else str(ranks[name])

    def figures(p: HeadToHead | None) -> list[object]:
        if p is None:  # next to each other in the table without a game together (a gauntlet's, say)
            return [0, "-", "-", "-", "never met"]
        return [p.games, f"{100 * p.win_rate.estimate:.1f}", _dup_text(p), _elo_text(p), "yes" if apart(p) else "no"]

    def draw(limit: int | None, names: bool = True, dup: bool = True, elo: bool = True) -> str:
        keep = [True, names, names, True, True, dup, elo, True]
        rows = [
            [
                cell
                for cell, kept in zip(
                    [
                        f"{rank(a)}-{rank(b)}",
                        _shorten(printable(a), limit),
                        _shorten(printable(b), limit),
                        *figures(p),
                    ],
                    keep,
                    strict=True,
                )
                if kept
            ]
            for a, b, p in adjacent(pairs, list(ranks))
        ]
        heads = [head for head, kept in zip(headers, keep, strict=True) if kept]
        return tabulate(rows, headers=heads, tablefmt=fmt)

    text = draw(None)
    if width is not None:
        for limit in (16, 10):
            if _widest(text) <= width:
                break
            text = draw(limit)
        if _widest(text) > width:
            text = draw(None, names=False)
        if _widest(text) > width:
            by_dup = all(pair_difference(p)[0] == "dup" for p in pairs)
            text = draw(None, names=False, dup=by_dup, elo=not by_dup)
    note = textwrap.fill(NEIGHBOURS_NOTE, width=max(40, width)) if width is not None else NEIGHBOURS_NOTE
    return text + "\n" + note


def _widest(text: str) -> int:
    """The display width of the widest line of ``text``."""
    return max((display_width(line) for line in text.splitlines()), default=0)


def sprt_text(result: SPRTResult) -> str:
    """``SPRT [0, 10] over deal pairs: LLR 1.23 (-2.94, 2.94) after 120 games: continue``."""
    verdict_word = "continue" if result.decision is None else f"accept {result.decision}"
    if result.forfeits:
        verdict_word = f"cannot decide ({_count(result.forfeits, 'deal pair')} forfeited by NEW, without points)"
    if result.model is Model.POINTS:
        name = f"points test [{result.h0:g}, {result.h1:g}] per deal pair"
    else:
        unit = "deal pairs" if result.model is Model.PENTANOMIAL else "games"
        name = f"SPRT [{result.h0:g}, {result.h1:g}] over {unit}"
    played = _count(result.games, "game") + (f" ({_count(result.pairs, 'pair')})" if result.pairs else "")
    digits = 2
    # An LLR just inside a bound must not print as the bound itself (2.94 "continue" at a bound of 2.944).
    while (
        digits < 6
        and result.decision is None
        and f"{result.llr:.{digits}f}"
        in (
            f"{result.lower:.{digits}f}",
            f"{result.upper:.{digits}f}",
        )
    ):
        digits += 1
    llr = f"{result.llr:.{digits}f}"
    return f"{name}: LLR {llr} ({result.lower:.{digits}f}, {result.upper:.{digits}f}) after {played}: {verdict_word}"


def verdict_lines(result: SPRTResult) -> list[str]:
    """The question the test answers and its answer, as two lines."""
    found = verdict(result)
    return [f"question: {found.question}", f"answer: {found.answer}"]


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


FEW_UNITS = 50  # below this many deal pairs (or games) a match's intervals are marked rough (bench/sprt.py)


def match_summary(summary: HeadToHead, sprt: SPRTResult | None = None) -> str:
    """A few lines on ``a`` against ``b``: W/D/L, score rate, Elo, LOS, duplicate difference, the SPRT."""
    s = summary
    a, b = printable(s.a), printable(s.b)
    elo = s.elo
    unit = f" (over {_count(s.pairs, 'deal pair')})" if s.pairs else ""
    lines = [
        f"{a} vs {b}: {_count(s.games, 'game')}, {a} {_count(s.wins, 'win')}, "
        f"{_count(s.draws, 'draw')}, {_count(s.losses, 'loss', 'losses')}",
        f"score rate {win_rate_text(s)} %, points per game {_fixed(s.points_for)} to {_fixed(s.points_against)}",
        f"Elo difference {_fixed(elo.elo, sign=True)} [{_fixed(elo.lo, sign=True)}, {_fixed(elo.hi, sign=True)}], "
        f"LOS {100 * s.los:.1f} %{unit}",
    ]
    if s.duplicate is not None:
        dup = s.duplicate
        if dup.n > 1 and dup.half_width == 0:
            text = f"{_fixed(dup.mean, sign=True)} (the same in every pair: no spread, no interval)"
        else:
            text = duplicate_text(dup)
        lines.append(f"duplicate difference {text} points per deal pair ({_count(dup.n, 'pair')})")
    units = s.pairs or s.games
    if 0 < units < FEW_UNITS:
        lines.append(
            f"(only {_count(units, 'deal pair' if s.pairs else 'game')}: under {FEW_UNITS} the 95% intervals "
            "cover less than they say; read them as rough)"
        )
    lines.append(
        f"(the Elo difference is {a}'s minus {b}'s; the standings rate each against the mean of the two, "
        "so about half of it each, from a fit with a prior)"
    )
    if sprt is not None:
        lines.append(sprt_text(sprt))
        lines.extend(verdict_lines(sprt))
    return "\n".join(lines)


# What tabulate measures a cell with when it has a ``wcwidth`` module (its optional dependency for wide
# characters, of which it calls ``wcswidth`` alone): display_width, so that every column is padded to the
# columns its cells take on screen, with or without wcwidth installed, the same on every machine.
_WIDTHS = types.SimpleNamespace(wcswidth=display_width)


def tabulate(*args: Any, **kwargs: Any) -> str:
    """``tabulate.tabulate``, imported when the first table is drawn: importing it costs a league's run a
    tenth of a second before its first game (it reads the installed packages' metadata). Columns are
    padded by display width (:data:`_WIDTHS`), so a wide character's two columns keep the table aligned."""
    import tabulate as package  # noqa: PLC0415 - imported when the first table is drawn

    setattr(package, "wcwidth", _WIDTHS)  # noqa: B010 - a module attribute its type stubs do not declare
    package.WIDE_CHARS_MODE = True
    return str(package.tabulate(*args, **kwargs))
