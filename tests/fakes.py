"""A scripted seat for referee tests: it answers each request from a script, on a fake clock, with no process."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rookarena.arena.specs import BotSpec, Fault
from rookarena.wire.conversation import Conversation, FaultKind, Hello, Ignored, ProtocolFault, Reply

# An answer to one request: the seconds it takes, then the bytes written (None: the bot closes its output).
Answer = tuple[float, bytes | None]
Script = Callable[[dict[str, Any]], Answer]


def reply(message: dict[str, Any], action: str, seconds: float = 0.0) -> Answer:
    """The reply line a well-behaved bot writes to ``message`` (an ``act`` request), after ``seconds``."""
    return seconds, json.dumps({"id": message["id"], "action": action}).encode() + b"\n"


def first_legal(message: dict[str, Any]) -> Answer:
    return reply(message, message["legal"][0])


LATE = 1e9  # seconds: past any deadline on the fake clock
KINDS = ("garbage", "illegal", "move-key", "case", "stale", "late", "closed")  # the wrong answers of misbehave()


def misbehave(kind: str, message: dict[str, Any]) -> Answer:
    """One wrong answer of ``kind`` (one of ``KINDS``) to the request ``message``."""
    legal, rid = message["legal"], message["id"]
    if kind == "garbage":
        return 0.0, b"thinking...\n"
    if kind == "illegal":
        return reply(message, "play R99")
    if kind == "move-key":
        return 0.0, json.dumps({"id": rid, "move": legal[0]}).encode() + b"\n"
    if kind == "case":
        return reply(message, legal[-1].swapcase())
    if kind == "stale":
        return 0.0, json.dumps({"id": rid - 1, "action": legal[0]}).encode() + b"\n"
    if kind == "late":
        return reply(message, legal[0], LATE)
    assert kind == "closed", kind
    return 0.0, None


class Misbehaving:
    """A seat's script: the first legal action, but at the requests named in ``plan`` (numbered from 0)
    the wrong answer named there; the requests it answered wrongly are kept in ``wronged``, in order."""

    def __init__(self, plan: dict[int, str]) -> None:
        self.plan = plan
        self.asked = 0
        self.wronged: list[dict[str, Any]] = []

    def __call__(self, message: dict[str, Any]) -> Answer:
        number, self.asked = self.asked, self.asked + 1
        kind = self.plan.get(number)
        if kind is None:
            return first_legal(message)
        self.wronged.append(message)
        return misbehave(kind, message)


class ScriptedSeat:
    """A seat whose replies come from ``script``; every line the referee sends it is kept, decoded, in ``received``.

    Its replies go through the real protocol conversation, so a garbled line, a wrong id or an unknown field
    is judged as the referee judges a process's; time passes only on its fake clock (``clock``, in seconds).
    """

    def __init__(self, name: str, script: Script = first_legal, *, view: bool = True) -> None:
        self.spec = BotSpec(name, ("scripted",))
        self.label = f"{name}-scripted"
        self.fault: Fault | None = None
        self.script = script
        self.conversation = Conversation()
        hello = {"type": "hello", "name": name, "version": "1", "protocol": "rook/1", "view": view}
        (event,) = self.conversation.receive_data(json.dumps(hello).encode() + b"\n")
        assert isinstance(event, Hello), event
        self.hello: Hello | None = event
        self.received: list[dict[str, Any]] = []
        self.clock = 0.0
        self.ignored: list[str] = []
        self.stderr_tail = b""  # a script writes no stderr and keeps no log
        self.log_at: int | None = None

    @property
    def alive(self) -> bool:
        return self.fault is None

    @property
    def returncode(self) -> int | None:
        return None

    def catch_up_stderr(self) -> None:
        pass

    def _take(self, data: bytes) -> None:
        self.received.extend(json.loads(line) for line in data.splitlines() if line)

    async def send_raw(self, data: bytes, timeout: float) -> Fault | None:
        if self.fault is not None:
            return self.fault
        self._take(data)
        return None

    def take_unasked(self) -> Fault | None:
        return None  # a script writes only its replies

    async def ask(
        self, request: Callable[[int], bytes], request_id: int, timeout: float, before: bytes = b""
    ) -> tuple[Reply | Fault, float]:
        if self.fault is not None:
            return self.fault, 0.0
        self._take(before + request(self.conversation.begin_request(request_id)))
        try:
            seconds, data = self.script(self.received[-1])
            if seconds > timeout:
                self.clock += timeout
                return Fault(FaultKind.TIMEOUT, f"no reply within {timeout:.3g} s"), timeout
            self.clock += seconds
            if data is None:
                self.fault = Fault(FaultKind.CRASH, "closed its output while the referee awaited a reply")
                return self.fault, seconds
            for event in self.conversation.receive_data(data):
                if isinstance(event, Ignored):
                    self.ignored.append(event.reason)
                elif isinstance(event, ProtocolFault):
                    self.fault = Fault(event.kind, event.detail, event.line)
                    return self.fault, seconds
                elif isinstance(event, Reply):
                    return event, seconds
            return Fault(FaultKind.TIMEOUT, f"no reply within {timeout:.3g} s"), timeout  # nothing that answers
        finally:
            self.conversation.abandon()
