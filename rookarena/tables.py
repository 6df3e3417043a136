"""The standings, crosstable and match summary as text, CSV and JSON: values in, strings out; never prints."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

from rookarena.standings import Crosstable, HeadToHead, Standing
from rookarena.stats import MeanInterval, SPRTResult

STANDINGS_HEADERS = [
    "rank",
    "bot",
    "games",
    "wins",
    "losses",
    "draws",
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
    return ", ".join(f"{kind} {count}" for kind, count in faults) or "-"


def duplicate_text(duplicate: MeanInterval | None) -> str:
    """``+12.5 ± 30.1``: the mean duplicate difference per deal pair and the t-interval's half-width."""
    if duplicate is None:
        return "-"
    return f"{_fixed(duplicate.mean, sign=True)} ± {_fixed(duplicate.half_width)}"


def standings_rows(rows: Sequence[Standing]) -> list[list[Any]]:
    """The cells of the standings table, one list per entry, in the order of ``STANDINGS_HEADERS``."""
    return [
        [
            row.rank,
            row.name,
            row.games,
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
            f"{_fixed(row.rating.elo, 0, sign=True)} ± {_fixed(row.rating.error, 0)}",
            duplicate_text(row.duplicate),
        ]
        for row in rows
    ]


def standings_table(rows: Sequence[Standing], fmt: str = "simple") -> str:
    """The standings as a table in any tabulate format (``simple``, ``github``, ``grid``, ``plain`` ...).

    The duplicate difference column is left out when no entry has one (no duplicate deal pairs).
    """
    headers = list(STANDINGS_HEADERS)
    cells = standings_rows(rows)
    align = ["right", "left", *["right"] * (len(headers) - 2)]
    align[headers.index("faults")] = "left"
    if all(row.duplicate is None for row in rows):
        headers, align = headers[:-1], align[:-1]
        cells = [line[:-1] for line in cells]
    # Numbers are formatted here: tabulate must not reparse "-" or "62.5 [..]" cells.
    return tabulate(cells, headers=headers, tablefmt=fmt, colalign=align, disable_numparse=True)


def _csv_number(value: float | None, digits: int = 6) -> str:
    if value is None or math.isnan(value):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(round(value, digits) + 0.0)


def standings_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV: one column per figure, intervals as separate lo/hi columns, rates as fractions.

    Faults get a total column and a ``faults_KIND`` column for every kind any entry committed; a figure
    that does not exist (no bids: no made rate) is an empty cell, an infinite bound ``inf``.
    """
    kinds = sorted({kind for row in rows for kind, _ in row.faults})
    header = [
        "rank",
        "bot",
        "games",
        "wins",
        "losses",
        "draws",
        "score",
        "win_rate",
        "win_rate_lo",
        "win_rate_hi",
        "points_for",
        "points_against",
        "bids_won",
        "bids_made",
        "made_rate",
        "sets",
        "opponents_set",
        "average_bid",
        "faults",
        *(f"faults_{kind}" for kind in kinds),
        "elo",
        "elo_error",
        "elo_lo",
        "elo_hi",
        "dup_pairs",
        "dup_diff",
        "dup_lo",
        "dup_hi",
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        faults = dict(row.faults)
        dup = row.duplicate
        writer.writerow(
            [
                row.rank,
                row.name,
                row.games,
                row.wins,
                row.losses,
                row.draws,
                _csv_number(row.score),
                _csv_number(row.win_rate.estimate),
                _csv_number(row.win_rate.lo),
                _csv_number(row.win_rate.hi),
                _csv_number(row.points_for),
                _csv_number(row.points_against),
                row.bids_won,
                row.bids_made,
                _csv_number(row.made_rate),
                row.sets,
                row.opponents_set,
                _csv_number(row.average_bid),
                sum(faults.values()),
                *(faults.get(kind, 0) for kind in kinds),
                _csv_number(row.rating.elo, 3),
                _csv_number(row.rating.error, 3),
                _csv_number(row.rating.elo - row.rating.error, 3),
                _csv_number(row.rating.elo + row.rating.error, 3),
                0 if dup is None else dup.n,
                _csv_number(None if dup is None else dup.mean),
                _csv_number(None if dup is None else dup.lo),
                _csv_number(None if dup is None else dup.hi),
            ]
        )
    return out.getvalue()


def _json_number(value: float | None) -> float | None:
    """JSON has no infinities or NaN: they become null."""
    return None if value is None or not math.isfinite(value) else value


def standings_json(rows: Sequence[Standing]) -> dict[str, Any]:
    """The standings as a dict ready for ``json.dumps`` (strict JSON: an infinite bound is null)."""
    return {
        "standings": [
            {
                "rank": row.rank,
                "bot": row.name,
                "games": row.games,
                "wins": row.wins,
                "losses": row.losses,
                "draws": row.draws,
                "score": row.score,
                "win_rate": {"estimate": row.win_rate.estimate, "lo": row.win_rate.lo, "hi": row.win_rate.hi},
                "points_for": row.points_for,
                "points_against": row.points_against,
                "bids_won": row.bids_won,
                "bids_made": row.bids_made,
                "made_rate": row.made_rate,
                "sets": row.sets,
                "opponents_set": row.opponents_set,
                "average_bid": row.average_bid,
                "faults": dict(row.faults),
                "rating": {"elo": row.rating.elo, "error": row.rating.error},
                "duplicate": None
                if row.duplicate is None
                else {
                    "pairs": row.duplicate.n,
                    "mean": row.duplicate.mean,
                    "half_width": _json_number(row.duplicate.half_width),
                    "lo": _json_number(row.duplicate.lo),
                    "hi": _json_number(row.duplicate.hi),
                },
            }
            for row in rows
        ]
    }


def crosstable_text(table: Crosstable, fmt: str = "simple") -> str:
    """Row entry against column entry: ``W-D-L (score %)``; ``x`` on the diagonal, ``.`` where they never met."""
    cells = []
    for row in table.entries:
        line = [row]
        for column in table.entries:
            cell = table.cell(row, column)
            if row == column:
                line.append("x")
            elif cell.score_rate is None:
                line.append(".")
            else:
                line.append(f"{cell.wins}-{cell.draws}-{cell.losses} ({100 * cell.score_rate:.0f}%)")
        cells.append(line)
    headers = ["", *table.entries]
    return tabulate(cells, headers=headers, tablefmt=fmt, disable_numparse=True)


def sprt_text(result: SPRTResult) -> str:
    """``SPRT [0, 10]: LLR 1.23 (-2.94, 2.94) after 120 games: continue``."""
    verdict = "continue" if result.decision is None else f"accept {result.decision}"
    return (
        f"SPRT [{result.elo0:g}, {result.elo1:g}]: LLR {result.llr:.2f} ({result.lower:.2f}, {result.upper:.2f}) "
        f"after {result.games} games: {verdict}"
    )


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def match_summary(summary: HeadToHead, sprt: SPRTResult | None = None) -> str:
    """A few lines on ``a`` against ``b``: W/D/L, score rate, Elo, LOS, duplicate difference, the SPRT."""
    s = summary
    elo = s.elo
    lines = [
        f"{s.a} vs {s.b}: {_count(s.games, 'game')}, {s.a} {_count(s.wins, 'win')}, "
        f"{_count(s.draws, 'draw')}, {_count(s.losses, 'loss', 'losses')}",
        f"score rate {win_rate_text(s)} %, points per game {_fixed(s.points_for)} to {_fixed(s.points_against)}",
        f"Elo difference {_fixed(elo.elo, sign=True)} [{_fixed(elo.lo, sign=True)}, {_fixed(elo.hi, sign=True)}], "
        f"LOS {100 * s.los:.1f} %",
    ]
    if s.duplicate is not None:
        lines.append(
            f"duplicate difference {duplicate_text(s.duplicate)} points per deal pair ({_count(s.duplicate.n, 'pair')})"
        )
    if sprt is not None:
        lines.append(sprt_text(sprt))
    return "\n".join(lines)
