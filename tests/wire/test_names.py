"""Names from anywhere, a bot's hello included, never crash and never reach a file name or a printed line raw."""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import shlex
import subprocess
import sys

import pytest
from conftest import ROOT, TEST_BOTS
from hypothesis import given
from hypothesis import strategies as st

from rookarena.arena.league import PlannedGame
from rookarena.arena.match import Scheduled
from rookarena.arena.specs import BotSpec, Entry
from rookarena.wire.names import MAX_FILE_NAME, name_from_hello, name_key, name_problem, printable, safe_file_name

SCRIPTED = TEST_BOTS / "scripted_bot.py"
HOSTILE = [
    "adv\nseat 0 (other) crash: forged",
    "nul\x00name",
    "lone\ud800surrogate",
    "bidi\u202egnp.exe",
    "bell\x07\x1b[31mred",
    "../../etc/passwd",
    ".hidden",
    "x" * 500,
]
# Every code point, lone surrogates included (a JSON string may hold one as an escape).
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF))


@given(ANY_TEXT, st.sampled_from(["", ".stderr.log", ".jsonl"]))
def test_safe_file_name_takes_any_text(text: str, suffix: str) -> None:
    name = safe_file_name(text, suffix)
    raw = name.encode("utf-8")  # no lone surrogate is left to encode
    assert name.endswith(suffix) and len(raw) <= MAX_FILE_NAME
    assert "/" not in name and "\0" not in name and not name.startswith(".")
    assert all(ch.isprintable() for ch in name)


@given(ANY_TEXT, ANY_TEXT)
def test_distinct_texts_keep_distinct_file_names(one: str, other: str) -> None:
    if one != other:
        assert safe_file_name(one) != safe_file_name(other)


@given(ANY_TEXT.filter(bool))
def test_a_hello_name_always_becomes_a_valid_name(text: str) -> None:
    name = name_from_hello(text)
    assert name_problem(name) is None
    if name_problem(text) is None:
        assert name == text


def test_hostile_hello_names_are_made_valid_and_kept_apart() -> None:
    names = [name_from_hello(text) for text in HOSTILE]
    assert len(set(names)) == len(names)
    for name in names:
        assert name_problem(name) is None
        assert all(ch.isprintable() for ch in name)


@pytest.mark.slow
@pytest.mark.parametrize("hostile", HOSTILE[:5], ids=["newline", "nul", "surrogate", "bidi", "escape"])
def test_rookarena_match_shows_a_hostile_hello_name_only_made_valid(hostile: str, tmp_path: pathlib.Path) -> None:
    """A bot named by its hello (no --name-a): the name never crashes the match, never forges a line of its
    summary and never reaches a file name raw; the record keeps the hello's name as it was sent."""
    hello = json.dumps({"type": "hello", "name": hostile, "version": "1", "protocol": "rook/1"})
    hello = hello.replace("\\n", "\\u000a")  # scripted_bot.py turns a written \n into a line break
    command = shlex.join([sys.executable, str(SCRIPTED), "hello", hello])
    out = tmp_path / "out"
    result = subprocess.run(
        [
            *(sys.executable, "-m", "rookarena", "match", command, f"{sys.executable} -m rookarena.randombot 2"),
            *("--games", "2", "--move-time", "0.5", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 3), result.stderr
    shown = name_from_hello(hostile)
    assert shown in result.stdout
    for text in (result.stdout, result.stderr):
        assert all(ch.isprintable() or ch == "\n" for ch in text), repr(text)
        assert not any(line.startswith("seat 0 (other)") for line in text.splitlines())
    for path in out.rglob("*"):
        assert all(ch.isprintable() for ch in path.name) and "\n" not in path.name
    record = json.loads((out / "games.jsonl").read_text(encoding="utf-8").splitlines()[0])
    hellos = [bot["hello"]["name"] for bot in record["bots"] if bot["hello"]]
    assert hostile in hellos


@given(ANY_TEXT)
def test_any_text_is_printed_on_one_line_and_printable_text_as_it_is(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    assert (shown == text) == text.isprintable()


@pytest.mark.slow
@pytest.mark.parametrize("hostile", HOSTILE[:5], ids=["newline", "nul", "surrogate", "bidi", "escape"])
def test_check_bot_shows_a_hostile_hello_name_only_made_valid(hostile: str, tmp_path: pathlib.Path) -> None:
    """check-bot names its report, the games and the logs after the hello: made a valid name first, so the
    report has no forged or unprintable line and every log is a plain file in the folder asked for."""
    named = f"{sys.executable} {TEST_BOTS / 'named_bot.py'} {hostile.encode('utf-8', 'surrogatepass').hex()}"
    logs = tmp_path / "logs"
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", named, "--games", "1", "--logs", str(logs)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for text in (result.stdout, result.stderr):
        assert all(ch.isprintable() or ch == "\n" for ch in text), repr(text)
        assert not any(line.startswith("seat 0 (other)") for line in text.splitlines())
    lines = result.stdout.splitlines()
    assert lines[0] == f"check-bot {name_from_hello(hostile)}"
    assert lines[-1].startswith(f"{name_from_hello(hostile)}: compliant")
    assert any(logs.iterdir())
    for path in tmp_path.rglob("*"):
        assert path.is_dir() or path.parent == logs, path
        assert all(ch.isprintable() for ch in path.name), path


def game_id(a: str, b: str, index: int) -> str:
    entries = tuple(Entry(n, BotSpec(n, ("bot",)), BotSpec(n, ("bot",))) for n in (a, b))
    return PlannedGame(0, (entries[0], entries[1]), Scheduled(index, 0, False, 0, 0)).game_id


def test_no_two_games_of_a_league_share_an_id() -> None:
    """Every valid name made of up to four pieces that could blur an id (a dash, 'vs', a game's number), in
    every pairing, with game numbers of four and five digits: no two games share an id. Bots named x,
    y-vs-z, x-vs-y and z once gave the pairings x, y-vs-z and x-vs-y, z the same ids, and a resume skipped
    one's games."""
    pieces = ["a", "-", "vs", "0001"]
    names = sorted(
        {
            "".join(p)
            for k in range(1, 5)
            for p in itertools.product(pieces, repeat=k)
            if name_problem("".join(p)) is None
        }
    )
    assert {"a-a", "vs0001", "a-vsa", "0001-a"} <= set(names)  # the enumeration reaches the tricky ones
    ids = [game_id(a, b, index) for a in names for b in names if a != b for index in (0, 10_000)]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("x-vs-y", "expected no 'vs' between dashes"),
        ("vs-y", "expected no 'vs' between dashes"),
        ("x-vs", "expected no 'vs' between dashes"),
        ("vs", "expected no 'vs' between dashes"),
        ("\u212bngstrom", "as Unicode's NFKC writes it"),
        ("\ufb01sh", "as Unicode's NFKC writes it"),
        ("\u3164\u3164", "show as nothing"),
        ("a\u3164b", "show as nothing"),
        ("vsx", None),
        ("x-vsx", None),
        ("avs-b", None),
        ("x-v-s", None),
        ("\u00c5ngstrom", None),
        ("\u6f22\u5b57", None),
    ],
)
def test_names_that_would_look_alike_or_blur_a_game_id_are_refused(name: str, refused: str | None) -> None:
    problem = name_problem(name)
    assert (problem is None) if refused is None else (problem is not None and refused in problem), problem


@given(ANY_TEXT.filter(bool), ANY_TEXT.filter(bool))
def test_hello_names_that_differ_get_names_that_differ_in_more_than_case(one: str, other: str) -> None:
    """A bot's hello name is made a valid name; two hellos that differ get names that differ in more than
    case, unless both were valid names already (a match then tells them apart itself)."""
    if one != other and not (name_problem(one) is None and name_problem(other) is None):
        assert name_key(name_from_hello(one)) != name_key(name_from_hello(other))
