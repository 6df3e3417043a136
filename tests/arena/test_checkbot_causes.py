"""check-bot names the cause of each common author mistake in its first line, with the PROTOCOL.md section,
for a bot in Python and the same mistakes in C (built here with the C compiler, when there is one)."""

from __future__ import annotations

import concurrent.futures
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import TEST_BOTS

pytestmark = pytest.mark.slow

# mode, words of the first line (the cause), the section it links, words of the fault's detail
CAUSES = [
    ("debug", "write logs and debugging output to stderr", "§2", "the bot sent: 'debug: I play"),
    ("lowercase", "actions are case-sensitive", "§4", "did you mean"),
    ("move", 'key is "action", not "move"', "§6", "has no 'action'"),
    ("ownid", "never count ids yourself", "§6", "timeout"),
    ("exit0", "keep reading after game_over", "§10", "exited with status 0"),
    ("slowfirst", "load tables, models and caches before the hello", "§8", "asked to call"),
    ("nonewline", "end every message with a newline", "§2", "bytes of a line were waiting without their newline"),
    ("hellodebug", "write logs and debugging output to stderr", "§2", "the bot sent: 'debug: loading the model'"),
    ("buffered", "your bot did not flush stdout after its replies", "§2", "no reply within 0.5 s; the reply came only"),
]
PYTHON_ONLY = [
    ("crash2", "fix the error its stderr shows", "§9", 'IndexError: list index out of range"'),
    # The stderr is quoted as the bot wrote it (once escaped, for the terminal), not escaped a second time.
    ("crashquote", "fix the error its stderr shows", "§9", "ValueError: bad card 'R5' in C:\\bots\\hand.txt\""),
    ("blockread", "read stdin a line at a time", "§2", "or it reads its input in blocks"),
    # Slow, not buffered: what comes late whatever the input does is never called a buffer's.
    ("slowhello", "its hello came, but after the startup time", "§8", "no hello within 3 s: it came 4."),
    ("slowall", "load tables, models and caches before the hello", "§8", "no reply within 0.5 s"),
    # A bot that never answers was not late on its first decision, nor did it exit during a match.
    ("noact", "answer every 'act' request", "§8", "no reply within 0.5 s"),
    ("byefirst", "exited with status 0 before its hello", "§3", "exited with status 0 before saying hello"),
]
C_ONLY = [
    ("crash2", "killed by a signal", "§9", "killed by SIGSEGV"),
    ("nulbyte", "not the zero that ends it in C", "§2", "the bot sent: '\\x00{"),
]


FAST = ("--move-time", "0.5", "--startup", "3")


def check(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", " ".join(command), "--games", "2", *FAST],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler")
    out = tmp_path_factory.mktemp("c") / "author_bot"
    subprocess.run([compiler, "-O1", "-o", str(out), str(TEST_BOTS / "author_bot.c")], check=True)
    return out


def _run_all(commands: list[list[str]]) -> list[subprocess.CompletedProcess[str]]:
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return list(pool.map(check, commands))


def _verify(results: list[subprocess.CompletedProcess[str]], cases: list[tuple[str, str, str, str]]) -> None:
    for result, (mode, cause, section, detail) in zip(results, cases, strict=True):
        first = result.stdout.splitlines()[0] if result.stdout else ""
        assert result.returncode != 0, (mode, result.stdout)
        assert cause in first and f"PROTOCOL.md {section}" in first, (mode, first)
        assert detail in result.stdout, (mode, result.stdout)


def test_python_mistakes_are_named_by_cause() -> None:
    cases = CAUSES + PYTHON_ONLY
    _verify(_run_all([[sys.executable, str(TEST_BOTS / "author_bot.py"), mode] for mode, *_ in cases]), cases)


def test_c_mistakes_are_named_by_cause(c_bot: pathlib.Path) -> None:
    cases = CAUSES + C_ONLY
    _verify(_run_all([[str(c_bot), mode] for mode, *_ in cases]), cases)


def test_a_bot_that_cannot_defend_is_not_compliant() -> None:
    result = check([sys.executable, str(TEST_BOTS / "author_bot.py"), "defendcrash"])
    assert result.returncode != 0, result.stdout
    assert "RuntimeError: an opponent won the auction" in result.stdout


def test_a_sane_bot_meets_every_phase_as_bidder_partner_and_defender() -> None:
    result = check([sys.executable, str(TEST_BOTS / "author_bot.py"), "fine"])
    assert result.returncode == 0, result.stdout
    for phase in ("play as the bidder's partner", "defend against the opponents' bid", "win a trick"):
        assert phase in result.stdout


def test_check_bot_checks_under_the_rules_given(tmp_path: pathlib.Path) -> None:
    rules = tmp_path / "league.yaml"
    rules.write_text("preset: tournament\nnest_order: trump-then-discard\nbid_min: 50\n", encoding="utf-8")
    command = " ".join([sys.executable, str(TEST_BOTS / "author_bot.py"), "fine"])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rookarena",
            "check-bot",
            command,
            "--games",
            "1",
            *FAST,
            "--rules",
            str(rules),
            "--rules",
            "bidders-nest",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "tournament+: phases" in result.stdout and "bidders-nest: phases" in result.stdout
    assert "kentucky" not in result.stdout and "open-nest" not in result.stdout


def test_errors_on_the_bots_stderr_are_named_as_the_likely_cause() -> None:
    """A bot that raises at every decision and answers anyway (with the first legal action, so never a bid)
    is told its stderr shows an error, not only that it never bids; one that still plays well enough is
    compliant with a warning naming the error."""
    never, recovering = _run_all(
        [[sys.executable, str(TEST_BOTS / "erring_bot.py"), mode] for mode in ("first", "random")]
    )
    first = never.stdout.splitlines()[0]
    assert never.returncode == 1 and "its stderr shows an error" in first, never.stdout
    assert "its stderr shows: 'IndexError: list index out of range" in never.stdout, never.stdout
    assert recovering.returncode == 0, recovering.stdout
    assert "WARN  stderr: the bot wrote errors on its stderr, such as 'IndexError" in recovering.stdout, (
        recovering.stdout
    )
    assert "compliant, with" in recovering.stdout.splitlines()[-1]
