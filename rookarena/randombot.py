"""A random rook/1 bot shipped inside the package (``python -m rookarena.randombot [SALT] [--passive]``).

It plays :func:`rookarena.players.random_action`, reseeded on every ``game`` message from the game's
``seed`` (PROTOCOL.md §5), so that a game's choices depend on the game alone, never on the process or
on what it played before; a SALT on the command line (any word) is mixed in, to tell two random bots
apart. With ``--passive`` it passes in the auction whenever it may (``rookarena check-bot`` uses it, so
that the bot checked wins auctions). It serves as the opponent of ``check-bot`` and in benchmarks,
where the sample bots of the source tree may not be installed.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from rookarena.engine.actions import parse_action
from rookarena.players import random_action
from rookarena.players.botloop import converse


def main() -> None:
    args = sys.argv[1:]
    passive = "--passive" in args
    words = [arg for arg in args if arg != "--passive"]
    salt = words[0] if words else ""
    rng = random.Random(salt)
    out = sys.stdout

    def game(message: dict[str, Any]) -> None:
        nonlocal rng
        rng = random.Random(f"{message.get('seed')}/{salt}")

    def act(message: dict[str, Any], received: float) -> dict[str, Any]:
        legal_text = message["legal"]
        if passive and "pass" in legal_text:
            return {"id": message["id"], "action": "pass"}
        return {"id": message["id"], "action": str(random_action([parse_action(text) for text in legal_text], rng))}

    def hello() -> dict[str, Any]:
        # It reads only the legal actions, so it declines the view.
        return {"type": "hello", "name": "rookarena-random", "version": "1", "protocol": "rook/1", "view": False}

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    converse(sys.stdin, "rookarena-random", hello=hello, act=act, send=send, game=game)


if __name__ == "__main__":
    main()
