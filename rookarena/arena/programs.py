"""Whether a bot's command can start: its program is there and runnable, and an interpreter's script is
there. Pure of the configuration's format, so that the command line checks a command it is given as a
league's configuration checks one."""

from __future__ import annotations

import os
import pathlib
import shutil
from collections.abc import Sequence

INTERPRETERS = ("python", "python3", "node", "ruby", "perl", "java", "bash", "sh")
SCRIPTS = (".py", ".js", ".rb", ".pl", ".jar", ".sh")  # a word after an interpreter with these is its script


def command_problem(words: Sequence[str], where: pathlib.Path | None, search: str | None = None) -> str | None:
    """Why the command ``words``, run in ``where``, cannot start, or None: its program is missing, a directory
    or not executable, or the script it names for an interpreter is missing. Paths are said relative to
    ``where`` when it is given (a configuration's), else as the command gave them (the command line's). A
    program named without a path is looked for on ``search`` (the PATH the bot is given) or the referee's."""
    base = where if where is not None else pathlib.Path()
    relative = f" (relative to {str(where)!r})" if where is not None else ""
    program = words[0]
    if "/" in program:
        path = base / program
        if not exists(path):
            return f"no program {program!r}{relative}"
        problem = program_problem(path)
        if problem is not None:
            return f"{program!r} {problem}"
    elif shutil.which(program, path=search) is None:
        return f"no program {program!r} on PATH" + ("" if search is None else f" (the bot's: {search!r})")
    if pathlib.Path(program).name.rstrip("0123456789.") in INTERPRETERS and len(words) > 1:
        script = words[1]
        if pathlib.Path(script).suffix in SCRIPTS and not exists(base / script):
            return f"no file {script!r} for {program}{relative}"
    return None


def program_problem(path: pathlib.Path) -> str | None:
    """Why the file at ``path`` cannot be run as a program, or None when it can."""
    if is_dir(path):
        return "is a directory, not a program"
    if not os.access(path, os.X_OK):
        return f"is not executable: make it so (chmod +x {str(path)!r}) or name its interpreter first"
    return None


def exists(path: pathlib.Path) -> bool:
    """Whether ``path`` exists; a name too long for the file system (or with a NUL) does not."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_dir(path: pathlib.Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False
