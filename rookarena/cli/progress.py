"""What ``rookarena run`` shows while it runs: the progress line, each fault, the fault summary, the plan."""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import sys
import termios
import threading
import time
import tty
from collections.abc import Iterable, Iterator
from typing import Any

import click

from rookarena.arena import league
from rookarena.errors import RookError
from rookarena.results import directory, standings, store, tables
from rookarena.wire.position import fault_line


class Progress:
    """Games done of total, elapsed time, rate, ETA and faults on one line of stderr, fitted to the terminal's
    width (a line per 10% when not a terminal); each fault on a line of its own as it happens, and a summary
    of them per bot at the end. With ``standings_every`` (seconds), or when the ``s`` key is pressed
    (:class:`Keys`), the standings so far in short between games, from the results kept as the games end
    (no file is read again)."""

    def __init__(
        self,
        total: int,
        done: int,
        earlier: Iterable[dict[str, Any]] | None = None,
        standings_every: float | None = None,
    ) -> None:
        self.total, self.done, self.start_done = total, done, done
        self.faults = 0
        self.by_bot: dict[str, dict[str, tuple[int, str]]] = {}  # bot → kind → (count, first message)
        self.every = standings_every
        self.asked = False  # a key asked for the standings: they are shown when the next game ends
        self.keys: Keys | None = None
        self.results = store.ResultStore()
        for record in earlier or []:
            self.faults += len(self._count(record))
            self._keep(record)
        self.started = time.monotonic()
        self.last_standings = self.started
        self.tty = sys.stderr.isatty()
        self.last_decile = -1
        self.lost = False  # stderr could not take a line (a closed pipe, a lost terminal): show nothing more

    def _say(self, text: str, nl: bool = True) -> None:
        """Show ``text`` on stderr; the run goes on without its display when stderr cannot take it."""
        if self.lost:
            return
        try:
            click.echo(text, nl=nl, err=True)
        except (OSError, ValueError):
            self.lost = True

    def _keep(self, record: dict[str, Any]) -> None:
        self.results.append(store.game_result(record, keep=False))  # about 70 bytes a game

    def _count(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        faults: list[dict[str, Any]] = record.get("faults", [])
        for fault in faults:
            kinds = self.by_bot.setdefault(str(fault.get("bot")), {})
            count, first = kinds.get(str(fault.get("kind")), (0, ""))
            kinds[str(fault.get("kind"))] = (count + 1, first or f"{record.get('game_id')}: {fault.get('detail')}")
        return faults

    def update(self, record: dict[str, Any]) -> None:
        self.done += 1
        faults = self._count(record)
        self.faults += len(faults)
        self._keep(record)
        for fault in faults:
            line = fault_line(record, fault)
            self._say(("\r\x1b[K" if self.tty else "") + line)
        if faults and self.tty:
            self.last_decile = -1
        now = time.monotonic()
        due = self.every is not None and now - self.last_standings >= self.every
        if (due or self.asked) and self.done < self.total:
            self.asked = False
            self._say(("\r\x1b[K" if self.tty else "") + self.standings_text())
            self.last_decile = -1
            # The next print at least ``every`` seconds after this one ended, and (unless every game's was
            # asked for, with 0) never before four times what it took: the standings are of every game so
            # far, so printing them takes no more than a fifth of the run's time however many games there
            # are, rather than most of it once they are many.
            ended = time.monotonic()
            self.last_standings = ended + (max(0.0, 4 * (ended - now) - self.every) if self.every else 0.0)
        self.show()

    def standings_text(self) -> str:
        """The standings of the games so far, in short and fitted to the terminal."""
        if not self.results:
            return f"standings after 0 of {self.total} games: none yet"
        rows = standings.standings(self.results)
        table = tables.standings_table(rows, "simple", width=_columns())
        return f"standings after {len(self.results)} of {self.total} games:\n{table}"

    def text(self, width: int | None = None) -> str:
        """The progress line, at most ``width - 1`` characters (a terminal wraps a line that fills it): the
        bar narrows, then the rate, the elapsed time and the ETA are left out, in that order."""
        elapsed = time.monotonic() - self.started
        new = self.done - self.start_done
        rate = new / elapsed if elapsed > 0 else 0.0
        games = f"{self.done}/{self.total} games"
        faults = f"faults {self.faults}"
        optional = {
            "eta": f"ETA {_clock((self.total - self.done) / rate)}" if new and rate > 0 else "",
            "elapsed": f"{_clock(elapsed)} elapsed",
            "rate": f"{rate:.2f}/s",
        }
        order = ["elapsed", "rate", "eta"]

        def line(parts: list[str], bar: int) -> str:
            body = ", ".join([games, *(optional[p] for p in parts if optional[p]), faults])
            if bar <= 0:
                return body
            filled = int(bar * self.done / self.total) if self.total else bar
            return f"[{'#' * filled}{'.' * (bar - filled)}] {body}"

        if width is None:
            return line(order, 24)
        limit = width - 1
        for parts in (order, ["elapsed", "eta"], ["eta"], []):
            body = len(line(parts, 0))
            bar = min(24, limit - body - 3)
            if bar >= 8:
                return line(parts, bar)
        for parts in (["eta"], []):
            if len(line(parts, 0)) <= limit:
                return line(parts, 0)
        return line([], 0)[:limit]

    def show(self) -> None:
        if self.tty:
            self._say("\r\x1b[K" + self.text(_columns()), nl=False)
            return
        decile = 10 * self.done // self.total if self.total else 10
        if decile != self.last_decile:
            self.last_decile = decile
            self._say(self.text())

    def finish(self) -> None:
        if self.tty:
            self._say("")

    def summary(self, logs: pathlib.Path) -> str:
        """Per bot, each kind of fault with its count and first message; where the bots' stderr logs are."""
        if not self.by_bot:
            return ""
        lines = ["faults:"]
        for bot in sorted(self.by_bot):
            for kind, (count, first) in sorted(self.by_bot[bot].items()):
                lines.append(f"  {bot}: {count} {kind}, first {first}")
        lines.append(f"  the bots' stderr logs are in {logs}")
        return "\n".join(lines)


class Keys:
    """Key presses on the terminal of stdin, read by a thread of their own: ``s`` asks ``progress`` for the
    standings so far (shown as the next game ends). The terminal is set to pass keys on at once
    (cbreak: Ctrl-C still stops the run) and put back as it was by :meth:`close`."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.fd = sys.stdin.fileno()
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self.thread = threading.Thread(target=self._read, name="rookarena-keys", daemon=True)
        self.thread.start()

    @classmethod
    def watch(cls, progress: Progress) -> Keys | None:
        """Keys of the terminal when stdin and stderr are one, else None (nothing to read keys from)."""
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            return None
        try:
            return cls(progress)
        except (OSError, termios.error):
            return None

    def _read(self) -> None:
        while True:
            try:
                key = os.read(self.fd, 1)
            except OSError:
                return
            if not key:
                return
            if key in (b"s", b"S"):
                self.progress.asked = True

    def close(self) -> None:
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


def _columns() -> int:
    """The terminal's width now (it may have been resized), 80 when it cannot be told."""
    return shutil.get_terminal_size((80, 24)).columns


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return (
        f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
        if whole >= 3600
        else f"{whole // 60}:{whole % 60:02d}"
    )


def plan_text(
    config: Any,
    games: list[league.PlannedGame],
    todo: list[league.PlannedGame],
    jobs: int,
    out_dir: pathlib.Path,
    shard: tuple[str, int] | None = None,
) -> str:
    """What ``run`` would do: the pairings, the units of work, the games and their deals; with ``shard`` (its
    label and the league's number of games), of that shard's slice of the league."""
    pairs: dict[tuple[str, str], int] = {}
    for game in todo:
        key = (game.entries[0].name, game.entries[1].name)
        pairs[key] = pairs.get(key, 0) + 1
    work = league.units(todo, jobs)
    deals = len({game.game.seed for game in games})
    lines = [
        f"league {config.name}: {config.format}, {len(config.entries)} bots, rules {config.rules_name}, seed "
        f"{config.seed}, {'duplicate deals' if config.duplicate else 'one game a deal'}",
        *([f"shard {shard[0]}: {len(games)} of the league's {shard[1]} games"] if shard else []),
        f"games: {len(games)} ({len(games) - len(todo)} already in {out_dir}, {len(todo)} to play), "
        f"{deals} distinct deals, {config.games} games a pairing{' in the whole league' if shard else ''}",
        f"work: {len(work)} units on {min(jobs, len(work)) if work else 0} jobs "
        f"({'in this process' if min(jobs, len(work)) <= 1 else 'worker processes'}), "
        f"{'bot processes kept from unit to unit' if config.reuse else 'new bot processes for each unit'}, "
        f"move time {config.time.move:g} s",
        "estimated time: none before the first games end (the progress line then gives an ETA)",
        f"pairings to play in shard {shard[0]}:" if shard else "pairings to play:",
    ]
    lines += [f"  {a} vs {b}: {count} games" for (a, b), count in pairs.items()] or ["  none"]
    return "\n".join(lines)


def last_log_line(logs: pathlib.Path, name: str) -> str:
    """The last line of the newest stderr log of bot ``name`` in ``logs``, or ""."""
    patterns = [f"{name}-{name}-vs-*-g*.stderr.log", f"{name}-*-vs-{name}-g*.stderr.log"]  # see Match's log names
    found = {path for pattern in patterns for path in logs.glob(pattern)} if logs.is_dir() else set()
    for path in sorted(found, key=lambda path: path.stat().st_mtime, reverse=True):
        with path.open("rb") as stream:  # its end only: a log may be as large as its bot made it
            stream.seek(max(0, path.stat().st_size - 4096))
            lines = stream.read(4096).decode(errors="replace").strip().splitlines()
        if lines:
            return lines[-1][:200]
    return ""


def finished_records(out_dir: pathlib.Path) -> Iterator[dict[str, Any]]:
    """The finished games' records, one at a time (for the faults counted so far)."""
    try:
        yield from directory.each_record(out_dir / directory.GAMES_FILE)
    except RookError:
        return
