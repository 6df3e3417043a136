"""The sample heuristic bot with one rule changed, or one fault, and a log of its conversation, for the diff tests.

Usage: variant_bot.py RULE [LOG_DIR]. RULE is one of

    same            the sample heuristic bot's decisions (sample_bots/python/heuristic_bot.py)
    lowest-lead     the same, except that it always leads its lowest card (see :func:`lowest`)
    crash-at:N      the same, until its N-th request, when it writes a line to stderr and exits with 3
    crash-first:N   the same as crash-at:N, but only in its process's first game, and only at seat 0 or 2
    slow-at:N       the same, until its N-th request, which it answers only after 3 seconds
    illegal-at:N    the same, except that it answers its N-th request with 'play B99'
    history         the same, except that it leads its lowest card from its second game on (it counts the
                    ``game`` messages its process has seen)

counting requests from 1 over the process's life. With LOG_DIR, every line received is appended to
``LOG_DIR/PID.log`` as ``< LINE`` and every line sent as ``> LINE``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import sys
import time
from typing import Any

SAMPLE = pathlib.Path(__file__).resolve().parents[2] / "sample_bots" / "python" / "heuristic_bot.py"
_spec = importlib.util.spec_from_file_location("heuristic_bot", SAMPLE)
assert _spec is not None and _spec.loader is not None
heuristic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heuristic)

RULE = sys.argv[1] if len(sys.argv) > 1 else "same"
LOG = pathlib.Path(sys.argv[2]) / f"{os.getpid()}.log" if len(sys.argv) > 2 else None


def lowest(legal: list[str], rules: dict[str, Any]) -> str:
    """The legal play of the lowest number (the Rook counts as highest), the first such in ``legal``."""
    ranks = [int(rank) for rank in rules["ranks"]]

    def strength(action: str) -> int:
        card = action.split()[1]
        return len(ranks) if card == "ROOK" else ranks.index(int(card[1:]))

    return min(legal, key=strength)


def log(mark: str, line: str) -> None:
    if LOG is not None:
        with LOG.open("a", encoding="utf-8") as stream:
            stream.write(f"{mark} {line}\n")


def send(message: dict[str, Any]) -> None:
    line = json.dumps(message)
    log(">", line)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    rules = heuristic.TOURNAMENT
    rule, _, at = RULE.partition(":")
    requests = games = 0
    opener = False  # its first game has it at seat 0 or 2
    for line in sys.stdin:
        log("<", line.rstrip("\n"))
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "variant", "version": RULE, "protocol": "rook/1"})
        elif kind == "game":
            rules = message["rules"]
            games += 1
            if games == 1:
                opener = message["seat"] % 2 == 0
        elif kind == "act":
            requests += 1
            action = heuristic.decide(message, rules)
            view = message["view"]
            leading = view["phase"] == "play" and not view["trick"]
            if leading and (rule == "lowest-lead" or (rule == "history" and games >= 2)):
                action = lowest(message["legal"], rules)
            if at and requests == int(at):
                if rule == "crash-at" or (rule == "crash-first" and games == 1 and opener):
                    print("variant_bot: crashing as asked", file=sys.stderr, flush=True)
                    sys.exit(3)
                if rule == "slow-at":
                    time.sleep(3)
                if rule == "illegal-at":
                    action = "play B99"
            send({"id": message["id"], "action": action})
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
