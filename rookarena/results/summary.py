"""The standings as they are shown and filed: the standings, neighbours and crosstable composed into the text
a command prints, and the standings files (text, CSV, JSON, crosstable) written beside the records."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Sequence

from rookarena.results import export, standings, tables
from rookarena.results.directory import recorded_anchors, write_file
from rookarena.results.standings import HeadToHead
from rookarena.results.store import GameResult, Record


def standings_text(
    played: Sequence[Record | GameResult],
    fmt: str,
    crosstable: bool = True,
    *,
    wide: bool = False,
    width: int | None = None,
    anchors: dict[str, float] | None = None,
) -> str:
    """The standings table (compact unless ``wide``, fitted to ``width``) with its model line, the
    neighbours table, then the crosstable (fitted to ``width`` too, unless ``wide``: in short form, or a
    line naming its file). ``anchors``: ratings held fixed (see :func:`standings.standings`)."""
    if not played:
        return "no games played yet"
    rows = standings.standings(played, anchors=anchors)
    order = [row.name for row in rows]
    cross = standings.crosstable(played, order) if crosstable else None
    return _text(rows, standings.neighbours(played, order), cross, fmt, wide, width)


def _text(
    rows: Sequence[standings.Standing],
    pairs: Sequence[HeadToHead],
    cross: standings.Crosstable | None,
    fmt: str,
    wide: bool,
    width: int | None,
) -> str:
    text = tables.standings_table(rows, fmt, wide=wide, width=width)
    text += _neighbours_section(pairs, rows, fmt, None if wide else width)
    if cross is not None:
        if width is not None and not wide:
            text += "\n\n" + tables.crosstable_fitted(cross, fmt, width)
        else:
            text += "\n\n" + tables.crosstable_text(cross, fmt)
    return text


def _neighbours_section(
    pairs: Sequence[HeadToHead], rows: Sequence[standings.Standing], fmt: str, width: int | None
) -> str:
    """The neighbours table after a blank line, or "" when there is none."""
    if not pairs:
        return ""
    ranks = {row.name: row.rank for row in rows}
    return "\n\n" + tables.neighbours_text(pairs, ranks, fmt, width)


def write(
    out_dir: pathlib.Path,
    played: Sequence[Record | GameResult],
    fmt: str,
    *,
    wide: bool = False,
    width: int | None = None,
) -> str:
    """Write standings.txt (every column), standings.csv, standings.json and crosstable.txt; return the text
    shown. The ratings of the anchors recorded in ``out_dir``'s league.json are held where it puts them."""
    if not played:
        return standings_text(played, fmt)
    rows = standings.standings(played, anchors=recorded_anchors([out_dir]))
    order = [row.name for row in rows]
    pairs = standings.neighbours(played, order)
    cross = standings.crosstable(played, order)
    text = _text(rows, pairs, cross, fmt, wide, width)
    full = tables.standings_table(rows, fmt, wide=True) + _neighbours_section(pairs, rows, fmt, None)
    write_file(out_dir / "standings.txt", full + "\n")
    write_file(out_dir / "standings.csv", export.standings_csv(rows))
    payload = json.dumps(export.standings_json(rows), indent=2, allow_nan=False)
    write_file(out_dir / "standings.json", payload + "\n")
    write_file(out_dir / "crosstable.txt", tables.crosstable_text(cross, fmt) + "\n")
    return text
