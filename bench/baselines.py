"""What the benches divide by, and where they run it: shared by ``bench/engine.py`` and ``bench/league.py``.

- :func:`round_trip_rate`, the pipe baseline: JSON-line round trips per second between this process and
  a child Python process that reads one request and writes a short reply, the least any bot can cost.
- :func:`blocking_rate`, the minimal blocking referee: a league of the sample random bots played by one
  plain loop over the same engine, the same encoders of ``rookarena.wire.messages`` and the same bot processes,
  with blocking reads and writes on the pipes and nothing else (no event loop, no deadlines, no stderr,
  no records, no fault handling). It is the best a referee written in Python can do with these bots.
- :func:`pinned`, which runs a block with this process (every thread of it, and so every process it
  starts) on one CPU, and :func:`pinned_and_free`, which measures something both ways.

Where the scheduler puts the two ends of a pipe matters more than anything else here: on a small VM a
wake-up across CPUs costs several times one on the same CPU, so a rate measured once, unpinned, swings
with placement. The benches therefore measure both placements, alternately, in the same run. Every child
(the echo child too) is started in a session of its own, as the referee starts a bot: with the kernel's
autogroup scheduling a session is a scheduling group, and on a busy machine that alone moves the rates.

This module is not a script; run the benches that use it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, TypeVar

from rookarena.arena import config as league_config
from rookarena.arena import league
from rookarena.arena.bots import bot_environment
from rookarena.arena.specs import LeagueConfig
from rookarena.wire import conversation, messages, records

T = TypeVar("T")

PLACEMENTS = ("pinned", "free")

# -- the pipe baseline ------------------------------------------------------------------------------

WARMUP_ROUND_TRIPS = 200

# The child reads one JSON line, decodes it, and answers with a short JSON line: the least a bot can do.
CHILD = """\
import json, sys
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
while True:
    line = read()
    if not line:
        break
    request = json.loads(line)
    write(json.dumps({"id": request["id"], "action": request["legal"][0]}) + "\\n")
    flush()
"""

HAND = ["R5", "R9", "R14", "G7", "G10", "G12", "B6", "B13", "Y11", "ROOK"]


def _request(number: int) -> dict[str, Any]:
    """A request the size and shape of one the referee sends when a bot must play to a trick."""
    return {
        "type": "act",
        "id": number,
        "seat": 2,
        "phase": "play",
        "trump": "R",
        "hand": HAND,
        "trick": ["G9", "G13"],
        "scores": [145, 90],
        "legal": ["G7", "G10", "G12", "ROOK"],
    }


def _round_trip(stdin: IO[bytes], stdout: IO[bytes], number: int) -> None:
    stdin.write(json.dumps(_request(number)).encode() + b"\n")
    stdin.flush()
    reply = json.loads(stdout.readline())
    if reply.get("id") != number:
        raise RuntimeError(f"echo child answered {reply!r} to request {number}")


def round_trip_rate(seconds: float) -> tuple[int, float]:
    """Round trips with a child Python process for ``seconds`` (after a warm-up); return their count and
    the elapsed seconds."""
    command = [sys.executable, "-c", CHILD]
    # In a session of its own, as the referee starts a bot (the scheduler's autogroups go by session).
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True) as child:
        stdin, stdout = child.stdin, child.stdout
        assert stdin is not None and stdout is not None
        try:
            for number in range(WARMUP_ROUND_TRIPS):
                _round_trip(stdin, stdout, number)
            trips = 0
            started = time.perf_counter()
            elapsed = 0.0
            while elapsed < seconds:
                for _ in range(100):
                    _round_trip(stdin, stdout, trips)
                    trips += 1
                elapsed = time.perf_counter() - started
        finally:
            stdin.close()
            child.wait(timeout=10)
    return trips, elapsed


def pipe_rate(seconds: float) -> float:
    """:func:`round_trip_rate` as round trips per second."""
    trips, elapsed = round_trip_rate(seconds)
    return trips / elapsed


# -- the league the benches play --------------------------------------------------------------------

BOTS = pathlib.Path(__file__).resolve().parent.parent / "sample_bots" / "python"

CONFIG_HEAD = """
name: bench
rules: tournament
games: {games}
duplicate: true
seed: 3
time: {{move: 5, startup: 20}}
bots:
"""

CONFIG_BOT = """\
  - name: random-{number}
    command: [{python}, {bots}/random_bot.py, --seed, "{number}"{extra}]
"""


def bench_config(games: int, bots: int = 2, view: bool = False) -> LeagueConfig:
    """A round robin of ``bots`` copies of the sample random bot, ``games`` games (even) per pairing, in
    duplicate. Without ``view`` the bots decline the view (``--no-view``): they read only the legal actions."""
    extra = "" if view else ", --no-view"
    text = CONFIG_HEAD.format(games=games) + "".join(
        CONFIG_BOT.format(number=number, python=sys.executable, bots=BOTS, extra=extra) for number in range(1, bots + 1)
    )
    return league_config.loads(text, BOTS / "bench.yaml")  # no file: the text is all there is


# -- the minimal blocking referee -------------------------------------------------------------------


def steady_rate(ends: Sequence[float], counts: Sequence[int]) -> float:
    """Decisions per second of play alone, from games' end times and decision counts (in order): those of
    the games after the first, up to the last but one, over the time between the first game's end and the
    last but one's. Starting the bots (and the first messages) and stopping them are left out, for the
    referee (its records' arrival) and the minimal loop alike."""
    if len(ends) < 3:
        raise ValueError("a steady rate needs at least 3 games")
    return sum(counts[1:-1]) / (ends[-2] - ends[0])


@dataclasses.dataclass(frozen=True, slots=True)
class Run:
    """One league played, by the minimal loop or the referee."""

    decisions: int
    elapsed: float  # the whole job: from starting the bots until every one has exited
    ends: tuple[float, ...]  # when each game ended (time.perf_counter()), or its record arrived
    counts: tuple[int, ...]  # each game's decisions

    @property
    def games(self) -> int:
        return len(self.ends)

    @property
    def rate(self) -> float:
        """Decisions per second of the whole job, bots' start-up and exit included."""
        return self.decisions / self.elapsed

    @property
    def steady_rate(self) -> float:
        """Decisions per second of play alone (see :func:`steady_rate`)."""
        return steady_rate(self.ends, self.counts)


READ_CHUNK = 4096  # a reply is a few dozen bytes


def _read_line(fd: int) -> bytes:
    """One line from a bot: the reply usually comes in one read, but a pipe may split it."""
    data = os.read(fd, READ_CHUNK)
    while not data.endswith(b"\n"):
        more = os.read(fd, READ_CHUNK)
        if not more:
            raise RuntimeError(f"a bot closed its output mid-line: {data[:200]!r}")
        data += more
    return data


def blocking_rate(config: LeagueConfig, seconds: float | None = None) -> Run:
    """Play the league of ``config`` (two entries: one pairing) with one blocking loop; see the module's
    docstring. With ``seconds``, stop after the game during which that much play has passed (but play at
    least 3 games, for :func:`steady_rate`).

    Like the referee it starts the four processes (two per entry, as a match's slots, each in a session of
    its own and with the environment the referee gives a bot), says hello, sends
    each seat its news in the same write as its next request, checks each reply's id and takes its action
    only if it is one of the legal ones, and at the end says bye and waits for every process to exit.
    """
    entry_a, entry_b = config.entries  # one pairing: the same four processes play every game
    specs = (entry_a.bot, entry_a.partner, entry_b.bot, entry_b.partner)
    deadline_ms, bank_ms = round(config.time.move * 1000), round(config.time.bank * 1000)
    rules, rules_name = config.rules, config.rules_name
    encode, act_line, after_action_lines = conversation.encode, messages.act_line, messages.after_action_lines
    offered_action, read, write, loads = messages.offered_action, _read_line, os.write, json.loads

    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            list(spec.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=spec.cwd,
            env=bot_environment(spec.env),
            start_new_session=True,  # as the referee starts a bot: with autogroup scheduling, a group of its own
        )
        for spec in specs
    ]
    try:
        ins = [proc.stdin.fileno() for proc in procs if proc.stdin is not None]
        outs = [proc.stdout.fileno() for proc in procs if proc.stdout is not None]
        hello = encode(messages.hello_message("bench"))
        for fd in ins:
            write(fd, hello)
        views = [loads(read(fd)).get("view", True) for fd in outs]
        ends: list[float] = []
        counts: list[int] = []
        playing_from = time.perf_counter()
        for planned in league.plan(config):
            game_plan = planned.game
            slots = [2, 0, 3, 1] if game_plan.swapped else [0, 2, 1, 3]
            seat_in, seat_out = [ins[slot] for slot in slots], [outs[slot] for slot in slots]
            seat_view = [views[slot] for slot in slots]
            names = [specs[slot].name for slot in slots]
            game = records.new_game(rules, game_plan.seed, game_plan.first_dealer)
            encoder = messages.ViewEncoder()
            deals = messages.deal_messages(game)
            outbox = [
                [
                    encode(
                        messages.game_message(
                            game_id=planned.game_id,
                            seat=seat,
                            rules=rules,
                            rules_name=rules_name,
                            players=names,
                            first_dealer=game_plan.first_dealer,
                            seed=messages.seat_seed(game_plan.seed, seat),
                        )
                    ),
                    encode(deals[seat]),
                ]
                for seat in range(4)
            ]
            request_id = 0  # one counter for the game's requests: each reply's id is checked against it
            while not game.is_over:
                seat = game.to_act
                legal = game.legal_actions()
                request_id += 1
                line = act_line(
                    game, seat, legal, deadline_ms, bank_ms, request_id, with_view=seat_view[seat], views=encoder
                )
                news = outbox[seat]
                if news:
                    news.append(line)
                    write(seat_in[seat], b"".join(news))
                    news.clear()
                else:
                    write(seat_in[seat], line)
                reply = loads(read(seat_out[seat]))
                action = offered_action(reply["action"], legal)
                if reply["id"] != request_id or action is None:
                    raise RuntimeError(f"seat {seat} answered request {request_id} with {reply!r}")
                before = len(game.history), len(game.tricks), game.phase
                game.apply(action, known_legal=True)
                for target, lines in enumerate(after_action_lines(game, seat, action, *before)):
                    if lines:
                        outbox[target].append(lines)
            for seat in range(4):
                if outbox[seat]:
                    write(seat_in[seat], b"".join(outbox[seat]))
            ends.append(time.perf_counter())
            counts.append(request_id)
            if seconds is not None and len(ends) >= 3 and ends[-1] - playing_from >= seconds:
                break
        bye = encode(messages.bye_message())
        for fd in ins:
            write(fd, bye)
    finally:
        for proc in procs:
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in procs:
            proc.wait(timeout=10)
            if proc.stdout is not None:
                proc.stdout.close()
    return Run(sum(counts), time.perf_counter() - started, tuple(ends), tuple(counts))


# -- placement --------------------------------------------------------------------------------------


def _threads() -> list[int]:
    return [int(name) for name in os.listdir("/proc/self/task")]


@contextlib.contextmanager
def pinned(cpu: int | None = None) -> Iterator[int]:
    """Run the block with this process on one CPU (the lowest it may use, unless ``cpu`` is given); yield it.

    Every thread is pinned, not only the calling one: a child inherits the affinity of the thread that
    starts it, and trio starts processes from worker threads it keeps between runs. The affinity each
    thread had is restored afterwards (threads started in the block get the calling thread's).
    """
    allowed = os.sched_getaffinity(0)
    chosen = min(allowed) if cpu is None else cpu
    before: dict[int, set[int]] = {}
    for tid in _threads():
        with contextlib.suppress(ProcessLookupError):  # a thread that has just ended
            before[tid] = os.sched_getaffinity(tid)
            os.sched_setaffinity(tid, {chosen})
    try:
        yield chosen
    finally:
        for tid in _threads():
            with contextlib.suppress(ProcessLookupError):
                os.sched_setaffinity(tid, before.get(tid, allowed))


@contextlib.contextmanager
def placed(placement: str) -> Iterator[None]:
    """Run the block ``"pinned"`` (see :func:`pinned`) or ``"free"`` (as it is)."""
    if placement == "pinned":
        with pinned():
            yield
    elif placement == "free":
        yield
    else:
        raise ValueError(f"unknown placement {placement!r}")


def pinned_and_free(measure: Callable[[], T], pinned_first: bool = True) -> dict[str, T]:
    """``measure()`` pinned to one CPU and free, one right after the other; the results by placement."""
    order = PLACEMENTS if pinned_first else PLACEMENTS[::-1]
    results: dict[str, T] = {}
    for placement in order:
        with placed(placement):
            results[placement] = measure()
    return {placement: results[placement] for placement in PLACEMENTS}


def placement_note() -> str:
    """Which CPUs this process may use, and which one "pinned" means."""
    allowed = sorted(os.sched_getaffinity(0))
    return f"{len(allowed)} CPUs allowed ({','.join(map(str, allowed))}); pinned = CPU {allowed[0]} only"
