"""A league worker process: plays one unit of games and prints their records (see rookarena.workers)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import sys
from typing import Any

import trio

from rookarena import records
from rookarena.config import loads
from rookarena.league import plan, play_unit


async def main() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    head = b""
    while not head.endswith(b"\n"):
        data = await stdin.receive_some(1 << 16)
        if not data:
            return
        head += data
    spec = json.loads(head)
    config = loads(spec["text"], spec["origin"])
    wanted = set(spec["games"])
    unit = [game for game in plan(config) if game.game_id in wanted]
    log_dir = pathlib.Path(spec["log_dir"]) if spec["log_dir"] else None
    out = sys.stdout.buffer

    def on_record(record: dict[str, Any]) -> None:
        out.write((records.dumps(record) + "\n").encode())
        out.flush()

    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
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
