"""A bot whose misbehaviour is drawn from a seed, for the tests that no bot can crash, hang or corrupt a league.

Usage: adversary.py SEED RATE [MARKER]. At each request it answers right with probability ``1 - RATE``
and otherwise misbehaves in one way drawn from :data:`MOVES` (the same seed always gives the same choices
for the same requests). MARKER is ignored; tests put it on the command line to find processes left behind.

Named modes instead of a seed (``adversary.py MODE RATE``) repeat one misbehaviour at every chance:
``empty-flood`` (after its hello, empty lines without end), ``stale-late`` (answers the previous
request's id until past the deadline), ``future-id`` (after each reply, a reply for the next request, sent
a little later), ``slow`` (answers right, after RATE seconds).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

MOVES = (
    "late",  # the right reply, after the deadline
    "twice",  # the right reply, twice
    "stale",  # a reply with the previous request's id, then the right one
    "future",  # a reply for the next request, then the right one
    "foreign",  # a reply with an id never used, then the right one
    "empty",  # an empty line, then the right one
    "whitespace",  # a line of blanks, then the right one
    "partial",  # half the reply, a pause, then the rest
    "split",  # the reply in single-byte writes
    "huge",  # a line longer than any limit
    "garbage",  # a line that is not JSON
    "wrong-type",  # a JSON object of the wrong shape
    "close-stdout",  # closes its output and waits
    "exit",  # exits at once
    "hang",  # never answers
    "stderr-burst",  # a burst on stderr, then the right reply
    "child",  # leaves a process of its own behind, then the right reply
    "illegal",  # a well-formed action that is not legal
    "flood-stale",  # replies with the previous id until past the deadline
    "flood-empty",  # empty lines until past the deadline
)


def write(data: str) -> None:
    sys.stdout.write(data)
    sys.stdout.flush()


def reply(request: dict[str, object], action: object | None = None, request_id: object | None = None) -> str:
    legal = request["legal"]
    assert isinstance(legal, list)
    return json.dumps({"id": request["id"] if request_id is None else request_id, "action": action or legal[0]}) + "\n"


def misbehave(move: str, request: dict[str, object], deadline: float) -> None:
    request_id = request["id"]
    assert isinstance(request_id, int)
    right = reply(request)
    if move == "late":
        time.sleep(deadline + 0.2)
        write(right)
    elif move == "twice":
        write(right + right)
    elif move == "stale":
        write(reply(request, request_id=request_id - 1))
        write(right)
    elif move == "future":
        write(right)
        time.sleep(0.01)
        write(reply(request, action="bid 999", request_id=request_id + 1))
    elif move == "foreign":
        write(reply(request, request_id=10**12 + request_id))
        write(right)
    elif move == "empty":
        write("\n" + right)
    elif move == "whitespace":
        write(" \t \r\n" + right)
    elif move == "partial":
        half = len(right) // 2
        write(right[:half])
        time.sleep(min(0.05, deadline / 4))
        write(right[half:])
    elif move == "split":
        for ch in right:
            write(ch)
    elif move == "huge":
        write("x" * (1 << 17) + "\n")
    elif move == "garbage":
        write("{not json at all\n")
    elif move == "wrong-type":
        write(json.dumps({"id": str(request_id), "action": 7}) + "\n")
    elif move == "close-stdout":
        os.close(1)
        time.sleep(60)
    elif move == "exit":
        os._exit(5)
    elif move == "hang":
        time.sleep(60)
    elif move == "stderr-burst":
        sys.stderr.write("noise " * 20000 + "\n")
        sys.stderr.flush()
        write(right)
    elif move == "child":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", *sys.argv[1:]])
        write(right)
    elif move == "illegal":
        write(reply(request, action="bid 999"))
    elif move in ("flood-stale", "flood-empty"):
        line = "\n" if move == "flood-empty" else reply(request, request_id=request_id - 1)
        end = time.monotonic() + deadline + 0.2
        while time.monotonic() < end:
            write(line * 16)
            time.sleep(0.001)
    else:  # pragma: no cover
        raise AssertionError(move)


def main() -> None:
    mode, rate = sys.argv[1], float(sys.argv[2])
    rng = random.Random(mode)
    previous: int | None = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            write(json.dumps({"type": "hello", "name": "adversary", "version": "1", "protocol": "rook/1"}) + "\n")
            if mode == "empty-flood":
                while True:
                    write("\n" * 256)
        elif kind == "act":
            deadline = (message["deadline_ms"] + message["bank_ms"]) / 1000
            if mode == "stale-late" and previous is not None:
                end = time.monotonic() + deadline + 0.3
                while time.monotonic() < end:
                    write(reply(message, request_id=previous))
                    time.sleep(0.001)
            elif mode == "slow":  # a well-behaved bot that thinks for rate seconds
                time.sleep(rate)
                write(reply(message))
            elif mode == "future-id":
                write(reply(message))
                time.sleep(0.02)
                write(reply(message, action="bid 999", request_id=message["id"] + 1))
            elif mode not in ("stale-late", "future-id", "slow") and rng.random() < rate:
                misbehave(rng.choice(MOVES), message, deadline)
            else:
                write(reply(message))
            previous = message["id"]
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
