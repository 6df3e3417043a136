"""Bot processes: start, talk rook/1 with deadlines, capture stderr, and stop without leaving anything.

Each bot runs in its own session (so its own process group) with ``PYTHONUNBUFFERED=1``. Its stdout is
read through the protocol's bounded line buffer; its stderr is drained by a task of its own into a log
capped at ``stderr_cap`` bytes (the rest is counted and dropped, so a flood never blocks the bot nor
fills the disk). Every wait has a deadline; every failure becomes a :class:`Fault`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import shlex
import signal
import subprocess
from collections.abc import Mapping, Sequence
from typing import IO, Any

import trio

from rookarena import __version__
from rookarena.protocol import (
    Conversation,
    Event,
    FaultKind,
    Hello,
    Ignored,
    ProtocolFault,
    Reply,
    encode,
    hello_message,
)

log = logging.getLogger(__name__)

READ_CHUNK = 65536


@dataclasses.dataclass(frozen=True, slots=True)
class BotSpec:
    """How to start one bot program."""

    name: str
    command: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    detail: str
    line: str = ""

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" + (f" (sent {self.line[:120]!r})" if self.line else "")


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    max_line: int = 64 * 1024
    stderr_cap: int = 1024 * 1024
    startup: float = 10.0
    grace: float = 1.0


class BotProcess:
    """One running instance of a bot, owned by the nursery passed to :meth:`start`."""

    def __init__(self, spec: BotSpec, label: str, log_path: str | None, limits: Limits) -> None:
        self.spec = spec
        self.label = label
        self.log_path = log_path
        self.limits = limits
        self.conversation = Conversation(limits.max_line)
        self.process: trio.Process | None = None
        self.hello: Hello | None = None
        self.fault: Fault | None = None  # set once the bot can no longer be talked to
        self.stderr_bytes = 0
        self.stderr_dropped = 0
        self.ignored: list[str] = []
        self._pending: list[Event] = []
        self.ended_by: str | None = None  # how it stopped: "exit" on its own, "sigterm" or "sigkill"
        self._drain_scope = trio.CancelScope()
        self._drain_done = trio.Event()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.fault is None

    # -- starting -------------------------------------------------------------------------------

    async def start(self, nursery: trio.Nursery) -> Fault | None:
        """Start the process and complete the handshake within the startup deadline."""
        env = bot_environment(self.spec.env)
        try:
            self.process = await trio.lowlevel.open_process(
                list(self.spec.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.spec.cwd,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            self._drain_done.set()
            return self._fail(Fault(FaultKind.CRASH, f"cannot start {self.spec.command[0]!r}: {exc.strerror}"))
        log.debug("%s started pid %d: %s", self.label, self.process.pid, " ".join(self.spec.command))
        nursery.start_soon(self._drain_stderr)
        fault = await self.send(hello_message(f"rookarena {__version__}"), self.limits.startup)
        if fault is not None:
            return fault
        event = await self._next_event(trio.current_time() + self.limits.startup, waiting_for="a hello")
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
        if self.fault is not None:
            return self.fault
        assert self.process is not None and self.process.stdin is not None
        log.debug("%s << %s", self.label, data[:-1].decode(errors="replace"))
        with trio.move_on_after(timeout):
            try:
                await self.process.stdin.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return self._fail(await self._exit_fault("stopped reading its input"))
            return None
        return self._fail(Fault(FaultKind.TIMEOUT, f"did not read its input for {timeout:g} s"))

    async def ask(self, message: dict[str, Any], timeout: float, before: bytes = b"") -> tuple[Reply | Fault, float]:
        """Send a request (after the encoded lines ``before``, in the same write) and wait up to ``timeout``
        seconds for its reply; also return the time taken."""
        if self.fault is not None:
            return self.fault, 0.0
        _, data = self.conversation.request(message)
        started = trio.current_time()
        fault = await self.send_raw(before + data, timeout)
        if fault is not None:
            return fault, trio.current_time() - started
        event = await self._next_event(started + timeout, waiting_for="a reply")
        elapsed = trio.current_time() - started
        if isinstance(event, Fault):
            return event, elapsed
        assert isinstance(event, Reply)
        return event, elapsed

    async def _next_event(self, deadline: float, waiting_for: str) -> Hello | Reply | Fault:
        """The next hello or reply (ignored lines are logged and skipped), or a fault."""
        assert self.process is not None and self.process.stdout is not None
        pending = self._pending
        timeout = deadline - trio.current_time()
        while True:
            while pending:
                event = pending.pop(0)
                if isinstance(event, Ignored):
                    log.info("%s: ignored %s: %r", self.label, event.reason, event.line[:200])
                    self.ignored.append(event.reason)
                    continue
                if isinstance(event, ProtocolFault):
                    return self._fail(Fault(event.kind, event.detail, event.line))
                log.debug("%s >> %s", self.label, getattr(event, "line", event))
                return event
            data: bytes | bytearray = b""
            with trio.move_on_at(deadline):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    data = await self.process.stdout.receive_some(READ_CHUNK)
                if not data:
                    return self._fail(
                        await self._exit_fault(f"closed its output while the referee awaited {waiting_for}")
                    )
                pending.extend(self.conversation.receive_data(bytes(data)))
                continue
            self.conversation.abandon()
            return Fault(FaultKind.TIMEOUT, f"no {waiting_for.removeprefix('a ')} within {timeout:.3g} s")

    async def _exit_fault(self, what: str) -> Fault:
        """A crash fault with the exit status, if the process exits promptly."""
        assert self.process is not None
        with trio.move_on_after(0.5):
            await self.process.wait()
        code = self.process.returncode
        if code is None:
            return Fault(FaultKind.CRASH, what)
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return Fault(FaultKind.CRASH, f"killed by {name}")
        return Fault(FaultKind.CRASH, f"exited with status {code}")

    def _fail(self, fault: Fault) -> Fault:
        if self.fault is None and fault.kind is not FaultKind.TIMEOUT:
            self.fault = fault
        return fault

    # -- stderr ---------------------------------------------------------------------------------

    async def _drain_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        stream = self.process.stderr
        sink: IO[bytes] | None = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115
        try:
            with self._drain_scope:
                while True:
                    try:
                        data = await stream.receive_some(READ_CHUNK)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        break
                    if not data:
                        break
                    room = max(0, self.limits.stderr_cap - self.stderr_bytes)
                    kept = data[:room]
                    self.stderr_bytes += len(kept)
                    self.stderr_dropped += len(data) - len(kept)
                    if sink is not None and kept:
                        sink.write(kept)
                        sink.flush()
        finally:
            if sink is not None:
                if self.stderr_dropped:
                    sink.write(f"\n[rookarena: {self.stderr_dropped} more bytes of stderr dropped]\n".encode())
                sink.close()
            self._drain_done.set()

    # -- stopping -------------------------------------------------------------------------------

    async def stop(self) -> None:
        """End of input, a grace period, SIGTERM, then SIGKILL to the whole process group; reap it."""
        process = self.process
        if process is None:
            return
        self.conversation.close()
        if self.fault is None:
            self.fault = Fault(FaultKind.CRASH, "stopped by the referee")
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            assert process.stdin is not None
            await process.stdin.aclose()
        with trio.move_on_after(self.limits.grace):
            await process.wait()
        self.ended_by = "exit"
        if process.returncode is None:
            self.ended_by = "sigterm"
            _signal_group(process.pid, signal.SIGTERM)
            with trio.move_on_after(self.limits.grace):
                await process.wait()
            if process.returncode is None:
                self.ended_by = "sigkill"
        _signal_group(process.pid, signal.SIGKILL)  # leftovers in the group, even after the leader exited
        with trio.CancelScope(shield=True):
            await process.wait()
        with trio.move_on_after(self.limits.grace):
            await self._drain_done.wait()
        self._drain_scope.cancel()
        with trio.CancelScope(shield=True):
            await self._drain_done.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    await stream.aclose()


# The only variables of the referee's environment a bot sees; everything else (tokens, keys, paths to
# private files) stays behind. A bot's configuration may add its own.
ENV_ALLOWED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")


def bot_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """A bot's environment: the allow-listed variables, the bot's own, and ``PYTHONUNBUFFERED=1``."""
    env = {name: os.environ[name] for name in ENV_ALLOWED if name in os.environ}
    env.update(extra)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def command_of(value: str | Sequence[str]) -> tuple[str, ...]:
    """A command from a list of words, or one string split as a POSIX shell would."""
    words = shlex.split(value) if isinstance(value, str) else list(value)
    if not words:
        raise ValueError("empty command")
    return tuple(words)
