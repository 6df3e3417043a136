"""The talking side of a bot process: rook/1 with deadlines over its pipes, its stderr captured, its stop.

Each bot runs in its own session (so its own process group) with ``PYTHONUNBUFFERED=1``. Its stdout is
read through the protocol's bounded line buffer; its stderr is drained by a task of its own into a log
capped at ``stderr_cap`` bytes (the rest is counted and dropped, so a flood never blocks the bot nor
fills the disk). Every wait has a deadline; every failure becomes a :class:`Fault`.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import select
import time
from collections.abc import Callable, Mapping
from typing import Any

import trio

from rookarena import __version__
from rookarena.arena import isolation, proctree
from rookarena.arena import process as kernel
from rookarena.arena.process import bot_environment as bot_environment  # noqa: PLC0414 (check-bot's name for it)
from rookarena.arena.specs import BotSpec as BotSpec  # noqa: PLC0414 (check-bot's name for it)
from rookarena.arena.specs import Fault, Limits, seconds_text
from rookarena.arena.stderrlog import FILE_TIMES, StderrDrain, StderrLog
from rookarena.wire.conversation import Conversation, Event, FaultKind, Hello, Ignored, ProtocolFault, Reply, encode
from rookarena.wire.messages import hello_message

log = logging.getLogger(__name__)

READ_CHUNK = 65536
QUICK_WAIT = 0.002  # seconds: how long to wait for a quick bot's reply without parking the task
YIELD_EVERY = 0.02  # seconds: the most the other tasks wait for their turn while replies come quickly
# While it waits for a reply, the referee looks at the pipe at least every LOOK_EVERY seconds; a reply is
# charged as if it came at most LOOK_EVERY + LATE after the last look that found the pipe empty, so a referee
# that stalls (a starved machine, a stopped process, a slow task beside it) does not bill its stall to the bot.
LOOK_EVERY = 0.05
LATE = 0.05
EARLY_MAX = 1 << 22  # bytes a bot may write from one request to the next (one reply) before it is stopped
# Lines the referee ignores from one request to the next before the bot is stopped (a flood of short lines, read
# one by one, would outlast any deadline and end as a timeout, not as the limit it is).
IGNORED_MAX = 10_000
KEPT_IGNORED = 100  # ignored lines whose reasons are kept (and logged); the rest are only counted
# A bot that closed its stdin can never read a request again: a crash, like one that closes its stdout (a bot
# that only stops reading, so that the pipe fills, is a timeout).
CLOSED_INPUT = "closed its input (stdin) while still running"
# A bot ended by a stop signal the referee did not send: most likely the machine or its scheduler (Slurm's
# scancel signals every process of a job) is stopping everything, and the referee's own signal is on its
# way. The referee waits this many seconds for it: it cancels the wait, and the game is then not recorded
# rather than recorded as this bot's crash (a stop that was the bot's alone is its crash, a moment later).
EXTERNAL_STOP_WAIT = 1.0


class BotProcess:
    """One running instance of a bot, owned by the nursery passed to :meth:`start`."""

    def __init__(self, spec: BotSpec, label: str, log_path: str | None, limits: Limits) -> None:
        self.spec = spec
        self.label = label
        self.log_path = log_path
        self.limits = spec.limits or limits
        self.conversation = Conversation(self.limits.max_line)
        self.process: trio.Process | None = None
        self.hello: Hello | None = None
        self.fault: Fault | None = None  # set once the bot can no longer be talked to
        self.ignored: list[str] = []  # the reasons of the first KEPT_IGNORED ignored lines
        self.ignored_count = 0
        self._stderr = StderrDrain(
            StderrLog(log_path, label, FILE_TIMES * limits.stderr_cap), limits.stderr_cap, self._over_limit
        )
        self._pending: collections.deque[Event] = collections.deque()
        self._unasked = self._unheard = 0  # bytes read, and lines ignored, since the last request was sent
        self.ended_by: str | None = None  # how it stopped: "exit" on its own, "sigterm" or "sigkill"
        self.left_behind = 0  # processes of its session still running after it exited on its own
        self.told_bye = False  # 'bye' was sent while it could be talked to: how it then ends is its own doing
        self._stdin_fd = self._stdout_fd = -1
        self._poller = select.poll()
        self._quick = False  # its last reply came within QUICK_WAIT: wait for the next one in the kernel first
        self._yielded = 0.0  # when this bot's reader last let other tasks run (time.perf_counter)
        self._arrived = 0.0  # the latest its last reply can have come (see LOOK_EVERY)
        self._debug = log.isEnabledFor(logging.DEBUG)  # log every line (decided once: checking costs time)
        self._tasks_scope = trio.CancelScope()  # the process watcher's: cancelled when the bot is stopped
        self._exit_scope = trio.CancelScope()  # the exit watcher's: cancelled when the bot is stopped
        self._waiting: trio.CancelScope | None = None  # the wait for its output, which its exit cuts short
        self._pidfd = -1
        self.exited = False  # its own process has ended (seen by its pidfd), whatever its pipes do
        self.token = proctree.new_token()  # the mark its processes carry in their environment

    @property
    def alive(self) -> bool:
        """Whether it can be talked to: started, without a fault, and its process not ended."""
        return self.process is not None and self.fault is None and not self.exited

    # -- starting -------------------------------------------------------------------------------

    async def start(self, nursery: trio.Nursery) -> Fault | None:
        """Start the process and complete the handshake within the startup deadline."""
        env = bot_environment(self.spec.env)
        env[proctree.MARK] = self.token
        try:
            self.process = await kernel.spawn(self.spec.command, self.spec.cwd, env, self.limits)
        except kernel.SPAWN_ERRORS as exc:
            self._stderr.done.set()
            why = kernel.why(exc, self.spec.command, self.spec.cwd)
            return self._fail(Fault(FaultKind.CRASH, f"cannot start {self.spec.command[0]!r}: {why}"))
        log.debug("%s started pid %d: %s", self.label, self.process.pid, " ".join(self.spec.command))
        proctree.started(self.process.pid)
        self._stdin_fd, self._stdout_fd = kernel.fd_of(self.process.stdin), kernel.fd_of(self.process.stdout)
        self._poller.register(self._stdout_fd, select.POLLIN)
        assert self.process.stderr is not None
        nursery.start_soon(self._stderr.drain, self.process.stderr)
        with contextlib.suppress(OSError, AttributeError):
            self._pidfd = os.pidfd_open(self.process.pid)
        if self._pidfd >= 0:
            nursery.start_soon(self._watch_exit)
        if self.limits.processes is not None:
            nursery.start_soon(self._watch_processes, self.limits.processes)
        fault = await self.send(hello_message(f"rookarena {__version__}"), self.limits.startup)
        if fault is not None:
            return fault
        event = await self._next_event(time.perf_counter(), self.limits.startup, waiting_for="a hello")
        if isinstance(event, Fault):
            return event
        if not isinstance(event, Hello):  # pragma: no cover - the conversation only yields Hello here
            return self._fail(Fault(FaultKind.PROTOCOL, "expected a hello"))
        self.hello = event
        return None

    # -- talking --------------------------------------------------------------------------------

    async def send(self, message: Mapping[str, Any], timeout: float) -> Fault | None:
        """Write one message; a bot that does not read its input within ``timeout`` is at fault."""
        return await self.send_raw(encode(message), timeout)

    async def send_raw(self, data: bytes, timeout: float) -> Fault | None:
        """Write encoded lines (see :meth:`send`)."""
        return self.fault if self.fault is not None else await self._write(data, time.perf_counter(), timeout)

    async def _write(self, data: bytes, started: float, timeout: float) -> Fault | None:
        """Write ``data`` within ``timeout`` seconds of ``started`` (a ``time.perf_counter()``).

        The pipe is non-blocking: a write that fits in it (nearly always) costs one system call and no trip
        through the scheduler; the rest waits for the bot to read, up to the deadline.
        """
        if self._debug:
            log.debug("%s << %s", self.label, data[:-1].decode(errors="replace"))
        try:
            sent = os.write(self._stdin_fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:  # the bot closed its input (or exited): the exit status says why, below
            return self._fail(await self._exit_fault(CLOSED_INPUT))
        if sent == len(data):
            return None
        assert self.process is not None and self.process.stdin is not None
        with trio.move_on_after(max(0.0, timeout - (time.perf_counter() - started))) as scope:
            # A closed pipe: the exit status says why, below, outside the deadline.
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await self.process.stdin.send_all(data[sent:])
                return None
        if scope.cancelled_caught:
            # Part of a line may be in the pipe: nothing more can be said to this bot, so it is gone.
            if self.fault is None:
                self.fault = Fault(FaultKind.TIMEOUT, f"did not read its input for {timeout:g} s")
            return self.fault
        return self._fail(await self._exit_fault(CLOSED_INPUT))

    async def ask(
        self, request: Callable[[int], bytes], request_id: int, timeout: float, before: bytes = b""
    ) -> tuple[Reply | Fault, float]:
        """Send a request and wait up to ``timeout`` seconds for its reply; also return the time taken.

        ``request`` encodes the request given its id, ``request_id`` (see ``protocol.request_id``); the
        encoded lines ``before`` (news for this seat) go first, in the same write. However the request ends
        (its reply, a reply timeout, a write that did not complete, the bot's exit, a limit, a cancellation),
        it ends here, and the conversation is ready for the next one.
        """
        if self.fault is not None:
            return self.fault, 0.0
        if (early := self._take_early()) is not None:
            return early, 0.0
        data = before + request(self.conversation.begin_request(request_id))
        started = time.perf_counter()
        self._unasked = self._unheard = 0
        try:
            fault = await self._write(data, started, timeout)
            if fault is None:
                event = await self._next_event(started, timeout, waiting_for="a reply")
                assert not isinstance(event, Hello)  # the conversation accepts a hello only before the first request
                return event, (self._arrived if isinstance(event, Reply) else time.perf_counter()) - started
            return fault, time.perf_counter() - started
        finally:
            self.conversation.abandon()

    def take_unasked(self) -> Fault | None:
        """What the bot wrote since its last reply, judged now (at a game's end: its own game's doing): the
        lines read with the reply but not yet judged, then what waits in the pipe."""
        if self.fault is not None or self.process is None:
            return None
        while self._pending and isinstance(event := self._pending[0], (Ignored, ProtocolFault)):
            self._pending.popleft()
            if (fault := self._judge(event)) is not None:
                return fault
        return self._take_early()

    def _judge(self, event: Ignored | ProtocolFault) -> Fault | None:
        """A line no request takes: an ignored one is logged (past ``IGNORED_MAX`` the bot is stopped), one
        that breaks the protocol is the bot's fault."""
        if isinstance(event, ProtocolFault):
            return self._fail(Fault(event.kind, event.detail, event.line))
        return self._ignore(event)

    def _take_early(self) -> Fault | None:
        """Read what the bot wrote since its last reply, before the next request is sent: those lines are judged
        while no request is open, so a reply is only ever matched with the request that was outstanding when
        it arrived (a guessed id for a request not yet sent is ignored, however the reads happen to split)."""
        poller, fd = self._poller, self._stdout_fd
        while poller.poll(0):
            try:
                data = os.read(fd, READ_CHUNK)
            except BlockingIOError:  # pragma: no cover - readiness without data
                return None
            except OSError:
                data = b""
            if not data:
                return None  # end of output: the next read reports it, with the exit status
            if flood := self._flooded(data):
                return flood
            for event in self.conversation.receive_data(data):  # a reply is never taken while no request is open
                if isinstance(event, (Ignored, ProtocolFault)) and (fault := self._judge(event)) is not None:
                    return fault
        return None

    def _flooded(self, data: bytes) -> Fault | None:
        """Count the bytes read; past ``EARLY_MAX`` since the last request was sent, stop the bot."""
        self._unasked += len(data)
        if self._unasked > EARLY_MAX:
            self._over_limit(f"output: more than {EARLY_MAX} bytes between two requests")
            return self.fault
        return None

    def _ignore(self, event: Ignored) -> Fault | None:
        """Log an ignored line; past ``IGNORED_MAX`` since the last request was sent, stop the bot."""
        self.ignored_count += 1
        self._unheard += 1
        if len(self.ignored) < KEPT_IGNORED:
            self.ignored.append(event.reason)
            log.info("%s: ignored %s: %r", self.label, event.reason, event.line[:200])
        if self._unheard > IGNORED_MAX:
            self._over_limit(f"output: more than {IGNORED_MAX} ignored lines between two requests")
            return self.fault
        return None

    async def _next_event(self, started: float, timeout: float, waiting_for: str) -> Hello | Reply | Fault:
        """The next hello or reply (ignored lines are logged and skipped), or a fault, within ``timeout``
        seconds of ``started`` (a ``time.perf_counter()``: durations are measured by the system clock).

        Reads straight from the non-blocking pipe. A bot that answered its last request within
        ``QUICK_WAIT`` seconds is first waited for in the kernel, outside the scheduler: a reply that
        comes that soon then costs one ``poll`` and one ``read``, where parking the task costs the event
        loop about as much again as the round trip itself (see ``bench/league.py``). Other tasks wait at
        most that long, and get their turn at least every ``YIELD_EVERY`` seconds, however fast the bot
        writes. When the deadline passes, what is already in the pipe is still read: a reply the referee
        finds waiting when it looks at the clock counts as in time, so a referee slowed down by the machine
        never blames a bot for its own lateness; nor is the bot charged for that lateness (``_arrived``).
        """
        pending = self._pending
        fd = self._stdout_fd
        deadline = started + timeout
        now = empty_at = time.perf_counter()  # empty_at: when the pipe was last seen empty
        last_look = False
        while True:
            while pending:
                event = pending.popleft()
                if isinstance(event, (Ignored, ProtocolFault)):
                    if (fault := self._judge(event)) is not None:
                        return fault
                    continue
                self._arrived = min(now, empty_at + LOOK_EVERY + LATE)  # now: when its line was read
                if self._debug:
                    log.debug("%s >> %s", self.label, getattr(event, "line", event))
                self._quick = now - started < QUICK_WAIT
                if now - self._yielded > YIELD_EVERY:
                    self._yielded = now
                    await trio.lowlevel.checkpoint()
                return event
            if last_look:
                return self._timed_out(timeout, waiting_for)
            left = deadline - now
            if left <= 0:
                last_look = True
                if not self._poller.poll(0):
                    return self._timed_out(timeout, waiting_for)
            elif self.exited and not self._poller.poll(0):
                return self._fail(
                    self._unfinished(await self._exit_fault(f"exited while the referee awaited {waiting_for}"))
                )
            elif not (self._quick and self._poller.poll(min(QUICK_WAIT, left) * 1000)):
                wait = max(0.0, min(LOOK_EVERY, deadline - time.perf_counter()))
                with trio.move_on_at(trio.current_time() + wait) as scope:
                    self._waiting = scope
                    if not self.exited:
                        await trio.lowlevel.wait_readable(fd)
                self._waiting = None
                now = self._yielded = time.perf_counter()
                if scope.cancelled_caught and not self.exited:
                    if now < deadline and self.fault is None and not self._poller.poll(0):
                        empty_at = now  # a look between two slices of the wait
                        continue
                    last_look = True
                    if not self._poller.poll(0):
                        return self._timed_out(timeout, waiting_for)
            elif time.perf_counter() - self._yielded > YIELD_EVERY:
                self._yielded = time.perf_counter()
                await trio.lowlevel.checkpoint()
            try:
                data = os.read(fd, READ_CHUNK)
            except BlockingIOError:  # pragma: no cover - readiness without data
                now = time.perf_counter()
                continue
            except OSError:
                data = b""
            if not data:  # end of output: outside the deadline's scope, so waiting for the exit status is not cut short
                return self._fail(
                    self._unfinished(
                        await self._exit_fault(f"closed its output while the referee awaited {waiting_for}")
                    )
                )
            if flood := self._flooded(data):
                return flood
            pending.extend(self.conversation.receive_data(data))
            now = time.perf_counter()

    def _unfinished(self, fault: Fault) -> Fault:
        """``fault`` (the bot's exit, or its closed output) with the line it left without its newline, if any:
        a reply whose newline never came is the likeliest reason it was not taken."""
        waiting = self.conversation.buffer.waiting()
        if not waiting or fault.kind is not FaultKind.CRASH or self.fault is not None:
            return fault
        detail = f"{fault.detail}; {len(waiting)} bytes of a line were waiting without their newline"
        return Fault(fault.kind, detail, fault.line or waiting.decode(errors="replace"))

    def _timed_out(self, timeout: float, waiting_for: str) -> Fault:
        self._quick = False
        waiting = self.conversation.buffer.waiting()  # a line the bot wrote without its newline, if any
        self.conversation.abandon()
        if self.fault is not None:
            return self.fault  # a limit stopped it meanwhile: that is the cause
        if kernel.input_closed(self._stdin_fd):  # it closed its input after the request was sent: never to be read
            return self._fail(Fault(FaultKind.CRASH, CLOSED_INPUT))
        detail = f"no {waiting_for.removeprefix('a ')} within {seconds_text(timeout)} s"
        if self.process is not None and kernel.stopped(self.process.pid, self.token):
            detail += f"; {kernel.STOPPED}"
        if waiting:  # the count only: the detail goes to every bot, the line (its own words) to the record
            detail += f"; {len(waiting)} bytes of a line were waiting without their newline"
        return Fault(FaultKind.TIMEOUT, detail, waiting.decode(errors="replace"))

    async def _watch_exit(self) -> None:
        """Wait for the bot's own process to end (its pidfd becomes readable), and cut short any wait for its
        output: a bot that exits while a child of its holds its stdout has crashed, and is not kept."""
        with self._exit_scope:
            try:
                await trio.lowlevel.wait_readable(self._pidfd)
            except trio.ClosedResourceError:  # pragma: no cover - closed by a stop meanwhile
                return
            self.exited = True
            if self._waiting is not None:
                self._waiting.cancel()

    async def _exit_fault(self, what: str) -> Fault:
        """A crash fault with the exit status, if the process exits promptly."""
        code = await self._exit_status()
        with trio.move_on_after(0.5):  # the rest of its stderr, which holds the error
            await self._stderr.done.wait()
        if self.fault is not None:
            return self.fault  # a limit already stopped it: that is the cause
        if code is None:
            return Fault(FaultKind.CRASH, what)
        fault, external = kernel.exit_fault(code, self.limits, self.stderr_tail)
        if external:
            await trio.sleep(EXTERNAL_STOP_WAIT)  # the referee's own stop cancels this: see EXTERNAL_STOP_WAIT
        return fault

    async def _exit_status(self) -> int | None:
        assert self.process is not None
        with trio.move_on_after(0.5):
            await self.process.wait()
        return isolation.exit_status(self.process.returncode, self.spec.command)

    async def settle(self) -> None:
        """Before a game, for a process kept from the game before: if it has ended meanwhile by a stop signal
        the referee did not send, wait for the referee's own stop as a fault within a game does."""
        if self.process is not None and self.fault is None and self.exited:
            code = await self._exit_status()
            if code is not None and kernel.exit_fault(code, self.limits, self.stderr_tail)[1]:
                await trio.sleep(EXTERNAL_STOP_WAIT)

    def _fail(self, fault: Fault) -> Fault:
        if self.fault is not None:
            return self.fault  # the first cause stands (a limit, then the EOF it caused)
        if fault.kind is not FaultKind.TIMEOUT:
            self.fault = fault
        return fault

    def _over_limit(self, detail: str) -> None:
        """A limit was hit: stop the bot now, with every process of its own; its request reports why."""
        if self.fault is None:
            self.fault = Fault(FaultKind.LIMIT, detail)
        if self.process is not None:
            kernel.kill_tree(self.process.pid, self.token)
            if self._waiting is not None:
                self._waiting.cancel()

    async def _watch_processes(self, most: int) -> None:
        """Count the bot's processes (its whole tree: session, descendants, and those re-parented to the
        referee) a few times a second; stop it past ``most``."""
        assert self.process is not None
        root = self.process.pid
        with self._tasks_scope:
            while self.process.returncode is None and self.fault is None:
                if len(proctree.bot_processes(root, self.token, thorough=False)) > most:
                    self._over_limit(f"processes: more than {most} at once")
                    return
                await trio.sleep(0.1)

    # -- stderr ---------------------------------------------------------------------------------

    @property
    def stderr_tail(self) -> bytes:
        """The end of its stderr, to quote a crash's error or tell a limit from a plain crash."""
        return self._stderr.tail

    @property
    def log_problem(self) -> str | None:
        """Why its stderr log could not be written, if it could not."""
        return self._stderr.log.problem

    @property
    def log_at(self) -> int | None:
        """The size of its stderr log as written so far (None: no log)."""
        return self._stderr.log.at

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def catch_up_stderr(self) -> None:
        """Take what the bot has written to stderr so far without waiting, so that a game's share of its
        log ends where the game does (the drain task, woken later, finds the pipe empty and waits on)."""
        if self.process is not None and self.process.stderr is not None:
            self._stderr.catch_up(kernel.fd_of(self.process.stderr))

    # -- stopping -------------------------------------------------------------------------------

    async def stop(self) -> None:
        """End of input, a grace period, SIGTERM, then SIGKILL to the whole process group; reap it.

        Shielded from cancellation (a stop that is cut short would leave the bot running) and bounded:
        every wait has a deadline, so a stop ends within ``2 * grace + 2 * STOP_WAIT`` seconds whatever the
        bot does.
        """
        process = self.process
        if process is None or self.ended_by is not None:
            return
        with trio.CancelScope(shield=True):
            await self._stop(process)

    async def _stop(self, process: trio.Process) -> None:
        self.conversation.close()
        if self.fault is None:
            self.fault = Fault(FaultKind.CRASH, "stopped by the referee")
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            assert process.stdin is not None
            await process.stdin.aclose()
        self.ended_by = "exit"  # until it is known how: a second stop meanwhile finds it stopping
        self.ended_by, self.left_behind = await kernel.end(process, self.token, self.limits.grace, self.label)
        self._exit_scope.cancel()
        if self._pidfd >= 0:
            trio.lowlevel.notify_closing(self._pidfd)  # the watcher, if still waiting on it, is woken first
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1
        self._tasks_scope.cancel()
        with trio.move_on_after(self.limits.grace):
            await self._stderr.done.wait()  # the rest of its stderr, up to end of file
        self._stderr.scope.cancel()
        with trio.move_on_after(kernel.STOP_WAIT):
            await self._stderr.done.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    await stream.aclose()
