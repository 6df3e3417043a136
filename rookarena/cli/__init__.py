"""The command line. The only code that prints or reads YAML; everything else is called from here.

``group`` holds the click group, which imports each command's module when the command runs (so that each
starts with what it needs alone); ``common`` what several commands share; each ``*_cmd`` module is one
command (``tools`` the views and tools around the results); ``text`` writes what the commands print,
``progress`` the live line, ``gate`` the exit statuses and ``stopping`` Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType

STOPPED = b"stopped: interrupted (Ctrl-C)\n"


def _interrupted_early(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP) while the program is still loading: the line a command prints when
    stopped, no traceback, and 130, not the signal's own status."""
    with contextlib.suppress(OSError):
        os.write(2, STOPPED if signum == signal.SIGINT else f"stopped: {signal.Signals(signum).name}\n".encode())
    raise SystemExit(130)


def _run_as_program() -> bool:
    """Whether this process is the ``rookarena`` program (its script, or ``python -m rookarena``), not a
    program that imports the package."""
    started = os.path.abspath(getattr(sys.modules.get("__main__"), "__file__", None) or "")
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.basename(started) == "rookarena" or started == os.path.join(package, "__main__.py")


# The commands restore Python's own Ctrl-C (a KeyboardInterrupt) once they are loaded (group._Commands._invoke).
if _run_as_program() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted_early)
if _run_as_program():  # and the other stop signals, unless this process was started ignoring them (nohup)
    for _signal in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(_signal) == signal.SIG_DFL:
            signal.signal(_signal, _interrupted_early)

import importlib  # noqa: E402 (after the Ctrl-C of loading is in place)
from typing import Any  # noqa: E402

from rookarena.cli.group import main  # noqa: E402

__all__ = ["_bot_name", "load_rules", "main", "render_standings", "write_standings"]

SHARED = frozenset({"_bot_name", "load_rules", "render_standings", "write_standings"})


def __getattr__(name: str) -> Any:
    """What the commands share (``rookarena.cli.common``), loaded when first asked for."""
    if name in SHARED:
        return getattr(importlib.import_module("rookarena.cli.common"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
