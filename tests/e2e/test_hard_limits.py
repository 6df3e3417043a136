"""A bot's limits above the referee's own hard limits (a shell's ``ulimit -v``, ``ulimit -t``, which an
unprivileged process cannot raise) leave the bot under the tighter of the two: the league plays, where the
bot could not be started and the run ended in a traceback. Open files are checked before the run instead.
"""

from __future__ import annotations

import pathlib
import resource
import subprocess
import sys

import pytest
from conftest import ROOT

CASES = [
    # (config key and value, the referee's hard limit, what the bot's limit is in the kernel's units)
    ("memory", 8192, resource.RLIMIT_AS, 3 << 30),  # 8 GiB asked, 3 GiB allowed
    ("cpu", 100_000, resource.RLIMIT_CPU, 3_600),
]


def league(tmp_path: pathlib.Path, key: str, value: int) -> pathlib.Path:
    path = tmp_path / "hard.yaml"
    lines = ["name: hard", "games: 2", f"limits: {{{key}: {value}}}", "bots:"]
    for name, seed in (("a", 1), ("b", 2)):
        command = f"[{sys.executable}, -m, rookarena.randombot, '{seed}']"
        lines += [f"  - {{name: {name}, command: {command}, env: {{PYTHONPATH: {ROOT}}}}}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_under(config: pathlib.Path, out: pathlib.Path, which: int, hard: int) -> subprocess.CompletedProcess[str]:
    def lower() -> None:
        soft = resource.getrlimit(which)[0]
        resource.setrlimit(which, (hard if soft == resource.RLIM_INFINITY else min(soft, hard), hard))

    return subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lower,
    )


@pytest.mark.parametrize(("key", "value", "which", "hard"), CASES, ids=[case[0] for case in CASES])
def test_a_limit_above_the_referees_own_is_the_referees(
    tmp_path: pathlib.Path, key: str, value: int, which: int, hard: int
) -> None:
    done = run_under(league(tmp_path, key, value), tmp_path / "out", which, hard)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot start" not in (tmp_path / "out" / "games.jsonl").read_text()


def test_open_files_above_the_referees_own_are_refused_before_the_run(tmp_path: pathlib.Path) -> None:
    done = run_under(league(tmp_path, "files", 4096), tmp_path / "out", resource.RLIMIT_NOFILE, 1024)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: a bot's limits.files is 4096 but this shell's hard open-file limit is 1024"), line
    assert line.count("limits.files is") == 1  # said once, whichever bots ask for it
