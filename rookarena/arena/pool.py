"""Parallel leagues across processes: a pool of long-lived referee processes, planned once, fed units.

A single Python process runs one referee at a time on one core, so ``--jobs N`` keeps N worker processes
(``python -m rookarena.arena.worker``). Each is started once: its first line on stdin is the configuration's
text, from which it plans the league once. Then the parent hands it one unit at a time, as a line with
the ids of the unit's games; the worker sends each finished game's record back as one JSON line on its
stdout, then ``{"unit_done": true}``, and waits for the next unit. No work grows with the number of
units: a unit costs one line each way.

A worker that dies (killed, out of memory) is replaced by a new one, and the unfinished games of its unit
go to it, up to ``ATTEMPTS`` times a unit; the game it was playing is played again from its start. When
the parent is cancelled it sends each worker SIGTERM, keeps reading until the worker has stopped its bots
and exited (a game that finishes meanwhile is still recorded), and kills a worker that takes too long. A
worker also stops when its stdin reaches end of file, which is how it learns that the parent was killed.
Workers run in sessions of their own: the terminal's Ctrl-C reaches only the parent.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import trio

from rookarena.arena import ownpackage, proctree
from rookarena.arena.league import Ahead, PlannedGame, Units, units
from rookarena.arena.specs import LeagueConfig
from rookarena.errors import RookError
from rookarena.wire import records
from rookarena.wire.conversation import LineBuffer

log = logging.getLogger(__name__)

STOP_GRACE = 20.0  # seconds a worker has to stop its bots and exit after SIGTERM or end of input
MAX_RECORD = 1 << 26
ATTEMPTS = 3  # times a unit's unfinished games are given to a worker before the league stops
UNIT_DONE = "unit_done"  # the key of the line a worker sends after a unit's last record
NEXT = "next"  # the key of the line a worker sends to ask for its next unit, before a unit's last record


class WorkerError(RookError):
    """A worker process failed: our own bug or a broken machine, never a bot's fault."""


async def run(
    config: LeagueConfig,
    games: Sequence[PlannedGame],
    jobs: int,
    log_dir: str | None,
    on_record: Callable[[dict[str, Any]], None],
    verbose: int = 0,
) -> None:
    """Play ``games`` in a pool of up to ``jobs`` worker processes, handing each record to ``on_record``."""
    work = Units(units(games, jobs))
    head = {
        "text": config.source,
        "origin": config.origin,
        "seed": config.seed,  # the league's, which the text may not hold (drawn, or given by --seed)
        "log_dir": log_dir,
        "verbose": verbose,
    }
    cpus = placement(config.pin_cpus, jobs)

    async def slot(index: int) -> None:
        worker = Worker({**head, "cpu": None if cpus is None else cpus[index % len(cpus)], "worker": index + 1})
        try:
            unit = await work.take()
            while unit is not None:
                ahead = Ahead(work.take)
                await _play_unit(worker, unit, on_record, ahead)
                unit = await ahead.unit()
            await worker.close()
        finally:
            await worker.terminate(on_record)

    async with trio.open_nursery() as nursery:
        for index in range(min(jobs, len(work))):
            nursery.start_soon(slot, index)


async def _play_unit(
    worker: Worker, unit: list[PlannedGame], on_record: Callable[[dict[str, Any]], None], ahead: Ahead
) -> None:
    """One unit on ``worker``; a worker that dies is replaced and given the unit's unfinished games."""
    left = list(unit)
    done: set[str] = set()

    def record(value: dict[str, Any]) -> None:
        done.add(str(value.get("game_id")))
        on_record(value)

    for attempt in range(1, ATTEMPTS + 1):
        try:
            await worker.play(left, record, ahead)
            return
        except WorkerError as exc:
            left = [game for game in left if game.game_id not in done]
            if not left:
                return  # it died after the unit's last record: nothing is lost, and the next unit gets a new one
            if attempt == ATTEMPTS:
                raise
            log.warning("%s; its %d unfinished games go to a new one", exc, len(left))


def placement(pin: str, jobs: int) -> list[int] | None:
    """The CPU for each of ``jobs`` workers (each worker and the bots it starts stay on its CPU), or None.

    ``auto`` pins when there are at least two workers and no more than the CPUs this process may use: a
    game's referee and its four bots then wake each other on one CPU, which costs far less than a wake-up
    across CPUs (see docs/league.md for the measurement); ``on`` pins in any case (one job: the ``rookarena``
    process itself), ``off`` never. One job is not pinned by ``auto``: two leagues run side by side would
    both land on the first CPU.
    """
    if pin == "off" or not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if pin == "auto" and not 2 <= jobs <= len(allowed):
        return None
    return [allowed[index % len(allowed)] for index in range(jobs)]


class Worker:
    """One referee process of the pool, started when first needed and again after it dies."""

    def __init__(self, head: dict[str, Any]) -> None:
        self.head = head
        self.process: trio.Process | None = None
        self.buffer = LineBuffer(MAX_RECORD)
        self.lines: list[bytes] = []
        self.promised: list[str] | None = None  # the game ids the running process was told come next

    async def _start(self) -> trio.Process:
        # -P: not the current directory's code; PYTHONPATH: this very package, wherever it was imported from.
        path = ownpackage.python_path(os.environ.get("PYTHONPATH"), inherited=True)
        process = await trio.lowlevel.open_process(
            [sys.executable, "-P", "-m", "rookarena.arena.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},
            start_new_session=True,
        )
        proctree.started(process.pid)  # this process's own child: never reaped as a bot's orphan
        self.process, self.buffer, self.lines, self.promised = process, LineBuffer(MAX_RECORD), [], None
        await self._send(self.head)
        return process

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):  # its exit status says why
            await self.process.stdin.send_all((json.dumps(message) + "\n").encode())

    async def _line(self) -> bytes | None:
        """The worker's next line, or None at the end of its output."""
        assert self.process is not None and self.process.stdout is not None
        while not self.lines:
            data = await self.process.stdout.receive_some(1 << 16)
            if not data:
                return None
            self.lines.extend(self.buffer.feed(bytes(data)))
        return self.lines.pop(0)

    async def play(self, unit: list[PlannedGame], on_record: Callable[[dict[str, Any]], None], ahead: Ahead) -> None:
        """Play ``unit``: hand each record to ``on_record`` as it arrives, until the worker says it is done.

        When the worker asks what comes next, it is told ``ahead``'s unit (taken then, once for all the
        worker processes that may play this unit); it starts that unit at once, without being sent it.
        """
        process = self.process if self.process is not None and self.process.returncode is None else None
        if process is None:
            process = await self._start()
        ids = [game.game_id for game in unit]
        if self.promised != ids:
            await self._send({"games": ids})
        self.promised = None
        while (line := await self._line()) is not None:
            value = records.loads(line.decode("utf-8"))
            if value.get(UNIT_DONE):
                return
            if value.get(NEXT):
                await ahead.needs()
                self.promised = None if ahead.next is None else [game.game_id for game in ahead.next]
                await self._send({"games": self.promised})
                continue
            on_record(value)
        code = await process.wait()
        await self._close_streams()
        self.process = None
        first, last = unit[0].game_id, unit[-1].game_id
        raise WorkerError(f"the referee process for games {first} to {last} {_how(code)}")

    async def close(self) -> None:
        """No more units: end of input, and the worker stops its bots and exits."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        assert process.stdin is not None
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await process.stdin.aclose()
        with trio.move_on_after(STOP_GRACE):
            await process.wait()

    async def terminate(self, on_record: Callable[[dict[str, Any]], None]) -> None:
        """Stop the worker whatever state it is in: SIGTERM, the records it still sends, then SIGKILL."""
        process = self.process
        if process is None:
            return
        with trio.CancelScope(shield=True):
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.move_on_after(STOP_GRACE):
                    while (line := await self._line()) is not None:
                        value = records.loads(line.decode("utf-8"))
                        if not value.get(UNIT_DONE) and not value.get(NEXT):  # a record, not a word of the unit
                            on_record(value)
                    await process.wait()
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            await self._close_streams()
        self.process = None

    async def _close_streams(self) -> None:
        assert self.process is not None
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    await stream.aclose()


def _how(code: int) -> str:
    """How a process ended, from its exit status."""
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"
