"""Appending game records to a results directory's ``games.jsonl`` as games end, each whole and synced."""

from __future__ import annotations

import contextlib
import os
import pathlib
from typing import Any

from rookarena.results import gamesindex
from rookarena.results.files import ResultsError
from rookarena.wire import records


class RecordSink:
    """Appends records to ``games.jsonl``, each written whole and synced before it counts as finished.

    A record that cannot be written (a full disk, a file-size limit, an I/O error) is cut from the file
    again, so the file ends on the last whole record, and :class:`ResultsError` says so: the records
    before it stay as they were, and a run resumed once there is room goes on from them.
    """

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise ResultsError(f"{path}: cannot be written: {exc.strerror or exc} (it is left as it was)") from None
        self.offset = os.fstat(self.fd).st_size
        self.index = gamesindex.Writer(path)

    def write(self, record: dict[str, Any]) -> None:
        """Append ``record``, then its line of the games index (a cache: see :mod:`rookarena.results.gamesindex`)."""
        text = (records.dumps(record) + "\n").encode()
        try:
            written = 0
            while written < len(text):
                written += os.write(self.fd, text[written:])
            os.fsync(self.fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.offset)
            raise ResultsError(
                f"{self.path}: could not write the record of game {record.get('game_id')}: {exc.strerror or exc} "
                "(the records before it are kept whole)"
            ) from None
        self._check_in_place(record, self.offset + len(text))
        self.index.add(record, text, self.offset, os.fstat(self.fd).st_mtime_ns)
        self.offset += len(text)

    def _check_in_place(self, record: dict[str, Any], size: int) -> None:
        """Raise unless the file just written is still the one at ``path`` and holds what this sink wrote
        (``size`` bytes): a file replaced (an editor's save, ``sed -i``) or removed while the run goes takes
        each later record with it, where no reader finds it, and one cut or written to by another program
        no longer holds the games the run counts."""
        try:
            now = os.stat(self.path)
        except OSError:
            now = None
        held = os.fstat(self.fd)
        game = record.get("game_id")
        if now is None or (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
            raise ResultsError(
                f"{self.path}: was {'removed' if now is None else 'replaced by another file'} while the run went "
                f"on, so the record of game {game} went to the file that was there before, and is not kept"
            )
        if held.st_size != size:
            raise ResultsError(
                f"{self.path}: was {'cut' if held.st_size < size else 'written to'} by another program while the "
                f"run went on ({held.st_size:,} bytes after the record of game {game}, where this run wrote "
                f"{size:,}); the run stops rather than count games the file may not hold"
            )

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        self.index.close()
