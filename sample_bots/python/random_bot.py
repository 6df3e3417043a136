#!/usr/bin/env python3
"""A random Rook bot for the rook/1 protocol: copy this file to start your own bot.

Run: python3 random_bot.py [--seed N] [--name NAME] [--no-view]. It reads one JSON object per line on stdin and
writes one per line on stdout; its log goes to stderr. Only `choose` needs changing to make it smarter.

It reseeds its random choices on every `game` message from the game's `seed` (mixed with --seed, which
tells two copies apart), so the same league plays the same way every time, whichever process plays a game.
"""

import argparse
import json
import random
import sys
from typing import Any


def choose(request: dict[str, Any], rng: random.Random) -> str:
    """One of the legal action strings. In the auction: pass or the lowest bid, with equal chance
    (uniformly random bids would climb to the maximum every hand)."""
    legal: list[str] = request["legal"]
    bids = [action for action in legal if action.startswith("bid ")]
    if bids:
        lowest = min(bids, key=lambda action: int(action.split()[1]))
        if "pass" not in legal or rng.random() < 0.5:
            return lowest
        return "pass"
    return rng.choice(legal)  # a discard, a trump colour or a card to play


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # the referee waits for the whole line: always flush


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="mixed into each game's seed (default: %(default)s)")
    parser.add_argument("--name", default="random-py", help="the name the bot gives in its hello")
    parser.add_argument("--no-view", action="store_true", help="decline the view that comes with every request")
    args = parser.parse_args()
    rng = random.Random(args.seed)  # until the first game; then from each game's seed
    for line in sys.stdin:  # ends at EOF: the referee has gone
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "game":
            rng = random.Random(f"{message['seed']}/{args.seed}")  # a game's choices depend on that game only
        elif kind == "hello":
            # "view": false would make requests carry only "legal" (enough for this bot): less to build and read.
            send({"type": "hello", "name": args.name, "version": "1.0", "protocol": "rook/1", "view": not args.no_view})
        elif kind == "act":
            send({"id": message["id"], "action": choose(message, rng)})
        elif kind == "bye":
            break
        # Everything else ("game", "deal", "played", "trick", ...) is news that needs no reply.


if __name__ == "__main__":
    main()
