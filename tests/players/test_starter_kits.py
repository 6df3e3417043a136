"""The starter kits (C, Java, Rust templates and the Python botkit) build from their README and pass
``rookarena check-bot``; a kit whose compiler is missing is skipped, naming it."""

from __future__ import annotations

import io
import json
import pathlib
import re
import shutil
import subprocess
import sys
from typing import Any

import pytest
from conftest import ROOT

from rookarena.botkit import Bot

KITS = ROOT / "sample_bots"


def build(kit: str, tmp: pathlib.Path) -> str:
    """Build the kit as its README says, in ``tmp``; return the command that runs it."""
    if kit == "c":
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            pytest.skip("no C compiler (cc or gcc) on PATH")
        subprocess.run(
            [
                compiler,
                "-std=c99",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-O2",
                "-o",
                str(tmp / "random_bot"),
                str(KITS / "c" / "random_bot.c"),
            ],
            check=True,
            timeout=120,
        )
        return str(tmp / "random_bot")
    if kit == "java":
        if shutil.which("javac") is None or shutil.which("java") is None:
            pytest.skip("no Java compiler (javac) or runtime (java) on PATH")
        subprocess.run(
            ["javac", "-Xlint:all", "-Werror", "-d", str(tmp), str(KITS / "java" / "RandomBot.java")],
            check=True,
            timeout=120,
        )
        return f"java -cp {tmp} RandomBot"
    if kit == "rust":
        if shutil.which("rustc") is None:
            pytest.skip("no Rust compiler (rustc) on PATH")
        subprocess.run(
            ["rustc", "-O", "-D", "warnings", str(KITS / "rust" / "random_bot.rs"), "-o", str(tmp / "random_bot")],
            check=True,
            timeout=300,
        )
        return str(tmp / "random_bot")
    return f"{sys.executable} {KITS / 'python' / 'botkit_bot.py'}"


@pytest.mark.slow
@pytest.mark.parametrize("kit", ["c", "java", "rust", "botkit"])
def test_each_starter_kit_passes_check_bot(kit: str, tmp_path: pathlib.Path) -> None:
    command = build(kit, tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "check-bot", command, "--games", "2"],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout and "WARN" not in result.stdout, result.stdout
    assert ": compliant" in result.stdout


@pytest.mark.parametrize("kit", ["c", "java", "rust", "node"])
def test_each_starter_kit_has_a_short_readme(kit: str) -> None:
    lines = (KITS / kit / "README.md").read_text(encoding="utf-8").splitlines()
    assert [line.split(":", 1)[0] for line in lines][:3] == ["Build", "Run", "Check"]
    assert "rookarena check-bot" in lines[2]
    if kit != "java":
        assert lines[3].startswith("JSON: ")  # how to add a JSON library to read the view


@pytest.mark.parametrize("kit", ["c", "rust"])
def test_each_build_writes_inside_its_kit(kit: str) -> None:
    build = (KITS / kit / "README.md").read_text(encoding="utf-8").splitlines()[0]
    outputs = re.findall(r"-o (\S+?)`?(?:\s|$)", build)
    assert outputs and all(out.startswith(f"sample_bots/{kit}/") for out in outputs), build
    ignored = (KITS.parent / ".gitignore").read_text(encoding="utf-8")
    assert f"/sample_bots/{kit}/random_bot" in ignored


def conversation(bot: Bot, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    out = io.StringIO()
    bot.run(io.StringIO("".join(json.dumps(message) + "\n" for message in messages)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


class First(Bot):
    name = "first"

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        return legal[0]


class Broken(Bot):
    view = False

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        if legal[0] == "pass":
            raise ValueError("a bug")
        return "play ROOK"  # never legal below


HELLO = {"type": "hello", "protocol": "rook/1", "referee": "test"}
GAME = {"type": "game", "game": "g", "seat": 2, "team": 0, "seed": 5, "players": ["a", "b", "c", "d"], "rules": {}}


def test_botkit_answers_the_hello_and_each_request_with_its_id() -> None:
    sent = conversation(
        First(),
        HELLO,
        GAME,
        {"type": "act", "id": 4, "legal": ["pass", "bid 70"], "view": {}},
        {"type": "played", "seat": 2, "action": "pass"},
        {"type": "bye"},
        {"type": "act", "id": 5, "legal": ["pass"]},  # after bye: not read
    )
    assert sent == [
        {"type": "hello", "name": "first", "version": "1.0", "protocol": "rook/1"},
        {"id": 4, "action": "pass"},
    ]


def test_botkit_plays_the_first_legal_action_when_choose_fails(capsys: pytest.CaptureFixture[str]) -> None:
    bot = Broken()
    sent = conversation(
        bot,
        HELLO,
        GAME,
        {"type": "act", "id": 1, "legal": ["pass", "bid 70"]},
        {"type": "act", "id": 2, "legal": ["play R5", "play R6"]},
    )
    assert sent[0]["view"] is False
    assert sent[1:] == [{"id": 1, "action": "pass"}, {"id": 2, "action": "play R5"}]
    assert bot.seat == 2
    logged = capsys.readouterr().err
    assert "ValueError: a bug" in logged and "'play ROOK', not one of" in logged


def test_botkit_reseeds_from_each_game() -> None:
    class Dice(Bot):
        def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
            return self.random.choice(legal)

    legal = [f"play R{n}" for n in range(5, 15)]
    requests = [{"type": "act", "id": n, "legal": legal} for n in range(1, 9)]
    one = conversation(Dice(), HELLO, GAME, *requests)
    two = conversation(Dice(), HELLO, {**GAME, "seed": 6}, *requests)
    again = conversation(Dice(), HELLO, {"type": "game", "seed": 99}, GAME, *requests)
    assert one == again != two


def test_botkit_sends_the_comment_choose_returns_with_its_action(capsys: pytest.CaptureFixture[str]) -> None:
    class Talker(Bot):
        def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str | tuple[str, str]:
            if legal[0] == "pass":
                return legal[-1], "three high cards"
            if legal[0] == "play R5":
                return "play ROOK", "never legal"  # neither the action nor its comment is sent
            return legal[0]

    sent = conversation(
        Talker(),
        HELLO,
        GAME,
        {"type": "act", "id": 1, "legal": ["pass", "bid 70"]},
        {"type": "act", "id": 2, "legal": ["play R5", "play R6"]},
        {"type": "act", "id": 3, "legal": ["trump R"]},
    )
    assert sent[1:] == [
        {"id": 1, "action": "bid 70", "comment": "three high cards"},
        {"id": 2, "action": "play R5"},
        {"id": 3, "action": "trump R"},
    ]
    assert "('play ROOK', 'never legal'), not one of" in capsys.readouterr().err
