"""Shared by the commands: the group, the options' checks, the rules loader, bot specs and names, logging."""

from __future__ import annotations

import dataclasses
import functools
import os
import pathlib
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from rookarena.arena.programs import command_problem
from rookarena.arena.specs import MOST_SECONDS
from rookarena.cli.group import FiniteFloat as FiniteFloat  # noqa: PLC0414 (the commands' name for it)
from rookarena.cli.group import main as main  # noqa: PLC0414
from rookarena.engine.presets import PRESETS, resolve
from rookarena.engine.rules import Rules
from rookarena.errors import RookError
from rookarena.results import summary, tables
from rookarena.results.store import GameResult, Record
from rookarena.wire.names import MAX_NAME, name_from_hello, name_key, name_problem

if TYPE_CHECKING:
    from rookarena.arena.match import Match
    from rookarena.arena.specs import BotSpec


# The commands that run bots import trio, the referee and the league runner when they run, so that the
# views of the results (show, report, standings) and --help start without them.
FAULT_POLICIES = ("forfeit", "substitute")  # rookarena.arena.referee.FaultPolicy's values (a test keeps them equal)


ISOLATIONS = ("none", "bwrap")  # rookarena.arena.isolation.CHOICES (a test keeps them equal)


def reads_records(command: Callable[..., None]) -> Callable[..., None]:
    """For a command that reads results directories: a record of another shape than a league writes (a file
    edited by hand or damaged on disk) deep in a field the reading checks do not cover is one plain line
    too, naming the directory."""

    @functools.wraps(command)
    def reading(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except RookError:
            raise  # worded already: the group prints it as it is
        except UnicodeEncodeError as exc:  # writing, not reading: no record is to blame
            raise click.ClickException(f"a text could not be written in the encoding {exc.encoding}: {exc}") from None
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            where = kwargs.get("directory") or ", ".join(kwargs.get("directories") or ())
            raise click.ClickException(
                f"{where}: a record there is not as a league writes it ({type(exc).__name__}: {exc}): "
                "was games.jsonl edited or damaged?"
            ) from None

    return reading


def _time_option(flag: str, least: float, default: float | None, help_text: str) -> Callable[[Any], Any]:
    seconds = FiniteFloat(min=least, max=MOST_SECONDS)  # at most a day: a bot reads it as 32-bit milliseconds
    if default is None:
        return click.option(flag, type=seconds, help=help_text)
    return click.option(flag, type=seconds, default=default, show_default=True, help=help_text)


def move_time_option(default: float | None, help_text: str = "Seconds per decision.") -> Callable[[Any], Any]:
    """``--move-time``: the seconds a bot has for each decision."""
    return _time_option("--move-time", 0.001, default, help_text)


def bank_option(default: float | None, help_text: str = "Extra seconds per game and seat.") -> Callable[[Any], Any]:
    """``--bank``: the seconds of time bank a seat has over a game."""
    return _time_option("--bank", 0, default, help_text)


def startup_option(
    default: float | None, help_text: str = "Seconds to start and say hello.", least: float = 0.001
) -> Callable[[Any], Any]:
    """``--startup``: the seconds a bot has to start and say hello."""
    return _time_option("--startup", least, default, help_text)


WIDE_HELP = (
    "Every column of the standings (the CSV and JSON files always have them all). The default table "
    "shows: # rank; bot; games; score % (a draw counts half); Elo: Bradley–Terry rating relative to "
    "the table's mean, ± its 95% half-width; dup diff: the mean point difference per deal pair (own "
    "minus opponent's final score, both games summed) ± its 95% t half-width; faults (when any): "
    "the most frequent kind and its count, +N for other kinds. --wide adds wins, losses, draws, "
    "the score's 95% Wilson interval, points "
    "for and against per game, bids won, made %, sets, average bid and the faults by kind. With "
    "duplicate deals every ± counts deal pairs as the units; the line under the table says so."
)


def load_rules(spec: str) -> tuple[str, Rules]:
    """A preset name, or a YAML file holding ``preset:`` and knob overrides."""
    path = pathlib.Path(spec)
    if spec in PRESETS or not (path.suffix in (".yaml", ".yml", ".json") or path.exists()):
        try:
            return resolve(spec)
        except RookError as exc:
            raise click.BadParameter(f"{exc}, or a YAML rules file", param_hint="--rules") from None
    from rookarena.arena.config import ConfigError, rules_from_text  # noqa: PLC0415 (only for a rules file)
    from rookarena.arena.userfiles import read_text  # noqa: PLC0415

    try:
        text = read_text(path, "rules file")
    except RookError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    try:
        # Read as strictly as a league's rules: a knob given twice, a tag or a NUL is refused, with its line.
        return rules_from_text(text, spec)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


def _table_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A tabulate table format, or a usage error naming the choices (the default needs no check, and no
    import of tabulate before the games)."""
    if value == "simple":
        return value
    import tabulate  # noqa: PLC0415 - imported only when a format must be checked

    if value not in tabulate.tabulate_formats:
        raise click.BadParameter(f"{value!r}: expected one of {', '.join(sorted(tabulate.tabulate_formats))}")
    return value


def _table_or_json(ctx: click.Context, param: click.Parameter, value: str) -> str:
    return value if value == "json" else _table_format(ctx, param, value)


def _name_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A bot's name given on the command line: it becomes part of game ids and file names."""
    problem = None if value is None else name_problem(value)
    if value is not None and problem is not None:
        given = repr(value) if len(value) <= MAX_NAME + 20 else f"{value[:MAX_NAME]!r}... ({len(value)} characters)"
        raise click.BadParameter(f"{given} cannot be a name: {problem}")
    return value


def _columns() -> int:
    """The terminal's width (80 when it cannot be told), for fitting the standings."""
    return shutil.get_terminal_size((80, 24)).columns


def screen_width(fmt: str) -> int | None:
    """The width to fit a table to: the terminal's, for the on-screen table (:data:`tables.SCREEN_FORMAT`)
    when standard output is a terminal or ``COLUMNS`` is set; else None, every name whole (piped, saved,
    or in any other format)."""
    if fmt != tables.SCREEN_FORMAT or not (sys.stdout.isatty() or os.environ.get("COLUMNS")):
        return None
    return _columns()


def render_standings(
    played: Sequence[Record | GameResult], fmt: str, wide: bool = False, anchors: dict[str, float] | None = None
) -> str:
    """The standings (compact and fitted to the screen unless ``wide``: :func:`screen_width`) and the crosstable."""
    return summary.standings_text(played, fmt, wide=wide, width=screen_width(fmt), anchors=anchors)


def write_standings(out_dir: pathlib.Path, played: Sequence[Record | GameResult], fmt: str, wide: bool = False) -> str:
    """Write the standings (text, CSV, JSON) and the crosstable next to the records; return the text shown."""
    return summary.write(out_dir, played, fmt, wide=wide, width=screen_width(fmt))


def _spec(command: str, name: str | None, fallback: str, what: str) -> BotSpec:
    """The bot ``command`` runs (``what``: the argument or option it came from, for its errors)."""
    from rookarena.arena.specs import BotSpec, command_of  # noqa: PLC0415

    try:
        words = command_of(command)
    except ValueError as exc:
        raise click.BadParameter(f"{command!r}: {exc}", param_hint=what) from None
    if "\0" in command:  # no program can be given it: the OS refuses the whole command
        raise click.BadParameter(f"{command!r}: a command cannot hold a NUL character (\\0)", param_hint=what)
    if shutil.which(words[0]) is None and not pathlib.Path(words[0]).exists():
        raise click.BadParameter(f"{command!r}: no program {words[0]!r} found", param_hint=what)
    problem = command_problem(words, None)
    if problem is not None:  # as a league's configuration says it, before anything starts
        raise click.BadParameter(f"{command!r}: {problem}", param_hint=what)
    return BotSpec(name=name or _bot_name(words) or fallback, command=words)


def _hello_names(
    specs: list[tuple[BotSpec | None, bool]], startup: float, started: Sequence[BotSpec | None] | None = None
) -> list[BotSpec | None]:
    """Each spec named by its bot's hello, unless the name was given (PROTOCOL.md §5: the config's or the
    command line's name, else the hello's); name clashes get a suffix. The bots are started once, side by
    side, for their hello (as ``started`` gives them, where given: in their sandboxes); one that does not
    complete the handshake stops the command with one line."""
    import trio  # noqa: PLC0415

    from rookarena.arena import handshake  # noqa: PLC0415 - not imported for run, which needs none of it

    from .stopping import run_until_stopped  # noqa: PLC0415

    probes: dict[int, handshake.Probe] = {}

    async def ask(index: int, spec: BotSpec) -> None:
        probes[index] = await handshake.probe(spec, startup)

    async def ask_all() -> None:
        async with trio.open_nursery() as nursery:
            for index, (spec, given) in enumerate(specs):
                if spec is not None and not given:
                    run = started[index] if started is not None else spec
                    nursery.start_soon(ask, index, run if run is not None else spec)

    run_until_stopped(ask_all, what="the bots were asked their names")
    named: list[BotSpec | None] = []
    for index, (spec, _) in enumerate(specs):
        found = probes.get(index)
        if spec is not None and found is not None:
            if found.hello is None:
                cause = found.fault.detail if found.fault is not None else "no hello"
                tail = f"; its stderr ended with: {found.stderr_tail!r}" if found.stderr_tail else ""
                raise click.ClickException(f"{' '.join(spec.command)!r} never completed its handshake: {cause}{tail}")
            spec = dataclasses.replace(spec, name=name_from_hello(found.hello.name))
        taken = [name_key(o.name) for o in named if o is not None and o.command != spec.command] if spec else []
        if spec is not None and name_key(spec.name) in taken:
            spec = dataclasses.replace(spec, name=f"{spec.name}-{taken.count(name_key(spec.name)) + 1}")
        named.append(spec)
    return named


def _never_started(silent: dict[str, int], runner: Match) -> None:
    """A match that did not really happen is not reported: when a side's bots never completed a handshake in
    any of their games (``silent``: such sides and their number of games), whatever the other side did, say
    so in one line (the caller exits 1)."""
    if not silent:
        return
    side, games = next(iter(silent.items()))
    procs = [proc for proc in runner.procs if proc is not None and proc.spec.name == side]
    fault = next((proc.fault for proc in procs if proc.fault is not None), None)
    detail = f": {fault.kind}: {fault.detail}" if fault is not None else ""
    tails = [proc.stderr_tail.decode(errors="replace").strip().splitlines() for proc in procs]
    tail = next((lines[-1][:200] for lines in tails if lines), "")
    said = f"; its stderr ended with: {tail!r}" if tail else ""
    raise click.ClickException(f"{side} never completed its handshake in {games} game(s){detail}{said}")


def _bot_name(words: tuple[str, ...]) -> str:
    """A short name from a command: the script's stem if there is one, else the program's."""
    if "-m" in words[:-1]:
        return words[words.index("-m") + 1].rsplit(".", 1)[-1]
    for word in words:
        path = pathlib.Path(word)
        if path.suffix in (".py", ".js", ".rb", ".pl", ".sh", ".jar", ".java"):
            return path.stem
    if pathlib.Path(words[0]).name == "java":  # java [-cp DIR] [options] MainClass [args]
        rest = list(words[1:])
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-cp", "-classpath", "--class-path") else rest[1:]
        if rest:
            return rest[0].rsplit(".", 1)[-1]
    return pathlib.Path(words[0]).name


def _logging(verbose: int) -> None:
    from rookarena.arena.logsetup import log_to_stderr  # noqa: PLC0415

    log_to_stderr(verbose)
