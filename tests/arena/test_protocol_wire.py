"""Every line the referee really sends a bot, captured by the bot itself in real matches over pipes,
validates against the published to-bot schema; every seat's lines name only cards it may see."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest
import trio
from conftest import ROOT
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry, Resource

from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.specs import BotSpec, FaultPolicy, TimeControl
from rookarena.engine.presets import preset

SCHEMAS = ROOT / "protocol" / "schemas"

RECORDER = """
import json, sys
log, view = open(sys.argv[1], "a"), sys.argv[2] == "view"
bid_made = False  # followed from the news, for a bot that declined the view
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        hello = {"type": "hello", "name": "recorder", "version": "1", "protocol": "rook/1"}
        print(json.dumps(hello if view else {**hello, "view": False}), flush=True)
    elif message["type"] == "deal":
        bid_made = False
    elif message["type"] == "played" and message["action"].startswith("bid"):
        bid_made = True
    elif message["type"] == "act":
        legal = message["legal"]  # open at the lowest bid, pass once someone has bid, else play the first card
        if view:
            assert bid_made == (message["view"]["high_bid"] is not None)
        opening = legal[0] == "pass" and not bid_made
        print(json.dumps({"id": message["id"], "action": legal[1 if opening else 0]}), flush=True)
    elif message["type"] == "bye":
        break
"""


def validator(name: str = "to-bot.schema.json") -> Draft202012Validator:
    resources = [Resource.from_contents(json.loads(path.read_text())) for path in SCHEMAS.rglob("*.json")]
    registry: Registry[object] = Registry().with_resources((str(r.id()), r) for r in resources)
    return Draft202012Validator(json.loads((SCHEMAS / name).read_text()), registry=registry)


class Checker:
    """The to-bot schema's errors for a line: the first line of each type against the whole schema (its
    ``oneOf`` of every type's schema), the rest against their own type's schema alone. That is the same
    check where no line of one type fits another type's schema (``others_refused`` checks it on the
    first line of each type); the whole schema's ``oneOf`` tries every type's schema in full on every
    line, which made this test most of its own time."""

    def __init__(self) -> None:
        self.whole = validator()
        self.by_type: dict[str, Draft202012Validator] = {}
        self.first: dict[str, dict[str, object]] = {}

    def errors(self, message: dict[str, object]) -> list[str]:
        kind = str(message.get("type"))
        check = self.by_type.get(kind)
        if check is None:
            if (SCHEMAS / "to-bot" / f"{kind}.schema.json").is_file():
                self.by_type[kind] = validator(f"to-bot/{kind}.schema.json")
                self.first[kind] = message
            check = self.whole
        return sorted((error.message for error in check.iter_errors(message)), key=str)

    def others_refused(self) -> bool:
        """Whether the first line of each type seen fits no other type's schema."""
        return not any(
            check.is_valid(message)
            for kind, message in self.first.items()
            for other, check in self.by_type.items()
            if other != kind
        )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "view"), [("tournament", True), ("open-nest", True), ("kentucky", True), ("tournament", False)]
)
async def test_every_line_sent_in_a_real_match_is_valid(name: str, view: bool, tmp_path: pathlib.Path) -> None:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER, encoding="utf-8")
    wants = "view" if view else "no-view"
    specs = [
        BotSpec(f"rec{i}", (sys.executable, str(script), str(tmp_path / f"seen-{i}.jsonl"), wants)) for i in range(4)
    ]
    config = MatchConfig(
        team_a=(specs[0], specs[1]),
        team_b=(specs[2], specs[3]),
        rules=preset(name).rules,
        rules_name=name,
        games=2,
        seed=3,
        time=TimeControl(move=5),
        policy=FaultPolicy.FORFEIT,
    )
    played: list[dict[str, object]] = []
    with trio.fail_after(120):
        await Match(config).run(played.append)
    assert all(record["faults"] == [] for record in played)
    check = Checker()
    kinds: set[str] = set()
    for i in range(4):
        lines = (tmp_path / f"seen-{i}.jsonl").read_text().splitlines()
        assert lines[0].startswith('{"type":"hello"')
        for line in lines:
            message = json.loads(line)
            errors = check.errors(message)
            assert not errors, f"{line[:200]}: {errors[0]}"
            kinds.add(message["type"])
            if message["type"] == "act":
                assert ("view" in message) == view  # a bot that declined the view never gets one
    assert kinds >= {"hello", "game", "deal", "act", "played", "auction_won", "trick", "hand_over", "game_over", "bye"}
    assert check.others_refused()


def test_a_wrong_line_is_found_first_of_its_type_or_later() -> None:
    check = Checker()
    good = {"type": "played", "seat": 1, "action": "pass"}
    bad = {"type": "played", "seat": 4, "action": "pass"}
    assert check.errors(bad) != [] and check.errors(good) == [] and check.errors(bad) != []
    assert "played" in check.by_type and check.others_refused()
