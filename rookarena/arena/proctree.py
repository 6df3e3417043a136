"""A bot's processes as the kernel sees them: its session, its descendants, and signals to its group.

Each bot is started in a session of its own (``start_new_session``), so its session id is its pid; what
it starts stays in that session unless it calls ``setsid``, and then it is still found as a descendant
while its parent lives. A process that starts bots makes itself a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``), so a bot's process whose parent exits is re-parented to it rather
than to init: it stays in reach, is found among this process's children, and is reaped here. Every bot
process is started with :data:`MARK` in its environment, naming the bot, and its descendants inherit it:
that is how a process that left both the session and the tree (``setsid`` then a double fork) is still
told to be that bot's. Read from ``/proc`` (Linux). cgroup v2 would do the same more strongly; where it is
not available to this process (see :func:`tracking`), these are what is used.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import os
import signal
from collections.abc import Sequence

MARK = "ROOKARENA_BOT"  # the environment variable naming the bot a process belongs to
PR_SET_CHILD_SUBREAPER = 36
_tokens = itertools.count(1)


@functools.cache
def become_subreaper() -> bool:
    """Make this process the child subreaper of everything it starts (once); whether the kernel agreed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return False


def tracking() -> str:
    """How this process follows its bots' processes: ``subreaper`` (the subreaper, the session, the tree
    and the environment mark) or ``session`` (no subreaper: what leaves both session and tree escapes)."""
    return "subreaper" if become_subreaper() else "session"


def new_token() -> str:
    """A value of :data:`MARK` for one bot process, unique on this machine while this process lives."""
    return f"{os.getpid()}.{next(_tokens)}"


def marked(token: str) -> list[int]:
    """Every live process whose environment says it belongs to the bot ``token``."""
    wanted = f"{MARK}={token}".encode()
    out = []
    for pid, _ in _stats():
        try:
            with open(f"/proc/{pid}/environ", "rb") as stream:
                environ = stream.read()
        except OSError:
            continue
        if wanted in environ.split(b"\0"):
            out.append(pid)
    return out


def bot_processes(root: int, token: str | None, *, thorough: bool = True) -> list[int]:
    """All that belongs to the bot started as ``root``: its session, its descendants, and the processes
    marked with its token, with their descendants. ``thorough`` looks for the mark in every process;
    otherwise only among this process's children that it did not start (those re-parented to it), which
    costs little enough to be done a few times a second."""
    stats = _stats()
    found = set(_tree(root, stats))
    if token is None:
        return sorted(found)
    if thorough:
        candidates = marked(token)
    else:
        me, wanted = os.getpid(), f"{MARK}={token}".encode()
        candidates = []
        for pid, fields in stats:
            if int(fields[1]) != me or pid in _started or pid in found:
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as stream:
                    if wanted in stream.read().split(b"\0"):
                        candidates.append(pid)
            except OSError:
                continue
    for pid in candidates:
        if pid not in found:
            found.add(pid)
            found.update(_tree(pid, stats))
    return sorted(found)


def kill_bot(root: int, token: str) -> int:
    """SIGKILL everything of the bot started as ``root`` (see :func:`bot_processes`); return how many."""
    pids = set(bot_processes(root, token)) - {os.getpid()}
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


def reap_orphans() -> int:
    """Reap the children of this process that are zombies it did not start itself (a bot's processes,
    re-parented to it as their subreaper, then ended); return how many."""
    me = os.getpid()
    reaped = 0
    for pid, fields in _stats(zombies=True):
        if fields[0] != b"Z" or int(fields[1]) != me:
            continue
        if pid in _started:
            continue
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
    return reaped


def kill_strays() -> int:
    """Kill and reap every live child of this process that it did not start itself, marked or not, with all
    below it; return how many. Only for the end of a referee process's life, once all its bots are stopped:
    then whatever is still re-parented to it was left by one of them, even a process that dropped its mark.
    A child in this process's own session is never one: every bot starts a session of its own, and no
    process can join another's, so a child here in this session was started by the program that embeds
    the referee (a browser driver in a test, say) and is left alone."""
    me, own, killed = os.getpid(), os.getsid(0), 0
    for _ in range(5):  # what is below a killed stray is re-parented here in turn
        stats = _stats()
        strays = [
            pid for pid, fields in stats if int(fields[1]) == me and int(fields[3]) != own and pid not in _started
        ]
        if not strays:
            break
        for pid in {*strays, *(below for stray in strays for below in _tree(stray, stats))}:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        for pid in strays:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    reap_orphans()
    return killed


_started: set[int] = set()  # processes this process started itself (trio reaps them): never reaped here


def started(pid: int) -> None:
    _started.add(pid)


def forget(pid: int) -> None:
    _started.discard(pid)


def process_tree(root: int) -> list[int]:
    """The live processes of ``root``'s session and every live descendant of ``root``, even one that left the
    session (``setsid``) while its parent lives: all that a stop must end."""
    return _tree(root, _stats())


def _tree(root: int, stats: list[tuple[int, list[bytes]]]) -> list[int]:
    parents: dict[int, int] = {}
    found: set[int] = set()
    for pid, fields in stats:
        parents[pid] = int(fields[1])
        if int(fields[3]) == root:
            found.add(pid)
    # Walked from the root and from every process of its session: a session member's children may have
    # left the session (setsid), and they are the bot's all the same.
    frontier = [root, *found]
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return sorted(found)


def _stats(zombies: bool = False) -> list[tuple[int, list[bytes]]]:
    """Each process's pid and the fields of its ``/proc/PID/stat`` after the command name (zombies left out
    unless ``zombies``)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        fields = _fields(int(entry.name))
        if len(fields) > 3 and (zombies or fields[0] != b"Z"):
            out.append((int(entry.name), fields))
    return out


def _fields(pid: int) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name (which may hold spaces); none when the
    process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            stat = stream.read()
    except OSError:
        return []
    return stat[stat.rfind(b")") + 2 :].split()


def state(pid: int) -> bytes:
    """A process's state letter (``R``, ``S``, ``T``, ``Z``, ...); empty when it is gone."""
    fields = _fields(pid)
    return fields[0] if fields else b""


PF_EXITING = 0x4  # a process's flag (the 9th field of /proc/PID/stat) while the kernel ends it


def running(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` that are alive and not already being ended by the kernel (a sandbox's init that
    exits after the bot is one being ended: no process the bot left running)."""
    out = []
    for pid in pids:
        fields = _fields(pid)
        if len(fields) > 6 and fields[0] not in (b"Z", b"X") and not int(fields[6]) & PF_EXITING:
            out.append(pid)
    return out


def session_members(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a bot's own session: it was started with setsid)."""
    return [pid for pid, fields in _stats() if int(fields[3]) == sid]


def signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
