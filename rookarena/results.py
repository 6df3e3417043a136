"""The files of a results directory that are derived from its records: standings and crosstable."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Sequence

from rookarena import standings, tables
from rookarena.standings import GameResult, Record


def standings_text(
    played: Sequence[Record | GameResult],
    fmt: str,
    crosstable: bool = True,
    *,
    wide: bool = False,
    width: int | None = None,
) -> str:
    """The standings table (compact unless ``wide``, fitted to ``width``) with its model line, then the crosstable."""
    if not played:
        return "no games played yet"
    rows = standings.standings(played)
    text = tables.standings_table(rows, fmt, wide=wide, width=width)
    if crosstable:
        cross = standings.crosstable(played, [row.name for row in rows])
        text += "\n\n" + tables.crosstable_text(cross, fmt)
    return text


def write(
    out_dir: pathlib.Path,
    played: Sequence[Record | GameResult],
    fmt: str,
    *,
    wide: bool = False,
    width: int | None = None,
) -> str:
    """Write standings.txt (every column), standings.csv, standings.json and crosstable.txt; return the text shown."""
    text = standings_text(played, fmt, wide=wide, width=width)
    if not played:
        return text
    rows = standings.standings(played)
    cross = standings.crosstable(played, [row.name for row in rows])
    (out_dir / "standings.txt").write_text(tables.standings_table(rows, fmt, wide=True) + "\n", encoding="utf-8")
    (out_dir / "standings.csv").write_text(tables.standings_csv(rows), encoding="utf-8")
    payload = json.dumps(tables.standings_json(rows), indent=2, allow_nan=False)
    (out_dir / "standings.json").write_text(payload + "\n", encoding="utf-8")
    (out_dir / "crosstable.txt").write_text(tables.crosstable_text(cross, fmt) + "\n", encoding="utf-8")
    return text
