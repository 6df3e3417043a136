"""The mistakes of author_bot.c, made in Python (see there for the modes); ``crash2`` raises (a traceback),
``crashquote`` raises an error whose words hold quotes and backslashes,
``defendcrash`` raises whenever an opponent wins the auction, ``markup`` wraps each card it plays in
markup (an illegal reply whose line a page must show escaped), and ``blockread`` reads its input in blocks.
``slowhello`` says hello 4 s after the referee's, and ``slowall`` answers every request 3.2 s late: slow,
flushing as it should, so never a bot whose output sat in a buffer. ``noact`` says hello and never answers a
request; ``byefirst`` exits (status 0) on the referee's hello, before its own.

Usage: author_bot.py MODE.
"""

import io
import json
import sys
import time
from collections.abc import Iterator

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
# buffered: the replies go through a buffer of its own (PYTHONUNBUFFERED=1 leaves sys.stdout none), flushed at exit
replies = io.TextIOWrapper(open(1, "wb", 1 << 16, closefd=False)) if MODE == "buffered" else sys.stdout  # noqa: SIM115
games = requests = counted = seat = 0


def blocks() -> Iterator[str]:
    """blockread: the input read in blocks of 64 KiB, as mawk reads it: a line only once its block is full."""
    rest = b""
    while chunk := sys.stdin.buffer.read(1 << 16):
        *lines, rest = (rest + chunk).split(b"\n")
        yield from (line.decode() for line in lines)


for line in blocks() if MODE == "blockread" else sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if MODE == "byefirst":
            sys.exit(0)
        if MODE == "slowhello":
            time.sleep(4.0)
        if MODE == "hellodebug":
            print("debug: loading the model", flush=True)
        print(json.dumps({"type": "hello", "name": f"author-{MODE}", "version": "1", "protocol": "rook/1"}), flush=True)
    elif kind == "game":
        games, requests, seat = games + 1, 0, message["seat"]
    elif kind == "auction_won" and MODE == "defendcrash" and message["bidder"] % 2 != seat % 2:
        raise RuntimeError("an opponent won the auction")
    elif kind == "game_over" and MODE == "exit0":
        sys.exit(0)
    elif kind == "bye":
        break
    elif kind == "act" and MODE == "noact":
        continue
    elif kind == "act":
        requests, counted = requests + 1, counted + 1
        bids = [text for text in message["legal"] if text.startswith("bid")]
        action = bids[0] if bids else message["legal"][0]
        if MODE == "slowfirst" and requests == 1:
            time.sleep(1.5)
        if MODE == "slowall":
            time.sleep(3.2)
        if MODE == "crash2" and games == 2 and requests == 3:
            hand = message["view"]["hand"]
            print(hand[99])
        if MODE == "crashquote" and games == 2 and requests == 3:
            raise ValueError("bad card 'R5' in C:\\bots\\hand.txt")
        if MODE == "debug" and action.startswith("play"):
            print(f"debug: I play {action[5:]}", flush=True)
        reply = {"id": counted if MODE == "ownid" else message["id"], "action": action}
        if MODE == "lowercase":
            reply["action"] = action.lower()
        if MODE == "markup" and action.startswith("play"):
            reply["action"] = f"</script><b>{action}</b>"
        if MODE == "move":
            reply = {"id": message["id"], "move": action}
        replies.write(json.dumps(reply) + ("" if MODE == "nonewline" else "\n"))
        if MODE != "buffered":
            replies.flush()
replies.flush()
