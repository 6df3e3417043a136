"""A bot whose misbehaviour is drawn from a seed, for the tests that no bot can crash, hang or corrupt a league.

Usage: adversary.py SEED RATE [MARKER]. At each request it answers right with probability ``1 - RATE``
and otherwise misbehaves in one way drawn from :data:`MOVES` (the same seed always gives the same choices
for the same requests). MARKER is ignored; tests put it on the command line to find processes left behind.

Named modes instead of a seed (``adversary.py MODE RATE``) repeat one misbehaviour at every chance (any
move of :data:`MOVES` too, with probability RATE):
``empty-flood`` (after its hello, empty lines without end), ``stale-late`` (answers the previous
request's id until past the deadline), ``future-id`` (after each reply, a reply for the next request, sent
a little later), ``presend`` (after each reply, at a random delay of up to RATE seconds, replies guessing
the next request's id: the id plus one, the same id again, and one drawn at random), ``slow`` (answers
right, after RATE seconds), ``deaf`` (answers the first request, then never reads its input again),
``orphans`` (at each request, leaves a setsid'd child or a double-forked grandchild behind that outlives
it, then answers right), ``orphans-at-bye`` (plays right; at ``bye`` leaves a setsid'd child and a
setsid'd double-forked grandchild, and exits at once), ``unmarked`` (the same grandchild, without the
mark the referee put in its environment), ``daemon`` (runs as a setsid'd grandchild, its
first process exiting at once, and ignores ``bye``).

A seeded adversary also draws its hello's name: plain, or holding a newline, NUL, a lone surrogate, a
bidi override or control characters; and whether it shrinks its input pipe to 4 KiB (as ``deaf`` does),
so that not reading soon fills it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import signal
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
    "presend",  # the right reply, then at a random delay a guess at the next request's reply
    "setsid-child",  # leaves a child that left its session (setsid) and outlives the bot
    "double-fork",  # leaves a grandchild whose parent exited (re-parented), then the right reply
    "exit-held",  # exits, its stdout held open by a child it leaves running
    "nan",  # a reply with NaN in it (not JSON)
    "dup-key",  # a reply with the key "action" twice
    "bom",  # the right reply after a byte order mark
    "deaf",  # the right reply, then never reads its input again
    "freeze",  # stops itself (SIGSTOP): deaf to everything but SIGKILL
    "close-stdin",  # closes its input, then the right reply (its next read fails: it dies of it)
    "hello-again",  # a second hello, then the right reply
    "crlf",  # the right reply ended by CR LF (JSON allows the CR as whitespace)
    "utf16",  # the right reply in UTF-16
    "long-id",  # a reply whose id has 5,000 digits
    "deep",  # a reply nested 30,000 arrays deep
    "kill-group",  # SIGKILL to its own process group
    "sigterm-self",  # SIGTERM to itself, which the referee did not send
)

F_SETPIPE_SZ = 1031  # fcntl: set a pipe's capacity (Linux)

NAMES = (
    "adversary",
    "adv\nseat 0 (other) crash: forged",  # a forged line in a printed summary
    "nul\x00name",
    "lone\ud800surrogate",
    "bidi\u202egnp.exe",
    "bell\x07\x1b[31mred",
)
# A process that outlives the bot (a shell that waits; the arguments keep the test's marker on its command
# line), and the same started so that its parent exits at once (a double fork: it is re-parented).
SLEEPER = ["/bin/sh", "-c", 'sleep 60; : "$0"', *sys.argv[1:]]
# Eight children that leave the session (setsid), started by a process that stays in it, alive.
NEST = (
    "import subprocess, sys, time\n"
    "for _ in range(8): subprocess.Popen(sys.argv[1:], start_new_session=True)\n"
    "time.sleep(60)"
)
DETACHED = ["/bin/sh", "-c", '(sleep 60; : "$0") & exit', *sys.argv[1:]]


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
    elif move == "presend":
        write(right)
        presend(request, random.uniform(0, 0.005))
    elif move == "setsid-child":
        subprocess.Popen(SLEEPER, start_new_session=True)
        write(right)
    elif move == "double-fork":
        double_fork()
        write(right)
    elif move == "exit-held":
        subprocess.Popen(SLEEPER, stdout=sys.stdout)
        os._exit(3)
    elif move == "nan":
        write(f'{{"id":{request_id},"action":"{first_legal(request)}","score":NaN}}\n')
    elif move == "dup-key":
        write(f'{{"id":{request_id},"action":"bid 999","action":"{first_legal(request)}"}}\n')
    elif move == "bom":
        write("\ufeff" + right)
    elif move == "deaf":
        write(right)
        time.sleep(60)
    elif move == "freeze":
        os.kill(os.getpid(), signal.SIGSTOP)
        write(right)
    elif move == "close-stdin":
        os.close(0)
        write(right)
    elif move == "hello-again":
        write(json.dumps({"type": "hello", "name": "again", "version": "1", "protocol": "rook/1"}) + "\n" + right)
    elif move == "crlf":
        write(right[:-1] + "\r\n")
    elif move == "utf16":
        sys.stdout.flush()
        os.write(1, right.encode("utf-16"))
    elif move == "long-id":
        write(f'{{"id":{"7" * 5000},"action":"{first_legal(request)}"}}\n')
    elif move == "deep":
        write("[" * 30_000 + "]" * 30_000 + "\n")
    elif move == "kill-group":
        os.killpg(0, signal.SIGKILL)
    elif move == "sigterm-self":
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)
    elif move in ("flood-stale", "flood-empty"):
        line = "\n" if move == "flood-empty" else reply(request, request_id=request_id - 1)
        end = time.monotonic() + deadline + 0.2
        while time.monotonic() < end:
            write(line * 16)
            time.sleep(0.001)
    else:  # pragma: no cover
        raise AssertionError(move)


def first_legal(request: dict[str, object]) -> str:
    legal = request["legal"]
    assert isinstance(legal, list)
    return str(legal[0])


def presend(request: dict[str, object], delay: float) -> None:
    """Replies written before the next request is sent, guessing its id; each would be illegal if applied."""
    request_id = request["id"]
    assert isinstance(request_id, int)
    time.sleep(delay)
    guesses = (request_id + 1, request_id, random.getrandbits(53))
    write("".join(reply(request, action="bid 999", request_id=guess) for guess in guesses))


def double_fork(setsid: bool = False) -> None:
    """A grandchild that outlives its parent (so is re-parented), in the bot's own session or a new one."""
    subprocess.run(DETACHED, check=False, start_new_session=setsid)


def daemonize() -> None:
    """Go on as a setsid'd grandchild, holding the pipes; the process the referee started exits at once."""
    if os.fork():
        os._exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)


def main() -> None:
    mode, rate = sys.argv[1], float(sys.argv[2])
    rng = random.Random(mode)
    name = NAMES[rng.randrange(len(NAMES))] if mode.isdigit() else "adversary"
    if mode == "daemon":
        daemonize()
    small = mode == "deaf" or (mode.isdigit() and rng.random() < 0.5)
    if small:  # its input pipe made as small as the kernel allows, so that it fills within a request or two
        with contextlib.suppress(OSError):
            fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
    previous: int | None = None
    answered = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            write(json.dumps({"type": "hello", "name": name, "version": "1", "protocol": "rook/1"}) + "\n")
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
            elif mode == "presend":
                write(reply(message))
                presend(message, rng.uniform(0, rate))
            elif mode == "deaf" and answered:
                time.sleep(60)
            elif mode == "orphans":
                if rng.random() < 0.5:
                    subprocess.Popen(SLEEPER, start_new_session=True)
                else:
                    double_fork(setsid=rng.random() < 0.5)
                write(reply(message))
            elif mode == "nested":  # once: a child that stays in the session, whose own children leave it
                if not answered:
                    subprocess.Popen([sys.executable, "-c", NEST, *SLEEPER])
                write(reply(message))
            elif mode == "future-id":
                write(reply(message))
                time.sleep(0.02)
                write(reply(message, action="bid 999", request_id=message["id"] + 1))
            elif mode.isdigit() and rng.random() < rate:
                misbehave(rng.choice(MOVES), message, deadline)
            elif mode in MOVES and rng.random() < rate:  # one move, at every chance
                misbehave(mode, message, deadline)
            else:
                write(reply(message))
            previous = message["id"]
            answered += 1
        elif kind == "bye" and mode == "unmarked":
            scrubbed = {name: value for name, value in os.environ.items() if name != "ROOKARENA_BOT"}
            subprocess.run(DETACHED, check=False, start_new_session=True, env=scrubbed)
            return
        elif kind == "bye" and mode == "orphans-at-bye":
            subprocess.Popen(SLEEPER, start_new_session=True)
            double_fork(setsid=True)
            return
        elif kind == "bye" and mode != "daemon":
            return
    if mode == "daemon":
        time.sleep(60)


if __name__ == "__main__":
    main()
