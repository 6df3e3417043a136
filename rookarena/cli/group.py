"""The command group: each command's module is imported when the command runs (or ``--help`` lists it), so
that a command starts with what it needs alone (``rookarena bot`` without the referee, the results views
without trio); and the errors no command worded itself, each as one plain line."""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import math
import os
import shutil
import signal
import sys
from typing import Any

import click

from rookarena.errors import RookError
from rookarena.wire.names import printable

# The most games a command plays or reads, and the most games at once: a league's own most (MOST_GAMES and
# MOST_JOBS of rookarena.arena.config, which a test keeps equal; importing it here would load yaml for --help).
MOST_GAMES = 10_000_000
MOST_JOBS = 4096

# Each command and the module (of rookarena.cli) that defines it; a test keeps this equal to the commands
# the modules register.
COMMANDS = {
    "bot": "bot_cmd",
    "check-bot": "check_bot_cmd",
    "diff": "tools",
    "match": "match_cmd",
    "replay": "tools",
    "report": "tools",
    "rules": "rules_cmd",
    "run": "run_cmd",
    "show": "tools",
    "simulate": "simulate_cmd",
    "standings": "standings_cmd",
}


def this_program() -> list[str]:
    """The words that run this program again as it was run, for a command line to paste: ``rookarena`` when
    that name on PATH is this very program, else its script's path (a virtual environment's run unactivated,
    from cron or a scheduler), or this Python with ``-m rookarena``."""
    started = os.path.abspath(getattr(sys.modules.get("__main__"), "__file__", None) or "")
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if started == os.path.join(package, "__main__.py"):
        typed = sys.orig_argv[0] if sys.orig_argv else ""
        found = shutil.which(typed) if typed else None
        same = found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)
        return [typed if same else sys.executable, "-m", "rookarena"]
    script = sys.argv[0] if sys.argv else ""
    if not os.path.isfile(script):
        return ["rookarena"]
    found = shutil.which("rookarena")
    if found is not None and os.path.realpath(found) == os.path.realpath(script):
        return ["rookarena"]
    return [os.path.abspath(script)]


class _Commands(click.Group):
    """The command group: an error of the package's own (a damaged record, a bad rule) or of the system (a
    file that cannot be read or written, an output that cannot take what is printed: a full disk, a closed
    pipe, a lost terminal) that a command did not word itself is still one plain line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"rookarena.cli.{COMMANDS[cmd_name]}")  # it registers itself on the group
        return self.commands.get(cmd_name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _open_standard_streams()
        _escape_unencodable()
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:  # outside a command too: --help printed to a full disk
            with contextlib.suppress(OSError, ValueError):
                click.echo(f"Error: {_system_error(exc)}", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return self._invoke(ctx)
        except click.ClickException as exc:
            # A message may quote what a file, a record, a path or a bot wrote: none of it drives the terminal.
            exc.message = "\n".join(printable(line) for line in exc.message.split("\n"))  # type: ignore[misc]
            raise

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:  # the Ctrl-C of loading
                signal.signal(signal.SIGINT, signal.default_int_handler)  # (rookarena.cli): the commands' own next
            for stop in (signal.SIGTERM, signal.SIGHUP):  # the same for the other stop signals, named
                if signal.getsignal(stop) not in (signal.SIG_DFL, signal.SIG_IGN, None):
                    signal.signal(stop, _stop_signal)
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:  # a stop before a command set up its own (click would say "Aborted!", 1)
            with contextlib.suppress(OSError, ValueError):
                click.echo(f"stopped: {stop.args[0]}" if stop.args else "stopped: interrupted (Ctrl-C)", err=True)
            sys.exit(130)
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise  # the reader has gone (``| head``): click ends the command quietly, as a pipe expects
            raise click.ClickException(_system_error(exc)) from None
        except BaseExceptionGroup as group:  # the same, out of a trio run's tasks
            leaves = _leaves(group)
            if not all(isinstance(leaf, (RookError, OSError)) for leaf in leaves):
                raise
            first = leaves[0]
            raise click.ClickException(_system_error(first) if isinstance(first, OSError) else str(first)) from None


def _stop_signal(signum: int, frame: object) -> None:
    """SIGTERM or SIGHUP before a command set up its own stop: a stop, as Ctrl-C's KeyboardInterrupt is."""
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _open_standard_streams() -> None:
    """Started with standard input, output or error closed (``<&-``, ``>&-``, a daemon's launcher), the
    command would hand out its first descriptors to the files and pipes it opens, so that a bot's pipe or
    a results file could be taken for the terminal, and Python leaves ``sys.stdin`` (or the others) None.
    Each closed one is opened on /dev/null first: what would be printed there goes nowhere, as it would
    have, and the run goes on."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            opened = os.open(os.devnull, os.O_RDWR)
            if opened != fd:  # (the lowest free descriptor is the closed one, as the lower ones are open)
                os.dup2(opened, fd)
                os.close(opened)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, encoding="utf-8", errors="backslashreplace", closefd=False))  # noqa: SIM115


def _escape_unencodable() -> None:
    """A name or text the terminal's encoding cannot show (a bot named 漢 on a Latin-1 terminal) is printed
    as a backslash escape, as Python's stderr already does, instead of ending the command."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):  # (a stream already closed)
                stream.reconfigure(errors="backslashreplace")


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


# What writing to a stream says when the stream cannot take it: the file system is full (or the file at its
# size limit, or the quota spent), the reader of a pipe has gone, the terminal has gone.
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EPIPE, errno.EIO})


def _system_error(exc: OSError) -> str:
    """An error of the system in one line: the file and why, or what could not be done and why."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    if exc.errno in OUTPUT_ERRNOS:
        return f"the output could not be written: {reason}"
    return f"the system refused an operation: {reason}"


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rookarena")
def main() -> None:
    """Referee and tournament runner for computer Rook."""


class FiniteFloat(click.FloatRange):
    """A number in a range, and a number: click's FloatRange lets ``nan`` through (it compares false with
    either bound), and ``inf`` where there is no upper bound."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number
