"""Leagues: every pairing of a configuration's bots plays the same deals; games run in parallel.

The plan is a deterministic list of games from the configuration alone (pairings in order, each with
the match schedule of :mod:`rookarena.arena.match`), so a league can be resumed (finished game ids are
skipped), sharded (``--shard K/N`` takes every N-th game), and rerun with the same deals. Work is cut
into units, each a run of one pairing's games played by one set of bot processes; ``jobs`` units run
at once, and the processes a unit's successor needs play on into it. Where the records go, and how a
results directory is read back, is :mod:`rookarena.results.directory`.
"""

from __future__ import annotations

import collections
import dataclasses
import pathlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio

from rookarena.arena.match import BotPool, Match, MatchConfig, NextNeeds, Scheduled, open_pool, schedule
from rookarena.arena.specs import BotSpec, Entry, LeagueConfig


@dataclasses.dataclass(frozen=True, slots=True)
class PlannedGame:
    number: int  # position in the whole league, from 0
    entries: tuple[Entry, Entry]
    game: Scheduled

    @property
    def game_id(self) -> str:
        a, b = self.entries
        return f"{a.name}-vs-{b.name}-{self.game.index + 1:04d}"


def pairings(entries: Sequence[Entry], fmt: str) -> list[tuple[Entry, Entry]]:
    if fmt == "gauntlet":
        return [(entries[0], other) for other in entries[1:]]
    return [(a, b) for i, a in enumerate(entries) for b in entries[i + 1 :]]


def plan(config: LeagueConfig) -> list[PlannedGame]:
    """Every game of the league, in a fixed order."""
    games = list(schedule(config.games, config.seed, config.duplicate))
    out: list[PlannedGame] = []
    for pair in pairings(config.entries, config.format):
        for game in games:
            out.append(PlannedGame(len(out), pair, game))
    return out


def shard(games: Sequence[PlannedGame], k: int, n: int) -> list[PlannedGame]:
    """The K-th of N disjoint slices (K from 1); both games of a duplicate deal stay together."""
    return [g for g in games if (g.number // 2) % n == k - 1]


def units(games: Sequence[PlannedGame], jobs: int) -> list[list[PlannedGame]]:
    """Cut the games into runs of one pairing, at least ``jobs`` of them when there are enough games."""
    by_pair: dict[tuple[str, str], list[PlannedGame]] = {}
    for game in games:
        by_pair.setdefault((game.entries[0].name, game.entries[1].name), []).append(game)
    groups = list(by_pair.values())
    if not groups:
        return []
    pieces = max(1, -(-jobs // len(groups)))
    out: list[list[PlannedGame]] = []
    for group in groups:
        deals: list[list[PlannedGame]] = []
        for game in group:
            if deals and deals[-1][0].game.deal == game.game.deal:
                deals[-1].append(game)
            else:
                deals.append([game])
        size = max(1, -(-len(deals) // pieces))
        for start in range(0, len(deals), size):
            out.append([game for deal in deals[start : start + size] for game in deal])
    return out


async def run(
    config: LeagueConfig,
    games: Sequence[PlannedGame],
    jobs: int,
    log_dir: pathlib.Path | None,
    on_record: Callable[[dict[str, Any]], None],
) -> None:
    """Play ``games`` with ``jobs`` units at a time in this process, handing each record to ``on_record``.

    Each of the ``jobs`` slots plays its units one after another with a pool of bot processes of its own:
    at the end of a unit it takes its next unit, so the processes that unit needs play on.
    """
    work = Units(units(games, jobs))

    async def slot() -> None:
        async with open_pool() as pool:
            unit = await work.take()
            while unit is not None:
                ahead = Ahead(work.take)
                await play_unit(config, unit, log_dir, on_record, pool, ahead.needs)
                unit = await ahead.unit()

    async with trio.open_nursery() as nursery:
        for _ in range(min(jobs, len(work))):
            nursery.start_soon(slot)


class Units:
    """The units of work not yet handed out, in order, for the slots of a pool to take one at a time."""

    def __init__(self, work: Sequence[list[PlannedGame]]) -> None:
        self.left = collections.deque(work)

    def __len__(self) -> int:
        return len(self.left)

    async def take(self) -> list[PlannedGame] | None:
        """The next unit, or None when every unit has been handed out."""
        return self.left.popleft() if self.left else None


class Ahead:
    """The unit played after the current one, taken (by ``take``) once the current one asks what its
    successor needs, so that the bots both play with are kept running between them."""

    def __init__(self, take: Callable[[], Awaitable[list[PlannedGame] | None]]) -> None:
        self.take = take
        self.asked = False
        self.next: list[PlannedGame] | None = None

    async def needs(self) -> list[BotSpec]:
        if not self.asked:
            self.next = await self.take()
            self.asked = True
        return needs(self.next)

    async def unit(self) -> list[PlannedGame] | None:
        """The unit taken ahead, or (when none was asked for) the next one."""
        return self.next if self.asked else await self.take()


def needs(unit: Sequence[PlannedGame] | None) -> list[BotSpec]:
    """The bot programs a unit plays with: its entries' bots and partners (none for no unit)."""
    if not unit:
        return []
    a, b = unit[0].entries
    return [a.bot, a.partner, b.bot, b.partner]


async def play_unit(
    config: LeagueConfig,
    unit: Sequence[PlannedGame],
    log_dir: pathlib.Path | None,
    on_record: Callable[[dict[str, Any]], None],
    pool: BotPool | None = None,
    next_needs: NextNeeds | None = None,
) -> None:
    """One pairing's run of games, played by one set of bot processes (some perhaps kept in ``pool`` from
    the unit before; those the next unit needs, by ``next_needs``, are kept for it)."""
    a, b = unit[0].entries
    match = Match(
        MatchConfig(
            team_a=(a.bot, a.partner),
            team_b=(b.bot, b.partner),
            rules=config.rules,
            rules_name=config.rules_name,
            seed=config.seed,
            duplicate=config.duplicate,
            time=config.time,
            policy=config.faults,
            limits=config.limits,
            withdraw_after=config.withdraw_after,
            log_dir=log_dir,
            match_id=f"{a.name}-vs-{b.name}",
            names=(a.name, b.name),
            plan=tuple(game.game for game in unit),
            league=config.name,
        ),
        pool,
        next_needs,
    )
    await match.run(on_record)
