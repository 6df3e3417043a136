"""The arena's plain settings (a bot's program and limits, faults, the time control, a league): no process, no clock."""

from __future__ import annotations

import dataclasses
import enum
import math
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from rookarena.engine.rules import Rules
from rookarena.wire.conversation import FaultKind


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """What one bot process may use. ``None`` means no limit beyond the machine's."""

    max_line: int = 64 * 1024  # bytes in one line on stdout
    stderr_cap: int = 1024 * 1024  # bytes of stderr over the process's life
    startup: float = 10.0  # seconds to start and say hello
    grace: float = 1.0  # seconds between end of input, SIGTERM and SIGKILL
    memory_mb: int | None = None  # address space of each process, MiB
    cpu_seconds: int | None = None  # CPU time of each process over its life
    processes: int | None = None  # processes alive at once in the bot's session
    files: int | None = None  # open file descriptors of each process


@dataclasses.dataclass(frozen=True, slots=True)
class BotSpec:
    """How to start one bot program."""

    name: str
    command: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    limits: Limits | None = None  # this bot's own limits, instead of the league's
    reuse: bool = True  # whether a league may keep its process for the next unit it plays in
    per_game: bool = False  # a new process for every game, so that no process plays a deal twice


@dataclasses.dataclass(frozen=True, slots=True)
class Fault:
    """Why a bot can no longer be talked to, or why one request of it failed."""

    kind: FaultKind
    detail: str
    line: str = ""

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" + (f" (sent {self.line[:120]!r})" if self.line else "")


class FaultPolicy(enum.Enum):
    FORFEIT = "forfeit"
    SUBSTITUTE = "substitute"

    def __str__(self) -> str:
        return self.value


# The longest time a clock gives (seconds): a day. A bot is told its times in milliseconds (``deadline_ms``,
# ``bank_ms``), which then fit a 32-bit integer in any language.
MOST_SECONDS = 86_400.0
LEAST_SECONDS = 0.001  # the shortest move or startup time: a bot is told its times in whole milliseconds


def seconds_text(seconds: float) -> str:
    """Seconds as a person reads them: to the millisecond (or the first digit that is not 0, for less than a
    millisecond), never in exponent form: 1000.5, 0.195, 0.0004."""
    for places in (3, 6, 9):
        text = f"{seconds:.{places}f}".rstrip("0").rstrip(".")
        if text != "0" or seconds == 0:
            return text
    return repr(seconds)


@dataclasses.dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's clock: each decision is granted its move time and what is left of the seat's bank, and what
    a decision takes beyond its move time is charged to the bank. Times are seconds, measured by the caller."""

    move: float = 1.0  # seconds per decision
    bank: float = 0.0  # extra seconds per game a seat may spend beyond its per-decision time
    startup: float = 10.0  # seconds to start and say hello

    def __post_init__(self) -> None:
        for name in ("move", "bank", "startup"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MOST_SECONDS:
                raise ValueError(
                    f"time control: {name} must be a number of seconds from 0 to {MOST_SECONDS:g} (a day), "
                    f"got {value!r}"
                )

    @staticmethod
    def told_ms(seconds: float) -> int:
        """``seconds`` as the whole milliseconds a bot is told (``deadline_ms``, ``bank_ms``): rounded down,
        so that no bot is told more time than it has."""
        return math.floor(seconds * 1000 + 1e-6)  # (0.29 s is 289.99999999999997 ms as a float product)

    def timeout_text(self, bank_left: float) -> str:
        """What a timeout's grant was made of, when the bank gave part of it (else nothing)."""
        if bank_left <= 0:
            return ""
        return f" (its move time of {seconds_text(self.move)} s and the {seconds_text(bank_left)} s left of its bank)"

    def grant(self, bank_left: float) -> float:
        """The most a decision may take while the seat's bank holds ``bank_left`` seconds."""
        return self.move + bank_left

    def charge(self, bank_left: float, elapsed: float) -> float:
        """The seat's bank after a decision that took ``elapsed`` seconds (never below nothing)."""
        if elapsed > self.move:
            return max(0.0, bank_left - (elapsed - self.move))
        return bank_left


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """One league entry: the bot, and the program for its team's second seat (the same by default)."""

    name: str
    bot: BotSpec
    partner: BotSpec
    isolation: str = "none"  # how its processes are shut in: "none", or "bwrap" (rookarena.arena.isolation)


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueConfig:
    """Every setting of a league, as read from its configuration file."""

    name: str
    rules: Rules
    rules_name: str
    format: str
    games: int
    duplicate: bool
    seed: int
    jobs: int
    time: TimeControl
    faults: FaultPolicy
    withdraw_after: int
    limits: Limits
    entries: tuple[Entry, ...]
    source: str  # the file's text, copied into the results directory
    origin: str = ""  # the file it was read from
    pin_cpus: str = "auto"  # keep each worker and its bots on one CPU: "auto", "on" or "off"
    reuse: bool = True  # whether bot processes may be kept from one unit to the next (each bot can say no)
    seed_drawn: bool = False  # no `seed:` written: ``seed`` was drawn from the OS (a resume keeps the recorded one)
    isolation: str = "none"  # the league's default: "none", or "bwrap" (rookarena.arena.isolation)
    anchors: tuple[tuple[str, float], ...] = ()  # (entry, Elo): ratings held fixed, the others rated against them


def as_mapping(config: LeagueConfig) -> Mapping[str, Any]:
    """Every setting that can change a league's games: a results directory is only resumed under the same."""
    return {
        "name": config.name,
        "rules": config.rules.to_mapping(),
        "format": config.format,
        "games": config.games,
        "duplicate": config.duplicate,
        "seed": config.seed,
        "time": dataclasses.asdict(config.time),
        "faults": config.faults.value,
        "withdraw_after": config.withdraw_after,
        "limits": dataclasses.asdict(config.limits),
        "bots": [
            {
                "name": entry.name,
                "command": list(entry.bot.command),
                "partner": list(entry.partner.command),
                "cwd": entry.bot.cwd,
                "env": dict(entry.bot.env),
                "limits": None if entry.bot.limits is None else dataclasses.asdict(entry.bot.limits),
            }
            for entry in config.entries
        ],
    }


def command_of(value: str | Sequence[str]) -> tuple[str, ...]:
    """A command from a list of words, or one string split as a POSIX shell would."""
    words = shlex.split(value) if isinstance(value, str) else list(value)
    if not words:
        raise ValueError("empty command")
    return tuple(words)
