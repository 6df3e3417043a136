"""A bot's processes as the kernel sees them: its session, its descendants, and signals to its group.

Each bot is started in a session of its own (``start_new_session``), so its session id is its pid; what
it starts stays in that session unless it calls ``setsid``, and then it is still found as a descendant
while its parent lives. Read from ``/proc`` (Linux).
"""

from __future__ import annotations

import contextlib
import os
import signal


def process_tree(root: int) -> list[int]:
    """The live processes of ``root``'s session and every live descendant of ``root``, even one that left the
    session (``setsid``) while its parent lives: all that a stop must end."""
    parents: dict[int, int] = {}
    found: set[int] = set()
    for pid, fields in _stats():
        parents[pid] = int(fields[1])
        if int(fields[3]) == root:
            found.add(pid)
    frontier = [root]
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return sorted(found)


def _stats() -> list[tuple[int, list[bytes]]]:
    """Each live process's pid and the fields of its ``/proc/PID/stat`` after the command name (zombies left out)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stream:
                stat = stream.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 3 and fields[0] != b"Z":
            out.append((int(entry.name), fields))
    return out


def session_members(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a bot's own session: it was started with setsid)."""
    return [pid for pid, fields in _stats() if int(fields[3]) == sid]


def signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
