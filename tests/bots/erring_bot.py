"""A bot that fails at every decision and recovers, as a bot that catches its own exceptions does: it writes
the error to its stderr and answers anyway, with the first legal action (``first``: it then never bids) or a
random one (``random``: every phase still comes up).

Usage: erring_bot.py first|random.
"""

import json
import random
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "first"
chooser = random.Random(7)
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": f"erring-{MODE}", "protocol": "rook/1"}), flush=True)
    elif kind == "act":
        print("IndexError: list index out of range (while deciding; playing a fallback)", file=sys.stderr, flush=True)
        legal = message["legal"]
        action = legal[0] if MODE == "first" else chooser.choice(legal)
        print(json.dumps({"id": message["id"], "action": action}), flush=True)
    elif kind == "bye":
        break
