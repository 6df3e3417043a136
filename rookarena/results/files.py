"""Files written whole or not at all, and where a page may not be written: the results' own files; and the
games of several results directories read by id, each game once."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from rookarena.errors import RookError

GAMES_FILE = "games.jsonl"
PLAN_FILE = "league.json"
LOCK_FILE = ".lock"
INDEX_FILE = "games.idx"  # rookarena.results.gamesindex's


class ResultsError(RookError):
    """A results directory that cannot be used for this league."""


def write_file(path: pathlib.Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (see :func:`output`)."""
    with output(path) as stream:
        stream.write(text.encode())


@contextlib.contextmanager
def output(path: pathlib.Path) -> Iterator[IO[bytes]]:
    """A stream whose bytes end up in ``path`` whole or not at all: written into a file beside it, synced,
    then renamed over it, so that a full disk or a crash leaves the old file as it was (never one cut short).
    A symbolic link stays one (the file it names is replaced); a path that is no regular file (``/dev/null``,
    ``/dev/stdout``, a named pipe) is written straight through, never replaced. A failure is a
    :class:`ResultsError` naming the file."""
    target = pathlib.Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        if target.is_dir():
            raise ResultsError(f"{path}: cannot be written: it is a directory")
        try:
            with open(target, "wb") as stream:
                yield stream
        except OSError as exc:
            raise ResultsError(f"{path}: cannot be written: {exc.strerror or exc}") from None
        return
    spare = target.with_name(f".{target.name}.new")
    try:
        with open(spare, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(spare, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            spare.unlink()
        raise ResultsError(f"{path}: cannot be written: {exc.strerror or exc} (it is left as it was)") from None
    except BaseException:
        with contextlib.suppress(OSError):
            spare.unlink()
        raise


def not_a_folder(path: pathlib.Path, exc: OSError) -> str:
    """What stands where a folder of results was to be made at ``path`` (or one of the folders above it),
    in place of the system's 'File exists' or 'Not a directory'."""
    for place in (path, *path.parents):
        if place.is_symlink() and not place.exists():
            return f"{place} is a symbolic link to {os.readlink(place)}, which does not exist"
        if place.exists():
            if place.is_dir():
                break
            return f"{place} is not a folder"
    return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")


# The files of a results directory, which no page may be written over.
OWN_FILES = (
    GAMES_FILE,
    PLAN_FILE,
    LOCK_FILE,
    INDEX_FILE,
    "config.yaml",
    "standings.txt",
    "standings.csv",
    "standings.json",
    "crosstable.txt",
)


def over_results(path: pathlib.Path, directories: Iterable[pathlib.Path], what: str = "the page") -> str | None:
    """Why ``path`` may not be written: it is one of the files of a results directory, or under its logs,
    whether that directory is one of ``directories`` (the results read) or any other (one that holds a
    ``games.jsonl`` or a ``league.json``); else None."""
    target = pathlib.Path(os.path.realpath(path))
    read = {pathlib.Path(os.path.realpath(directory)): str(directory) for directory in directories}
    for home in (target.parent, *(folder.parent for folder in target.parents if folder.name == "logs")):
        if home not in read and not any((home / name).is_file() for name in (GAMES_FILE, PLAN_FILE)):
            continue
        if (target.parent == home and target.name in OWN_FILES) or home / "logs" in target.parents:
            where = read.get(home, str(home))
            return f"{path}: is one of the files of the results in {where!r}: write {what} elsewhere"
    return None


class GameIds:
    """The games read so far, by id, so that shards that overlap give each game once; the same id with
    another deal (seed) or other seats is another league's or match's game (every match numbers its games
    match-0001, ...), which no merge may hide: that is a :class:`ResultsError` naming both files. So is a
    game of another league (its record's ``league.name``) than the first game read: a match's games among a
    league's, or a record of another league added to a games file."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, str]] = {}
        self._league: tuple[str, str, str] | None = None  # the first game's league, its id and its file
        self._rules: tuple[str, str, str] | None = None  # the first game's rules hash, its id and its file

    def ids(self) -> set[str]:
        """The ids of the games read so far."""
        return set(self._seen)

    def _differs(self, slot: str, value: Any, game_id: str, path: pathlib.Path) -> tuple[str, str, str] | None:
        """The first game's (value, id, file) kept in ``slot`` when ``value`` (a string) differs from it; the
        first string given is kept there. None when they agree, or ``value`` is no string."""
        if not isinstance(value, str):
            return None
        kept: tuple[str, str, str] | None = getattr(self, slot)
        if kept is None:
            setattr(self, slot, (value, game_id, str(path)))
            return None
        return kept if value != kept[0] else None

    def first(self, record: Mapping[str, Any], path: pathlib.Path) -> bool:
        """Whether ``record`` (read from ``path``) is the first of its game."""
        game_id = str(record.get("game_id"))
        league = record.get("league")
        name = league.get("name") if isinstance(league, Mapping) else None
        earlier = self._differs("_league", name, game_id, path)
        if earlier is not None:
            other, other_id, other_path = earlier
            raise ResultsError(
                f"{path} holds game {game_id!r} of {name!r} and {other_path} game {other_id!r} of {other!r}: only "
                "the games of one league (or of its shards) or of one match can be read together"
            )
        rules = record.get("rules_hash")
        earlier = self._differs("_rules", rules, game_id, path)
        if earlier is not None:
            other, other_id, other_path = earlier
            raise ResultsError(
                f"{path} holds game {game_id!r} played under other rules (hash {rules}) than game {other_id!r} "
                f"of {other_path} (hash {other}): they are not one league's games, and cannot be counted together"
            )
        seats = record.get("seats")
        key = hash(json.dumps([record.get("seed"), seats if isinstance(seats, list) else None]))
        known = self._seen.get(game_id)
        if known is None:
            self._seen[game_id] = (key, str(path))
            return True
        if known[0] != key:
            raise ResultsError(
                f"{known[1]} and {path} both hold a game {game_id!r}, but not the same game (another deal or other "
                "seats): they are the results of different leagues or matches, which cannot be merged"
            )
        return False
