"""Stopping on SIGINT, SIGTERM and SIGHUP: the work is cancelled cleanly, then one line and the resume command.

Signals are taken by the run's own receiver while trio runs, and by a handler of ours just before and
after, so no signal ever ends the command with a traceback or a signal's exit status. SIGHUP (the
terminal closed, the login ended) stops a run as the others do, unless the run was started with it
ignored (``nohup``): it is then left ignored, and the run goes on.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import click
import trio

T = TypeVar("T")


class StopRequestedError(Exception):
    """SIGINT, SIGTERM or SIGHUP arrived; the work was cancelled and every bot stopped."""


_HANGUP_IGNORED = signal.getsignal(signal.SIGHUP) == signal.SIG_IGN  # as the process was started (nohup)


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop a run: SIGINT, SIGTERM, and SIGHUP unless this process was started ignoring it."""
    return (signal.SIGINT, signal.SIGTERM, *(() if _HANGUP_IGNORED else (signal.SIGHUP,)))


async def until_signal(function: Callable[..., Awaitable[None]], *args: Any) -> None:
    """Run ``function(*args)``; on a stop signal cancel it cleanly (bots stopped) and raise StopRequestedError.

    Signals are taken for as long as the stop lasts (it is bounded: see ``BotProcess.stop``), so a second
    Ctrl-C cannot cut the stop short with a traceback: it is counted, and the stop ends as the first began.
    """
    interrupted = 0
    with trio.open_signal_receiver(*_WATCHED) as signals:
        async with trio.open_nursery() as nursery:
            work = trio.CancelScope()

            async def watch() -> None:
                nonlocal interrupted
                async for _ in signals:
                    interrupted += 1
                    _STOPPING[0] = True
                    if interrupted == 1:
                        work.cancel()
                    else:
                        with contextlib.suppress(OSError, ValueError):  # (a lost terminal cannot be told)
                            click.echo("\nstill stopping: the bots in play get a few seconds to exit", err=True)

            nursery.start_soon(watch)
            with work:
                await function(*args)
            nursery.cancel_scope.cancel()
    if interrupted:
        raise StopRequestedError


_WATCHED: list[signal.Signals] = [signal.SIGINT, signal.SIGTERM]  # the stop signals, as run_trio found them
_STOPPING = [False]  # a stop was asked for: further signals are taken as counted, never as an abrupt end


def _on_stop_signal(signum: int, frame: object) -> None:
    """A stop signal outside the trio run (just before or after it): a stop, once, however many come."""
    if not _STOPPING[0]:
        _STOPPING[0] = True
        raise KeyboardInterrupt


def ignore_stop_signals() -> None:
    """The stop is done: further signals are ignored by the kernel (the interpreter's exit resets the handlers
    it installed, and a signal then would end it with a signal's status instead of 130)."""
    for sig in _WATCHED:
        signal.signal(sig, signal.SIG_IGN)


def run_trio(function: Callable[..., Awaitable[None]], *args: Any) -> None:
    """``trio.run(function, *args)``; a signal that slips past the run's own receiver is a stop too, and
    signals after a stop began (a second Ctrl-C while the last lines are printed) are ignored."""
    _WATCHED[:] = stop_signals()
    for sig in _WATCHED:
        signal.signal(sig, _on_stop_signal)
    try:
        trio.run(function, *args)
    except KeyboardInterrupt:
        raise StopRequestedError from None


def first_error(error: BaseException) -> str:
    """The message of the first leaf of a (possibly nested) exception group."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return str(error)


def run_until_stopped(function: Callable[..., Awaitable[T]], *args: Any, what: str) -> T:
    """``function(*args)`` in a trio run, its value returned; a stop signal cancels it cleanly (every bot
    it started is stopped) and ends the command with one line saying ``what`` was interrupted (exit 130)."""
    found: list[T] = []

    async def keep() -> None:
        found.append(await function(*args))

    try:
        run_trio(until_signal, keep)
    except StopRequestedError:
        ignore_stop_signals()
        with contextlib.suppress(OSError, ValueError):
            click.echo(f"interrupted: {what}", err=True)
        raise SystemExit(130) from None
    return found[0]
