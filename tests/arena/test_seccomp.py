"""The isolated bot's seccomp filter: each system call and fcntl command gets what the table of the module
says, checked by running the filter's classic BPF in a small interpreter written here, over generated
calls; and in a real sandbox, the calls that would let two sandboxes see each other's use of a shared file
(locks, inotify, mincore) and the kernel's settings are closed, while the rest of a bot's work runs."""

from __future__ import annotations

import errno
import json
import pathlib
import shutil
import struct
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rookarena.arena import isolation, seccomp
from rookarena.arena.specs import BotSpec

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None or seccomp.program() is None, reason="needs bubblewrap on x86-64"
)


def run_bpf(program: bytes, arch: int, nr: int, arg1: int) -> int:
    """The filter's verdict on one call: classic BPF's loads of the seccomp data, jumps and returns."""
    data = struct.pack("<IIQ6Q", nr, arch, 0x400000, 0, arg1, 0, 0, 0, 0)
    code = [struct.unpack("<HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    acc, at = 0, 0
    while True:
        op, jt, jf, k = code[at]
        if op == 0x20:
            acc = struct.unpack("<I", data[k : k + 4])[0]
        elif op == 0x06:
            return int(k)
        elif op in (0x15, 0x45):
            taken = acc == k if op == 0x15 else bool(acc & k)
            at += jt if taken else jf
        else:
            raise AssertionError(f"unexpected BPF op {op:#x}")
        at += 1


def expected(arch: int, nr: int, arg1: int) -> int:
    if arch != seccomp.ARCH or nr & seccomp.X32_BIT:
        return seccomp.NO_CALL
    if nr in seccomp.CALLS:
        return seccomp.CALLS[nr]
    if nr == seccomp.FCNTL:
        return seccomp.FCNTL_COMMANDS.get(arg1, seccomp.ALLOW)
    return seccomp.ALLOW


PROGRAM = seccomp.program("x86_64")
CALL_NUMBERS = st.one_of(
    st.sampled_from([*seccomp.CALLS, seccomp.FCNTL, 0, 1, 59, 57, 60, 231]),
    st.integers(0, 600),
    st.integers(0, 2**32 - 1),
)
FCNTL_ARGS = st.one_of(
    st.sampled_from([*seccomp.FCNTL_COMMANDS, 0, 1, 2, 3, 4, 1024, 1025, 1030]), st.integers(0, 2**32 - 1)
)


@given(st.sampled_from([seccomp.ARCH, 0x40000003, 0xC00000B7]), CALL_NUMBERS, FCNTL_ARGS)
def test_each_call_gets_what_the_table_says(arch: int, nr: int, arg1: int) -> None:
    assert PROGRAM is not None
    assert run_bpf(PROGRAM, arch, nr, arg1) == expected(arch, nr, arg1)


def test_the_filter_is_for_x86_64_only() -> None:
    assert seccomp.program("aarch64") is None
    assert PROGRAM is not None and len(PROGRAM) % 8 == 0


def test_printf_format_gives_the_bytes_back() -> None:
    data = bytes(range(256))
    shell = ["/bin/sh", "-c", 'printf "$1"', "sh", seccomp.printf_format(data)]
    done = subprocess.run(shell, capture_output=True, check=False)
    assert done.stdout == data


PROBE = r"""
import ctypes, fcntl, json, mmap, struct, subprocess, sys
out = {}
def attempt(name, call):
    try:
        out[name] = ["ok", call()]
    except OSError as exc:
        out[name] = ["error", exc.errno]
f = open(sys.argv[1], "rb")
lock = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 5, 1, 0)
attempt("lockf", lambda: fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, 5))
attempt("flock", lambda: fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt("getlk", lambda: struct.unpack("hhqqi", fcntl.fcntl(f, fcntl.F_GETLK, lock))[0])
libc = ctypes.CDLL(None, use_errno=True)
def checked(result, name):
    if result < 0:
        raise OSError(ctypes.get_errno(), name)
    return 0
attempt("inotify", lambda: checked(libc.inotify_init1(0), "inotify_init1"))
page = mmap.mmap(-1, 4096)
where = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(page)))
vec = ctypes.create_string_buffer(1)
attempt("mincore", lambda: checked(libc.mincore(where, ctypes.c_size_t(4096), vec), "mincore"))
attempt("add_key", lambda: checked(libc.syscall(248, b"user", b"rook:x", b"hand", 4, -2), "add_key"))
attempt("keyctl", lambda: checked(libc.syscall(250, 0, -2, 0, 0, 0), "keyctl"))
attempt("fanotify", lambda: checked(libc.syscall(300, 0x200, 0), "fanotify_init"))
params = ctypes.create_string_buffer(120)
attempt("io_uring", lambda: checked(libc.syscall(425, 1, params), "io_uring_setup"))
attempt("io_setup", lambda: checked(libc.syscall(206, 1, ctypes.byref(ctypes.c_ulong(0))), "io_setup"))
attempt("lease", lambda: fcntl.fcntl(f, 1024, fcntl.F_RDLCK))
def sysctl():
    with open("/proc/sys/vm/swappiness", "r+") as s:
        s.write(s.read())
attempt("sysctl", sysctl)
child = [sys.executable, "-c", "print(7)"]
attempt("child", lambda: subprocess.run(child, capture_output=True, text=True).stdout.strip())
attempt("write", lambda: open("/tmp/x", "w").write("x"))
print(json.dumps(out))
"""


@needs_bwrap
def test_an_isolated_bot_cannot_use_a_shared_file_as_a_channel_nor_change_the_kernel(
    tmp_path: pathlib.Path,
) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    spec = BotSpec("probe", (sys.executable, str(probe), str(probe)))
    done = subprocess.run(
        isolation.command(spec, []), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["lockf"] == ["ok", None] and said["flock"] == ["ok", None]  # a lock taken... and taken nowhere
    assert said["getlk"] == ["error", errno.ENOLCK]
    assert said["inotify"] == ["error", errno.ENOSYS]
    assert said["mincore"] == ["error", errno.ENOSYS]
    assert said["sysctl"] == ["error", errno.EROFS]
    for call in ("add_key", "keyctl", "fanotify", "io_uring", "io_setup"):
        assert said[call] == ["error", errno.ENOSYS], (call, said[call])
    assert said["lease"] == ["error", errno.EINVAL]
    assert said["child"] == ["ok", "7"] and said["write"] == ["ok", 1]
