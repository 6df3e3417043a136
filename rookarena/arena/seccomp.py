"""The system calls an isolated bot may not make: a seccomp filter for bubblewrap (``bwrap --seccomp``).

Two sandboxes share the files of the system and of the bot's own directory (read-only, but the same
files) and the kernel, and some calls let one process see what another does: a record lock (``fcntl``
F_SETLK, ``flock``) is seen by any process that tests for it, a lease fails while another process has the
file open, ``inotify``, ``dnotify`` and ``fanotify`` report another process's reads and opens,
``mincore``, ``cachestat`` and ``preadv2`` tell which pages of a file are in memory, the kernel's keys
are listed host-wide, and ``io_setup`` adds to a host-wide count. Two partners (or two entries) could
pass a hand through any of them. Under the filter, taking a lock succeeds and takes nothing (a bot alone
in its sandbox loses nothing by it), and the rest fail with an error, as do ``io_uring`` (whose
operations would not pass through the filter) and the 32-bit system call interfaces, which would number
the calls otherwise. What stays open is what any two programs on one machine share: how busy it is,
which pages of a shared file it has in memory (by timing reads), host-wide counts; docs/league.md §8 says
what that means for partners.

The filter is classic BPF for x86-64 (:data:`ARCH`); on other machines :func:`program` gives None and the
sandbox goes without it (docs/league.md §8 says so).
"""

from __future__ import annotations

import errno
import platform
import struct

ARCH = 0xC000003E  # AUDIT_ARCH_X86_64
X32_BIT = 0x40000000  # the x32 interface's calls have this bit set in their number
ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
ERRNO = 0x00050000  # SECCOMP_RET_ERRNO: the call is not made and returns -(the low 16 bits)
NO_CALL = ERRNO | errno.ENOSYS
DONE = ERRNO | 0  # not made, and returns 0: as if it had succeeded

# x86-64 system call numbers, and what the filter makes each return.
CALLS = {
    73: DONE,  # flock
    27: NO_CALL,  # mincore
    253: NO_CALL,  # inotify_init
    294: NO_CALL,  # inotify_init1
    300: NO_CALL,  # fanotify_init (its unprivileged mode reports another process's opens by name)
    301: NO_CALL,  # fanotify_mark
    451: NO_CALL,  # cachestat
    248: NO_CALL,  # add_key (the kernel's keys are listed host-wide in /proc/keys, and may be made readable)
    249: NO_CALL,  # request_key
    250: NO_CALL,  # keyctl
    206: NO_CALL,  # io_setup (adds to the host-wide count in /proc/sys/fs/aio-nr)
    425: NO_CALL,  # io_uring_setup (its operations would not pass through this filter)
    426: NO_CALL,  # io_uring_enter
    427: NO_CALL,  # io_uring_register
    327: NO_CALL,  # preadv2 (RWF_NOWAIT tells whether a page of a file is in memory)
}
FCNTL = 72
# fcntl's commands (its second argument), and what the filter makes each return.
FCNTL_COMMANDS = {
    6: DONE,  # F_SETLK
    7: DONE,  # F_SETLKW
    37: DONE,  # F_OFD_SETLK
    38: DONE,  # F_OFD_SETLKW
    5: ERRNO | errno.ENOLCK,  # F_GETLK
    36: ERRNO | errno.ENOLCK,  # F_OFD_GETLK
    1026: ERRNO | errno.EINVAL,  # F_NOTIFY (dnotify)
    1024: ERRNO | errno.EINVAL,  # F_SETLEASE (a write lease fails while any other process has the file open)
    1025: ERRNO | errno.EINVAL,  # F_GETLEASE
}
# Offsets in struct seccomp_data: the call's number, the machine, the low half of the second argument.
NR, ARCH_AT, ARG1 = 0, 4, 24

_LD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET = 0x06  # BPF_RET | BPF_K


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def program(machine: str | None = None) -> bytes | None:
    """The filter as bwrap reads it (struct sock_filter, one after another), or None on a machine other
    than x86-64."""
    if (machine or platform.machine()) not in ("x86_64", "amd64", "AMD64"):
        return None
    returns = [ALLOW, NO_CALL, *CALLS.values(), *FCNTL_COMMANDS.values()]
    # The tests, then the returns in that order: a test jumps forward over the tests after it to its return.
    tests: list[tuple[int, int, int | None, int | None]] = []  # (code, k, index of the return if true / false)
    tests.append((_LD, ARCH_AT, None, None))
    tests.append((_JEQ, ARCH, None, 1))  # another machine's interface: no call
    tests.append((_LD, NR, None, None))
    tests.append((_JSET, X32_BIT, 1, None))
    for i, _nr in enumerate(CALLS):
        tests.append((_JEQ, _nr, 2 + i, None))
    tests.append((_JEQ, FCNTL, None, 0))  # not fcntl: allowed
    tests.append((_LD, ARG1, None, None))
    for i, command in enumerate(FCNTL_COMMANDS):
        tests.append((_JEQ, command, 2 + len(CALLS) + i, None))
    tests.append((_RET, ALLOW, None, None))  # (fcntl, another command)
    out = []
    first_return = len(tests)
    for at, (code, k, if_true, if_false) in enumerate(tests):
        if code in (_LD, _RET):
            out.append(_op(code, k))
            continue
        jt = 0 if if_true is None else first_return + if_true - at - 1
        jf = 0 if if_false is None else first_return + if_false - at - 1
        out.append(_op(code, k, jt, jf))
    out += [_op(_RET, value) for value in returns]
    return b"".join(out)


def printf_format(data: bytes) -> str:
    """``data`` as a POSIX printf format of octal escapes: a shell's ``printf`` writes it back byte for byte
    (NUL bytes included), so the keeper shell can hand bwrap the filter on a pipe."""
    return "".join(f"\\{byte:03o}" for byte in data)
