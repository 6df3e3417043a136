"""Reading results directories for the pages: records (shards merged), league settings, stderr logs.

A league's directory holds ``league.json`` and ``config.yaml`` (the settings and the file they came
from) and its bots' logs in ``logs/``; a match's holds only ``games.jsonl`` and the logs. Log files are
named ``BOT-MATCH-gFIRST-sSLOT.stderr.log`` (the unit's first game and the program's slot), so a
fault's log is the one of its bot and slot whose unit started last at or before the faulting game.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
import shlex
from collections.abc import Sequence
from typing import Any

from rookarena import results
from rookarena.web.model import LeagueInfo, LogTail, game_id

TAIL_LINES = 20
TAIL_BYTES = 64 * 1024
_LOG = re.compile(r"^(?P<prefix>.*)-g(?P<first>\d+)-s(?P<slot>\d)\.stderr\.log$")
_GAME = re.compile(r"^(?P<match>.*)-(?P<number>\d{4,})$")


@dataclasses.dataclass(frozen=True, slots=True)
class Results:
    records: list[dict[str, Any]]
    info: LeagueInfo
    tails: dict[tuple[str, int], LogTail]


def load(directories: Sequence[pathlib.Path]) -> Results:
    """The records of ``directories`` merged as ``rookarena standings`` merges them, with their settings
    and the end of the stderr log of every bot that faulted."""
    played = results.merge(directories)
    origin: dict[str, pathlib.Path] = {}
    for directory in directories:
        for index, record in enumerate(results.read_games(directory / results.GAMES_FILE)):
            origin.setdefault(game_id(record, index), directory)
    tails: dict[tuple[str, int], LogTail] = {}
    for index, record in enumerate(played):
        gid = game_id(record, index)
        directory = origin.get(gid, directories[0])
        for fault in record.get("faults") or []:
            seat = fault.get("seat")
            if isinstance(seat, int) and (gid, seat) not in tails:
                tails[(gid, seat)] = log_tail(directory, record, gid, seat, str(fault.get("bot", "")))
    return Results(played, info(directories, len(played)), tails)


def _meta(directory: pathlib.Path) -> dict[str, Any] | None:
    path = directory / results.PLAN_FILE
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def info(directories: Sequence[pathlib.Path], games: int) -> LeagueInfo:
    """The league's settings from ``league.json`` when there is one; the time the games took from the
    files' modification times (``league.json`` is written as a run starts, the last record as it ends)."""
    first = directories[0]
    meta = _meta(first)
    durations = []
    for directory in directories:
        start, end = directory / results.PLAN_FILE, directory / results.GAMES_FILE
        if start.exists() and end.exists():
            durations.append(max(0.0, end.stat().st_mtime - start.stat().st_mtime))
    duration = max(durations) if durations else None
    names = tuple(str(d) for d in directories)
    if meta is None:
        return LeagueInfo(
            name=None,
            format=None,
            duration_seconds=duration,
            command="rookarena match CMD_A CMD_B --games N --seed S --rules RULES --out DIR"
            f"  # {first}: a match's records keep neither the commands nor the base seed",
            directories=names,
        )
    entries = meta.get("bots") or []
    pairs = len(entries) - 1 if meta.get("format") == "gauntlet" else len(entries) * (len(entries) - 1) // 2
    planned = pairs * int(meta.get("games") or 0)
    commands = []
    for directory in directories:
        shard = (_meta(directory) or {}).get("shard")
        config = directory / "config.yaml"
        line = f"rookarena run {shlex.quote(str(config))} --out {shlex.quote(str(directory))}"
        if shard:
            line += f" --shard {shard}"
        commands.append(line)
    settings = {key: value for key, value in meta.items() if key not in ("bots", "rules")}
    return LeagueInfo(
        name=meta.get("name"),
        format=meta.get("format"),
        planned_games=planned or None,
        seed=meta.get("seed"),
        duplicate=meta.get("duplicate"),
        duration_seconds=duration,
        command="\n".join(commands)
        + "\n# run from the directory the league was first run in: bot commands are relative to it",
        directories=names,
        settings=settings,
    )


def _slot(record: dict[str, Any], seat: int) -> int:
    swapped = bool((record.get("league") or {}).get("swapped"))
    return ([2, 0, 3, 1] if swapped else [0, 2, 1, 3])[seat]


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_.+@" else "_" for ch in name)


def find_log(directory: pathlib.Path, record: dict[str, Any], gid: str, seat: int, bot: str) -> pathlib.Path | None:
    """The stderr log of the program at ``seat`` in game ``gid``, or None."""
    folder = directory / "logs" if (directory / "logs").is_dir() else directory
    match = _GAME.match(gid)
    match_id, number = (match["match"], int(match["number"])) if match else (gid, 1)
    slot = _slot(record, seat)
    best: tuple[int, pathlib.Path] | None = None
    fallback: list[pathlib.Path] = []
    for path in sorted(folder.glob("*.stderr.log")):
        parsed = _LOG.match(path.name)
        if parsed is None:
            continue
        prefix = parsed["prefix"]
        if prefix not in (f"{bot}-{match_id}", _safe(f"{bot}-{match_id}")):
            if prefix.startswith(_safe(bot)):
                fallback.append(path)
            continue
        first = int(parsed["first"])
        if int(parsed["slot"]) == slot and first <= number and (best is None or first > best[0]):
            best = (first, path)
    if best is not None:
        return best[1]
    return fallback[0] if len(fallback) == 1 else None


def tail(path: pathlib.Path, lines: int = TAIL_LINES) -> tuple[str, ...]:
    """The last ``lines`` lines of a file, reading at most its last 64 KiB."""
    with path.open("rb") as stream:
        stream.seek(0, 2)
        size = stream.tell()
        stream.seek(max(0, size - TAIL_BYTES))
        data = stream.read()
    text = data.decode("utf-8", errors="replace")
    return tuple(text.splitlines()[-lines:])


def log_tail(directory: pathlib.Path, record: dict[str, Any], gid: str, seat: int, bot: str) -> LogTail:
    path = find_log(directory, record, gid, seat, bot)
    if path is None:
        return LogTail("", ())
    try:
        return LogTail(path.name, tail(path))
    except OSError:
        return LogTail(path.name, ())
