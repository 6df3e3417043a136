"""``rookarena check-bot`` passes the sample bots and fails broken ones with a useful report."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent
BAD = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'bad_bot.py'}"


def check_bot(command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", command, "--games", "2", *extra],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


SAMPLES = [
    f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}",
    f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'} --no-view",
    f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'heuristic_bot.py'}",
    pytest.param(
        f"node {ROOT / 'sample_bots' / 'node' / 'random_bot.js'}",
        marks=pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("command", SAMPLES)
def test_sample_bots_are_compliant(command: str) -> None:
    result = check_bot(command)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout
    assert ": compliant" in result.stdout
    assert result.stdout.count("PASS") >= 7


BROKEN = [
    # mode, words in the report, words of advice
    ("garbage", "the bot sent: 'this is not json'", "write logs to stderr"),
    ("silent", "timeout: no reply", "flush stdout"),
    ("illegal", "'bid 999'", "'legal' list"),
    ("crash-start", "exited with status 3", ""),
    ("crash-mid", "exited with status 7", "stderr log"),
    ("ignore-sigterm", "stopped by sigkill", "end of file"),
    ("leave-child", "left 1 process(es) of its own running", "every child process"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "report", "advice"), BROKEN)
def test_broken_bots_fail_with_a_useful_report(mode: str, report: str, advice: str) -> None:
    result = check_bot(f"{BAD} {mode}", "--move-time", "0.5", "--startup", "3")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "NOT compliant" in result.stdout
    assert report in result.stdout
    assert advice in result.stdout
    assert "Traceback" not in result.stderr
