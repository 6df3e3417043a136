"""A bot started alone, apart from any game: the handshake probe and the buffered-reply probe of ``check-bot``.

The probe starts the bot, sends the referee's hello and times its answer; a bot that says nothing is then sent
the end of its input, and a hello that arrives only then shows that it does not flush its stdout. The
buffered-reply probe does the same for a request in a game. Either way the bot is stopped, with all it started,
before the probe returns.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import signal
import subprocess
import tempfile
import time as clock
from collections.abc import AsyncIterator
from typing import IO

import trio

from rookarena import __version__
from rookarena.arena import process as kernel
from rookarena.arena import proctree
from rookarena.arena.bots import BotSpec, bot_environment
from rookarena.arena.isolation import program_path
from rookarena.arena.referee import TimeControl
from rookarena.engine.game import Game
from rookarena.engine.rules import Rules
from rookarena.wire.advice import Cause, diagnose, shebang_cause
from rookarena.wire.conversation import Conversation, Hello, Ignored, ProtocolFault, Reply, encode, request_id
from rookarena.wire.messages import act_message, deal_messages, game_message, hello_message, seat_seed

OPPONENT_NAME = "rookarena-random"
AFTER_EOF = 2.0  # seconds to wait for output once the probe has closed the bot's input
PATIENCE = 2.0  # seconds past the startup (move) time a hello (reply) is still waited for before the input is closed
PROMPT = 0.25  # seconds after its input is closed within which output that sat in a buffer comes out


@dataclasses.dataclass(frozen=True, slots=True)
class Probe:
    """What the bot did when started alone and sent the referee's hello."""

    hello: Hello | None
    fault: Cause | None  # why there is no hello
    seconds: float  # until the hello (or the verdict)
    ignored: tuple[str, ...] = ()
    stderr_tail: str = ""  # the last line the bot wrote to stderr


async def probe(spec: BotSpec, startup: float) -> Probe:
    """Start the bot, send the referee's hello and read its answer within ``startup`` seconds. A bot that
    answers nothing is sent the end of its input: output that comes only then was never flushed."""
    with tempfile.TemporaryFile() as stderr:
        found = await _probe(spec, startup, stderr)
        stderr.seek(max(0, stderr.seek(0, os.SEEK_END) - 4096))
        lines = stderr.read().decode(errors="replace").strip().splitlines()
    if found.hello is None and found.fault is not None and _did_not_run(found.fault.detail):
        found = dataclasses.replace(found, fault=shebang_cause(_first_line(spec), found.fault))
    return dataclasses.replace(found, stderr_tail=lines[-1][:200] if lines else "")


def _did_not_run(detail: str) -> bool:
    """Whether a bot's program may never have run: it could not be started, or it ended before any hello
    (as a missing interpreter does: 127, not found; or its options refused: ``env -S python3 -u\\r``)."""
    return detail.startswith("cannot start") or detail.endswith("before saying hello")


def _first_line(spec: BotSpec) -> bytes:
    """The first line of the script a bot's command runs directly (b"" for any other command)."""
    program = program_path(spec)
    if program is None or program[0] != 0:  # run by a named interpreter: its #! line is never read
        return b""
    try:
        with program[1].open("rb") as stream:
            return stream.readline(4096)
    except OSError:
        return b""


class _CannotStartError(Exception):
    """The bot's command could not be started (the words say why)."""


@contextlib.asynccontextmanager
async def _alone(spec: BotSpec, stderr: IO[bytes]) -> AsyncIterator[trio.Process]:
    """The bot started alone, its stderr to ``stderr``; stopped, with all it started, on the way out."""
    token = proctree.new_token()
    proctree.become_subreaper()  # what the bot leaves stays in reach, as in a match
    try:
        process = await trio.lowlevel.open_process(
            list(spec.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=spec.cwd,
            env={**bot_environment(spec.env), proctree.MARK: token},
            start_new_session=True,
        )
    except OSError as exc:
        raise _CannotStartError(
            f"cannot start {spec.command[0]!r}: {kernel.why(exc, spec.command, spec.cwd)}"
        ) from None
    proctree.started(process.pid)
    assert process.stdin is not None and process.stdout is not None
    try:
        yield process
    finally:
        # Shielded (a stop signal cancels the probe): the bot is ended however the probe ends, within a second.
        with trio.CancelScope(shield=True):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await process.stdin.aclose()
            with trio.move_on_after(1.0):
                await process.wait()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            proctree.kill_bot(process.pid, token)  # and all else of it: a daemon it became, a child it left
            await process.wait()
            await process.stdout.aclose()
            proctree.forget(process.pid)
            await trio.sleep(0.01)
            proctree.reap_orphans()


async def _send(process: trio.Process, data: bytes) -> None:
    assert process.stdin is not None
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await process.stdin.send_all(data)


async def _close_input(process: trio.Process) -> None:
    assert process.stdin is not None
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        await process.stdin.aclose()


async def _probe(spec: BotSpec, startup: float, stderr: IO[bytes]) -> Probe:
    started = clock.perf_counter()
    try:
        async with _alone(spec, stderr) as process:
            return await _handshake(process, startup, started)
    except _CannotStartError as exc:
        return Probe(None, diagnose("crash", str(exc)), 0.0)


async def _handshake(process: trio.Process, startup: float, started: float) -> Probe:
    assert process.stdout is not None
    conversation = Conversation()
    ignored: list[str] = []
    await _send(process, encode(hello_message(f"rookarena {__version__}")))
    event = await _first_event(process.stdout, conversation, startup, ignored)
    seconds = clock.perf_counter() - started
    if event is None:
        # A slow bot says hello later, whatever its input does; a buffered one only as its input ends.
        late = await _first_event(process.stdout, conversation, PATIENCE, ignored)
        if late is None:
            await _close_input(process)
            closed = clock.perf_counter()
            late = await _first_event(process.stdout, conversation, AFTER_EOF, ignored)
            if late is not None and not isinstance(late, str) and clock.perf_counter() - closed <= PROMPT:
                return Probe(None, diagnose("timeout", "no hello", flushed_late=True), seconds, tuple(ignored))
        if isinstance(late, Hello):
            took = clock.perf_counter() - started
            detail = f"no hello within {startup:g} s: it came {took:.2f} s after the bot was started"
            return Probe(None, diagnose("timeout", detail), seconds, tuple(ignored))
        detail = f"no hello within {startup:g} s"
        waiting = conversation.buffer.waiting()
        if waiting:
            detail += f"; {len(waiting)} bytes of a line were waiting without their newline"
        elif late is not None:  # its output ended when its input did, and nothing came before
            detail += ", and it ended its output when its input was closed without having written a line"
        return Probe(None, diagnose("timeout", detail), seconds, tuple(ignored))
    if isinstance(event, ProtocolFault):  # quoted as a fault in a game is (``_faults``): the exact line
        cause = diagnose(event.kind.value, event.detail, event.line)
        if event.line:
            cause = dataclasses.replace(cause, detail=f"{cause.detail}; the bot sent: {event.line[:300]!r}")
        return Probe(None, cause, seconds, tuple(ignored))
    if isinstance(event, str):
        with trio.move_on_after(1.0):
            await process.wait()
        code = process.returncode
        if code is None:
            how = "closed its stdout"
        elif code < 0:
            how = f"was killed by {_signal_name(-code)}"
        else:
            how = f"exited with status {code}"
        return Probe(None, diagnose("crash", f"{how} before saying hello"), seconds, tuple(ignored))
    assert isinstance(event, Hello)
    return Probe(event, None, seconds, tuple(ignored))


ANSWERED, BUFFERED, SILENT = "answered", "buffered", "silent"  # how a bot's first reply comes (first_reply)


async def first_reply(spec: BotSpec, rules_name: str, rules: Rules, time: TimeControl, seed: int) -> str | None:
    """How the bot answers its first request when started alone (it says hello, and is sent a game and the
    request): ``ANSWERED`` within the move time or ``PATIENCE`` seconds after it (in time, or slow);
    ``BUFFERED`` neither, but as soon as its input is closed (within ``PROMPT`` seconds: its reply sat in its
    stdout buffer); ``SILENT`` never, even then (a bot that does not answer requests). None when the probe
    cannot tell (no hello, another fault, or the bot cannot start)."""
    with tempfile.TemporaryFile() as stderr:
        try:
            async with _alone(spec, stderr) as process:
                return await _first_reply(process, rules_name, rules, time, seed)
        except _CannotStartError:
            return None


async def _first_reply(
    process: trio.Process, rules_name: str, rules: Rules, time: TimeControl, seed: int
) -> str | None:
    assert process.stdout is not None
    conversation = Conversation()
    ignored: list[str] = []
    await _send(process, encode(hello_message(f"rookarena {__version__}")))
    hello = await _first_event(process.stdout, conversation, time.startup, ignored)
    if not isinstance(hello, Hello):
        return None
    game = Game(rules, random.Random(seed), first_dealer=0)
    seat = game.to_act
    players = [OPPONENT_NAME if other % 2 != seat % 2 else hello.name for other in range(4)]
    start = game_message(
        game_id="check-flush",
        seat=seat,
        rules=rules,
        rules_name=rules_name,
        players=players,
        first_dealer=0,
        seed=seat_seed(seed, seat),
    )
    asked = act_message(game, seat, game.legal_actions(), TimeControl.told_ms(time.move), 0, with_view=hello.view)
    request = conversation.request(asked, request_id(seed, seat, 0))
    await _send(process, encode(start) + encode(deal_messages(game)[seat]) + request)
    said = await _first_event(process.stdout, conversation, time.move + PATIENCE, ignored, (Reply, ProtocolFault))
    if isinstance(said, Reply):
        return ANSWERED
    if said is not None:
        return None  # it said something else, or its output ended: whatever it is, not a buffer
    await _close_input(process)
    closed = clock.perf_counter()
    late = await _first_event(process.stdout, conversation, AFTER_EOF, ignored, (Reply,))
    if not isinstance(late, Reply):
        return SILENT
    return BUFFERED if clock.perf_counter() - closed <= PROMPT else ANSWERED  # later: a slow bot, not a buffer


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


async def _first_event(
    stdout: trio.abc.ReceiveStream,
    conversation: Conversation,
    seconds: float,
    ignored: list[str],
    wanted: tuple[type, ...] = (Hello, ProtocolFault),
) -> Hello | Reply | ProtocolFault | str | None:
    """The first event of the ``wanted`` kinds the bot's output makes (the hello or a fault), a string
    saying how its output ended, or None after ``seconds``."""
    with trio.move_on_after(seconds):
        while True:
            try:
                data = await stdout.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                return "end of output"
            for event in conversation.receive_data(bytes(data)):
                if isinstance(event, Ignored):
                    ignored.append(event.reason)
                elif isinstance(event, wanted):
                    assert isinstance(event, (Hello, Reply, ProtocolFault))
                    return event
    return None
