"""Reading results directories for the pages: records (shards merged), league settings, stderr logs.

A league's directory holds ``league.json`` and ``config.yaml`` (the settings and the file they came
from) and its bots' logs in ``logs/``; a match's holds only ``games.jsonl`` and the logs. Log files are
named ``BOT-MATCH-gFIRST-sSLOT.stderr.log`` (the unit's first game and the program's slot), so a
fault's log is the one of its bot and slot whose unit started last at or before the faulting game.
"""

from __future__ import annotations

import array
import dataclasses
import json
import mmap
import os
import pathlib
import re
import shlex
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any, overload

from rookarena.errors import RookError
from rookarena.results import directory as results
from rookarena.results import gamesindex, store
from rookarena.results.files import GameIds
from rookarena.web.index import Digest
from rookarena.web.logs import TAIL_BYTES as TAIL_BYTES  # noqa: PLC0414 (callers' names for them)
from rookarena.web.logs import TAIL_LINES as TAIL_LINES  # noqa: PLC0414
from rookarena.web.logs import LogFolder as LogFolder  # noqa: PLC0414
from rookarena.web.logs import find_log as find_log  # noqa: PLC0414
from rookarena.web.logs import log_tail as log_tail  # noqa: PLC0414
from rookarena.web.logs import range_tail as range_tail  # noqa: PLC0414
from rookarena.web.logs import tail as tail  # noqa: PLC0414
from rookarena.web.model import LeagueInfo, LogTail, game_id
from rookarena.wire import records, transcript


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
    logs: dict[pathlib.Path, LogFolder] = {}
    for index, record in enumerate(played):
        gid = game_id(record, index)
        directory = origin.get(gid, directories[0])
        for fault in record.get("faults") or []:
            seat = fault.get("seat")
            if isinstance(seat, int) and (gid, seat) not in tails:
                folder = logs.get(directory) or logs.setdefault(directory, LogFolder(directory))
                tails[(gid, seat)] = log_tail(directory, record, gid, seat, str(fault.get("bot", "")), folder)
    return Results(played, info(directories, len(played)), tails)


@dataclasses.dataclass(frozen=True, slots=True)
class Scan:
    """One pass over the records of ``directories`` (shards merged as :func:`load` merges them): a
    :class:`Digest` of every game, where each game's record starts (file and byte offset), the league's
    settings and the stderr tails of faulted bots. Records are read again only by position."""

    digest: Digest
    files: tuple[pathlib.Path, ...]
    file_of: array.array[int]
    offset_of: array.array[int]
    info: LeagueInfo
    tails: dict[tuple[str, int], LogTail]

    def records(self, positions: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The records at ``positions``, each read from its offset."""
        return {position: records.load_record(line) for position, line in self.lines(positions).items()}

    def lines(self, positions: Iterable[int], replayed: bool = False) -> dict[int, str]:
        """The lines of ``games.jsonl`` that hold the records at ``positions``, each read from its offset
        and checked to be a record (the file is only ever appended to); with ``replayed``, each record is
        also played through the rules (:func:`records.replay`), and one that does not replay is a
        :class:`results.ResultsError` naming its file, game and field, as for a page that shows its play."""
        out: dict[int, str] = {}
        wanted = sorted(positions, key=lambda p: (self.file_of[p], self.offset_of[p]))
        streams: dict[int, Any] = {}
        try:
            for position in wanted:
                number = self.file_of[position]
                stream = streams.get(number)
                if stream is None:
                    stream = streams[number] = self.files[number].open("rb")
                stream.seek(self.offset_of[position])
                line = stream.readline().decode("utf-8")
                record = records.load_record(line)
                if record.get("game_id", self.digest.ids[position]) != self.digest.ids[position]:
                    raise results.ResultsError(f"{self.files[number]}: changed while it was read")
                if replayed:
                    replayable(record, self.digest.ids[position], self.files[number])
                out[position] = line
        finally:
            for stream in streams.values():
                stream.close()
        return out


def replayable(record: dict[str, Any], gid: str, where: pathlib.Path) -> dict[str, Any]:
    """``record``, once it has replayed under its rules: a record edited by hand or damaged on disk in a
    way its shape does not show (a card no seat held, a flipped winner) is a :class:`results.ResultsError`
    naming the file, the game and the first field that disagrees, rather than a page or text that shows
    a game no referee played."""
    try:
        records.replay(record)
    except RookError as exc:
        why = str(exc).removeprefix("record does not replay: ")
        raise results.ResultsError(f"{where}: damaged record: game {gid!r} does not replay: {why}") from None
    return record


FAULT_BATCH = 512  # faulted games' records held at once while their faults are placed

each_line = results.each_placed  # the records of a file with the byte offset each starts at


def scan(directories: Sequence[pathlib.Path]) -> Scan:
    """:class:`Scan` of ``directories``: memory grows by a couple of hundred bytes a game, never with the
    records' size. Each file's games index is read in place of its records where it matches them; one
    found not to match partway is let go and the scan starts again."""
    files = tuple(results.games_files(directories))
    unindexed: set[pathlib.Path] = set()
    while True:
        try:
            return _scan(directories, files, unindexed)
        except gamesindex.StaleIndexError as exc:
            unindexed.add(pathlib.Path(str(exc)))


def _scan(directories: Sequence[pathlib.Path], files: tuple[pathlib.Path, ...], unindexed: set[pathlib.Path]) -> Scan:
    summary = Digest()
    file_of, offset_of = array.array("B"), array.array("q")
    ids = GameIds()
    tails: dict[tuple[str, int], LogTail] = {}
    for number, path in enumerate(files):
        for offset, record in _each_digest(path, path not in unindexed):
            if "game_id" in record and not ids.first(record, path):
                continue
            summary.add(record)
            file_of.append(number)
            offset_of.append(offset)
    found = Scan(summary, files, file_of, offset_of, info(directories, len(summary)), tails)
    # The faulted games' whole records (an index's digest has neither the play that places a fault nor the
    # stderr ranges), read again a batch at a time: however many there are, memory holds one batch.
    faulted = sorted({fault["position"] for fault in summary.fault_list})
    logs: dict[pathlib.Path, LogFolder] = {}
    for start in range(0, len(faulted), FAULT_BATCH):
        batch = found.records(faulted[start : start + FAULT_BATCH])
        summary.place(batch)
        for position, record in batch.items():
            gid, directory = summary.ids[position], files[file_of[position]].parent
            folder = logs.get(directory) or logs.setdefault(directory, LogFolder(directory))
            for fault in record.get("faults") or []:
                seat = fault.get("seat")
                if isinstance(seat, int) and (gid, seat) not in tails:
                    tails[(gid, seat)] = log_tail(directory, record, gid, seat, str(fault.get("bot", "")), folder)
    if len(summary):
        summary.first = found.records([0])[0]  # the whole record, where the index gave only its digest
    return found


_each_digest = results.each_placed_digest  # the index's digests where it matches the file, else the records


class Stored(Sequence[tuple[str, dict[str, Any]]]):
    """Games as (id, record), each record read from its file when it is wanted, never kept."""

    def __init__(self, where: Sequence[tuple[str, pathlib.Path, int]]) -> None:
        self.where = list(where)  # (game id, file, offset)

    def __len__(self) -> int:
        return len(self.where)

    @overload
    def __getitem__(self, index: int) -> tuple[str, dict[str, Any]]: ...

    @overload
    def __getitem__(self, index: slice) -> Stored: ...

    def __getitem__(self, index: int | slice) -> tuple[str, dict[str, Any]] | Stored:
        if isinstance(index, slice):
            return Stored(self.where[index])
        gid, path, offset = self.where[index]
        with path.open("rb") as stream:
            stream.seek(offset)
            return gid, records.load_record(stream.readline().decode("utf-8"))

    def ids(self) -> list[str]:
        return [gid for gid, _, _ in self.where]

    def records(self, wanted: Collection[str]) -> dict[str, dict[str, Any]]:
        """The records of the games of ``wanted`` among these."""
        return {gid: self[number][1] for number, (gid, _, _) in enumerate(self.where) if gid in wanted}


@dataclasses.dataclass(frozen=True, slots=True)
class Selection:
    """What ``rookarena diff`` needs of the results, read in one pass: every bot name, every game id, and
    OLD's games to replay (as :func:`rookarena.wire.transcript.select` orders and limits them), by offset."""

    names: list[str]
    known: set[str]
    games: Stored


def select(directories: Sequence[pathlib.Path], old: str, wanted: Collection[str], limit: int | None) -> Selection:
    """:class:`Selection` of ``directories`` (shards merged, each game once) for OLD."""
    names: set[str] = set()
    known: set[str] = set()
    groups: dict[tuple[Any, ...], list[tuple[int, str, pathlib.Path, int]]] = {}
    position = 0
    for path in results.games_files(directories):
        for offset, record in each_line(path):
            gid = transcript.game_id(record, position)
            if "game_id" in record and gid in known:
                continue
            known.add(gid)
            names.update(str(name) for name in record.get("seats") or [])
            if transcript.seats_of(record, old) and transcript.playable(record) and (not wanted or gid in wanted):
                order = (record.get("league") or {}).get("index")
                key = transcript.unit_of(record)
                groups.setdefault(key, []).append((order if isinstance(order, int) else position, gid, path, offset))
            position += 1
    chosen = [
        (gid, path, offset) for group in groups.values() for _, gid, path, offset in sorted(group, key=lambda g: g[0])
    ]
    return Selection(sorted(names), known, Stored(chosen if limit is None else chosen[:limit]))


CHUNK = 8 << 20  # bytes searched at a time: what the search adds to the memory in use, at most


def lines_with(path: pathlib.Path, needles: Sequence[bytes]) -> Iterator[tuple[int, bytes]]:
    """Every line of ``path`` holding one of ``needles``, with its offset, in order. The file is mapped
    and searched as bytes a window of ``CHUNK`` at a time, each window's pages let go after it, so that
    finding one game in a large file parses nothing else and keeps little in memory."""
    with path.open("rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        if size == 0:
            return
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            window = max(mmap.PAGESIZE, CHUNK // mmap.PAGESIZE * mmap.PAGESIZE)
            longest = max(len(needle) for needle in needles)
            done = -1  # the offset of the last line given
            for start in range(0, size, window):
                stop = min(size, start + window)
                starts: set[int] = set()
                for needle in needles:
                    at = mapped.find(needle, start, min(size, stop + longest - 1))
                    while 0 <= at < stop:
                        starts.add(mapped.rfind(b"\n", 0, at) + 1)
                        at = mapped.find(needle, at + 1, min(size, stop + longest - 1))
                for first in sorted(starts):
                    if first <= done:
                        continue
                    end = mapped.find(b"\n", first)
                    done = first
                    yield first, mapped[first : size if end < 0 else end + 1]
                if hasattr(mapped, "madvise"):
                    mapped.madvise(mmap.MADV_DONTNEED, start, stop - start)


def _record_at(line: bytes) -> dict[str, Any] | None:
    try:
        return records.load_record(line.decode("utf-8"))
    except (UnicodeDecodeError, RookError):
        return None


def find_record(path: pathlib.Path, wanted: str) -> dict[str, Any] | None:
    """The record of game ``wanted`` in ``path``, found without parsing the others: the first record
    whose ``game_id`` is ``wanted``, or for ids of the form ``game-N`` the N-th record when records have
    no ``game_id``."""
    indexed = _find_indexed(path, wanted)
    if not isinstance(indexed, bool):
        return indexed
    needle = b'"game_id":' + json.dumps(wanted, ensure_ascii=False).encode()
    needles = [needle, b'"game_id":' + json.dumps(wanted).encode()]
    for _, line in lines_with(path, sorted(set(needles))):
        record = _record_at(line)
        if record is not None and str(record.get("game_id")) == wanted:
            return record
    match = re.fullmatch(r"game-([1-9]\d*)", wanted)
    # Not found as the referee writes its records: a file written by another tool may space its JSON
    # otherwise, so every record is read before the game is said to be missing.
    for index, (_, record) in enumerate(each_line(path)):
        if "game_id" in record and str(record["game_id"]) == wanted:
            return record
        if match is not None and "game_id" not in record and index == int(match[1]) - 1:
            return record
    return None


def _find_indexed(path: pathlib.Path, wanted: str) -> dict[str, Any] | bool | None:
    """:func:`find_record` by the games index: the record, or False when the index cannot say (missing,
    stale, not holding the id, or not matching the record it points to)."""
    found = gamesindex.search(path, gamesindex.id_field(wanted))
    chosen = next((e for e in found or [] if e.gid is not None and str(e.gid) == wanted), None)
    if chosen is None:
        return False
    with path.open("rb") as stream:
        line = gamesindex.line_at(stream, chosen)
    record = None if line is None else _record_at(line)
    if record is None or str(record.get("game_id")) != wanted:
        return False
    return record


def _lines_of_deal(path: pathlib.Path, deal: int, marks: Sequence[bytes]) -> Iterator[bytes]:
    """The lines that may hold a game of ``deal``: by the games index when it matches the file and finds
    two (the records it gives deal ``deal``), else by searching the file for ``marks``."""
    found = [e for e in gamesindex.search(path, gamesindex.deal_field(deal)) or [] if e.deal == deal]
    if len(found) >= 2:
        lines = []
        with path.open("rb") as stream:
            for entry in found:
                line = gamesindex.line_at(stream, entry)
                if line is None:
                    break
                lines.append(line)
            else:
                yield from lines
                return
    for _, line in lines_with(path, marks):
        yield line


def find_partner(path: pathlib.Path, record: dict[str, Any], gid: str) -> tuple[str, dict[str, Any]] | None:
    """The other game of ``record``'s duplicate deal pair in ``path``, as :func:`rookarena.web.model.partners`
    pairs them (the deal's only two games, each entry once as team 0), read by searching for its deal."""
    game = store.game_result(record, keep=False)
    key = game.deal_key
    if key is None or game.teams[0] == game.teams[1]:
        return None
    league = record.get("league")
    deal = league["deal"] if league is not None else record["seed"]
    marks = [b'"%s":%d%s' % (b"deal" if league is not None else b"seed", deal, end) for end in (b",", b"}")]
    same: list[tuple[str, dict[str, Any]]] = []
    for index, line in enumerate(_lines_of_deal(path, deal, marks)):
        other = _record_at(line)
        if other is None:
            continue
        result = store.game_result(other, keep=False)
        if result.deal_key == key and result.teams[0] != result.teams[1]:
            same.append((game_id(other, index), other))
    if len(same) != 2:
        return None
    ids = [candidate for candidate, _ in same]
    if gid not in ids:
        return None
    partner = same[1 - ids.index(gid)]
    if store.game_result(partner[1], keep=False).teams != game.teams[::-1]:
        return None
    return partner


def _meta(directory: pathlib.Path) -> dict[str, Any] | None:
    path = directory / results.PLAN_FILE
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
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
