"""A random rook/1 bot shipped inside the package (``python -m rookarena.randombot``).

It plays :func:`rookarena.players.random_action` (seeded per game when given a seed argument) and
serves as the opponent of ``rookarena check-bot`` and in benchmarks, where the sample bots of the
source tree may not be installed.
"""

from __future__ import annotations

import json
import random
import sys

from rookarena.actions import parse_action
from rookarena.players import random_action


def main() -> None:
    seed = sys.argv[1] if len(sys.argv) > 1 else None
    rng = random.Random(seed)
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "game" and seed is not None:
            # Reseeded per game and seat: a game's choices do not depend on what the process played before.
            rng = random.Random(f"{seed}/{message['game']}/{message['seat']}")
        elif kind == "act":
            legal = [parse_action(text) for text in message["legal"]]
            out.write(json.dumps({"id": message["id"], "action": str(random_action(legal, rng))}) + "\n")
            out.flush()
        elif kind == "hello":
            # It reads only the legal actions, so it declines the view.
            hello = {"type": "hello", "name": "rookarena-random", "version": "1", "protocol": "rook/1", "view": False}
            out.write(json.dumps(hello))
            out.write("\n")
            out.flush()
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
