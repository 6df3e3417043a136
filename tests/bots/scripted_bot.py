"""A bot that sends one scripted line at the first request of a chosen phase, for the contract tests.

Usage: scripted_bot.py WHEN LINE [MARKER]. WHEN is ``hello`` (LINE replaces the bot's hello), a phase
(``bidding``, ``discard``, ``trump``, ``play``: LINE replaces the reply to the first request of that
phase), ``passer`` (it passes whenever it may, so it never wins an auction), ``twice`` (the first
reply is sent twice), ``noflush`` (stdout is never flushed, as a C program's
is not when it forgets ``fflush``), ``linger`` (the bot ignores ``bye`` and the end of its input) or
``stop`` (it stops itself with SIGSTOP at its first request of the play).
LINE may hold ``\\n`` and these placeholders, filled from the request:

    {id} {id-1} {id+1000}     the request's id, the previous request's, one never sent (the id plus 1000)
    {legal}                   the first legal string, e.g. ``play R8``
    {word}                    its second word, e.g. ``R8``
    {lower}                   the first legal string in lower case, e.g. ``play r8``
    {colour}                  the colour of ``trump X`` as a word, e.g. ``red``
    {zero}                    the lowest bid written with a leading zero, e.g. ``bid 070``

Until then (and after, when the line was not a fault) it bids as high as it may, so that it wins the
auction and reaches every phase, and plays the first legal action. MARKER is ignored (tests use it to
find processes left behind).
"""

import io
import json
import os
import signal
import sys
import time

WHEN = sys.argv[1]
LINE = sys.argv[2] if len(sys.argv) > 2 else ""
COLOURS = {"R": "red", "G": "green", "B": "black", "Y": "yellow"}
HELLO = {"type": "hello", "name": "scripted", "version": "1", "protocol": "rook/1"}


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    if WHEN != "noflush":
        sys.stdout.flush()


def phase(legal: list[str]) -> str:
    verb = legal[0].split()[0]
    return {"pass": "bidding", "bid": "bidding"}.get(verb, verb)


def fill(line: str, message: dict[str, object], previous: int) -> str:
    request_id = int(message["id"])  # type: ignore[call-overload]
    legal = [str(action) for action in message["legal"]]  # type: ignore[attr-defined]
    first = legal[0]
    word = first.split()[-1]
    bids = [int(action.split()[1]) for action in legal if action.startswith("bid ")]
    values = {
        "{id}": str(request_id),
        "{id-1}": str(previous),
        "{id+1000}": str(request_id + 1000),
        "{legal}": first,
        "{word}": word,
        "{lower}": first.lower(),
        "{colour}": COLOURS.get(word, word),
        "{zero}": f"bid 0{min(bids)}" if bids else first,
    }
    for key, value in values.items():
        line = line.replace(key, value)
    return line.replace("\\n", "\n").replace("\\ufeff", "\ufeff").replace("\\u0000", "\0")


def main() -> None:
    if WHEN == "noflush":  # block-buffered, as C's stdio is on a pipe (the referee sets PYTHONUNBUFFERED)
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 65536))
    fired = False
    previous = 0  # the id of the request before this one
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if WHEN == "hello":
                send(LINE.replace("\\n", "\n"))
                fired = True
            else:
                send(json.dumps(HELLO))
        elif kind == "act":
            legal = message["legal"]
            previous, last = message["id"], previous
            reply = json.dumps({"id": message["id"], "action": legal[-1] if legal[-1].startswith("bid") else legal[0]})
            if WHEN == "passer" and "pass" in legal:
                send(json.dumps({"id": message["id"], "action": "pass"}))
                continue
            if WHEN == "stop" and phase(legal) == "play":
                os.kill(os.getpid(), signal.SIGSTOP)
            if not fired and phase(legal) == WHEN:
                fired = True
                send(fill(LINE, message, last))
                continue
            send(reply)
            if WHEN == "twice" and not fired:
                fired = True
                send(reply)
        elif kind == "bye" and WHEN != "linger":
            return
    if WHEN == "linger":
        time.sleep(60)


main()
