"""The error quoted from a crashed bot's stderr: the runtime's error line, not its last line."""

from __future__ import annotations

import pathlib
import sys
from typing import Any

import pytest
import trio
from conftest import ROOT, TEST_BOTS
from fault_games import forfeited
from hypothesis import given
from hypothesis import strategies as st

from rookarena.arena.bots import BotSpec
from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.referee import FaultPolicy, TimeControl
from rookarena.arena.specs import Limits
from rookarena.engine.presets import TOURNAMENT
from rookarena.web import sources
from rookarena.web.text import game_text
from rookarena.wire import errorline, position

PYTHON = b"""[debug] got act
Traceback (most recent call last):
  File "/bots/mine.py", line 40, in <module>
    main()
  File "/bots/mine.py", line 31, in main
    reply = choose(message["view"]["hand"])
KeyError: 'view'
"""
NODE = b"""/bots/bot.js:12
  const card = view.hand[0].toUpperCase();
                            ^

TypeError: Cannot read properties of undefined (reading 'toUpperCase')
    at choose (/bots/bot.js:12:29)
    at Interface.<anonymous> (/bots/bot.js:30:5)
    at node:events:519:28

Node.js v20.20.2
"""
JAVA = b"""Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 9 out of bounds for length 9
\tat RandomBot.choose(RandomBot.java:41)
\tat RandomBot.main(RandomBot.java:20)
"""
JAVA_CAUSED = (
    JAVA
    + b"""Caused by: java.lang.IllegalStateException: no legal action
\tat RandomBot.pick(RandomBot.java:55)
\t... 2 more
"""
)
RUST = b"""thread 'main' panicked at src/main.rs:27:41:
called `Option::unwrap()` on a `None` value
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
"""
GO = b"""panic: runtime error: index out of range [9] with length 9

goroutine 1 [running]:
main.choose(...)
\t/bots/main.go:30 +0x1d
exit status 2
"""
C_ASSERT = b"bot: bot.c:88: choose: Assertion `count > 0' failed.\n"

CASES = [
    (PYTHON, "KeyError: 'view'", "reply = choose("),
    (NODE, "TypeError: Cannot read properties of undefined (reading 'toUpperCase')", "^"),
    (JAVA, 'Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 9', ""),
    (JAVA_CAUSED, "Caused by: java.lang.IllegalStateException: no legal action", ""),
    (RUST, "thread 'main' panicked at src/main.rs:27:41: called `Option::unwrap()` on a `None` value", ""),
    (GO, "panic: runtime error: index out of range [9] with length 9", ""),
    (C_ASSERT, "bot: bot.c:88: choose: Assertion `count > 0' failed.", ""),
]


@pytest.mark.parametrize(
    ("stderr", "error", "before"), CASES, ids=["python", "node", "java", "java-cause", "rust", "go", "c"]
)
def test_the_runtime_error_is_quoted_not_the_last_line(stderr: bytes, error: str, before: str) -> None:
    assert errorline.summary(stderr).startswith(error)
    quoted = errorline.quote(stderr)
    assert any(line.startswith(error.split(" called", maxsplit=1)[0]) for line in quoted)
    assert len(quoted) <= errorline.CONTEXT + 2
    if before:
        assert any(before in line for line in quoted)
    assert not any(line.startswith(("Node.js v", "note: run with", "\tat ", "    at ")) for line in quoted)


def test_a_program_killed_by_a_signal_quotes_its_last_words() -> None:
    assert errorline.quote(b"") == [] and errorline.summary(b"") == ""
    assert errorline.quote(b"seat 2 thinking\nplaying R5\n\n") == ["seat 2 thinking", "playing R5"]


@given(st.binary(max_size=2000))
def test_any_stderr_gives_a_short_quote(stderr: bytes) -> None:
    quoted = errorline.quote(stderr)
    assert len(quoted) <= errorline.CONTEXT + 2
    assert all(len(line) <= errorline.WIDTH and line.isprintable() for line in quoted)
    assert errorline.summary(stderr).isprintable()


@pytest.mark.parametrize(
    "stderr",
    [
        b"\x1b[2J\x1b[Hseat 0 (other) crash: forged\x1b[0m\nKeyError: 'x'\x1b]0;title\x07",
        "ValueError: \u202eevil\u202c done\x00".encode(),
        b"RuntimeError: a\x08\x08\x08b\x7f\x9b31m",
        b'\tat Main.main(Main.java:3)\rException in thread "main" java.lang.Error: \x1b[31mred',
    ],
)
def test_what_a_bot_wrote_reaches_no_terminal_unescaped(stderr: bytes) -> None:
    """Escape sequences, bidi overrides, NUL, backspaces: written as escapes in the quote, the one-line
    summary and ``show``'s lines, so that a bot's stderr can neither forge a line nor drive a terminal."""
    quoted = errorline.quote(stderr)
    assert quoted and all(line.isprintable() for line in quoted), quoted
    assert errorline.summary(stderr).isprintable()
    assert any("\\x1b" in line or "\\u202e" in line or "\\x08" in line for line in quoted), quoted
    raw = stderr.decode(errors="replace").splitlines()  # as a record written before quotes were escaped
    assert errorline.summary_of(raw).isprintable()


def test_each_game_shows_its_own_stderr_and_a_crash_its_error(tmp_path: pathlib.Path) -> None:
    bad = BotSpec("stderr-bot", (sys.executable, str(TEST_BOTS / "stderr_bot.py")))
    good = BotSpec("random", (sys.executable, str(ROOT / "sample_bots" / "python" / "random_bot.py"), "--seed", "5"))
    config = MatchConfig(
        team_a=(bad, bad),
        team_b=(good, good),
        rules=TOURNAMENT,
        rules_name="tournament",
        games=3,
        seed=11,
        time=TimeControl(move=2.0, startup=5.0),
        policy=FaultPolicy.FORFEIT,
        limits=Limits(startup=5.0, grace=0.3, stderr_cap=100_000),
        log_dir=tmp_path,
    )
    played: list[dict[str, Any]] = []
    trio.run(Match(config).run, played.append)
    assert len(played) == 3
    crashed = [record for record in played if record.get("forfeit")]
    assert len(crashed) == 1
    for record in played:
        gid = record["game_id"]
        for seat in [s for s, name in enumerate(record["seats"]) if name == "stderr-bot"]:
            lines = sources.log_tail(tmp_path, record, gid, seat, "stderr-bot").lines
            assert lines, (gid, seat)
            assert all(
                line.startswith((gid, f"starting {gid}")) or not line.startswith(("starting", "m")) for line in lines
            )
            assert any(line.startswith(f"{gid} request") for line in lines)
            others = [r["game_id"] for r in played if r["game_id"] != gid]
            assert not any(other in line for other in others for line in lines), (gid, lines)
    fault = crashed[0]["faults"][-1]
    assert fault["kind"] == "crash"
    assert fault["error"][-1] == "ZeroDivisionError: integer division or modulo by zero"
    assert any("requests = 1 // 0" in line for line in fault["error"])
    assert "ZeroDivisionError" not in crashed[0]["result"]["reason"]  # the reason is sent to every bot


def test_the_terminal_line_of_a_fault_says_where_and_the_error() -> None:
    record = forfeited("tournament", 5, 13)
    fault = record["faults"][0]
    fault["error"] = errorline.quote(PYTHON)
    record["game_id"] = "m-0001"
    line = position.fault_line(record, fault)
    assert line.startswith(f"fault: {fault['bot']} (seat {fault['seat']}) in m-0001, hand {fault['hand']}, asked to ")
    assert line.endswith("crash: exited with status 1; its stderr says: KeyError: 'view'")
    shown = game_text(record)
    assert "  its stderr said:\n" in shown and "    KeyError: 'view'\n" in shown
    other = (fault["seat"] + 1) % 4
    assert "KeyError" not in game_text(record, seat=other)
    withdrawn = {"seat": 0, "bot": "x", "kind": "withdrawn", "detail": "3 crashes in a row", "line": "", "hand": 0}
    assert (
        position.fault_line(record, withdrawn) == "fault: x in m-0001, before it started: withdrawn: 3 crashes in a row"
    )


@given(st.text(st.sampled_from("\x1b\x07\r\n\u202e\x00]0;x"), min_size=1, max_size=10))
def test_a_fault_line_is_printable_whatever_a_record_holds(text: str) -> None:
    """A fault's line is printed during a run: a forged or odd record (bot, game id, detail, stderr) cannot
    drive the terminal through it."""
    record = forfeited("tournament", 5, 13)
    fault = record["faults"][0]
    fault.update(bot=text, detail=text, error=[text])
    record["game_id"] = text
    for one in (fault, {**fault, "hand": 0}):
        assert position.fault_line(record, one).isprintable()
