"""Matches: two teams of bot programs play a series of games, the bot processes reused across them.

A match keeps one process per seat-program for its whole length, starts them again after a crash,
and withdraws a team whose bots have faulted in ``withdraw_after`` games in a row (its remaining games
are forfeited without being played). With duplicate deals every deal is played twice, the teams
swapping seats, so luck of the cards cancels out.

Matches played one after another by the same referee process can share a :class:`BotPool`: at the end
of a match, the processes the next match needs (and that may be reused, see :func:`reusable`) are handed
to the pool instead of being stopped, and the next match takes them from it. The others are told 'bye'
and stopped before the last record is handed on, so that how they exit is part of that record.
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, overload

import trio

from rookarena.arena.bots import BotProcess
from rookarena.arena.referee import GameSetup, Referee, forfeit_record
from rookarena.arena.specs import BotSpec, Fault, FaultPolicy, Limits, TimeControl
from rookarena.engine.rules import Rules
from rookarena.engine.seeding import deal_seed
from rookarena.wire.messages import bye_message
from rookarena.wire.names import safe_file_name
from rookarena.wire.records import new_game


@dataclasses.dataclass(frozen=True, slots=True)
class Scheduled:
    """One game of a match: its number, its deal, and whether team A sits at seats 1 and 3."""

    index: int
    deal: int
    swapped: bool
    seed: int
    first_dealer: int


@dataclasses.dataclass(frozen=True, slots=True)
class MatchConfig:
    team_a: tuple[BotSpec, BotSpec]
    team_b: tuple[BotSpec, BotSpec]
    rules: Rules
    rules_name: str
    games: int = 2
    seed: int = 1
    duplicate: bool = True
    time: TimeControl = dataclasses.field(default_factory=TimeControl)
    policy: FaultPolicy = FaultPolicy.FORFEIT
    limits: Limits = dataclasses.field(default_factory=Limits)
    withdraw_after: int = 3
    log_dir: pathlib.Path | None = None
    match_id: str = "match"
    names: tuple[str, str] = ("A", "B")  # the entries' names, written as each record's "teams"
    plan: tuple[Scheduled, ...] | None = None  # the games to play (default: ``schedule(games, seed, duplicate)``)
    league: str | None = None


class Schedule(Sequence[Scheduled]):
    """The games of a match, each made when it is asked for: a match of any length (``--games`` as the cap
    of a sequential test) takes no memory for the games it has not played. A game's deal depends only on
    the seed and its deal number."""

    def __init__(self, games: int, seed: int, duplicate: bool) -> None:
        self.games, self.seed, self.duplicate = games, seed, duplicate

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> Scheduled: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Scheduled]: ...
    def __getitem__(self, index: int | slice) -> Scheduled | Sequence[Scheduled]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.games))]
        if index < 0:
            index += self.games
        if not 0 <= index < self.games:
            raise IndexError(index)
        deal = index // 2 if self.duplicate else index
        return Scheduled(
            index=index,
            deal=deal,
            swapped=self.duplicate and index % 2 == 1,
            seed=deal_seed(self.seed, deal),
            first_dealer=deal % 4,
        )


def schedule(games: int, seed: int, duplicate: bool) -> Schedule:
    """The games of a match (:class:`Schedule`)."""
    return Schedule(games, seed, duplicate)


def reusable(spec: BotSpec) -> bool:
    """Whether a process of ``spec`` may play on in the next match: not when it asked for fresh processes,
    nor when it has a CPU-time limit (that limit is a match's: it would otherwise span several)."""
    return spec.reuse and not spec.per_game and (spec.limits is None or spec.limits.cpu_seconds is None)


def _key(spec: BotSpec) -> tuple[Any, ...]:
    return (spec.name, spec.command, spec.cwd, tuple(sorted(spec.env.items())), spec.limits)


class BotPool:
    """Bot processes kept running between the matches of one referee process, by the program they run.

    Open it with :func:`open_pool`; processes started for a match that uses the pool live in the pool's
    nursery, so that they can outlive the match.
    """

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery
        self.idle: dict[tuple[Any, ...], list[BotProcess]] = {}

    def take(self, spec: BotSpec) -> BotProcess | None:
        """A running process of ``spec`` left by an earlier match, if there is one."""
        procs = self.idle.get(_key(spec))
        while procs:
            proc = procs.pop()
            if proc.alive:
                return proc
        return None

    def put(self, proc: BotProcess) -> None:
        self.idle.setdefault(_key(proc.spec), []).append(proc)

    async def stop_idle(self) -> None:
        """Say 'bye' to every process left in the pool and stop them (a match ended without taking them)."""
        procs = [proc for group in self.idle.values() for proc in group]
        self.idle.clear()
        if procs:
            await _stop_all(procs, 0.0)


@asynccontextmanager
async def open_pool() -> AsyncIterator[BotPool]:
    """A :class:`BotPool` whose processes are all stopped when the block ends, however it ends."""
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery)
        try:
            yield pool
        finally:
            with trio.CancelScope(shield=True):
                await pool.stop_idle()


# What the next match will need, asked at the end of a match: the programs of its four slots, or none.
NextNeeds = Callable[[], Awaitable[Sequence[BotSpec]]]


class Match:
    def __init__(self, config: MatchConfig, pool: BotPool | None = None, next_needs: NextNeeds | None = None) -> None:
        self.config = config
        self.pool = pool
        self.next_needs = next_needs
        # Slots 0, 1: team A's two programs; 2, 3: team B's.
        self.specs = [*config.team_a, *config.team_b]
        self.procs: list[BotProcess | None] = [None] * 4
        self.restarts = [0] * 4
        self.fault_streak = [0, 0]
        self.withdrawn: list[str | None] = [None, None]
        self.stopped = False

    def stop(self) -> None:
        """Play no further game (the one in progress, if any, is finished and recorded)."""
        self.stopped = True

    async def run(self, on_record: Callable[[dict[str, Any]], None]) -> None:
        """Play every game, handing each record to ``on_record`` as soon as the game ends."""
        async with trio.open_nursery() as own:
            nursery = own if self.pool is None else self.pool.nursery
            try:
                config = self.config
                plan = config.plan if config.plan is not None else schedule(config.games, config.seed, config.duplicate)
                for number, game in enumerate(plan):
                    if self.stopped:
                        break
                    record = await self._play(nursery, game)
                    if number < len(plan) - 1 and not self.stopped:
                        on_record(self._finish(game, record))
                        continue
                    # The bots' last game: hand on those the next match needs, and stop the others first,
                    # so that how they exit is part of its record. A game played out is recorded even when
                    # the run is cancelled while the next match's needs are asked for.
                    try:
                        if not self.stopped:
                            await self._hand_over(game, record)
                    finally:
                        with trio.CancelScope(shield=True):
                            await self._stop_all()
                        record["faults"].extend(self._exit_faults(game, record))
                        on_record(self._finish(game, record))
            finally:
                with trio.CancelScope(shield=True):
                    await self._stop_all()

    def _finish(self, game: Scheduled, record: dict[str, Any]) -> dict[str, Any]:
        """The record with the entries at each team and where the game stands in the league."""
        config = self.config
        record["teams"] = [config.names[1], config.names[0]] if game.swapped else list(config.names)
        record["league"] = {
            "name": config.league or config.match_id,
            "pairing": sorted(config.names),
            "deal": game.deal,
            "swapped": game.swapped,
            "index": game.index,
        }
        return record

    async def _play(self, nursery: trio.Nursery, game: Scheduled) -> dict[str, Any]:
        config = self.config
        slots = self._slots(game)
        setup = GameSetup(
            game_id=f"{config.match_id}-{game.index + 1:04d}",
            rules=config.rules,
            rules_name=config.rules_name,
            seed=game.seed,
            first_dealer=game.first_dealer,
        )
        names = [self.specs[slot].name for slot in slots]
        for team in (0, 1):
            reason = self.withdrawn[team]
            if reason is not None:
                seat = slots.index(2 * team)
                fault = {"seat": seat, "bot": names[seat], "kind": "withdrawn", "detail": reason, "line": "", "hand": 0}
                return forfeit_record(
                    new_game(config.rules, game.seed, game.first_dealer), setup, names, seat % 2, fault
                )
        await self._ensure_started(nursery, slots)
        bots = [self.procs[slot] for slot in slots]
        assert all(bot is not None for bot in bots)
        for bot in bots:
            if bot is not None:
                await bot.settle()  # one ended since its last game by a stop from outside: the job's stop
        referee = Referee([bot for bot in bots if bot is not None], setup, config.time, config.policy)
        record = await referee.play()
        self._update_streaks(record, slots)
        # A bot that plays each game in a new process never meets a deal it has seen (the duplicate twin,
        # another pairing): its processes are stopped here, and how they exit is part of this record.
        once = [slot for slot in slots if self.specs[slot].per_game and self.procs[slot] is not None]
        if once:
            with trio.CancelScope(shield=True):
                await _stop_all([proc for slot in once if (proc := self.procs[slot]) is not None], config.limits.grace)
            record["faults"].extend(self._exit_faults(game, record))
            for slot in once:
                self.procs[slot] = None
        return record

    async def _ensure_started(self, nursery: trio.Nursery, slots: list[int]) -> None:
        """Start every bot that is not running (first game, or after a crash), concurrently."""

        async def start(slot: int) -> None:
            old = self.procs[slot]
            if old is not None:
                await old.stop()
                self.restarts[slot] += 1
            spec = self.specs[slot]
            label = f"{spec.name}#{slot}"
            if old is None and self.pool is not None and reusable(spec):
                kept = self.pool.take(spec)
                if kept is not None:
                    kept.label = label
                    self.procs[slot] = kept
                    return
            log_path = None
            if self.config.log_dir is not None:
                first = self.config.plan[0].index + 1 if self.config.plan else 1
                stem = f"{spec.name}-{self.config.match_id}-g{first}-s{slot}"
                log_path = str(self.config.log_dir / safe_file_name(stem, ".stderr.log"))
            proc = BotProcess(spec, label, log_path, self.config.limits)
            self.procs[slot] = proc
            fault = await proc.start(nursery)
            if fault is not None and proc.fault is None:
                proc.fault = Fault(fault.kind, f"at startup: {fault.detail}", fault.line)

        async with trio.open_nursery() as starters:
            for slot in slots:
                proc = self.procs[slot]
                if proc is None or not proc.alive:
                    starters.start_soon(start, slot)

    async def _hand_over(self, game: Scheduled, record: dict[str, Any]) -> None:
        """Give the pool the processes the next match needs, if they may be reused and did not fault in the
        last game (the others are stopped by the caller)."""
        if self.pool is None or self.next_needs is None:
            return
        with trio.CancelScope(shield=True):
            await self.pool.stop_idle()  # left by an earlier match and not taken by this one: nobody needs them
        wanted: dict[tuple[Any, ...], int] = {}
        for spec in await self.next_needs():
            if reusable(spec):
                wanted[_key(spec)] = wanted.get(_key(spec), 0) + 1
        slots = self._slots(game)
        faulty = {slots[fault["seat"]] for fault in record.get("faults", []) if isinstance(fault.get("seat"), int)}
        for slot, proc in enumerate(self.procs):
            if proc is None or not proc.alive or slot in faulty or not reusable(proc.spec):
                continue
            if wanted.get(_key(proc.spec), 0) > 0:
                wanted[_key(proc.spec)] -= 1
                self.pool.put(proc)
                self.procs[slot] = None

    def _update_streaks(self, record: dict[str, Any], slots: list[int]) -> None:
        faulty = {slots[fault["seat"]] // 2 for fault in record.get("faults", [])}
        for team in (0, 1):
            self.fault_streak[team] = self.fault_streak[team] + 1 if team in faulty else 0
            if self.fault_streak[team] >= self.config.withdraw_after and self.withdrawn[team] is None:
                self.withdrawn[team] = f"faulted in {self.fault_streak[team]} games in a row"

    def _exit_faults(self, game: Scheduled, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Faults of bots that did not exit on 'bye' and end of input, or left processes behind.

        They are counted against the bot but do not change the result of a game already played out. Only a
        process told 'bye' is judged so: one stopped for a fault that ended its conversation (a crash, a line
        that is not JSON, a limit) is ended by the referee, and that fault is already charged.
        """
        faults = []
        # The last hand the game reached: its recorded hands, or the one a forfeit ended (not yet recorded).
        ended_in = [f["hand"] for f in record.get("faults", []) if isinstance(f.get("hand"), int)]
        hand = max([len(record["hands"]), *ended_in])
        for seat, slot in enumerate(self._slots(game)):
            proc = self.procs[slot]
            if proc is None or proc.ended_by is None or not proc.told_bye:
                continue
            detail = None
            if proc.ended_by != "exit":
                detail = (
                    f"did not exit within {proc.limits.grace:g} s of 'bye' and end of input: stopped by {proc.ended_by}"
                )
            elif proc.left_behind:
                detail = f"exited leaving {proc.left_behind} process(es) of its own running (killed)"
            if detail is not None:
                name = proc.spec.name
                faults.append(
                    {"seat": seat, "bot": name, "kind": "protocol", "detail": detail, "line": "", "hand": hand}
                )
        return faults

    @staticmethod
    def _slots(game: Scheduled) -> list[int]:
        """Which program (0, 1: team A's; 2, 3: team B's) sits at seats 0..3."""
        return [2, 0, 3, 1] if game.swapped else [0, 2, 1, 3]

    async def _stop_all(self) -> None:
        await _stop_all([proc for proc in self.procs if proc is not None], self.config.limits.grace)


async def _stop_all(procs: Sequence[BotProcess], grace: float) -> None:
    """Say 'bye' to each of ``procs`` (waiting up to ``grace``, or each one's own grace when 0) and stop them."""

    async def stop(proc: BotProcess) -> None:
        if proc.alive:
            proc.told_bye = True
            await proc.send(bye_message(), grace or proc.limits.grace)
        await proc.stop()

    async with trio.open_nursery() as stoppers:
        for proc in procs:
            stoppers.start_soon(stop, proc)
