"""A random rook/1 bot shipped inside the package (``python -m rookarena.randombot [SALT] [--passive|--mixed]``).

It plays :func:`rookarena.players.random_action`, reseeded on every ``game`` message from the game's
``seed`` (PROTOCOL.md §5), so that a game's choices depend on the game alone, never on the process or
on what it played before; a SALT on the command line (any word) is mixed in, to tell two random bots
apart. With ``--passive`` it passes in the auction whenever it may (``rookarena check-bot`` uses it, so
that the bot checked wins auctions); with ``--mixed`` it passes in odd hands and in even hands bids the
most it may, which ends the auction at once at ``bid_max``, so that the bot checked also defends (check-bot
uses this one). It serves as the opponent of ``check-bot`` and in benchmarks,
where the sample bots of the source tree may not be installed.
"""

from __future__ import annotations

import json
import random
import sys

from rookarena.engine.actions import parse_action
from rookarena.errors import ParseError
from rookarena.players import random_action
from rookarena.wire.protocol import referee_message


def main() -> None:
    args = sys.argv[1:]
    passive, mixed = "--passive" in args, "--mixed" in args
    words = [arg for arg in args if arg not in ("--passive", "--mixed")]
    hand = 0
    salt = words[0] if words else ""
    rng = random.Random(salt)
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        message = referee_message(line)
        if isinstance(message, str):
            print(f"rookarena-random: line {number} of its input: {message}: skipped", file=sys.stderr, flush=True)
            continue
        kind = message.get("type")
        if kind == "game":
            rng = random.Random(f"{message.get('seed')}/{salt}")
        elif kind == "deal":
            hand = message.get("hand_number") or hand + 1
        elif kind == "act":
            legal_text = message["legal"]
            bids = [text for text in legal_text if text.startswith("bid ")]
            if mixed and hand % 2 == 0 and bids:
                choice = max(bids, key=lambda text: int(text.split()[1]))
            elif (passive or mixed) and "pass" in legal_text:
                choice = "pass"
            else:
                try:
                    choice = str(random_action([parse_action(text) for text in legal_text], rng))
                except ParseError as exc:
                    print(f"rookarena-random: line {number} of its input: {exc}: skipped", file=sys.stderr, flush=True)
                    continue
            out.write(json.dumps({"id": message["id"], "action": choice}) + "\n")
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
