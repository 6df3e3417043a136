"""Files written whole or not at all, and where a page may not be written: the results' own files."""

from __future__ import annotations

import contextlib
import os
import pathlib
from collections.abc import Iterable, Iterator
from typing import IO

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


def over_results(path: pathlib.Path, directories: Iterable[pathlib.Path]) -> str | None:
    """Why ``path`` may not be written (it is one of the files of a results directory in ``directories``, or
    under its logs), or None."""
    target = pathlib.Path(os.path.realpath(path))
    for directory in directories:
        home = pathlib.Path(os.path.realpath(directory))
        if (target.parent == home and target.name in OWN_FILES) or home / "logs" in target.parents:
            return f"{path}: is one of the files of the results in {str(directory)!r}: write the page elsewhere"
    return None
