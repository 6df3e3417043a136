"""The packaged random bot, which ends itself once with SIGTERM, as a scheduler stopping a whole job would.

Usage: self_stop_bot.py SALT WHEN FLAG. WHEN is ``line:N`` (on reading its Nth line of input, counted
over the process's life: the hello is line 1) or ``after:N:MS`` (MS milliseconds after the Nth
``game_over`` it reads, between games or while it waits for the next). Only the process that first
creates the file FLAG does it, so that one run of a league has one such stop and a resumed run none:
the test then stops the referee too, as ``scancel`` does, and checks that no game was recorded.
"""

import os
import runpy
import signal
import sys
import threading
import time

salt, when, flag = sys.argv[1], sys.argv[2], sys.argv[3]
kind, *numbers = when.split(":")
wanted = int(numbers[0])
source = sys.stdin


def stop_now() -> None:
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return  # another process of the run (or an earlier run) already did it
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)  # pragma: no cover - the signal ends the process


class Input:
    """The process's input, line by line, stopping the process at the chosen moment."""

    def __init__(self) -> None:
        self.lines = 0
        self.games = 0

    def __iter__(self) -> "Input":
        return self

    def __next__(self) -> str:
        line = source.readline()
        if not line:
            raise StopIteration
        self.lines += 1
        if kind == "line" and self.lines == wanted:
            stop_now()
        if kind == "after" and '"game_over"' in line:
            self.games += 1
            if self.games == wanted:
                threading.Timer(int(numbers[1]) / 1000, stop_now).start()
        return line


sys.stdin = Input()
sys.argv = ["randombot", salt]
runpy.run_module("rookarena.randombot", run_name="__main__")
