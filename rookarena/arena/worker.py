"""A league worker process: plays the units of games it is given and prints their records (see rookarena.arena.pool)."""

from __future__ import annotations

import signal

# Ctrl-C at the terminal is the parent's to handle (it stops the workers with SIGTERM); ignored from the
# first moment, so that an interrupt during start-up cannot end this process with a traceback.
signal.signal(signal.SIGINT, signal.SIG_IGN)

import dataclasses  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import trio  # noqa: E402

from rookarena.arena.config import loads  # noqa: E402
from rookarena.arena.isolation import isolate_league  # noqa: E402
from rookarena.arena.league import Ahead, PlannedGame, plan, play_unit  # noqa: E402
from rookarena.arena.logsetup import log_to_stderr  # noqa: E402
from rookarena.arena.match import BotPool, open_pool  # noqa: E402
from rookarena.arena.proctree import kill_strays  # noqa: E402
from rookarena.wire import records  # noqa: E402
from rookarena.wire.conversation import LineBuffer  # noqa: E402


async def main() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    buffer = LineBuffer(1 << 26)
    lines: list[bytes] = []

    async def next_line() -> bytes | None:
        while not lines:
            data = await stdin.receive_some(1 << 16)
            if not data:
                return None
            lines.extend(buffer.feed(data))
        return lines.pop(0)

    head = await next_line()
    if head is None:
        return
    spec = json.loads(head)
    log_to_stderr(int(spec.get("verbose", 0)), f"worker {spec.get('worker', '?')}")
    cpu = spec.get("cpu")
    if isinstance(cpu, int):
        try:
            os.sched_setaffinity(0, {cpu})  # inherited by every bot this worker starts
        except OSError as exc:
            logging.getLogger(__name__).warning("cannot keep this worker on CPU %d: %s", cpu, exc.strerror)
    config = loads(spec["text"], spec["origin"])
    if isinstance(spec.get("seed"), int):
        config = dataclasses.replace(config, seed=spec["seed"])
    # The results directory (which holds the logs) is hidden from isolated bots.
    config = isolate_league(config, pathlib.Path(spec["log_dir"]).parent if spec["log_dir"] else None)
    planned = {game.game_id: game for game in plan(config)}  # planned once, for every unit to come
    log_dir = pathlib.Path(spec["log_dir"]) if spec["log_dir"] else None
    out = sys.stdout.buffer

    def on_record(record: dict[str, Any]) -> None:
        try:
            out.write((records.dumps(record) + "\n").encode())
            out.flush()
        except BrokenPipeError:
            raise ParentGoneError from None

    with trio.open_signal_receiver(signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def stop_on_signal() -> None:
                async for _ in signals:
                    nursery.cancel_scope.cancel()

            async def serve(pool: BotPool) -> None:
                """Units, one a line, until the parent has no more; end of input during a unit means the parent
                died. Near a unit's end the worker asks for its next unit, so that the bots it needs play on."""
                units, incoming = trio.open_memory_channel[list[str] | None](1)

                async def read() -> None:
                    while (line := await next_line()) is not None:
                        await units.send(json.loads(line)["games"])
                    nursery.cancel_scope.cancel()

                def send(message: bytes) -> None:
                    try:
                        out.write(message)
                        out.flush()
                    except BrokenPipeError:
                        raise ParentGoneError from None

                async def receive() -> list[PlannedGame] | None:
                    ids = await incoming.receive()
                    return [planned[game_id] for game_id in ids] if ids else None

                async def ask() -> list[PlannedGame] | None:
                    send(b'{"next":true}\n')
                    return await receive()

                nursery.start_soon(read)
                unit = await receive()
                while unit is not None:
                    ahead = Ahead(ask)
                    await play_unit(config, unit, log_dir, on_record, pool, ahead.needs)
                    send(b'{"unit_done":true}\n')
                    unit = await ahead.unit() if ahead.asked else await receive()

            nursery.start_soon(stop_on_signal)
            try:
                async with open_pool() as pool:
                    await serve(pool)
            finally:
                kill_strays()  # every bot is stopped: what is still re-parented to this worker was left by one
            nursery.cancel_scope.cancel()


class ParentGoneError(Exception):
    """The parent closed its end of this worker's output: it was killed, so this worker stops quietly."""


def run() -> None:
    try:
        trio.run(main)
    except* ParentGoneError:
        # Nobody reads this worker's output any more: leave without a word (its bots were stopped on the way
        # out), and without the interpreter's complaint about flushing a broken pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":
    run()
