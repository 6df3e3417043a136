"""What the referee talks to at a seat: a bot's process, or a script standing in for one in tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rookarena.arena.specs import BotSpec, Fault
from rookarena.wire.conversation import Hello, Reply


class Seat(Protocol):
    """One seat's bot as the referee sees it: a request answered before a deadline, news sent, a fault kept."""

    spec: BotSpec
    label: str
    hello: Hello | None
    fault: Fault | None  # set once the bot can no longer be talked to

    @property
    def stderr_tail(self) -> bytes:
        """The end of what it wrote to stderr (a crash's error is quoted from it)."""

    @property
    def log_at(self) -> int | None:
        """The size of its stderr log so far, None without a log."""
        ...

    @property
    def returncode(self) -> int | None:
        """How its process ended (None while it runs, or for a seat without a process)."""
        ...

    def catch_up_stderr(self) -> None:
        """Take what it has written to stderr so far into its log, without waiting."""
        ...

    @property
    def alive(self) -> bool:
        """Whether it can be talked to."""
        ...

    async def ask(
        self, request: Callable[[int], bytes], request_id: int, timeout: float, before: bytes = b""
    ) -> tuple[Reply | Fault, float]:
        """The reply to a request (``before`` sent first), or the fault that ended it, and the seconds taken."""
        ...

    async def send_raw(self, data: bytes, timeout: float) -> Fault | None:
        """Write encoded lines; a bot that does not read them within ``timeout`` is at fault."""
        ...

    def take_unasked(self) -> Fault | None:
        """Judge what it wrote since its last reply, unasked (no request is open), without waiting: the fault
        it makes (a line that is not JSON, a flood), or None."""
        ...
