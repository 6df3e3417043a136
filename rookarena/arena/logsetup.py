"""How the referee and its workers log: to stderr, with the time of each line when asked for the traffic."""

from __future__ import annotations

import logging
import sys


def log_to_stderr(verbose: int, where: str = "") -> None:
    """Log to stderr: warnings alone, or with ``verbose`` 1 what each bot did and 2 every line, each such line
    with the wall-clock time to the millisecond (to tell how long a bot took from the log alone) and ``where``
    it was logged (a worker's number: two workers' bots carry the same labels)."""
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    stamp = "%(asctime)s.%(msecs)03d " if verbose else ""
    place = f"[{where}] " if where and verbose else ""
    logging.basicConfig(
        level=level,
        format=stamp + place + "%(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
        stream=sys.stderr,
    )
