"""A bot that misbehaves in one chosen way, for the referee's end-to-end tests.

Usage: bad_bot.py MODE [MARKER]. MARKER is ignored by the bot; tests put it on the command line to find
any process left behind. Until its failure the bot plays the first legal action.
"""

import json
import os
import signal
import subprocess
import sys
import time

MODE = sys.argv[1]


def send(obj: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> None:
    if MODE == "crash-start":
        sys.exit(3)
    if MODE == "slow-start":
        time.sleep(30)
    if MODE == "ignore-sigterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "leave-child":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", *sys.argv[1:]])
    if MODE == "stderr-flood":
        sys.stderr.write("x" * 5_000_000)
        sys.stderr.flush()
    if MODE == "read-all":  # reads every line, writes none, and ends at the end of its input
        sys.stdin.read()
        return
    if MODE == "hello-no-newline":  # its hello lacks the newline; then it waits
        sys.stdout.write(json.dumps({"type": "hello", "name": "bad", "version": "0", "protocol": "rook/1"}))
        sys.stdout.flush()
        time.sleep(30)
    requests = 0
    previous = 0  # the id of the last request
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "name": "bad-" + MODE, "version": "0", "protocol": "rook/1"})
        elif message["type"] == "act":
            requests += 1
            previous, last = message["id"], previous
            if requests == 5:
                if MODE == "crash-mid":
                    os._exit(7)
                if MODE == "silent":
                    time.sleep(60)
                if MODE == "freeze":
                    os.kill(os.getpid(), signal.SIGSTOP)  # stopped until SIGCONT (or SIGKILL): deaf to SIGTERM
                if MODE == "garbage":
                    sys.stdout.write("this is not json\n")
                    sys.stdout.flush()
                    continue
                if MODE == "illegal":
                    send({"id": message["id"], "action": "bid 999"})
                    continue
                if MODE == "stale-id":
                    send({"id": last, "action": message["legal"][0]})  # the previous request's id
                    continue
                if MODE == "memory-hog":
                    # Address space, not touched pages: it reaches its limit in the same few milliseconds
                    # however loaded the machine (zeroing 400 MB of pages can outlast a move clock there).
                    hoard = []
                    while True:
                        hoard.append(bytes(50_000_000))
                if MODE == "cpu-spin":
                    while True:
                        pass
                if MODE == "fork-50":
                    for _ in range(50):
                        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", *sys.argv[1:]])
                if MODE == "close-stdout":
                    os.close(1)
                    time.sleep(60)
                if MODE == "no-newline-exit":  # its reply without the newline, then it exits
                    sys.stdout.write(json.dumps({"id": message["id"], "action": message["legal"][0]}))
                    sys.stdout.flush()
                    os._exit(0)
                if MODE in ("close-stdin", "close-stdin-mute"):
                    os.close(0)  # and runs on: with this reply (the next request finds the pipe closed), or mute
                    if MODE == "close-stdin":
                        send({"id": message["id"], "action": message["legal"][0]})
                    time.sleep(60)
                if MODE == "endless-line":
                    while True:
                        sys.stdout.write("a" * 65536)
                        sys.stdout.flush()
            legal = message["legal"]
            # A weak player until its failure: it bids as high as it can and plays its first legal card.
            send({"id": message["id"], "action": legal[-1] if legal[-1].startswith("bid") else legal[0]})
        elif message["type"] == "bye":
            if MODE == "ignore-sigterm":
                time.sleep(60)
            return


main()
