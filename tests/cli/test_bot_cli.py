"""``rookarena bot NAME``: the built-in bots speak rook/1, pass check-bot, and never time out in a league."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import ROOT

from rookarena.arena.config import load
from rookarena.cli import main
from rookarena.engine.rules import Rules

RULES = Rules().to_mapping()
ROOKARENA = [sys.executable, "-m", "rookarena"]
HAND = ["R5", "R9", "R14", "G7", "G10", "G12", "B6", "B13", "Y11"]


def _conversation(*acts: dict[str, object]) -> str:
    lines: list[dict[str, object]] = [
        {"type": "hello", "protocol": "rook/1", "referee": "test"},
        {"type": "game", "game": "g-1", "seat": 1, "team": 1, "rules": RULES, "first_dealer": 0},
        *acts,
        {"type": "bye"},
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def _bid_request(number: int) -> dict[str, object]:
    view = {
        "seat": 1,
        "hand_number": 1,
        "dealer": 0,
        "phase": "bidding",
        "to_act": 1,
        "scores": [0, 0],
        "hand": HAND,
        "hand_sizes": [9, 9, 9, 9],
        "auction": [],
        "high_bid": None,
        "bidder": None,
        "nest": None,
        "discards": None,
        "trump": None,
        "tricks": [],
        "trick_leader": None,
        "trick": [],
        "counters": [0, 0],
    }
    legal = ["pass", *(f"bid {amount}" for amount in range(70, 125, 5))]
    return {"type": "act", "id": number, "deadline_ms": 5000, "bank_ms": 0, "legal": legal, "view": view}


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_each_bot_says_hello_answers_and_exits_on_bye(name: str) -> None:
    result = CliRunner().invoke(main, ["bot", name, "--seed", "3"], input=_conversation(_bid_request(7)))
    assert result.exit_code == 0, result.output
    hello, reply = (json.loads(line) for line in result.output.splitlines())
    assert hello["type"] == "hello" and hello["protocol"] == "rook/1" and hello["view"] == (name != "random")
    assert reply["id"] == 7 and reply["action"] in _bid_request(7)["legal"]  # type: ignore[operator]


def test_the_same_seed_gives_the_same_answers() -> None:
    conversation = _conversation(*(_bid_request(n) for n in range(1, 4)))
    command = ["bot", "search", "--playouts", "40", "--think", "0", "--seed", "5"]  # no time cap: only the budget
    runs = [CliRunner().invoke(main, command, input=conversation)]
    runs.append(CliRunner().invoke(main, command, input=conversation))
    assert runs[0].exit_code == 0 and runs[0].output == runs[1].output


def test_end_of_input_exits_zero() -> None:
    result = CliRunner().invoke(main, ["bot", "search"], input='{"type":"hello","protocol":"rook/1"}\n')
    assert result.exit_code == 0


def test_bad_arguments_are_refused() -> None:
    assert CliRunner().invoke(main, ["bot", "oracle"]).exit_code == 2
    for arguments in (["--level", "9"], ["--level", "0"], ["--think", "-1"], ["--playouts", "0"]):
        assert CliRunner().invoke(main, ["bot", "search", *arguments]).exit_code == 2, arguments


@pytest.mark.slow
def test_check_bot_passes_the_search_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", "rookarena bot search --level 1", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compliant" in done.stdout


LEAGUE = """\
name: quick
rules: {rules}
games: 2
seed: 4
jobs: 1
time: {{move: 0.15, bank: 2, startup: 20}}
faults: forfeit
bots:
  - name: deep
    command: [{python}, -m, rookarena, bot, search, --playouts, "1000000"]
  - name: heuristic
    command: [{python}, -m, rookarena, bot, heuristic]
"""


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["tournament", "kentucky"])
def test_a_search_with_no_budget_but_the_clock_never_times_out(tmp_path: pathlib.Path, rules: str) -> None:
    """A playout budget it can never finish: only the deadline stops each search, and it is on time.

    The bank (of which the bot uses 2% a decision) absorbs the machine's own delays when it is busy.
    """
    config = tmp_path / "quick.yaml"
    config.write_text(LEAGUE.format(rules=rules, python=sys.executable), encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    assert all(record["faults"] == [] for record in records), [record["faults"] for record in records]


def test_the_ladder_config_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    root = ROOT
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"{pathlib.Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    ladder = load(root / "configs" / "ladder.yaml")
    assert [entry.name for entry in ladder.entries] == ["random", "heuristic", "search-1", "search-2", "search-3"]
    assert ladder.duplicate


BAD_LINES = [
    "this is not json",
    '{"type": "act", "id": 3, "legal": ["pass"',
    "[1, 2]",
    '"act"',
    '{"type": "act", "legal": ["pass"]}',
    '{"type": "act", "id": 3, "legal": []}',
    '{"type": "act", "id": 3, "legal": [7]}',
    "NaN",
]


@pytest.mark.parametrize("command", [["bot", "search"], ["bot", "heuristic"], ["bot", "random"], ["randombot"]])
def test_a_line_that_is_not_a_message_is_skipped_with_one_line_on_stderr(command: list[str]) -> None:
    """Each bad line costs one plain stderr line naming the line, and the bot plays on: no traceback."""
    program = [sys.executable, "-m", "rookarena.randombot"] if command == ["randombot"] else [*ROOKARENA, *command]
    lines = _conversation(_bid_request(7)).splitlines(keepends=True)
    stdin = "".join([lines[0], *(line + "\n" for line in BAD_LINES), *lines[1:]])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(program, input=stdin, capture_output=True, text=True, timeout=60, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    complaints = result.stderr.strip().splitlines()
    assert len(complaints) == len(BAD_LINES), complaints
    for number, complaint in enumerate(complaints, 2):
        assert f"line {number} of its input" in complaint and complaint.endswith(": skipped")
    hello, reply = (json.loads(line) for line in result.stdout.splitlines())
    assert hello["type"] == "hello" and reply["id"] == 7
