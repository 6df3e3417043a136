"""Parallel leagues across processes: each unit of games runs in a referee process of its own.

A single Python process runs one referee at a time on one core, so ``--jobs N`` starts up to N worker
processes (``python -m rookarena.worker``), each given one unit: the configuration's text and the ids of
its games, as one JSON line on its stdin. A worker sends each finished game's record back as one JSON
line on its stdout; the parent writes it to ``games.jsonl``. When the parent is cancelled it sends each
worker SIGTERM, keeps reading until the worker has stopped its bots and exited (a game that finishes
meanwhile is still recorded), and kills a worker that takes too long. A worker also stops when its
stdin reaches end of file, which is how it learns that the parent was killed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pathlib
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import trio

from rookarena import records
from rookarena.config import LeagueConfig
from rookarena.errors import RookError
from rookarena.league import PlannedGame, run_units, units
from rookarena.protocol import LineBuffer

log = logging.getLogger(__name__)

PACKAGE_ROOT = str(pathlib.Path(__file__).resolve().parent.parent)
STOP_GRACE = 20.0  # seconds a worker has to stop its bots and exit after SIGTERM
MAX_RECORD = 1 << 26
ATTEMPTS = 3  # times a unit's unfinished games are given to a worker before the league stops


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
    """Play ``games`` in up to ``jobs`` worker processes, handing each record to ``on_record``.

    A worker that dies (killed, out of memory) is replaced: its unit's unfinished games go to a new one,
    up to ``ATTEMPTS`` times in all; the game it was playing is played again from its start.
    """

    async def play(unit: list[PlannedGame]) -> None:
        left = list(unit)
        done: set[str] = set()

        def record(value: dict[str, Any]) -> None:
            done.add(str(value.get("game_id")))
            on_record(value)

        for attempt in range(1, ATTEMPTS + 1):
            try:
                await _run_worker(config, left, log_dir, record, verbose)
                return
            except WorkerError as exc:
                left = [game for game in left if game.game_id not in done]
                if attempt == ATTEMPTS or not left:
                    raise
                log.warning("%s; its %d unfinished games go to a new one", exc, len(left))

    await run_units(units(games, jobs), jobs, play)


async def _run_worker(
    config: LeagueConfig,
    unit: list[PlannedGame],
    log_dir: str | None,
    on_record: Callable[[dict[str, Any]], None],
    verbose: int,
) -> None:
    spec = {
        "text": config.source,
        "origin": config.origin,
        "log_dir": log_dir,
        "games": [g.game_id for g in unit],
        "verbose": verbose,
    }
    # -P: not the current directory's code; PYTHONPATH: this very package, wherever it was imported from.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
    # A session of its own: the terminal's Ctrl-C reaches only the parent, which stops the workers itself.
    process = await trio.lowlevel.open_process(
        [sys.executable, "-P", "-m", "rookarena.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    buffer = LineBuffer(MAX_RECORD)

    async def read_all() -> None:
        assert process.stdout is not None
        while data := await process.stdout.receive_some(1 << 16):
            for line in buffer.feed(bytes(data)):
                on_record(records.loads(line.decode("utf-8")))

    try:
        with contextlib.suppress(trio.BrokenResourceError):  # it died at once: its exit status says how
            await process.stdin.send_all((json.dumps(spec) + "\n").encode())
        await read_all()
        code = await process.wait()
    finally:
        with trio.CancelScope(shield=True):
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.move_on_after(STOP_GRACE):
                    await read_all()
                    await process.wait()
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            await process.stdin.aclose()
            await process.stdout.aclose()
    if code != 0:
        first, last = unit[0].game_id, unit[-1].game_id
        raise WorkerError(f"the referee process for games {first} to {last} {_how(code)}")


def _how(code: int) -> str:
    """How a process ended, from its exit status."""
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"
