"""The games index (``games.idx``): a cache beside ``games.jsonl`` saying where each record is and what the
standings and the report's games list need of it, so that readers neither parse every record nor search
the file for one game.

One line a game, appended as its record is: ``CRC <tab> OFFSET <tab> LENGTH <tab> ID_AT <tab> MTIME <tab>
ID <tab> DEAL <tab> DIGEST``. ``CRC`` is the CRC-32 (hex) of the rest of the line; ``OFFSET`` and
``LENGTH`` are the record's bytes in ``games.jsonl``; ``ID_AT`` is where ``"game_id":ID`` starts within
the record (-1 when it has none); ``MTIME`` is ``games.jsonl``'s modification time (ns) once the record was
written; ``ID`` is the game id as JSON; ``DEAL`` is the league's deal number (or the match's seed, or
``-``); ``DIGEST`` is the record as JSON with only the fields the standings and the games list read.

Readers trust the index only when every line is whole and its checksum right, each record starts where
the one before it ends, the
last record ends where ``games.jsonl`` ends, the file's modification time is the one the last line
noted, and each record used holds its id where the index says; otherwise they read ``games.jsonl`` itself
and never fail because of the index. It can be deleted at any time: the next run writes it again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import mmap
import os
import pathlib
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from rookarena.errors import RookError
from rookarena.results.files import INDEX_FILE as INDEX_FILE  # noqa: PLC0414 (callers' name for it)
from rookarena.wire import records

WINDOW = 8 << 20  # bytes of the index searched at a time (a multiple of the page size)
_KEPT = ("game_id", "teams", "seats", "result", "faults", "league", "seed", "forfeit")


def index_path(games: pathlib.Path) -> pathlib.Path:
    return games.with_name(INDEX_FILE)


def slim(record: Mapping[str, Any]) -> dict[str, Any]:
    """What the standings and the games list read of ``record``: its id, teams, result, faults, deal,
    each hand's bid, the last hand's scores, and whether each bot said hello; never the play."""
    out = {key: record[key] for key in _KEPT if key in record}
    hands = record.get("hands")
    if isinstance(hands, list):
        kept: list[Any] = []
        for hand in hands:
            if not isinstance(hand, dict):
                kept.append(hand)
                continue
            bid = hand.get("bidder") is not None
            kept.append({key: hand[key] for key in ("bidder", "bid", "made") if bid and key in hand})
        if kept and isinstance(hands[-1], dict) and "scores" in hands[-1]:
            kept[-1] = {**kept[-1], "scores": hands[-1]["scores"]}
        out["hands"] = kept
    elif "hands" in record:
        out["hands"] = hands
    bots = record.get("bots")
    if isinstance(bots, list):
        out["bots"] = [{"hello": bool(bot.get("hello"))} if isinstance(bot, dict) else None for bot in bots]
    elif "bots" in record:
        out["bots"] = bots
    return out


def _deal(record: Mapping[str, Any]) -> int | None:
    league = record.get("league")
    value = league.get("deal") if isinstance(league, dict) else record.get("seed")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def entry_line(record: Mapping[str, Any], text: bytes, offset: int, mtime_ns: int) -> str:
    """The index line of ``record``, whose line of ``games.jsonl`` is ``text`` and starts at ``offset``."""
    gid = record.get("game_id")
    at = -1
    if gid is not None:
        at = text.find(_needle(gid))
    deal = _deal(record)
    body = "\t".join(
        [
            str(offset),
            str(len(text)),
            str(at),
            str(mtime_ns),
            json.dumps(gid),
            "-" if deal is None else str(deal),
            json.dumps(slim(record), separators=(",", ":"), allow_nan=False),
        ]
    )
    return f"{zlib.crc32(body.encode()):08x}\t{body}\n"


def _needle(gid: Any) -> bytes:
    """How ``records.dumps`` writes the game id (the non-ASCII form, as a record normally is)."""
    return b'"game_id":' + json.dumps(gid, ensure_ascii=False).encode()


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    offset: int
    length: int
    id_at: int
    gid: Any  # the record's game_id as it was written (None: none)
    deal: int | None
    digest_text: str
    mtime: int = -1

    def digest(self) -> dict[str, Any]:
        return records.loads(self.digest_text)


class StaleIndexError(Exception):
    """The games index stopped matching its records partway through a read: read the records instead."""


def _parse(raw: bytes) -> Entry | None:
    """The entry of one index line (without its newline), or None when it is damaged."""
    try:
        crc, body = raw.split(b"\t", 1)
        if int(crc, 16) != zlib.crc32(body):
            return None
        fields = body.decode().split("\t", 6)
        if len(fields) != 7:
            return None
        offset, length, at, mtime = (int(value) for value in fields[:4])
        gid = json.loads(fields[4])
        deal = None if fields[5] == "-" else int(fields[5])
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if length <= 0 or at >= length:
        return None
    return Entry(offset, length, at, gid, deal, fields[6], mtime)


def _ends_right(games: pathlib.Path, mapped: mmap.mmap | None) -> bool:
    """Whether the index's last line says the records end where ``games`` ends, as last modified."""
    status = os.stat(games)
    if mapped is None:
        return status.st_size == 0
    if mapped[-1:] != b"\n":
        return False
    last = _parse(mapped[mapped.rfind(b"\n", 0, len(mapped) - 1) + 1 : -1])
    return last is not None and last.offset + last.length == status.st_size and last.mtime == status.st_mtime_ns


def _mapped(path: pathlib.Path) -> tuple[IO[bytes], mmap.mmap | None]:
    stream = path.open("rb")
    size = os.fstat(stream.fileno()).st_size
    return stream, mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) if size else None


def entries(games: pathlib.Path) -> Iterator[Entry]:
    """The entries of ``games``'s index one at a time, each checked as it is read (see the module's note):
    :class:`StaleIndexError` before the first when the index is missing or does not end where the file
    does, and at the first that does not match."""
    try:
        index, mapped = _mapped(index_path(games))
    except OSError:
        raise StaleIndexError from None
    try:
        if not _ends_right(games, mapped):
            raise StaleIndexError
        if mapped is None:
            return
        mapped.close()  # the lines are read through a buffer, so that the index never stays in memory
        mapped = None
        with games.open("rb") as stream, index_path(games).open("rb") as lines:
            end = 0
            for raw in lines:
                entry = _parse(raw[:-1]) if raw.endswith(b"\n") else None
                if entry is None or entry.offset != end or not holds(stream, entry):
                    raise StaleIndexError
                end = entry.offset + entry.length
                yield entry
            if end != os.fstat(stream.fileno()).st_size:
                raise StaleIndexError
    except OSError:
        raise StaleIndexError from None
    finally:
        if mapped is not None:
            mapped.close()
        index.close()


def load(games: pathlib.Path) -> list[Entry] | None:
    """Every entry of ``games``'s index when it all matches the file, else None (for tests and checks:
    readers of large leagues take :func:`entries` one at a time)."""
    try:
        return list(entries(games))
    except StaleIndexError:
        return None


verified = load


def matches(games: pathlib.Path) -> bool:
    """Whether the index of ``games`` matches it, read without keeping its entries."""
    try:
        for _ in entries(games):
            pass
    except StaleIndexError:
        return False
    return True


def holds(stream: IO[bytes], entry: Entry) -> bool:
    """Whether the record at ``entry``'s offset in ``stream`` (``games.jsonl``) ends where the index says
    and holds its id where the index says."""
    fd = stream.fileno()
    if os.pread(fd, 1, entry.offset + entry.length - 1) != b"\n":
        return False
    if entry.offset and os.pread(fd, 1, entry.offset - 1) != b"\n":
        return False
    if entry.gid is None:
        return entry.id_at < 0
    needle = _needle(entry.gid)
    return entry.id_at >= 0 and os.pread(fd, len(needle), entry.offset + entry.id_at) == needle


def search(games: pathlib.Path, needles: Sequence[bytes]) -> list[Entry] | None:
    """The entries whose lines hold one of ``needles``, found by searching the index as bytes (so that one
    game is found without reading every entry) and each checked against its record; None when the index
    is missing, does not end where the file does, or a found entry does not match its record."""
    try:
        index, mapped = _mapped(index_path(games))
    except OSError:
        return None
    try:
        if not _ends_right(games, mapped):
            return None
        if mapped is None:
            return []
        starts: set[int] = set()
        size, longest = len(mapped), max(len(needle) for needle in needles)
        for start in range(0, size, WINDOW):  # a window at a time, each let go after it
            stop = min(size, start + WINDOW)
            for needle in needles:
                at = mapped.find(needle, start, min(size, stop + longest - 1))
                while 0 <= at < stop:
                    starts.add(mapped.rfind(b"\n", 0, at) + 1)
                    at = mapped.find(needle, at + 1, min(size, stop + longest - 1))
            if hasattr(mapped, "madvise"):
                mapped.madvise(mmap.MADV_DONTNEED, start, stop - start)
        found = []
        with games.open("rb") as stream:
            for first in sorted(starts):
                entry = _parse(mapped[first : mapped.find(b"\n", first)])
                if entry is None or not holds(stream, entry):
                    return None
                found.append(entry)
        return found
    except OSError:
        return None
    finally:
        if mapped is not None:
            mapped.close()
        index.close()


def id_field(gid: str) -> list[bytes]:
    """How an index line's id field holds the string ``gid`` (as JSON, between tabs)."""
    return [b"\t" + json.dumps(gid).encode() + b"\t"]


def deal_field(deal: int) -> list[bytes]:
    """How an index line's id and deal fields end for deal number ``deal``."""
    return [b'"\t%d\t' % deal, b"null\t%d\t" % deal]


def line_at(stream: IO[bytes], entry: Entry) -> bytes | None:
    """The line of ``entry``'s record in ``stream``, or None when it is not where the index says."""
    if not holds(stream, entry):
        return None
    return os.pread(stream.fileno(), entry.length, entry.offset)


def each_line(games: pathlib.Path, start: int = 0) -> Iterator[tuple[int, bytes, dict[str, Any]]]:
    """The records of ``games`` from byte ``start`` with their offsets and lines; stops at the first
    line that is not a record (a last line cut short, or damage: the index then stops there too)."""
    offset = start
    with games.open("rb") as stream:
        stream.seek(start)
        for line in stream:
            begin, offset = offset, offset + len(line)
            if not line.strip():
                continue
            if not line.endswith(b"\n"):
                return
            try:
                record = records.load_record(line.decode("utf-8"))
            except (UnicodeDecodeError, RookError):
                return
            yield begin, line, record


def rebuild(games: pathlib.Path) -> None:
    """Write the index of ``games`` afresh from its records (nothing when it cannot be written)."""
    path = index_path(games)
    spare = path.with_name(path.name + ".new")
    try:
        mtime = os.stat(games).st_mtime_ns
        with spare.open("w", encoding="utf-8") as out:
            for offset, line, record in each_line(games):
                out.write(entry_line(record, line, offset, mtime))
        if os.stat(games).st_mtime_ns != mtime:
            spare.unlink()
            return
        os.replace(spare, path)
    except OSError:  # a full disk: no index, and no part of one left taking room
        with contextlib.suppress(OSError):
            spare.unlink()


class Writer:
    """Appends the index line of each record :class:`rookarena.results.directory.RecordSink` writes; opening it
    writes the index afresh first if it does not match ``games.jsonl``."""

    def __init__(self, games: pathlib.Path) -> None:
        self.games = games
        self.stream: IO[str] | None = None
        if not matches(games):
            rebuild(games)
            if not matches(games):  # a file the index cannot describe (damaged, or ending in blank lines)
                _remove(index_path(games))
                return
        try:
            self.stream = index_path(games).open("a", encoding="utf-8")
        except OSError:
            self.stream = None

    def add(self, record: Mapping[str, Any], text: bytes, offset: int, mtime_ns: int) -> None:
        if self.stream is None:
            return
        try:
            self.stream.write(entry_line(record, text, offset, mtime_ns))
            self.stream.flush()
        except (OSError, ValueError):
            self.stream = None

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()


def _remove(path: pathlib.Path) -> None:
    try:
        path.unlink()
    except OSError:
        return
