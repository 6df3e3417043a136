"""Matches: two teams of bot programs play a series of games, the bot processes reused across them.

A match keeps one process per seat-program for its whole length, starts them again after a crash,
and withdraws a team whose bots have faulted in ``withdraw_after`` games in a row (its remaining games
are forfeited without being played). With duplicate deals every deal is played twice, the teams
swapping seats, so luck of the cards cancels out.
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Callable
from typing import Any

import trio

from rookarena.bots import BotProcess, BotSpec, Fault, Limits
from rookarena.names import safe_file_name
from rookarena.protocol import bye_message
from rookarena.records import derive_seed, new_game
from rookarena.referee import FaultPolicy, GameSetup, Referee, TimeControl, forfeit_record
from rookarena.rules import Rules


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


def schedule(games: int, seed: int, duplicate: bool) -> list[Scheduled]:
    """The games of a match; a game's deal depends only on the seed and its deal number."""
    out = []
    for index in range(games):
        deal = index // 2 if duplicate else index
        out.append(
            Scheduled(
                index=index,
                deal=deal,
                swapped=duplicate and index % 2 == 1,
                seed=derive_seed(seed, "deal", deal),
                first_dealer=deal % 4,
            )
        )
    return out


class Match:
    def __init__(self, config: MatchConfig) -> None:
        self.config = config
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
        async with trio.open_nursery() as nursery:
            try:
                config = self.config
                plan = config.plan if config.plan is not None else schedule(config.games, config.seed, config.duplicate)
                for number, game in enumerate(plan):
                    if self.stopped:
                        break
                    record = await self._play(nursery, game)
                    if number == len(plan) - 1 or self.stopped:
                        # The bots' last game: stop them first, so that how they exit is part of its record.
                        with trio.CancelScope(shield=True):
                            await self._stop_all()
                        record["faults"].extend(self._exit_faults(game, record))
                    teams = [config.names[1], config.names[0]] if game.swapped else list(config.names)
                    record["teams"] = teams
                    record["league"] = {
                        "name": config.league or config.match_id,
                        "pairing": sorted(config.names),
                        "deal": game.deal,
                        "swapped": game.swapped,
                        "index": game.index,
                    }
                    on_record(record)
            finally:
                with trio.CancelScope(shield=True):
                    await self._stop_all()

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
        referee = Referee([bot for bot in bots if bot is not None], setup, config.time, config.policy)
        record = await referee.play()
        self._update_streaks(record, slots)
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

    def _update_streaks(self, record: dict[str, Any], slots: list[int]) -> None:
        faulty = {slots[fault["seat"]] // 2 for fault in record.get("faults", [])}
        for team in (0, 1):
            self.fault_streak[team] = self.fault_streak[team] + 1 if team in faulty else 0
            if self.fault_streak[team] >= self.config.withdraw_after and self.withdrawn[team] is None:
                self.withdrawn[team] = f"faulted in {self.fault_streak[team]} games in a row"

    def _exit_faults(self, game: Scheduled, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Faults of bots that did not exit on 'bye' and end of input, or left processes behind.

        They are counted against the bot but do not change the result of a game already played out.
        """
        faults = []
        hand = len(record["hands"])
        for seat, slot in enumerate(self._slots(game)):
            proc = self.procs[slot]
            if proc is None or proc.ended_by is None:
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
        async def stop(proc: BotProcess) -> None:
            if proc.alive:
                await proc.send(bye_message(), self.config.limits.grace)
            await proc.stop()

        async with trio.open_nursery() as stoppers:
            for proc in self.procs:
                if proc is not None:
                    stoppers.start_soon(stop, proc)
