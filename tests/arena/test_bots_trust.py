"""What no bot can do to the referee, one bot process at a time: real processes over real pipes.

A bot cannot make a deadline negative (by flooding empty lines or stale ids past it), cannot have a
reply matched with a request sent after the reply arrived, cannot stop the referee by breaking its own
stderr log, and cannot make a stop last longer than its bound.
"""

from __future__ import annotations

import itertools
import pathlib
import random
import sys
import textwrap
import time
import uuid
from collections.abc import Callable

import pytest
import trio
from conftest import TEST_BOTS
from procs import processes_with

from rookarena.arena.bots import BotProcess
from rookarena.arena.process import STOP_WAIT
from rookarena.arena.specs import BotSpec, Fault, Limits
from rookarena.wire.conversation import FaultKind, Reply

ADVERSARY = TEST_BOTS / "adversary.py"


IDS = itertools.count(1)


def request(legal: list[str]) -> Callable[[int], bytes]:
    def encode(request_id: int) -> bytes:
        quoted = ",".join(f'"{action}"' for action in legal)
        return b'{"type":"act","deadline_ms":300,"bank_ms":0,"legal":[%b],"id":%d}\n' % (quoted.encode(), request_id)

    return encode


def script_bot(tmp_path: pathlib.Path, body: str) -> tuple[str, ...]:
    """A bot whose request loop is ``body`` (with ``message``, ``send`` and ``time`` at hand)."""
    path = tmp_path / "scripted.py"
    path.write_text(
        textwrap.dedent(
            """\
            import json, sys, time
            def send(obj):
                sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
            for line in sys.stdin:
                message = json.loads(line)
                if message["type"] == "hello":
                    send({"type": "hello", "name": "scripted", "version": "1", "protocol": "rook/1"})
                elif message["type"] == "act":
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 8),
        encoding="utf-8",
    )
    return (sys.executable, str(path))


async def started(command: tuple[str, ...], nursery: trio.Nursery, log_path: str | None = None) -> BotProcess:
    bot = BotProcess(BotSpec("b", command), "b#0", log_path, Limits(startup=5.0, grace=0.3))
    assert await bot.start(nursery) is None
    return bot


@pytest.mark.parametrize("mode", ["empty-flood", "stale-late"])
async def test_a_flood_past_the_deadline_is_a_timeout_not_a_crash(mode: str) -> None:
    """Lines the referee ignores, arriving without end, never make a wait negative: the bot times out."""
    async with trio.open_nursery() as nursery:
        bot = await started((sys.executable, str(ADVERSARY), mode, "0"), nursery)
        outcomes = []
        for _ in range(3):
            with trio.fail_after(10):
                reply, elapsed = await bot.ask(request(["pass", "bid 70"]), next(IDS), 0.2)
            outcomes.append(reply)
            assert elapsed < 5
        await bot.stop()
    # the first request of stale-late is answered; every later one is only answered with the old id
    timeouts = [o for o in outcomes if isinstance(o, Fault)]
    assert timeouts and all(o.kind in (FaultKind.TIMEOUT, FaultKind.LIMIT) for o in timeouts)
    assert bot.ignored_count > 0
    assert len(bot.ignored) <= 100


async def test_a_reply_sent_before_its_request_is_ignored(tmp_path: pathlib.Path) -> None:
    """A reply for request 2 that arrives before request 2 is sent is never taken as its reply."""
    command = script_bot(
        tmp_path,
        """\
        send({"id": message["id"], "action": message["legal"][0]})
        time.sleep(0.02)
        send({"id": message["id"] + 1, "action": "guess"})
        """,
    )
    async with trio.open_nursery() as nursery:
        bot = await started(command, nursery)
        for _ in range(5):
            reply, _ = await bot.ask(request(["pass", "bid 70"]), next(IDS), 2.0)
            assert isinstance(reply, Reply)
            assert reply.action == "pass", "a guessed id was matched with a request sent after it arrived"
            await trio.sleep(0.2)  # the guess arrives while no request is open
        await bot.stop()
    assert any("when no request was open" in reason for reason in bot.ignored), bot.ignored


async def test_a_reply_waiting_at_the_deadline_counts() -> None:
    """The referee was too busy to read in time: a reply already in the pipe is not the bot's fault."""
    async with trio.open_nursery() as nursery:
        bot = await started((sys.executable, str(ADVERSARY), "0", "0"), nursery)
        # A first request shows the bot replies at once; then block the event loop past the whole deadline.
        assert isinstance((await bot.ask(request(["pass"]), next(IDS), 1.0))[0], Reply)

        async def busy_referee() -> None:
            await trio.sleep(0)
            time.sleep(0.5)  # the whole loop stalls, as under a loaded machine

        nursery.start_soon(busy_referee)
        reply, _ = await bot.ask(request(["pass"]), next(IDS), 0.2)
        assert isinstance(reply, Reply), reply
        await bot.stop()


@pytest.mark.parametrize("case", range(4))
async def test_a_stalled_referee_does_not_charge_its_stall_to_the_bot(case: int) -> None:
    """The event loop stalls (a starved machine, a task that blocks) while the bot's reply comes: the time
    charged ends at most LOOK_EVERY + LATE after the referee's last look at an empty pipe, not when the
    stall lets it read (which drew the stall from the bot's bank)."""
    rng = random.Random(case)
    stall_at, stall_for = rng.uniform(0.1, 0.4), rng.uniform(0.8, 1.2)
    delay = stall_at + rng.uniform(0.1, stall_for - 0.3)  # the reply comes during the stall
    async with trio.open_nursery() as nursery:
        bot = await started((sys.executable, str(ADVERSARY), "slow", str(delay)), nursery)

        async def busy_referee() -> None:
            await trio.sleep(stall_at)
            time.sleep(stall_for)  # the whole loop stalls

        nursery.start_soon(busy_referee)
        began = time.perf_counter()
        reply, charged = await bot.ask(request(["pass"]), next(IDS), 5.0)
        took = time.perf_counter() - began
        await bot.stop()
    assert isinstance(reply, Reply), reply
    assert took >= stall_at + stall_for - 0.05, "the loop did not stall as the test meant it to"
    assert charged < delay + 0.15, (charged, delay, stall_at, stall_for)
    assert charged > stall_at - 0.25, (charged, stall_at)  # never less than the last look at an empty pipe


@pytest.mark.parametrize("where", ["folder-is-a-file", "folder-removed", "name-too-long"])
async def test_a_log_that_cannot_be_written_never_stops_the_bot(where: str, tmp_path: pathlib.Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    log_path = str(logs / "bot.stderr.log")
    if where == "folder-is-a-file":
        (tmp_path / "file").write_text("x")
        log_path = str(tmp_path / "file" / "bot.stderr.log")
    elif where == "folder-removed":
        logs.rmdir()
    else:
        log_path = str(logs / ("x" * 300 + ".log"))
    command = script_bot(
        tmp_path,
        """\
        sys.stderr.write("thinking\\n"); sys.stderr.flush()
        send({"id": message["id"], "action": message["legal"][0]})
        """,
    )
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            bot = await started(command, nursery, log_path)
            for _ in range(3):
                reply, _ = await bot.ask(request(["pass"]), next(IDS), 2.0)
                assert isinstance(reply, Reply)
            await bot.stop()
    if where == "folder-removed":  # made again
        assert pathlib.Path(log_path).read_text() == "thinking\n" * 3
        assert bot.log_problem is None
    else:
        assert bot.log_problem is not None and "cannot open" in bot.log_problem


async def test_a_stop_is_bounded_even_when_cancelled(tmp_path: pathlib.Path) -> None:
    """A stop under a cancelled scope still ends the bot and every process it left, within its bound."""
    marker = f"rookarena-stop-{uuid.uuid4().hex}"
    command = script_bot(
        tmp_path,
        f"""\
        import signal, subprocess
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", {marker!r}], start_new_session=True)
        time.sleep(60)
        """,
    )
    began = time.monotonic()
    async with trio.open_nursery() as nursery:
        bot = await started(command, nursery)
        reply, _ = await bot.ask(request(["pass"]), next(IDS), 0.3)
        assert isinstance(reply, Fault) and reply.kind is FaultKind.TIMEOUT
        with trio.CancelScope() as scope:
            scope.cancel()
            await bot.stop()
    assert time.monotonic() - began < 2 * 0.3 + 2 * STOP_WAIT + 3
    assert bot.ended_by == "sigkill"
    await trio.sleep(0.2)
    assert processes_with(marker) == []


FLOODS = {
    "empty lines": b"\n",
    "stale replies": b'{"id": 1, "action": "pass"}\n',
    "long stale replies": b'{"id": 1, "action": "pass", "comment": "' + b"x" * 60_000 + b'"}\n',
}


@pytest.mark.slow
@pytest.mark.parametrize("case", range(6))
async def test_a_flood_between_two_requests_is_a_limit_fault_however_it_is_made(
    case: int, tmp_path: pathlib.Path
) -> None:
    """Past 4 MiB, or past 10,000 ignored lines, from one request to the next: the bot is stopped for the
    limit, never timed out for the time the referee spent reading its flood (seeded: the lines, their number,
    whether they come before the reply, with it open, or after it, while no request is open)."""
    rng = random.Random(case)
    what = rng.choice(sorted(FLOODS))
    line = FLOODS[what]
    count = (
        int(rng.uniform(4.5, 12) * (1 << 20) / len(line))
        if what == "long stale replies"
        else rng.randint(10_001, 400_000)
    )
    when = rng.choice(["before", "after"])
    command = script_bot(
        tmp_path,
        f"""\
        flood = {line!r} * {count}
        if {when!r} == "before":
            sys.stdout.buffer.write(flood); sys.stdout.flush()
        send({{"id": message["id"], "action": message["legal"][0]}})
        if {when!r} == "after":
            sys.stdout.buffer.write(flood); sys.stdout.flush()
        """,
    )
    outcomes: list[Reply | Fault] = []
    async with trio.open_nursery() as nursery:
        bot = await started(command, nursery)
        for _ in range(3):
            with trio.fail_after(30):
                reply, _ = await bot.ask(request(["pass", "bid 70"]), next(IDS), 1.0)
            outcomes.append(reply)
            if isinstance(reply, Fault):
                break
        await bot.stop()
    fault = outcomes[-1]
    assert isinstance(fault, Fault), (what, when, count, outcomes)
    assert fault.kind is FaultKind.LIMIT and fault.detail.startswith("output: more than"), (what, when, fault)
    assert "between two requests" in fault.detail
