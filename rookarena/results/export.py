"""The standings as CSV and JSON: every column a spreadsheet or a program reads, in the same columns in every
run. Values in, strings and plain dicts out; never prints."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from rookarena.results.standings import Standing
from rookarena.results.tables import COUNT_HEADERS, model_note
from rookarena.wire.conversation import FaultKind

# Every fault kind a record can hold: the referee's, and a withdrawn team's forfeits. The CSV has a
# column for each, and ``faults_other`` for any other, so that its columns are the same in every run.
FAULT_KINDS = (*(kind.value for kind in FaultKind), "withdrawn")


def _csv_number(value: float | None, digits: int = 6) -> str:
    if value is None or math.isnan(value):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(round(value, digits) + 0.0)


def standings_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV: one column per figure, intervals as separate lo/hi columns, rates as fractions.

    The columns are the same in every run: faults get a total column, a ``faults_KIND`` column for
    every kind of ``FAULT_KINDS`` and ``faults_other``; ``rating_unit`` says over what the rating's
    error was computed (``deal pairs`` or ``games``). A figure that does not exist (no bids: no made
    rate) is an empty cell, an infinite bound ``inf``.
    """
    unit = "deal pairs" if any(row.pairs for row in rows) else "games"
    header = [
        *COUNT_HEADERS,
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
        *(f"faults_{kind}" for kind in FAULT_KINDS),
        "faults_other",
        "elo",
        "elo_error",
        "elo_lo",
        "elo_hi",
        "rating_unit",
        "pairs",
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
                *(faults.get(kind, 0) for kind in FAULT_KINDS),
                sum(count for kind, count in faults.items() if kind not in FAULT_KINDS),
                _csv_number(row.rating.elo, 3),
                _csv_number(row.rating.error, 3),
                _csv_number(row.rating.elo - row.rating.error, 3),
                _csv_number(row.rating.elo + row.rating.error, 3),
                unit,
                row.pairs,
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
        "rating_unit": "deal pairs" if any(row.pairs for row in rows) else "games",
        "note": model_note(rows),
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
                "anchor": row.anchor,
                "pairs": row.pairs,
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
        ],
    }
