"""Shutting a bot in: the bubblewrap (``bwrap``) command that leaves it only the protocol to talk through.

A bot under ``isolation: bwrap`` runs in a sandbox of its own, one per process, so that a team's two
seats are as far apart as two opponents. The sandbox sees, read-only: the system's files (``/usr``,
``/bin``, ``/lib*``, ``/etc``, ``/opt``), what the programs its command starts need when they live elsewhere
(their directories, a virtual environment, a script's ``#!`` interpreter, the referee's site directories and
this package), and the bot's own directory: its ``cwd`` when one is given, else the directory
holding its program (the script, for an interpreter), where it also starts. Inside those, the results
directory (and the directory it is in, where other shards' results go), the configuration file, other
bots' directories and programs, and any other run's results or league configuration in the bot's own
directory are masked (an empty tmpfs over a directory, ``/dev/null`` over a file). It has a private
``/tmp`` and ``/dev`` (so ``/dev/shm``), no network (so no abstract unix sockets shared with anyone), its
own process ids and ``/proc`` (so no signals to, nor reading of, any process outside it), its own IPC and
host name, and it dies with the process that started it. It stays in the session the referee gave it
(which has no terminal, what bubblewrap's ``--new-session`` guards), so that its processes are counted
(``limits.processes``) and stopped like any bot's.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shutil
import site
import subprocess
from collections.abc import Iterable, Sequence

from rookarena.arena import seccomp
from rookarena.arena.programs import INTERPRETERS
from rookarena.arena.specs import BotSpec, LeagueConfig
from rookarena.errors import RookError

CHOICES = ("none", "bwrap")
SYSTEM_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
PACKAGE_DIR = pathlib.Path(__file__).resolve().parent.parent  # the rookarena package
FLAGS = (
    "--unshare-all",  # user (when possible), pid, net, ipc, uts, cgroup
    "--cap-drop",  # a referee run as root would otherwise leave the bot root's capabilities, with which it
    "ALL",  # could unmount the masks over the results directory
    "--die-with-parent",
    "--proc",
    "/proc",
    "--ro-bind",  # the kernel's settings: a bot of a referee run as root is root (without capabilities), and
    "/proc/sys",  # could otherwise change them for the whole machine
    "/proc/sys",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
)


# A directory holding one of these is the results of some run (a shard's, an earlier run's): its league.json
# or its records may hold a seed this league shares, which deals every hand.
RESULT_FILES = ("league.json", "games.jsonl")
# A YAML file with a top-level ``bots:`` key is a league's configuration, which may name its seed.
LEAGUE_CONFIG = re.compile(rb"^bots[ \t]*:", re.MULTILINE)
CONFIG_MOST = 16 << 20  # the most bytes read of a YAML file to tell whether it is one
# The most entries searched for them in a bot's own directory before isolation gives up (with one line).
SEARCH_MOST = 100_000


# bwrap's --die-with-parent ties the sandbox to the thread that started bwrap, and trio starts processes
# from worker threads that end when idle: a shell in between (not exec'ing bwrap) is a parent that lives as
# long as the sandbox, and is in the bot's process group, so that stopping the bot stops bwrap and with it
# the sandbox.
KEEPER = ("/bin/sh", "-c", '"$0" "$@"; exit "$?"')
# The same, handing bwrap the seccomp filter (rookarena.arena.seccomp) on descriptor 3, from a pipe that its
# own printf fills: no file to write, none to clean up. The bot's input goes on as descriptor 0.
FILTERED_KEEPER = ("/bin/sh", "-c", 'f=$1; shift; exec 5<&0; printf "$f" | "$0" "$@" 3<&0 0<&5 5<&-; exit "$?"')
FILTER = seccomp.program()
FILTER_FORMAT = seccomp.printf_format(FILTER) if FILTER is not None else ""  # (written once, used by every command)


def exit_status(code: int | None, command: Sequence[str]) -> int | None:
    """A bot process's exit status as the referee reads it: a sandbox (bwrap, under its keeper shell) ends
    with status 128 + N when the bot in it was killed by signal N, which is read back as that signal (-N), as
    the status of a bot that runs unsandboxed reads."""
    sandboxed = tuple(command[: len(KEEPER)]) == KEEPER or tuple(command[: len(FILTERED_KEEPER)]) == FILTERED_KEEPER
    if sandboxed and code is not None and 128 < code <= 128 + 64:
        return -(code - 128)
    return code


class IsolationError(RookError):
    """Bots cannot be isolated on this machine (no bubblewrap, or no namespaces)."""


NOT_A_FILE = ("-m", "-c", "-e", "--eval", "-r", "--require")  # options after which a word names a module or code


def program_path(spec: BotSpec) -> tuple[int, pathlib.Path] | None:
    """Which word of a bot's command names the file it runs, and that file as an absolute path: the script
    for an interpreter (after its options: ``python3 -u bot.py``), else the program when it is named by a
    path, after any prefix the command has (a ``sandbox:``'s, such as ``setpriv --no-new-privs``); None for
    a program found on PATH or a module run with ``-m``."""
    where = pathlib.Path(spec.cwd) if spec.cwd else pathlib.Path.cwd()
    for index, word in enumerate(spec.command):
        if word in NOT_A_FILE:
            return None
        if word.startswith("-") or pathlib.Path(word).name.rstrip("0123456789.") in INTERPRETERS:
            continue
        path = where / word
        if (index > 0 or "/" in word) and path.is_file() and not _under_system(path.resolve().parent):
            return index, path.resolve()
    return None


def own_directory(spec: BotSpec) -> pathlib.Path | None:
    """The bot's own directory: its cwd when given, else the directory of its program (see above)."""
    if spec.cwd:
        return pathlib.Path(spec.cwd).resolve()
    program = program_path(spec)
    return program[1].parent if program is not None else None


def executables(spec: BotSpec) -> list[pathlib.Path]:
    """Every file the bot's command runs as a program, as found and with its links resolved: a prefix's and an
    interpreter's programs, the bot's program when it is named by a path (on the bot's own PATH otherwise),
    and the interpreter that a script's first line (``#!``) names, through ``env`` too (a virtual
    environment's script run by its path, ``~/.local/bin/rookarena`` linked into a pipx environment)."""
    program = program_path(spec)
    words = spec.command[: program[0] + 1] if program is not None else spec.command
    search = spec.env.get("PATH", os.environ.get("PATH", os.defpath))
    where = pathlib.Path(spec.cwd) if spec.cwd else pathlib.Path.cwd()
    out: list[pathlib.Path] = []
    pending = [word for word in words if not word.startswith("-")]
    while pending and len(out) < SHEBANG_MOST:
        word = pending.pop(0)
        found = str(where / word) if "/" in word else shutil.which(word, path=search)
        if found is None or not os.path.isfile(found):
            continue
        path = pathlib.Path(os.path.abspath(found))
        out += [path, path.resolve()]
        pending[:0] = _shebang(path)
    return list(dict.fromkeys(out))


SHEBANG_MOST = 16  # the most programs followed from one command (a script's interpreter may be a script too)


def _shebang(path: pathlib.Path) -> list[str]:
    """The program a script's first line names (and, for ``/usr/bin/env``, the one it runs), or none."""
    try:
        with open(path, "rb") as file:
            first = file.readline(4096)
    except OSError:
        return []
    if not first.startswith(b"#!"):
        return []
    words = first[2:].decode(errors="replace").split()
    if not words:
        return []
    if pathlib.Path(words[0]).name == "env":
        return [words[0], *[word for word in words[1:] if not word.startswith("-") and "=" not in word][:1]]
    return words[:1]


def _interpreter_dirs(spec: BotSpec, runs: list[pathlib.Path]) -> list[pathlib.Path]:
    """Directories outside the system's that the programs the bot's command starts need: those programs'
    own directories, and for each in a virtual environment's ``bin`` that environment (and the Python it was
    made from); the site directories of the Python running the referee (its environment's, the user's), and
    this package, for the built-in bots (``rookarena bot``, ``-m rookarena...``) however it is installed."""
    program = program_path(spec)
    out: list[pathlib.Path] = []
    for found in runs:  # (executables(spec), found once by the caller)
        directory = found.parent
        if directory.name == "bin" and (directory.parent / "pyvenv.cfg").is_file():
            out.append(directory.parent)
            for line in (directory.parent / "pyvenv.cfg").read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "home" and value.strip():
                    out.append(pathlib.Path(value.strip()).resolve().parent)
        elif directory.name == "shims":  # a version manager's (pyenv, rbenv, asdf): the shim runs its root's
            out.append(directory.parent)
        elif program is None or found.resolve() != program[1]:  # (the program's directory is bound as the bot's)
            out.append(directory)
        out += _user_site(found)
    out += [pathlib.Path(path) for path in SITE_DIRS]
    out.append(PACKAGE_DIR)
    return [path for path in dict.fromkeys(out) if not _under_system(path)]


def _user_site(program: pathlib.Path) -> list[pathlib.Path]:
    """For a Python (``python3.11``, or a link to it), its user site directory under the bot's HOME, where a
    ``pip install --user`` puts packages (the bot's clean environment has no PYTHONUSERBASE to move it)."""
    match = re.fullmatch(r"python(\d+\.\d+)", program.resolve().name)
    if match is None:
        return []
    folder = pathlib.Path(os.path.expanduser("~")) / ".local" / "lib" / f"python{match.group(1)}" / "site-packages"
    return [folder] if folder.is_dir() else []


def _site_dirs() -> list[str]:
    """The directories the Python running the referee imports installed packages from."""
    found = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    if site.ENABLE_USER_SITE:
        found.append(site.getusersitepackages())
    return [path for path in found if os.path.isdir(path)]


SITE_DIRS = _site_dirs()


def _under_system(path: pathlib.Path) -> bool:
    return any(path == pathlib.Path(root) or pathlib.Path(root) in path.parents for root in SYSTEM_ROOTS)


def _within(path: pathlib.Path, roots: Iterable[pathlib.Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _sight(spec: BotSpec) -> tuple[list[pathlib.Path], list[pathlib.Path]]:
    """The directories bound into the bot's sandbox (outside the system's), and the paths it needs: those
    directories, its own directory and its program (a mask over any of them would blind the bot)."""
    own = own_directory(spec)
    runs = executables(spec)
    wanted = [
        path for path in dict.fromkeys([*_interpreter_dirs(spec, runs), *([own] if own else [])]) if path.is_dir()
    ]
    bound = [path for path in wanted if not any(other in path.parents for other in wanted)]
    program = program_path(spec)
    # what it runs too: another bot's program that this one runs as well (the same script) is no secret from it
    return bound, [path for path in (*bound, own, program[1] if program else None, *runs) if path is not None]


def shards_in_sight(config: LeagueConfig, results: pathlib.Path) -> str | None:
    """Why a shard of ``config`` writing into ``results`` cannot keep the other shards out of an isolated
    bot's sight, or None. The directory the shards' results share is masked (the other shards may start
    after this one, so a search for them is not enough), unless it holds what the bot needs."""
    parent = results.resolve().parent
    for entry in config.entries:
        if entry.isolation != "bwrap":
            continue
        for spec in (entry.bot, entry.partner):
            bound, needed = _sight(spec)
            if _within(parent, bound) and any(_within(item, [parent]) for item in needed):
                return (
                    f"isolation: bwrap: the shards' results would go in {str(parent)!r}, which holds what bot "
                    f"{entry.name!r} runs from, so the other shards' results (and the league's seed in them) "
                    "would be in its sight: give each shard an --out in a directory of their own, such as "
                    f"results/{config.name}/shard-K"
                )
    return None


def command(
    spec: BotSpec,
    hidden: Sequence[pathlib.Path],
    bwrap: str = "bwrap",
    searched: dict[pathlib.Path, list[pathlib.Path]] | None = None,
) -> tuple[str, ...]:
    """The command that runs ``spec`` isolated, with the paths ``hidden`` masked where it could see them, and
    every other run's files in its own directory (``searched``: the directories searched already, with what
    was found, so that the bots of one league that share a directory search it once)."""
    words: list[str] = [*_keeper(shutil.which(bwrap) or bwrap), *FLAGS]
    for root in SYSTEM_ROOTS:
        if os.path.islink(root):
            words += ["--symlink", os.readlink(root), root]
        elif os.path.isdir(root):
            words += ["--ro-bind", root, root]
    bound, needed = _sight(spec)
    for path in bound:
        words += ["--ro-bind", str(path), str(path)]
    own, program = own_directory(spec), program_path(spec)
    searched = {} if searched is None else searched
    if own is not None and own not in searched:
        searched[own] = runs_in_sight(own, spec.name)
    found = searched[own] if own is not None else []
    for path in [*hidden, *found]:
        path = path.resolve()
        if not _within(path, bound) or any(_within(item, [path]) for item in needed):
            continue  # out of sight already, or holding what the bot needs (its directory, program, interpreter)
        if path.is_dir():
            words += ["--tmpfs", str(path)]
        elif path.exists():
            words += ["--ro-bind", "/dev/null", str(path)]
    words += ["--chdir", str(own) if own is not None else "/tmp", "--"]
    rest = list(spec.command)
    if program is not None:  # named by its absolute path: the bot may start elsewhere than the referee's cwd
        rest[program[0]] = str(program[1])
    return (*words, *rest)


def _keeper(bwrap: str) -> list[str]:
    """The words that start bwrap, under its keeper shell, with the seccomp filter where there is one."""
    if FILTER is None:
        return [*KEEPER, bwrap]
    return [*FILTERED_KEEPER, bwrap, FILTER_FORMAT, "--seccomp", "3"]


def runs_in_sight(directory: pathlib.Path, bot: str, most: int = SEARCH_MOST) -> list[pathlib.Path]:
    """Every results directory (one holding league.json or games.jsonl) and league configuration (a YAML file
    with a top-level ``bots:`` key) under a bot's own ``directory``, so that they can be masked: any of them
    may give away a seed this league shares (another shard's results, an earlier run's, a copy of the
    configuration). Symbolic links are not followed. More than ``most`` entries is an IsolationError."""
    found: list[pathlib.Path] = []
    stack = [str(directory)]
    seen = 0
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as listing:
                entries = list(listing)
        except OSError:
            continue  # unreadable: unreadable in the sandbox too
        if current != str(directory) and any(entry.name in RESULT_FILES for entry in entries):
            found.append(pathlib.Path(current))
            continue
        seen += len(entries)
        if seen > most:
            raise IsolationError(
                f"isolation: bwrap: bot {bot!r}'s directory {str(directory)!r} holds over {most:,} files, too many "
                "to search for other runs' results and configurations (their seeds deal every hand): give the bot "
                "a `cwd` of its own"
            )
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif (
                    entry.name.endswith((".yaml", ".yml"))
                    and entry.is_file(follow_symlinks=False)
                    and _league_config(entry.path)
                ):
                    found.append(pathlib.Path(entry.path))
            except OSError:
                continue
    return found


def _league_config(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            return LEAGUE_CONFIG.search(file.read(CONFIG_MOST)) is not None
    except OSError:
        return False


def isolate(
    spec: BotSpec,
    hidden: Sequence[pathlib.Path],
    bwrap: str = "bwrap",
    searched: dict[pathlib.Path, list[pathlib.Path]] | None = None,
) -> BotSpec:
    """``spec`` run under bubblewrap, hiding ``hidden`` from it (``searched``: see :func:`command`)."""
    return dataclasses.replace(spec, command=command(spec, hidden, bwrap, searched))


def hidden_paths(
    results: pathlib.Path | None, config_file: str | None, others: Iterable[BotSpec]
) -> list[pathlib.Path]:
    """What an isolated bot must never see: the results directory (records, league.json, logs) and every
    results directory under ./results, the configuration, and the other bots' directories and programs."""
    out: list[pathlib.Path] = [pathlib.Path("results").resolve()]
    if results is not None:
        # and the directory it is in, where the other shards' results go (deploy/slurm: RESULTS/shard-K-of-N)
        out += [results.resolve(), results.resolve().parent]
    if config_file:
        out.append(pathlib.Path(config_file).resolve())
    for spec in others:
        program = program_path(spec)
        if program is not None:
            out.append(program[1])
        if spec.cwd:
            out.append(pathlib.Path(spec.cwd).resolve())
    return out


def check(bwrap: str = "bwrap") -> None:
    """Raise :class:`IsolationError` with one line when bubblewrap is missing or cannot make its sandbox."""
    found = shutil.which(bwrap)
    if found is None:
        raise IsolationError(
            f"isolation: bwrap: no program {bwrap!r} on PATH: install bubblewrap (apt-get install bubblewrap)"
        )
    probe = [*_keeper(found), *FLAGS, "--ro-bind", "/", "/", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise IsolationError(f"isolation: bwrap: cannot run {found!r}: {exc}") from None
    if done.returncode != 0:
        said = " ".join(done.stderr.decode(errors="replace").split())[:200] or f"exit status {done.returncode}"
        raise IsolationError(
            f"isolation: bwrap cannot create its namespaces here ({said}): allow unprivileged user namespaces "
            "(sysctl kernel.unprivileged_userns_clone=1) or run without isolation"
        )


def isolate_league(config: LeagueConfig, results: pathlib.Path | None) -> LeagueConfig:
    """``config`` with the bots of every entry under ``isolation: bwrap`` run isolated, each hidden from the
    results directory ``results``, the configuration and the other entries' files."""
    entries = []
    searched: dict[pathlib.Path, list[pathlib.Path]] = {}
    for entry in config.entries:
        if entry.isolation == "bwrap":
            others = [spec for other in config.entries if other is not entry for spec in (other.bot, other.partner)]
            hidden = hidden_paths(results, config.origin or None, others)
            bot, partner = (isolate(spec, hidden, searched=searched) for spec in (entry.bot, entry.partner))
            entry = dataclasses.replace(entry, bot=bot, partner=partner)
        entries.append(entry)
    return dataclasses.replace(config, entries=tuple(entries))


def any_isolated(config: LeagueConfig) -> bool:
    return any(entry.isolation != "none" for entry in config.entries)
