"""A league worker process: plays one unit of games and prints their records (see rookarena.workers)."""

from __future__ import annotations

import signal

# Ctrl-C at the terminal is the parent's to handle (it stops the workers with SIGTERM); ignored from the
# first moment, so that an interrupt during start-up cannot end this process with a traceback.
signal.signal(signal.SIGINT, signal.SIG_IGN)

import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import trio  # noqa: E402

from rookarena import records  # noqa: E402
from rookarena.config import loads  # noqa: E402
from rookarena.league import plan, play_unit  # noqa: E402


async def main() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    head = b""
    while not head.endswith(b"\n"):
        data = await stdin.receive_some(1 << 16)
        if not data:
            return
        head += data
    spec = json.loads(head)
    verbose = int(spec.get("verbose", 0))
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    config = loads(spec["text"], spec["origin"])
    wanted = set(spec["games"])
    unit = [game for game in plan(config) if game.game_id in wanted]
    log_dir = pathlib.Path(spec["log_dir"]) if spec["log_dir"] else None
    out = sys.stdout.buffer

    def on_record(record: dict[str, Any]) -> None:
        out.write((records.dumps(record) + "\n").encode())
        out.flush()

    with trio.open_signal_receiver(signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def stop_on_signal() -> None:
                async for _ in signals:
                    nursery.cancel_scope.cancel()

            async def stop_on_eof() -> None:
                while await stdin.receive_some(1 << 16):
                    pass
                nursery.cancel_scope.cancel()

            nursery.start_soon(stop_on_signal)
            nursery.start_soon(stop_on_eof)
            await play_unit(config, unit, log_dir, on_record)
            nursery.cancel_scope.cancel()


if __name__ == "__main__":
    trio.run(main)
