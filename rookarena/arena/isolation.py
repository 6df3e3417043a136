"""Shutting a bot in: the bubblewrap (``bwrap``) command that leaves it only the protocol to talk through.

A bot under ``isolation: bwrap`` runs in a sandbox of its own, one per process, so that a team's two
seats are as far apart as two opponents. The sandbox sees, read-only: the system's files (``/usr``,
``/bin``, ``/lib*``, ``/etc``, ``/opt``), what its interpreter needs when that lives elsewhere (a virtual
environment, this package), and the bot's own directory: its ``cwd`` when one is given, else the directory
holding its program (the script, for an interpreter), where it also starts. Inside those, the results
directory, the configuration file and other bots' directories and programs are masked (an empty tmpfs
over a directory, ``/dev/null`` over a file). It has a private ``/tmp`` and ``/dev`` (so ``/dev/shm``),
no network (so no abstract unix sockets shared with anyone), its own process ids and ``/proc`` (so no
signals to, nor reading of, any process outside it), its own IPC and host name, and it dies with the
process that started it. It stays in the session the referee gave it (which has no terminal, what
bubblewrap's ``--new-session`` guards), so that its processes are counted (``limits.processes``) and
stopped like any bot's.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import shutil
import subprocess
from collections.abc import Iterable, Sequence

from rookarena.arena.specs import BotSpec, LeagueConfig
from rookarena.errors import RookError

CHOICES = ("none", "bwrap")
SYSTEM_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
INTERPRETERS = ("python", "python3", "node", "ruby", "perl", "java", "bash", "sh")
PACKAGE_DIR = pathlib.Path(__file__).resolve().parent.parent  # the rookarena package
FLAGS = (
    "--unshare-all",  # user (when possible), pid, net, ipc, uts, cgroup
    "--cap-drop",  # a referee run as root would otherwise leave the bot root's capabilities, with which it
    "ALL",  # could unmount the masks over the results directory
    "--die-with-parent",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
)


# bwrap's --die-with-parent ties the sandbox to the thread that started bwrap, and trio starts processes
# from worker threads that end when idle: a shell in between (not exec'ing bwrap) is a parent that lives as
# long as the sandbox, and is in the bot's process group, so that stopping the bot stops bwrap and with it
# the sandbox.
KEEPER = ("/bin/sh", "-c", '"$0" "$@"; exit "$?"')


class IsolationError(RookError):
    """Bots cannot be isolated on this machine (no bubblewrap, or no namespaces)."""


def program_path(spec: BotSpec) -> tuple[int, pathlib.Path] | None:
    """Which word of a bot's command names the file it runs, and that file as an absolute path: the script
    for an interpreter, else the program when it is named by a path; None for a program found on PATH (or a
    module run with ``-m``)."""
    where = pathlib.Path(spec.cwd) if spec.cwd else pathlib.Path.cwd()
    words = spec.command
    if pathlib.Path(words[0]).name.rstrip("0123456789.") in INTERPRETERS and len(words) > 1:
        if not words[1].startswith("-") and (where / words[1]).is_file():
            return 1, (where / words[1]).resolve()
        return None
    if "/" in words[0]:
        return 0, (where / words[0]).resolve()
    return None


def own_directory(spec: BotSpec) -> pathlib.Path | None:
    """The bot's own directory: its cwd when given, else the directory of its program (see above)."""
    if spec.cwd:
        return pathlib.Path(spec.cwd).resolve()
    program = program_path(spec)
    return program[1].parent if program is not None else None


def _interpreter_dirs(spec: BotSpec) -> list[pathlib.Path]:
    """Directories outside the system's that the bot's first program needs: a virtual environment (and
    the Python it was made from), and this package for ``-m rookarena...`` in an editable install."""
    first = spec.command[0]
    found = str(pathlib.Path(spec.cwd or ".") / first) if "/" in first else shutil.which(first)
    out: list[pathlib.Path] = []
    if found is not None:
        directory = pathlib.Path(os.path.abspath(found)).parent
        if directory.name == "bin" and (directory.parent / "pyvenv.cfg").is_file():
            out.append(directory.parent)
            for line in (directory.parent / "pyvenv.cfg").read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "home" and value.strip():
                    out.append(pathlib.Path(value.strip()).resolve().parent)
        elif not _under_system(directory):
            out.append(directory)
        real = pathlib.Path(found).resolve().parent
        if not _under_system(real):
            out.append(real)
    out.append(PACKAGE_DIR)
    return [path for path in out if not _under_system(path)]


def _under_system(path: pathlib.Path) -> bool:
    return any(path == pathlib.Path(root) or pathlib.Path(root) in path.parents for root in SYSTEM_ROOTS)


def _within(path: pathlib.Path, roots: Iterable[pathlib.Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def command(spec: BotSpec, hidden: Sequence[pathlib.Path], bwrap: str = "bwrap") -> tuple[str, ...]:
    """The command that runs ``spec`` isolated, with the paths ``hidden`` masked where it could see them."""
    words: list[str] = [*KEEPER, shutil.which(bwrap) or bwrap, *FLAGS]
    for root in SYSTEM_ROOTS:
        if os.path.islink(root):
            words += ["--symlink", os.readlink(root), root]
        elif os.path.isdir(root):
            words += ["--ro-bind", root, root]
    own = own_directory(spec)
    wanted = [path for path in dict.fromkeys([*_interpreter_dirs(spec), *([own] if own else [])]) if path.is_dir()]
    bound = [path for path in wanted if not any(other in path.parents for other in wanted)]
    for path in bound:
        words += ["--ro-bind", str(path), str(path)]
    program = program_path(spec)
    mine = [path for path in (own, program[1] if program else None) if path is not None]
    for path in hidden:
        path = path.resolve()
        if not _within(path, bound) or any(_within(item, [path]) for item in mine):
            continue  # out of sight already, or the bot's own directory or program (never hidden from it)
        if path.is_dir():
            words += ["--tmpfs", str(path)]
        elif path.exists():
            words += ["--ro-bind", "/dev/null", str(path)]
    words += ["--chdir", str(own) if own is not None else "/tmp", "--"]
    rest = list(spec.command)
    if program is not None:  # named by its absolute path: the bot may start elsewhere than the referee's cwd
        rest[program[0]] = str(program[1])
    return (*words, *rest)


def isolate(spec: BotSpec, hidden: Sequence[pathlib.Path], bwrap: str = "bwrap") -> BotSpec:
    """``spec`` run under bubblewrap, hiding ``hidden`` from it."""
    return dataclasses.replace(spec, command=command(spec, hidden, bwrap))


def hidden_paths(
    results: pathlib.Path | None, config_file: str | None, others: Iterable[BotSpec]
) -> list[pathlib.Path]:
    """What an isolated bot must never see: the results directory (records, league.json, logs) and every
    results directory under ./results, the configuration, and the other bots' directories and programs."""
    out: list[pathlib.Path] = [pathlib.Path("results").resolve()]
    if results is not None:
        out.append(results.resolve())
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
    probe = [found, *FLAGS, "--ro-bind", "/", "/", "--", "true"]
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
    for entry in config.entries:
        if entry.isolation == "bwrap":
            others = [spec for other in config.entries if other is not entry for spec in (other.bot, other.partner)]
            hidden = hidden_paths(results, config.origin or None, others)
            entry = dataclasses.replace(entry, bot=isolate(entry.bot, hidden), partner=isolate(entry.partner, hidden))
        entries.append(entry)
    return dataclasses.replace(config, entries=tuple(entries))


def any_isolated(config: LeagueConfig) -> bool:
    return any(entry.isolation != "none" for entry in config.entries)
