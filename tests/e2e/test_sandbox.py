"""A bot run under a ``sandbox:`` prefix (bubblewrap): it plays normally and sees no network."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

BOT = """
import json, sys
interfaces = [line.split(":")[0].strip() for line in open("/proc/net/dev").read().splitlines()[2:]]
sys.stderr.write("interfaces: " + ",".join(sorted(interfaces)) + "\\n")
sys.stderr.flush()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "boxed", "version": "1", "protocol": "rook/1"}), flush=True)
    elif message["type"] == "act":
        print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)
    elif message["type"] == "bye":
        break
"""

SANDBOX = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
SANDBOX += ["--unshare-all", "--die-with-parent"]


def bwrap_works() -> bool:
    if shutil.which("bwrap") is None:
        return False
    probe = subprocess.run([*SANDBOX, "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not bwrap_works(), reason="bubblewrap is not installed or cannot create namespaces here")
def test_a_sandboxed_bot_plays_without_network(tmp_path: pathlib.Path) -> None:
    bot = tmp_path / "boxed_bot.py"
    bot.write_text(BOT, encoding="utf-8")
    config = tmp_path / "league.yaml"
    sandbox = ", ".join(SANDBOX)
    config.write_text(
        "name: boxed\ngames: 2\ntime: {move: 3, startup: 15}\nbots:\n"
        f"  - name: boxed\n    command: [{sys.executable}, {bot}]\n    sandbox: [{sandbox}]\n"
        f"  - name: plain\n    command: [{sys.executable}, -m, rookarena.randombot, '2']\n"
        f"    env: {{PYTHONPATH: {ROOT}}}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=os.environ,
    )
    assert result.returncode == 0, result.stderr
    records = (out / "games.jsonl").read_text().splitlines()
    assert len(records) == 2
    assert '"faults":[]' in records[0] or '"faults": []' in records[0]
    logs = list((out / "logs").glob("boxed-*.stderr.log"))
    assert logs
    for log in logs:
        assert "interfaces: lo\n" in log.read_text()
