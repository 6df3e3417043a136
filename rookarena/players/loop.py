"""The rook/1 conversation of the built-in bots: read lines on stdin, answer requests on stdout.

A line that is not a message (not JSON, not an object, an ``act`` without its ``id`` or ``legal`` list) is
skipped with one line on stderr, and the bot reads on: the referee never sends one, and a person trying a
bot by hand gets a sentence instead of a traceback.

The one place a built-in player meets the clock: each request's deadline is read when its line
arrives, and the player gets a :class:`Deadline` at a safe fraction of the time it may use, so that
the reply reaches the referee before its deadline even on a busy machine.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

from rookarena.players import RandomPlayer
from rookarena.players.base import Deadline, Player
from rookarena.players.botloop import converse

# The share of a request's deadline (and of the time bank) a player may think for.
DEADLINE_SHARE = 0.4
BANK_SHARE = 0.02


def deadline_for(request: dict[str, Any], received: float) -> Deadline:
    """When to stop thinking about ``request``, received at ``received`` on the monotonic clock."""
    move = float(request.get("deadline_ms", 1000)) / 1000
    bank = float(request.get("bank_ms", 0)) / 1000
    return Deadline(time.monotonic, received + DEADLINE_SHARE * move + BANK_SHARE * bank)


def serve(player: Player, version: str, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Play rook/1 until ``bye`` or the end of input; return the exit status (0)."""
    source = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout

    def act(message: dict[str, Any], received: float) -> dict[str, Any]:
        try:
            action = player.act(message, deadline_for(message, received))
        except Exception as exc:  # never lose the seat over a bug: log it and play something legal
            print(f"{player.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            action = message["legal"][0]
        return {"id": message["id"], "action": action}

    def hello() -> dict[str, Any]:
        return {"type": "hello", "name": player.name, "version": version, "protocol": "rook/1", "view": player.view}

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    converse(source, player.name, hello=hello, act=act, send=send, game=player.start_game)
    return 0


def make_player(
    name: str, level: int | None = None, seed: int | str = 0, playouts: int | None = None, think: float | None = None
) -> Player:
    """The built-in player called ``name`` (``random``, ``heuristic`` or ``search``)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "heuristic":  # each player's module loaded only for it: a bot's process starts sooner
        from rookarena.players.heuristic import HeuristicPlayer  # noqa: PLC0415

        return HeuristicPlayer()
    if name == "search":
        from rookarena.players.search import SearchPlayer, settings_for  # noqa: PLC0415

        return SearchPlayer(settings_for(level, playouts, think), seed)
    raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}")


BOTS = ("random", "heuristic", "search")
