"""``rookarena check-bot`` passes the sample bots and fails broken ones with advice that fits the cause."""

from __future__ import annotations

import concurrent.futures
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, TEST_BOTS

from rookarena.arena.checkbot import Check, _phases
from rookarena.cli.text import report_card

BAD = f"{sys.executable} {TEST_BOTS / 'bad_bot.py'}"
SCRIPTED = f"{sys.executable} {TEST_BOTS / 'scripted_bot.py'}"


def check_bot(command: str, *extra: str, tmp: pathlib.Path | None = None) -> subprocess.CompletedProcess[str]:
    env = None if tmp is None else {**os.environ, "TMPDIR": str(tmp)}  # to see what the command leaves there
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", command, "--games", "2", *extra],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env=env,
    )


FAST = ("--move-time", "0.5", "--startup", "3")


@pytest.fixture(scope="module")
def reports() -> dict[str, subprocess.CompletedProcess[str]]:
    """The report of every command below, run a few at a time: most of a check of a broken bot is
    waiting for its deadlines, so running them side by side costs little."""
    commands = [*(case[0] for case in BROKEN), PASSER, *(case[0] for case in FRAGILE)]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        results = pool.map(lambda command: check_bot(command, *FAST), commands)
        return dict(zip(commands, results, strict=True))


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
    assert result.stdout.count("PASS") >= 10  # handshake, and games, phases, exit under each of three presets


BROKEN = [
    # command, words in the report, words of advice
    (f"{BAD} garbage", "the bot sent: 'this is not json'", "write logs and debugging output to stderr"),
    (f"{BAD} silent", "timeout: no reply", "flush stdout"),
    (f"{BAD} illegal", "'bid 999'", "'legal' list"),
    (f"{BAD} crash-start", "exited with status 3 before saying hello", "stderr"),
    (f"{BAD} crash-mid", "exited with status 7", "stderr"),
    (f"{BAD} close-stdout", "crash: closed its output", "keep stdout open until 'bye'"),
    (f"{BAD} close-stdin", "crash: closed its input (stdin) while still running", "keep reading stdin until 'bye'"),
    (
        f"{BAD} no-newline-exit",
        "bytes of a line were waiting without their newline",
        "end every message with a newline",
    ),
    (f"{BAD} close-stdin-mute", "crash: closed its input (stdin)", "keep reading stdin until 'bye'"),
    (f"{BAD} endless-line", "limit: line: longer than 65536 bytes", "keep lines under 64 KiB"),
    (f"{BAD} ignore-sigterm", "stopped by sigkill", "end of file"),
    (f"{BAD} leave-child", "left 1 process(es) of its own running", "every child process"),
    (f"{BAD} stale-id", "that id is an earlier request's (stale)", "its own id"),
    (f"{SCRIPTED} play " + shlex.quote('{"id":"{id}","action":"{legal}"}'), "got the string", 'not {"id": "7"}'),
    (f"{SCRIPTED} play " + shlex.quote('{"id":{id}.5,"action":"{legal}"}'), "got the number", "not 7.5"),
    (f"{SCRIPTED} play " + shlex.quote('{"id":{id}}'), "reply has no 'action'", "always both keys"),
    (f"{SCRIPTED} play " + shlex.quote('{"id":{id},"action":"{lower}"}'), "did you mean 'play ", "case-sensitive"),
    (
        f"{SCRIPTED} play " + shlex.quote('{"id":{id+1000},"action":"{legal}"}'),
        "was awaited: that id is never sent (unknown)",
        "never count ids yourself",
    ),
    (
        f"{SCRIPTED} hello " + shlex.quote('{"type":"hello","name":"x","version":"1","protocol":"rook/2"}'),
        "bot speaks protocol 'rook/2'",
        '"protocol": "rook/1"',
    ),
    (f"{SCRIPTED} noflush x", "no hello until the referee closed the bot's input", "fflush(stdout)"),
    (
        f"{BAD} read-all",
        "ended its output when its input was closed without having written a line",
        "read one line, write the reply",
    ),
    (
        f"{BAD} hello-no-newline",
        "bytes of a line were waiting without their newline",
        "end every message with a newline",
    ),
    (f"{SCRIPTED} linger x", "still running", "exit when a 'bye' message arrives"),
    (f"{SCRIPTED} play " + shlex.quote("debug: {legal}"), "line is not JSON", "to stderr"),
    (f"{SCRIPTED} play " + shlex.quote('{\\n "id": {id}}'), "line is not JSON", "never pretty-print"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("command", "report", "advice"), BROKEN, ids=[case[1][:30] for case in BROKEN])
def test_broken_bots_fail_with_advice_for_the_cause(
    command: str, report: str, advice: str, reports: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    result = reports[command]
    assert result.returncode == 1, result.stdout + result.stderr
    assert "NOT compliant" in result.stdout
    assert report in result.stdout
    assert f"advice: {advice}" in result.stdout or advice in result.stdout.split("advice: ", 1)[-1]
    assert "Traceback" not in result.stderr
    for python in ("None", "Hello(", "Fault(", "Probe("):
        assert python not in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["garbage", "crash-mid", "close-stdout", "endless-line"])
def test_a_bot_stopped_for_its_fault_is_not_also_failed_on_its_exit(
    mode: str, reports: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    """The referee stops such a bot without 'bye' (its conversation is over): only the cause is reported."""
    result = reports[f"{BAD} {mode}"]
    assert "still running" not in result.stdout and "exit: exited on 'bye'" in result.stdout, result.stdout


@pytest.mark.slow
def test_a_bot_that_never_wins_an_auction_is_not_compliant(
    reports: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    result = reports[PASSER]
    assert result.returncode == 1, result.stdout
    assert "tournament: phases: in " in result.stdout
    assert "never did: win an auction, discard, name trump" in result.stdout
    assert "any bid wins the auction" in result.stdout
    assert "NOT compliant" in result.stdout


PASSER = f"{SCRIPTED} passer x"
FRAGILE = [
    (f"{SCRIPTED} twice x", "answering twice"),
    (f"{SCRIPTED} hello " + shlex.quote('{"type":"hello","name":"terse"}'), "the hello has no 'version' and"),
    (f"{SCRIPTED} play " + shlex.quote('\\n{"id":{id},"action":"{legal}"}'), "empty lines on stdout"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("command", "warning"), FRAGILE)
def test_fragile_but_compliant_bots_get_warnings(
    command: str, warning: str, reports: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    result = reports[command]
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout
    assert "WARN" in result.stdout and warning in result.stdout
    assert "compliant, with" in result.stdout


@pytest.mark.slow
def test_the_report_is_headed_by_the_hello_name_and_leaves_no_temporary_directory(tmp_path: pathlib.Path) -> None:
    result = check_bot(f"{SCRIPTED} play " + shlex.quote('{"id":{id},"action":"{legal}"}'), tmp=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("check-bot scripted\n")  # the hello's name, not "python3"
    assert list(tmp_path.iterdir()) == []
    kept = tmp_path / "logs"
    result = check_bot(f"{SCRIPTED} play x", "--logs", str(kept), tmp=tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["logs"]
    assert any(kept.glob("*.stderr.log"))
    assert f"stderr logs in {kept}" in result.stdout


def record(seats: list[str], hands: list[dict[str, object]]) -> dict[str, object]:
    return {"seats": seats, "hands": hands}


def test_phases_name_what_never_came_up() -> None:
    seats = ["me", "them", "me", "them"]
    hand = {
        "auction": [{"seat": 0, "action": "bid 70"}],
        "bidder": 1,
        "discards": ["R5"],
        "trump": "R",
        "tricks": [{"leader": 1, "cards": ["R5", "R6", "R7", "R8"]}],
    }
    check = _phases("tournament", [record(seats, [hand])], "me")
    assert not check.passed
    never = "win an auction, discard, name trump, play as the bidder's partner, lead, win a trick, play the Rook"
    assert f"never did: {never}" in check.detail
    assert "any bid wins" in check.advice
    tricks = [
        {"leader": 0, "cards": ["R5", "R6", "R7", "R8"], "winner": 3},
        {"leader": 1, "cards": ["G5", "ROOK", "G7", "G8"], "winner": 2},
    ]
    bid = {**hand, "bidder": 2, "tricks": tricks}
    assert not _phases("tournament", [record(seats, [bid])], "me").passed  # it never defended
    assert "defend against the opponents' bid" in _phases("tournament", [record(seats, [bid])], "me").detail
    assert _phases("tournament", [record(seats, [hand, bid])], "me").passed


def test_the_report_card_marks_warnings_and_counts_them() -> None:
    checks = [Check("a", True, "fine"), Check("b", True, "fragile", "do this", warning=True)]
    text = report_card("bot", checks, "no logs")
    assert "  PASS  a: fine" in text and "  WARN  b: fragile" in text and "advice: do this" in text
    assert text.endswith("bot: compliant, with 1 warning(s) (no logs)")
    text = report_card("bot", [*checks, Check("c", False, "broken", "fix it")], "no logs")
    assert "  FAIL  c: broken" in text and "NOT compliant: 1 check(s) failed" in text
