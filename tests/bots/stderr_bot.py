"""A bot that says on stderr which game and request it is at, and raises in the second game.

Usage: stderr_bot.py [MARKER]. It bids whenever it may and plays the first legal action; at its third
request of its second game it divides by zero (a Python traceback on stderr, exit status 1).
"""

import json
import sys

games = 0
requests = 0
game_id = ""
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "stderr-bot", "version": "1", "protocol": "rook/1"}), flush=True)
    elif kind == "game":
        games, requests, game_id = games + 1, 0, message["game"]
        print(f"starting {game_id}", file=sys.stderr, flush=True)
    elif kind == "act":
        requests += 1
        print(f"{game_id} request {requests}", file=sys.stderr, flush=True)
        if games == 2 and requests == 3:
            print(f"{game_id} about to fail", file=sys.stderr, flush=True)
            requests = 1 // 0
        legal = message["legal"]
        bids = [action for action in legal if action.startswith("bid")]
        print(json.dumps({"id": message["id"], "action": bids[0] if bids else legal[0]}), flush=True)
    elif kind == "bye":
        break
