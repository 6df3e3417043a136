"""A bot's stderr log: the file its stderr is copied to, kept open while the bot's drain task runs.

Whatever happens to the file (it cannot be created, the disk fills, its folder is removed), the bot plays
on: the problem is noted once (and logged as a warning) and the rest of its stderr is discarded.

Each process's stderr is capped by its limit (``limits.stderr``); a file holds at most ``FILE_TIMES`` times
that, however many processes write to it (a bot started for every game, or restarted after faults),
so that a bot within its limit cannot fill the disk: past it, one line says so and the rest is dropped.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from typing import IO

import trio

log = logging.getLogger("rookarena.bots")
READ_CHUNK = 65536
FILE_TIMES = 4  # a log file holds at most this many times a process's stderr limit


class StderrLog:
    def __init__(self, path: str | None, label: str, cap: int) -> None:
        self.path = path
        self.label = label
        self.cap = cap  # the bytes of stderr the file may hold (the note that it is full aside)
        self.problem: str | None = None  # why the log could not be written, if it could not
        self.at: int | None = None  # the size of the log as written so far (None: no log)
        self._sink: IO[bytes] | None = None

    @property
    def open_now(self) -> bool:
        return self._sink is not None

    def open(self) -> None:
        """Open the log for appending, its folder made again if it was removed."""
        if not self.path:
            return
        try:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            self._sink = open(self.path, "ab")  # noqa: SIM115 (closed by close() on every path of the drain task)
            self.at = os.fstat(self._sink.fileno()).st_size
        except OSError as exc:
            self._failed(f"cannot open {self.path!r}: {exc.strerror or exc}")

    def write(self, data: bytes | bytearray) -> None:
        sink = self._sink
        if sink is None or not data:
            return
        at = self.at or 0
        if at >= self.cap:
            return  # full, and said so (by this process or by an earlier one)
        kept = data[: self.cap - at]
        if len(kept) < len(data):
            note = f"\n[rookarena: this log holds {self.cap} bytes, its most; later stderr is dropped]\n"
            kept = bytes(kept) + note.encode()
        try:
            sink.write(kept)
            sink.flush()
            self.at = at + len(kept)
        except OSError as exc:
            self._close(f"cannot write {self.path!r}: {exc.strerror or exc}")

    def close(self, dropped: int) -> None:
        """Close the log, noting the bytes of stderr beyond the cap that were not written."""
        if self._sink is not None and dropped:
            with contextlib.suppress(OSError):
                self._sink.write(f"\n[rookarena: {dropped} more bytes of stderr dropped]\n".encode())
        self._close(None)

    def _close(self, problem: str | None) -> None:
        sink, self._sink = self._sink, None
        if sink is not None:
            with contextlib.suppress(OSError):
                sink.close()
        if problem is not None:
            self._failed(problem)

    def _failed(self, problem: str) -> None:
        if self.problem is None:
            self.problem = problem
            log.warning("%s: %s; its stderr is discarded", self.label, problem)


class StderrDrain:
    """A bot process's stderr: copied by a task of its own into its log, up to the process's ``cap`` bytes
    (the rest counted and dropped, and ``over`` called with why), its last 4 KiB kept to quote a crash's
    error or tell a limit from a plain crash. ``done`` is set when the task ends, on every path."""

    def __init__(self, log_file: StderrLog, cap: int, over: Callable[[str], None]) -> None:
        self.log = log_file
        self.cap = cap
        self._over = over
        self.bytes = 0  # kept (written to the log, or meant to be)
        self.dropped = 0  # beyond the cap
        self.tail = b""
        self.scope = trio.CancelScope()
        self.done = trio.Event()

    async def drain(self, stream: trio.abc.ReceiveStream) -> None:
        """Copy the stream to the log until it ends or ``scope`` is cancelled."""
        try:
            self.log.open()
            with self.scope, contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                while data := await stream.receive_some(READ_CHUNK):
                    self.take(data)
        finally:
            self.log.close(self.dropped)
            self.done.set()

    def take(self, data: bytes | bytearray) -> None:
        kept = data[: max(0, self.cap - self.bytes)]
        self.bytes += len(kept)
        self.dropped += len(data) - len(kept)
        self.tail = (self.tail + data)[-4096:]
        self.log.write(kept)
        if self.dropped:
            self._over(f"stderr: wrote more than {self.cap} bytes")

    def catch_up(self, fd: int) -> None:
        """Take what is in the pipe now without waiting, at most 4 MiB (a flood is the cap's business)."""
        if not self.log.open_now:
            return
        for _ in range(64):
            try:
                data = os.read(fd, READ_CHUNK)
            except OSError:  # BlockingIOError among them: nothing waiting
                return
            if not data:
                return
            self.take(data)
