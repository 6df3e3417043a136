"""A script run by its ``#!`` line but saved with Windows line endings is named as that, whatever the
interpreter and whichever way the system fails it (``env`` exits 127, the kernel refuses the exec); the same
script with Unix line endings, or run by a named interpreter, is not blamed on its line endings."""

from __future__ import annotations

import pathlib
import sys

import pytest
import trio

from rookarena.arena.handshake import probe
from rookarena.arena.specs import BotSpec
from rookarena.wire.advice import SHEBANG_CR

SHEBANGS = ["#!/usr/bin/env python3", f"#!{sys.executable}", "#!/bin/sh", "#!/usr/bin/env -S python3 -u"]
BODY = {"#!/bin/sh": ["exit 3"]}  # a script that fails on its own; python's by default


def advice(tmp_path: pathlib.Path, shebang: str, ending: str, named: bool) -> str:
    script = tmp_path / "bot.py"
    lines = [shebang, *BODY.get(shebang, ["import sys", "sys.exit(3)"])]
    script.write_bytes("".join(line + ending for line in lines).encode())
    script.chmod(0o755)
    command = (sys.executable, str(script)) if named else (str(script),)
    found = trio.run(probe, BotSpec(name="bot", command=command), 5.0)
    assert found.hello is None and found.fault is not None
    return found.fault.advice


@pytest.mark.parametrize("shebang", SHEBANGS)
def test_a_shebang_ended_by_cr_lf_is_named(tmp_path: pathlib.Path, shebang: str) -> None:
    assert advice(tmp_path, shebang, "\r\n", named=False).startswith(SHEBANG_CR)


OTHERS = [  # with Unix endings; and with Windows endings run by a named interpreter (python's scripts only)
    *((shebang, "\n", False) for shebang in SHEBANGS),
    *((shebang, "\r\n", True) for shebang in SHEBANGS if shebang not in BODY),
]


@pytest.mark.parametrize(("shebang", "ending", "named"), OTHERS)
def test_other_failures_are_not_blamed_on_line_endings(
    tmp_path: pathlib.Path, shebang: str, ending: str, named: bool
) -> None:
    assert not advice(tmp_path, shebang, ending, named).startswith(SHEBANG_CR)
