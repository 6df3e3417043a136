"""League configuration: read a YAML file, check every key, and say exactly where it is wrong.

Errors read ``FILE:LINE: KEY: what was expected, got what``; nothing runs until the whole file is valid.
Line numbers come from the YAML node tree, so a value is blamed on the line it is written on.
"""

from __future__ import annotations

import dataclasses
import math
import os
import pathlib
import secrets
from typing import Any

import yaml

from rookarena.arena.programs import INTERPRETERS as INTERPRETERS  # noqa: PLC0414 (its callers' names)
from rookarena.arena.programs import command_problem as command_problem  # noqa: PLC0414
from rookarena.arena.programs import is_dir as _is_dir
from rookarena.arena.specs import (
    LEAST_SECONDS,
    MOST_SECONDS,
    BotSpec,
    Entry,
    FaultPolicy,
    LeagueConfig,
    Limits,
    TimeControl,
    command_of,
)
from rookarena.arena.specs import as_mapping as as_mapping  # noqa: PLC0414 (the name its readers use)
from rookarena.arena.userfiles import UnreadableFileError, looks_numeric, read_text
from rookarena.arena.yamlnodes import one_line, shown, unbuildable, value_under
from rookarena.engine.presets import resolve
from rookarena.engine.rules import Rules
from rookarena.engine.seeding import SEED_BITS
from rookarena.errors import RookError
from rookarena.wire.names import name_key, name_problem


class ConfigError(RookError):
    """A league configuration that cannot be run."""


FORMATS = ("round-robin", "gauntlet")
PIN_CHOICES = ("auto", "on", "off")
TOP_KEYS = (
    "name",
    "rules",
    "format",
    "games",
    "duplicate",
    "seed",
    "jobs",
    "time",
    "faults",
    "withdraw_after",
    "limits",
    "pin_cpus",
    "reuse",
    "process_per_game",
    "isolation",
    "anchors",
    "bots",
)
BOT_KEYS = ("name", "command", "partner", "cwd", "env", "limits", "sandbox", "isolation", "reuse", "process_per_game")
ISOLATIONS = ("none", "bwrap")  # as rookarena.arena.isolation.CHOICES, which imports this module
TIME_KEYS = ("move", "startup", "bank")
LIMIT_KEYS = ("line", "stderr", "memory", "cpu", "processes", "files")
# Each limit key: the Limits field it sets, and what it counts.
LIMIT_FIELDS = {
    "line": ("max_line", "bytes"),
    "stderr": ("stderr_cap", "bytes"),
    "memory": ("memory_mb", "MiB"),
    "cpu": ("cpu_seconds", "seconds"),
    "processes": ("processes", "processes"),
    "files": ("files", "open files"),
}
# The most each limit may be: far above any bot's need, and within what the kernel's limits hold.
LIMIT_MOST = {
    "line": 1 << 31,  # bytes (2 GiB)
    "stderr": 1 << 40,  # bytes (1 TiB)
    "memory": 1 << 24,  # MiB (16 TiB)
    "cpu": 31_536_000,  # seconds (a year)
    "processes": 4_194_304,  # Linux's most process ids
    "files": 1 << 20,  # Linux's default most open files a process may have
}


class _Node:
    """A YAML value with the line it starts on, for blame."""

    def __init__(self, node: yaml.Node) -> None:
        self.node = node
        self.line = node.start_mark.line + 1


MOST_GAMES = 10_000_000  # the most games a league plans: every game is planned at the start (~220 bytes each)
MOST_JOBS = 4096  # the most games at once (each a worker's share of the machine: far more than any has)


def load(path: str | os.PathLike[str]) -> LeagueConfig:
    """Read and check a league configuration file."""
    path = pathlib.Path(path)
    try:
        return loads(read_text(path, "configuration"), path)
    except UnreadableFileError as exc:
        raise ConfigError(str(exc)) from None


def loads(text: str, path: str | os.PathLike[str]) -> LeagueConfig:
    """Check a configuration's ``text``, read from ``path`` (named in errors; relative ``cwd`` values are
    looked up beside it)."""
    path = pathlib.Path(path)
    root = _compose(text, str(path))
    return dataclasses.replace(_Reader(str(path), path.parent).config(root, text), origin=str(path))


def rules_from_text(text: str, filename: str) -> tuple[str, Rules]:
    """The rules of a rules file's ``text`` (a preset's name, or ``preset:`` and knobs), read as strictly as
    a league's ``rules:``: errors name ``filename``, the line and the knob."""
    root = _compose(text, filename, "rules")
    if root is None:
        return resolve({})
    return _Reader(filename, pathlib.Path(filename).parent).rules((root, root))


def _compose(text: str, filename: str, key: str = "") -> yaml.Node | None:
    """The node tree of ``text`` (the value of ``key``, or a whole file), refused (naming the line and the key)
    where no value may be built from it."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        found = None if root is None else unbuildable(root, key)
    except RecursionError:
        raise ConfigError(f"{filename}: not valid YAML: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise ConfigError(
            f"{filename}{line}: not valid YAML: {one_line(getattr(exc, 'problem', None) or exc)}"
        ) from None
    if found is not None:
        node, key, message = found
        raise _Reader(filename, pathlib.Path(".")).fail(node, key or "the file", message)
    return root


class _Reader:
    def __init__(self, filename: str, base: pathlib.Path) -> None:
        self.filename = filename
        self.base = base

    def fail(self, node: yaml.Node | None, key: str, message: str) -> ConfigError:
        line = f":{node.start_mark.line + 1}" if node is not None else ":1"
        return ConfigError(f"{self.filename}{line}: {one_line(key)}: {one_line(message)}")

    def value(self, node: yaml.Node, key: str) -> Any:
        try:
            # Built from the node as safe_load would build it (a fresh constructor each time: a failed
            # construction leaves state behind), without writing it out and parsing it again.
            return yaml.SafeLoader("").construct_document(node)
        except (yaml.YAMLError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            # PyYAML's constructors raise more than YAMLError: `!!int abc`, `2001-02-30`, `!!bool maybe`,
            # an integer of over 4300 digits.
            detail = getattr(exc, "problem", None) or exc  # without the position PyYAML adds, named here already
            raise self.fail(node, key, f"unreadable value {shown(node)}: {detail}") from None

    def mapping(
        self, node: yaml.Node | None, key: str, allowed: tuple[str, ...]
    ) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            label = key or "the file"
            raise self.fail(node, label, f"expected a mapping with keys {', '.join(allowed)}, got {shown(node)}")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):  # `? [a, b]` or `[games]: 1`: no name to give
                where = key or "the file"
                raise self.fail(key_node, where, f"a key must be a plain word, got {shown(key_node)}")
            name = key_node.value
            path = f"{key}.{name}" if key else str(name)
            if name not in allowed:
                raise self.fail(key_node, path, f"unknown key {name!r}: expected one of {', '.join(allowed)}")
            if name in out:
                raise self.fail(key_node, path, "given twice")
            out[name] = (key_node, value_node)
        return out

    def _show(self, node: yaml.Node | None, key: str, whole: bool = False) -> str:
        """The value at ``node`` as written, and why YAML read it as text when it looks like a number."""
        value = None if node is None else self.value(node, key)
        if isinstance(value, str) and looks_numeric(value):  # YAML's own rule, which surprises: 1e6 is text
            how = "as 1000000, without quotes" if whole else "as 1000000 or 1.0e+6"
            return f"{shown(node)} (text to YAML: write a {'whole ' if whole else ''}number {how})"
        return shown(node)

    def integer(self, node: yaml.Node, key: str, minimum: int, most: int | None = None) -> int:
        value = self.value(node, key)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise self.fail(node, key, f"expected a whole number >= {minimum}, got {self._show(node, key, True)}")
        if most is not None and value > most:
            raise self.fail(node, key, f"expected a whole number <= {most:,}, got {self._show(node, key, True)}")
        return value

    def number(self, node: yaml.Node, key: str, positive: bool) -> float:
        value = self.value(node, key)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and (value > 0 if positive else value >= 0)
        if not ok:
            raise self.fail(
                node, key, f"expected a number {'> 0' if positive else '>= 0'} (seconds), got {self._show(node, key)}"
            )
        return float(value)

    def boolean(self, node: yaml.Node, key: str) -> bool:
        value = self.value(node, key)
        if not isinstance(value, bool):
            raise self.fail(node, key, f"expected true or false, got {self._show(node, key)}")
        return value

    def choice(self, node: yaml.Node, key: str, choices: tuple[str, ...]) -> str:
        value = self.value(node, key)
        if value not in choices:
            raise self.fail(node, key, f"expected one of {', '.join(choices)}, got {self._show(node, key)}")
        return str(value)

    def string(self, node: yaml.Node, key: str) -> str:
        value = self.value(node, key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(node, key, f"expected a non-empty string, got {self._show(node, key)}")
        return value

    def name(self, node: yaml.Node, key: str) -> str:
        """A bot's or the league's name: it becomes part of game ids and file names."""
        value = self.string(node, key)
        problem = name_problem(value)
        if problem is not None:
            raise self.fail(node, key, f"{shown(node)} cannot be a name: {problem}")
        return value

    # -- the whole file -------------------------------------------------------------------------

    def config(self, root: yaml.Node | None, text: str) -> LeagueConfig:
        if root is None:
            raise self.fail(None, "bots", "the file is empty: expected at least 'bots:' with two bots")
        top = self.mapping(root, "", TOP_KEYS)
        get = top.get
        name = self.name(top["name"][1], "name") if "name" in top else pathlib.Path(self.filename).stem
        problem = None if "name" in top else name_problem(name)
        if problem is not None:
            raise self.fail(root, "name", f"missing, and the file's name {name!r} cannot stand for it: {problem}")
        rules_name, rules = self.rules(get("rules"))
        fmt = self.choice(top["format"][1], "format", FORMATS) if "format" in top else "round-robin"
        duplicate = self.boolean(top["duplicate"][1], "duplicate") if "duplicate" in top else True
        games = self.integer(top["games"][1], "games", 1) if "games" in top else 2
        if duplicate and games % 2:
            raise self.fail(
                top["games"][1],
                "games",
                "expected an even number with duplicate: true (each deal is played twice), got "
                + shown(top["games"][1]),
            )
        # No seed written: one nobody can guess, drawn from the OS and recorded in league.json.
        seed = self.integer(top["seed"][1], "seed", 0) if "seed" in top else secrets.randbits(SEED_BITS)
        jobs = self.integer(top["jobs"][1], "jobs", 1, MOST_JOBS) if "jobs" in top else (os.cpu_count() or 1)
        time = self.time(get("time"))
        faults = (
            FaultPolicy(self.choice(top["faults"][1], "faults", tuple(p.value for p in FaultPolicy)))
            if "faults" in top
            else FaultPolicy.FORFEIT
        )
        withdraw = self.integer(top["withdraw_after"][1], "withdraw_after", 1) if "withdraw_after" in top else 3
        pin = "auto"
        if "pin_cpus" in top:
            value = self.value(top["pin_cpus"][1], "pin_cpus")
            pin = ("on" if value else "off") if isinstance(value, bool) else str(value)
            if pin not in PIN_CHOICES:
                raise self.fail(
                    top["pin_cpus"][1],
                    "pin_cpus",
                    f"expected auto, true or false, got {self._show(top['pin_cpus'][1], 'pin_cpus')}",
                )
        limits = self.limits(get("limits"), time)
        reuse = self.boolean(top["reuse"][1], "reuse") if "reuse" in top else True
        isolation = self.choice(top["isolation"][1], "isolation", ISOLATIONS) if "isolation" in top else "none"
        once: bool | None = None  # unset: a process per game exactly where the entry is isolated
        if "process_per_game" in top:
            once = self.boolean(top["process_per_game"][1], "process_per_game")
        if "bots" not in top:
            raise self.fail(root, "bots", "missing: expected a list of at least two bots")
        entries = self.bots(top["bots"][1], limits, reuse, isolation, once)
        pairs = len(entries) - 1 if fmt == "gauntlet" else len(entries) * (len(entries) - 1) // 2
        if games * pairs > MOST_GAMES:
            raise self.fail(
                top["games"][1] if "games" in top else root,
                "games",
                f"{games:,} a pairing over {pairs:,} pairings make {games * pairs:,} games: a league plans at most "
                f"{MOST_GAMES:,} (run it as several leagues)",
            )
        anchors = self.anchors(top["anchors"][1], entries) if "anchors" in top else ()
        return LeagueConfig(
            name=name,
            rules=rules,
            rules_name=rules_name,
            format=fmt,
            games=games,
            duplicate=duplicate,
            seed=seed,
            jobs=jobs,
            time=time,
            faults=faults,
            withdraw_after=withdraw,
            limits=limits,
            entries=entries,
            source=text,
            pin_cpus=pin,
            reuse=reuse,
            seed_drawn="seed" not in top,
            isolation=isolation,
            anchors=anchors,
        )

    def anchors(self, node: yaml.Node, entries: tuple[Entry, ...]) -> tuple[tuple[str, float], ...]:
        """``anchors:``, a mapping of bot names to the Elo ratings they keep whatever else plays."""
        if not isinstance(node, yaml.MappingNode) or not node.value:
            got = self._show(node, "anchors")
            raise self.fail(node, "anchors", f"expected a mapping of bot names to ratings, got {got}")
        names = {entry.name for entry in entries}
        out: list[tuple[str, float]] = []
        for key_node, value_node in node.value:
            name = self.value(key_node, "anchors")
            if not isinstance(name, str) or name not in names:
                got = self._show(key_node, "anchors")
                raise self.fail(key_node, "anchors", f"expected the name of a bot under bots:, got {got}")
            value = self.value(value_node, where := f"anchors.{name}")
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise self.fail(value_node, where, f"expected a rating (a number), got {self._show(value_node, where)}")
            if any(name == seen for seen, _ in out):
                raise self.fail(key_node, "anchors", f"{name!r} is given twice")
            out.append((name, float(value)))
        return tuple(out)

    def rules(self, pair: tuple[yaml.Node, yaml.Node] | None) -> tuple[str, Rules]:
        if pair is None:
            return resolve("tournament")
        node = pair[1]
        try:
            return resolve(self.value(node, "rules"))
        except RookError as exc:
            message = str(exc)
            knob = message.split(":", 1)[0] if message.startswith("rules") else "rules"
            blamed = value_under(node, knob.split(".", 1)[1] if "." in knob else "")
            detail = message.split(": ", 1)[1] if message.startswith("rules") and ": " in message else message
            # The rules quote a value as Python writes it (True, datetime.date(...)): shown as it was written.
            detail = detail.replace(repr(self.value(blamed, knob)), shown(blamed), 1)
            raise self.fail(blamed, knob, detail) from None

    def time(self, pair: tuple[yaml.Node, yaml.Node] | None) -> TimeControl:
        if pair is None:
            return TimeControl()
        keys = self.mapping(pair[1], "time", TIME_KEYS)
        values = {key: self.number(node, f"time.{key}", key != "bank") for key, (_, node) in keys.items()}
        for key, value in values.items():
            if value > MOST_SECONDS:
                raise self.fail(
                    keys[key][1], f"time.{key}", f"expected at most {MOST_SECONDS:g} seconds (a day), got {value!r}"
                )
            if key != "bank" and value < LEAST_SECONDS:
                raise self.fail(
                    keys[key][1],
                    f"time.{key}",
                    f"expected at least {LEAST_SECONDS:g} seconds (a bot is told its time in whole milliseconds), "
                    f"got {value!r}",
                )
        return TimeControl(**values)

    def limits(self, pair: tuple[yaml.Node, yaml.Node] | None, time: TimeControl) -> Limits:
        return self.limits_over(Limits(startup=time.startup), pair, "limits")

    def limits_over(self, base: Limits, pair: tuple[yaml.Node, yaml.Node] | None, where: str) -> Limits:
        """``base`` with the limits written under ``where`` (the league's, or one bot's) applied."""
        if pair is None:
            return base
        values: dict[str, Any] = {}
        for key, (_, node) in self.mapping(pair[1], where, LIMIT_KEYS).items():
            field, unit = LIMIT_FIELDS[key]
            minimum = 16 if key == "files" else 1
            try:
                values[field] = self.integer(node, f"{where}.{key}", minimum)
            except ConfigError as exc:
                raise ConfigError(f"{exc} ({unit})") from None
            if values[field] > LIMIT_MOST[key]:
                most = f"expected at most {LIMIT_MOST[key]:,} {unit}, got {values[field]:,}"
                raise self.fail(node, f"{where}.{key}", most)
        return dataclasses.replace(base, **values)

    def bots(
        self, node: yaml.Node, limits: Limits, reuse: bool, isolation: str, once: bool | None
    ) -> tuple[Entry, ...]:
        if not isinstance(node, yaml.SequenceNode) or len(node.value) < 2:
            raise self.fail(node, "bots", f"expected a list of at least two bots, got {self._show(node, 'bots')}")
        entries: list[Entry] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(node.value):
            where = f"bots[{index}]"
            keys = self.mapping(item, where, BOT_KEYS)
            for required, what in (("name", "the bot's name"), ("command", "the program to run")):
                if required not in keys:
                    raise self.fail(item, f"{where}.{required}", f"missing: expected {what}")
            name = self.name(keys["name"][1], f"{where}.name")
            if name_key(name) in seen:
                other = seen[name_key(name)]
                alike = "" if entries[other].name == name else f" ({entries[other].name!r}, but for case)"
                taken = f"{name!r} is already the name of bots[{other}]{alike}"
                raise self.fail(keys["name"][1], f"{where}.name", taken)
            seen[name_key(name)] = index
            cwd = self.string(keys["cwd"][1], f"{where}.cwd") if "cwd" in keys else None
            if cwd is not None:
                # Relative to the directory rookarena runs in, else to the configuration file's.
                found = next((p for p in (pathlib.Path(cwd), self.base / cwd) if _is_dir(p)), None)
                if found is None:
                    raise self.fail(keys["cwd"][1], f"{where}.cwd", f"no directory {cwd!r}")
                cwd = str(found.resolve())
            env = self.env(keys["env"][1], f"{where}.env") if "env" in keys else {}
            own = self.limits_over(limits, keys.get("limits"), f"{where}.limits") if "limits" in keys else None
            prefix: tuple[str, ...] = ()
            if "sandbox" in keys:
                prefix = self.command(keys["sandbox"][1], f"{where}.sandbox", name, cwd, env).command
            bot = self.command(keys["command"][1], f"{where}.command", name, cwd, env)
            keep = self.boolean(keys["reuse"][1], f"{where}.reuse") if "reuse" in keys else reuse
            shut = isolation
            if "isolation" in keys:
                shut = self.choice(keys["isolation"][1], f"{where}.isolation", ISOLATIONS)
            # An isolated bot plays each game in a new process unless told otherwise: a process kept from
            # game to game remembers deals it will meet again from another seat (duplicate twins, pairings).
            new = shut != "none" if once is None else once
            if "process_per_game" in keys:
                new = self.boolean(keys["process_per_game"][1], f"{where}.process_per_game")
            bot = dataclasses.replace(bot, command=prefix + bot.command, limits=own, reuse=keep, per_game=new)
            partner = bot
            if "partner" in keys:
                partner = self.command(keys["partner"][1], f"{where}.partner", f"{name}-partner", cwd, env)
                partner = dataclasses.replace(
                    partner, command=prefix + partner.command, limits=own, reuse=keep, per_game=new
                )
            entries.append(Entry(name, bot, partner, shut))
        return tuple(entries)

    def env(self, node: yaml.Node, key: str) -> dict[str, str]:
        value = self.value(node, key)
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int, float)) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise self.fail(node, key, f"expected a mapping of variable names to strings, got {self._show(node, key)}")
        for name_node, _ in node.value:
            name = self.value(name_node, key)
            if not name or "=" in name or "\0" in name:  # what the OS refuses to start a process with
                raise self.fail(name_node, key, f"expected a variable name (not empty, no '='), got {shown(name_node)}")
        return {k: str(v) for k, v in value.items()}

    def command(self, node: yaml.Node, key: str, name: str, cwd: str | None, env: dict[str, str]) -> BotSpec:
        value = self.value(node, key)
        if not (
            isinstance(value, str) or (isinstance(value, list) and value and all(isinstance(w, str) for w in value))
        ):
            raise self.fail(node, key, f"expected a list of strings or a string, got {self._show(node, key)}")
        try:
            words = command_of(value)
        except ValueError as exc:
            raise self.fail(node, key, f"cannot split {value!r}: {exc}") from None
        base = pathlib.Path(cwd) if cwd else pathlib.Path.cwd()
        search = env.get("PATH")  # the bot's own PATH, where it gives one: the one its program is found on
        if search is not None:
            search = os.pathsep.join(str(base / entry) if entry else str(base) for entry in search.split(os.pathsep))
        problem = command_problem(words, base, search)
        if problem is not None:
            raise self.fail(node, key, problem)
        return BotSpec(name=name, command=words, cwd=cwd, env=env)
