"""The files of a results directory that are derived from its records: standings and crosstable."""

from __future__ import annotations

import pathlib
from typing import Any

from rookarena import report


def standings_text(played: list[dict[str, Any]], fmt: str) -> str:
    names = sorted({name for record in played for name in record.get("teams", [])})
    return report.match_table(played, names[0], names[1]) if len(names) >= 2 else "no games"


def write(out_dir: pathlib.Path, played: list[dict[str, Any]], fmt: str) -> str:
    text = standings_text(played, fmt)
    (out_dir / "standings.txt").write_text(text + "\n", encoding="utf-8")
    return text
