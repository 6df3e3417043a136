"""The kernel side of a bot: its environment and limits at spawn, what its exit status says, ending its tree."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import resource
import select
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence

import trio

from rookarena.arena import proctree
from rookarena.arena.proctree import bot_processes, signal_group
from rookarena.arena.specs import Fault, Limits
from rookarena.wire.conversation import FaultKind

log = logging.getLogger(__name__)

STOP_WAIT = 5.0  # seconds: the most a stop waits for the kernel to reap a killed process or end a pipe
SETTLE = 0.3  # seconds: the most a bot that exited is given for what was ending with it to end, before the rest
# of its tree counts as left running
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

# The only variables of the referee's environment a bot sees; everything else (tokens, keys, paths to
# private files) stays behind. A bot's configuration may add its own.
ENV_ALLOWED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")

# Words a program prints when it runs out of the memory its limit allows (Python, C++, Node, Java, C).
MEMORY_WORDS = (
    b"MemoryError",
    b"bad_alloc",
    b"out of memory",
    b"Cannot allocate memory",
    b"OutOfMemoryError",
    b"Fatal process OOM",
)
FILES_WORDS = (b"Too many open files",)


def bot_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """A bot's environment: the allow-listed variables, the bot's own, and ``PYTHONUNBUFFERED=1``."""
    env = {name: os.environ[name] for name in ENV_ALLOWED if name in os.environ}
    env.update(extra)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def preexec(limits: Limits) -> Callable[[], None] | None:
    """The function that applies the kernel-enforced limits in the child before it runs the bot."""
    settings: list[tuple[int, int, int]] = []
    if limits.memory_mb is not None:
        size = limits.memory_mb * 1024 * 1024
        settings.append((resource.RLIMIT_AS, size, size))
    if limits.cpu_seconds is not None:
        settings.append((resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1))
    if limits.files is not None:
        settings.append((resource.RLIMIT_NOFILE, limits.files, limits.files))
    if not settings:
        return None

    def apply() -> None:
        for which, soft, hard in settings:
            # Never above the referee's own hard limit, which an unprivileged process cannot raise (a shell's
            # `ulimit -v`): the bot then runs under the tighter of the two, as it would run anyway.
            ceiling = resource.getrlimit(which)[1]
            if ceiling != resource.RLIM_INFINITY:
                soft, hard = min(soft, ceiling), min(hard, ceiling)
            resource.setrlimit(which, (soft, hard))

    return apply


SPAWN_ERRORS = (OSError, subprocess.SubprocessError)  # what spawn raises: the latter when limits cannot be set


def why(exc: OSError | subprocess.SubprocessError, command: Sequence[str] = (), cwd: str | None = None) -> str:
    """Why :func:`spawn` failed, in words: the system's, or that the bot's limits could not be set. Where the
    program exists, what its first line says of it: a ``#!`` interpreter that does not exist (the system
    says "No such file or directory" of a file that is there), or no ``#!`` line at all."""
    if not isinstance(exc, OSError):
        return f"its limits could not be set: {exc}"
    said = exc.strerror or str(exc)
    if exc.errno not in (errno.ENOENT, errno.ENOEXEC) or not command or "/" not in command[0]:
        return said
    try:
        with open(os.path.join(cwd or ".", command[0]), "rb") as file:
            first = file.readline(256)
    except OSError:
        return said
    if first.startswith(b"#!"):
        words = first[2:].split()
        interpreter = words[0].decode(errors="backslashreplace") if words else ""
        if exc.errno == errno.ENOENT and interpreter and not os.path.exists(interpreter):
            return f"{said}: its #! line names {interpreter!r}, which does not exist"
        return said
    if exc.errno == errno.ENOEXEC and first.startswith(b"\x7fELF"):
        return f"{said}: a program built for another kind of machine"
    if exc.errno == errno.ENOEXEC:
        return f"{said}: not a program (a script needs a #! line naming its interpreter)"
    return said


async def spawn(command: Sequence[str], cwd: str | None, env: dict[str, str], limits: Limits) -> trio.Process:
    """Start a bot's program in a session of its own, its three streams piped, under its limits."""
    proctree.become_subreaper()
    return await trio.lowlevel.open_process(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=preexec(limits),
    )


def exit_fault(code: int, limits: Limits, stderr_tail: bytes) -> tuple[Fault, bool]:
    """The fault an exit status (and the end of stderr) tells of, and whether it was a stop signal the
    referee did not send."""
    if limits.cpu_seconds is not None and code == -signal.SIGXCPU:
        return Fault(FaultKind.LIMIT, f"cpu: used its {limits.cpu_seconds} s of CPU time"), False
    if limits.memory_mb is not None and any(word in stderr_tail for word in MEMORY_WORDS):
        return Fault(FaultKind.LIMIT, f"memory: ran out of its {limits.memory_mb} MiB"), False
    if limits.files is not None and any(word in stderr_tail for word in FILES_WORDS):
        return Fault(FaultKind.LIMIT, f"files: opened more than {limits.files} files"), False
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        if -code in STOP_SIGNALS:
            return Fault(FaultKind.CRASH, f"killed by {name}, which the referee did not send"), True
        return Fault(FaultKind.CRASH, f"killed by {name}"), False
    return Fault(FaultKind.CRASH, f"exited with status {code}"), False


def kill_tree(pid: int, token: str) -> None:
    """SIGKILL to a bot's process group and to every other process of its tree, at once."""
    signal_group(pid, signal.SIGKILL)
    kill_all(bot_processes(pid, token))


async def end(process: trio.Process, token: str, grace: float, label: str) -> tuple[str, int]:
    """End a bot whose input was closed: a grace period, SIGTERM, another, then SIGKILL to everything of it;
    reap it. Returns how it ended ("exit" on its own, "sigterm" or "sigkill") and how many processes of its
    tree it left running when it exited on its own."""
    with trio.move_on_after(grace):
        await process.wait()
    ended_by, left_behind = "exit", 0
    # Who is left: everything of the bot but its own process, when that exited on its own. What left the
    # session and the tree (setsid, then a double fork) is still found: re-parented to this process, its
    # subreaper, and marked with the bot's token.
    if process.returncode is not None:
        tree = await _settled(process.pid, token)
        left_behind = len(tree)
    else:
        tree = bot_processes(process.pid, token)
        ended_by = "sigterm"
        signal_group(process.pid, signal.SIGTERM)
        with trio.move_on_after(grace):
            await process.wait()
        if process.returncode is None:
            ended_by = "sigkill"
    signal_group(process.pid, signal.SIGKILL)  # leftovers in the group, even after the leader exited
    for _ in range(3):  # and everything else of it, looked for again: what it started meanwhile
        kill_all(tree)
        if process.returncode is not None and not tree:
            break
        tree = [pid for pid in bot_processes(process.pid, token) if pid != process.pid]
    with trio.move_on_after(STOP_WAIT):
        await process.wait()
    if process.returncode is None:  # pragma: no cover - a process the kernel cannot end (stuck in I/O)
        log.warning("%s: pid %d did not end within %g s of SIGKILL", label, process.pid, STOP_WAIT)
    else:
        proctree.forget(process.pid)
    await reap()
    return ended_by, left_behind


async def _settled(pid: int, token: str) -> list[int]:
    """What is left of a bot that exited on its own, once what was ending with it has ended: a sandbox's
    own processes (bwrap's, its init) exit a moment after the bot, and are no process the bot left."""
    with trio.move_on_after(SETTLE):
        while tree := proctree.running([found for found in bot_processes(pid, token) if found != pid]):
            await reap()
            await trio.sleep(0.01)
    return tree


def input_closed(fd: int) -> bool:
    """Whether every reader of a bot's stdin (whose pipe's write end is ``fd``) has closed it: the write end
    then polls as an error."""
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(mask & select.POLLERR for _, mask in poller.poll(0))


# What a timeout's detail adds when a process of the bot was stopped (it could not have answered).
STOPPED = "a process of the bot was stopped (state T: SIGSTOP, SIGTSTP or a debugger)"


def stopped(pid: int, token: str) -> bool:
    """Whether a process of the bot started as ``pid`` is stopped by a signal or traced (state T or t)."""
    return any(proctree.state(found) in (b"T", b"t") for found in bot_processes(pid, token))


def kill_all(pids: Sequence[int]) -> None:
    for pid in set(pids) - {os.getpid()}:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


async def reap() -> None:
    """Reap the zombies of killed processes re-parented to this process (their subreaper)."""
    for _ in range(10):
        if not proctree.reap_orphans():
            return
        await trio.sleep(0.01)


def fd_of(stream: trio.abc.SendStream | trio.abc.ReceiveStream | None) -> int:
    """The descriptor of one of a process's pipes (on POSIX, trio opens them as ``FdStream``)."""
    assert isinstance(stream, trio.lowlevel.FdStream)
    return stream.fileno()
