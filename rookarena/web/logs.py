"""The bots' stderr logs of a results directory, for the pages: which log holds a seat's stderr in a game,
and the lines of it the page shows (the game's own range, or the file's end)."""

from __future__ import annotations

import pathlib
import re
from typing import Any

from rookarena.web.model import LogTail

TAIL_LINES = 20
TAIL_BYTES = 64 * 1024
_LOG = re.compile(r"^(?P<prefix>.*)-g(?P<first>\d+)-s(?P<slot>\d)\.stderr\.log$")
_GAME = re.compile(r"^(?P<match>.*)-(?P<number>\d{4,})$")


def _slot(record: dict[str, Any], seat: int) -> int:
    swapped = bool((record.get("league") or {}).get("swapped"))
    return ([2, 0, 3, 1] if swapped else [0, 2, 1, 3])[seat]


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_.+@" else "_" for ch in name)


class LogFolder:
    """The stderr logs of a results directory, listed once and looked up by name: a report of many faults
    and many logs reads the folder once, not once a fault."""

    def __init__(self, directory: pathlib.Path) -> None:
        folder = directory / "logs" if (directory / "logs").is_dir() else directory
        self.by_prefix: dict[str, list[tuple[int, int, pathlib.Path]]] = {}  # prefix: (first game, slot, path)
        for path in sorted(folder.glob("*.stderr.log")):
            parsed = _LOG.match(path.name)
            if parsed is not None:
                entry = (int(parsed["first"]), int(parsed["slot"]), path)
                self.by_prefix.setdefault(parsed["prefix"], []).append(entry)

    def find(self, record: dict[str, Any], gid: str, seat: int, bot: str) -> pathlib.Path | None:
        """The stderr log of the program at ``seat`` in game ``gid``, or None."""
        match = _GAME.match(gid)
        match_id, number = (match["match"], int(match["number"])) if match else (gid, 1)
        slot = _slot(record, seat)
        best: tuple[int, pathlib.Path] | None = None
        for prefix in dict.fromkeys((f"{bot}-{match_id}", _safe(f"{bot}-{match_id}"))):
            for first, at, path in self.by_prefix.get(prefix, ()):
                if at == slot and first <= number and (best is None or first > best[0]):
                    best = (first, path)
        if best is not None:
            return best[1]
        own = (f"{bot}-{match_id}", _safe(f"{bot}-{match_id}"))
        fallback = [
            path
            for prefix, entries in self.by_prefix.items()
            if prefix not in own and prefix.startswith(_safe(bot))
            for _, _, path in entries
        ]
        return fallback[0] if len(fallback) == 1 else None


def find_log(directory: pathlib.Path, record: dict[str, Any], gid: str, seat: int, bot: str) -> pathlib.Path | None:
    """The stderr log of the program at ``seat`` in game ``gid``, or None."""
    return LogFolder(directory).find(record, gid, seat, bot)


def tail(path: pathlib.Path, lines: int = TAIL_LINES) -> tuple[str, ...]:
    """The last ``lines`` lines of a file, reading at most its last 64 KiB."""
    with path.open("rb") as stream:
        stream.seek(0, 2)
        size = stream.tell()
        stream.seek(max(0, size - TAIL_BYTES))
        data = stream.read()
    text = data.decode("utf-8", errors="replace")
    return tuple(text.splitlines()[-lines:])


def log_tail(
    directory: pathlib.Path, record: dict[str, Any], gid: str, seat: int, bot: str, folder: LogFolder | None = None
) -> LogTail:
    path = (folder or LogFolder(directory)).find(record, gid, seat, bot)
    if path is None:
        return LogTail("", ())
    span = _game_range(record, seat)
    try:
        return LogTail(path.name, tail(path) if span is None else range_tail(path, *span))
    except OSError:
        return LogTail(path.name, ())


def _game_range(record: dict[str, Any], seat: int) -> tuple[int, int] | None:
    """The bytes of the seat's stderr log that its bot wrote during this game (``stderr_range``), if known."""
    ranges = record.get("stderr_range")
    if not isinstance(ranges, list) or not 0 <= seat < len(ranges):
        return None
    span = ranges[seat]
    if isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span) and 0 <= span[0] <= span[1]:
        return span[0], span[1]
    return None


def range_tail(path: pathlib.Path, start: int, end: int, lines: int = TAIL_LINES) -> tuple[str, ...]:
    """The last ``lines`` lines of the bytes ``start`` to ``end`` of a file (at most the last 64 KiB of them)."""
    with path.open("rb") as stream:
        stream.seek(max(start, end - TAIL_BYTES))
        data = stream.read(end - max(start, end - TAIL_BYTES))
    return tuple(data.decode("utf-8", errors="replace").splitlines()[-lines:])
