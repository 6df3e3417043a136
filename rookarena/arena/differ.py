"""A decision diff: replay OLD's recorded games to a NEW bot process and collect its answers.

For every game, NEW plays each seat OLD held: it is sent exactly the lines OLD's seat was sent
(:func:`rookarena.wire.transcript.script`), and at each of OLD's decisions its answer is taken and kept
beside OLD's; the game goes on with OLD's action whatever NEW said.

NEW's processes live as OLD's did. One plays each of OLD's programs (a team's first seat, 0 or 1, and
its second, 2 or 3) through one of the referee's runs of games and is sent ``bye`` at its end: a
pairing, or the runs the bots' stderr logs name (:func:`run_starts`). A program whose process OLD lost
in a game (a crash) gets a fresh one for the next game, as the referee started OLD again.

A NEW process that faults (timeout, crash, a broken protocol) is stopped, its seat's remaining decisions
in that game are skipped, and a fresh one starts with the next game. An illegal answer is reported for
its decision only: the game follows OLD's choice anyway, so the bot plays on. The view of a decision
where NEW agreed with OLD is dropped once answered, so a long league fits in memory.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import trio

from rookarena.arena.bots import BotProcess
from rookarena.arena.specs import BotSpec, Fault, Limits, TimeControl
from rookarena.wire.messages import bye_message
from rookarena.wire.names import printable, safe_file_name
from rookarena.wire.transcript import Answer, Decision, News, died, script, seats_of, unit_of


@dataclasses.dataclass(frozen=True, slots=True)
class Diff:
    """NEW's answers at OLD's decisions, in the order they were asked."""

    new: str  # NEW's command, as given
    new_hello: str  # the name and version NEW announced ("" if it never did)
    old: str
    games: tuple[str, ...]  # the games replayed, in order
    answers: tuple[Answer, ...]
    restarts: int  # NEW processes started again after a fault


class Differ:
    """Runs NEW through OLD's games; one instance per diff."""

    def __init__(
        self, spec: BotSpec, old: str, time: TimeControl, limits: Limits, starts: Collection[str] = ()
    ) -> None:
        self.spec = spec
        self.old = old
        self.time = time
        self.limits = limits
        self.starts = frozenset(starts)  # games that began a run of the referee's (see :func:`run_starts`)
        self.procs: dict[int, BotProcess] = {}  # by program: 0 for a team's first seat, 1 for its second
        self.answers: list[Answer] = []
        self.hello = ""
        self.restarts = 0

    async def run(self, games: Sequence[tuple[str, Mapping[str, Any]]]) -> Diff:
        """Replay ``games`` (game id, record), grouped so that one pairing's games share processes."""
        async with trio.open_nursery() as nursery:
            try:
                unit: object = None
                lost: list[int] = []  # programs whose process OLD lost in the game before
                for gid, record in games:
                    key = unit_of(record)
                    if key != unit or gid in self.starts:
                        await self._stop_all()
                        unit = key
                    for program in lost:
                        proc = self.procs.pop(program, None)
                        if proc is not None:
                            await proc.stop()
                    await self._game(nursery, gid, record)
                    lost = [seat // 2 for seat in seats_of(record, self.old) if died(record, seat)]
            finally:
                with trio.CancelScope(shield=True):
                    await self._stop_all()
        return Diff(
            new=" ".join(self.spec.command),
            new_hello=self.hello,
            old=self.old,
            games=tuple(gid for gid, _ in games),
            answers=tuple(self.answers),
            restarts=self.restarts,
        )

    async def _game(self, nursery: trio.Nursery, gid: str, record: Mapping[str, Any]) -> None:
        seats = seats_of(record, self.old)
        down: dict[int, str] = {}  # seats whose process cannot be asked any more in this game, and why
        for seat in seats:
            problem = await self._ensure(nursery, seat // 2)
            if problem is not None:
                down[seat] = problem
        move, bank = self.time.move, {seat: self.time.bank for seat in seats}
        outbox: dict[int, list[bytes]] = {seat: [] for seat in seats}
        for step in script(record, seats, gid):
            if isinstance(step, News):
                outbox[step.seat].append(step.data)
                continue
            seat = step.seat
            if seat in down:
                self.answers.append(Answer(step, None, f"skipped: {down[seat]}"))
                continue
            before = b"".join(outbox[seat])
            outbox[seat].clear()
            problem = await self._ask(step, before, move, bank)
            if problem is not None:
                down[seat] = f"NEW faulted earlier in this game ({problem.split(':', 1)[0]})"
        for seat in seats:
            data = b"".join(outbox[seat])
            proc = self.procs.get(seat // 2)
            if data and seat not in down and proc is not None:
                fault = await proc.send_raw(data, move)
                if fault is not None:
                    await proc.stop()

    async def _ask(self, decision: Decision, before: bytes, move: float, bank: dict[int, float]) -> str | None:
        """Ask NEW one decision; record its answer; return the fault's text if it faulted."""
        seat = decision.seat
        proc = self.procs[seat // 2]
        with_view = proc.hello is None or proc.hello.view
        deadline_ms, bank_ms = TimeControl.told_ms(move), TimeControl.told_ms(bank[seat])

        def request(request_id: int) -> bytes:
            return decision.request(request_id, deadline_ms, bank_ms, with_view=with_view)

        reply, elapsed = await proc.ask(request, decision.request_id, move + bank[seat], before)
        if elapsed > move:
            bank[seat] = max(0.0, bank[seat] - (elapsed - move))
        if isinstance(reply, Fault):
            await proc.stop()
            text = _with_stderr(str(reply), proc)
            self.answers.append(Answer(decision, None, text))
            return text
        if reply.action not in decision.legal:
            shown = ", ".join(decision.legal[:8]) + (" ..." if len(decision.legal) > 8 else "")
            detail = f"illegal: {reply.action!r} is not one of the legal actions ({shown})"
            self.answers.append(Answer(decision, reply.action, detail, reply.comment))
            return None
        if reply.action == decision.old:  # the usual answer: its view is not shown, so it is not kept
            decision = dataclasses.replace(decision, view={})
        self.answers.append(Answer(decision, reply.action, comment=reply.comment))
        return None

    async def _ensure(self, nursery: trio.Nursery, program: int) -> str | None:
        """Start the program's process if it is not running; why it cannot play, or None."""
        proc = self.procs.get(program)
        if proc is not None and proc.alive:
            return None
        if proc is not None:
            await proc.stop()
            self.restarts += 1
        proc = BotProcess(self.spec, f"{self.spec.name}#{program}", None, self.limits)
        self.procs[program] = proc
        fault = await proc.start(nursery)
        if fault is not None:
            await proc.stop()
            return _with_stderr(f"{fault.kind}: at startup: {fault.detail}", proc)
        if proc.hello is not None and not self.hello:
            self.hello = printable(f"{proc.hello.name} {proc.hello.version}".strip())  # the bot's words
        return None

    async def _stop_all(self) -> None:
        async def stop(proc: BotProcess) -> None:
            if proc.alive:
                await proc.send(bye_message(), self.limits.grace)
            await proc.stop()

        async with trio.open_nursery() as stoppers:
            for proc in self.procs.values():
                stoppers.start_soon(stop, proc)
        self.procs.clear()


def _with_stderr(text: str, proc: BotProcess) -> str:
    lines = proc.stderr_tail.decode(errors="replace").strip().splitlines()
    return f"{text}; its stderr ended with {lines[-1][:200]!r}" if lines else text


_NUMBERED = re.compile(r"^(?P<match>.+)-(?P<number>\d{4,})$")


def run_starts(directories: Sequence[pathlib.Path], old: str, games: Sequence[str]) -> set[str]:
    """The games of ``games`` that began one of the referee's runs of OLD's processes: the referee names
    each process's stderr log ``OLD-MATCH-gFIRST-sSLOT.stderr.log``, FIRST the number of the run's first game."""
    names: set[str] = set()
    for directory in directories:
        for folder in (directory, directory / "logs"):
            if folder.is_dir():
                names.update(path.name for path in folder.glob("*.stderr.log"))
    out = set()
    for gid in games:
        found = _NUMBERED.match(gid)
        if found is None:
            continue
        number = int(found["number"])
        stems = (f"{old}-{found['match']}-g{number}-s{slot}" for slot in range(4))
        if any(safe_file_name(stem, ".stderr.log") in names for stem in stems):
            out.add(gid)
    return out
