"""Every way a league may write a bot's command runs isolated as it runs without isolation: the sandbox
shows the bot its own program and the programs its command starts, wherever they are named. A ``sandbox:``
prefix, an interpreter's option (``python3 -u bot.py``) or a program found on the bot's own PATH had hidden
the bot's program from it, and every game of the entry was a crash."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH"),
]

RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"


def entries(tmp_path: pathlib.Path) -> dict[str, str]:
    """Each kind of command, as the YAML of one bot entry (after its name)."""
    program_dir = tmp_path / "pbin"
    program_dir.mkdir()
    wrapper = program_dir / "mybot"
    # the system's Python: a program found on PATH runs what its first line names, which the sandbox shows
    wrapper.write_text("#!/usr/bin/python3\n" + RANDOM_BOT.read_text(encoding="utf-8"), encoding="utf-8")
    wrapper.chmod(0o755)
    python = json.dumps(sys.executable)
    here = json.dumps(str(RANDOM_BOT))
    path = json.dumps(f"{program_dir}:/usr/bin:/bin")
    return {
        "prefixed": f"command: [{python}, {here}]\n    sandbox: [setpriv, --no-new-privs]",
        "option": f"command: [{python}, -u, {here}]",
        "options": f"command: [{python}, -B, -X, dev, {here}]",
        "own-path": f"command: [mybot]\n    env: {{PATH: {path}}}",
        "prefixed-builtin": (
            f"command: [rookarena, bot, random, --seed, '3']\n    sandbox: [setpriv, --no-new-privs]\n"
            f"    env: {{PATH: {json.dumps(str(pathlib.Path(sys.executable).parent) + ':/usr/bin:/bin')}}}"
        )
        if (pathlib.Path(sys.executable).parent / "rookarena").exists()
        else f"command: [{python}, {here}]",
        "plain": f"command: [{python}, {here}]",
    }


@pytest.mark.parametrize("kind", ["prefixed", "option", "options", "own-path", "prefixed-builtin"])
def test_an_isolated_bot_plays_however_its_command_is_written(tmp_path: pathlib.Path, kind: str) -> None:
    if kind == "own-path" and not pathlib.Path("/usr/bin/python3").exists():
        pytest.skip("no /usr/bin/python3 for a program found on PATH")
    written = entries(tmp_path)
    config = tmp_path / "league.yaml"
    config.write_text(
        "name: iso\ngames: 2\nseed: 4\nisolation: bwrap\ntime: {move: 2, startup: 15}\nbots:\n"
        f"  - name: {kind}\n    {written[kind]}\n"
        f"  - name: plain\n    {written['plain']}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(tmp_path / "out"), "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    played = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(played) == 2 and all(record["faults"] == [] for record in played), [r["faults"] for r in played]
