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


def validator() -> Draft202012Validator:
    resources = [Resource.from_contents(json.loads(path.read_text())) for path in SCHEMAS.rglob("*.json")]
    registry: Registry[object] = Registry().with_resources((str(r.id()), r) for r in resources)
    return Draft202012Validator(json.loads((SCHEMAS / "to-bot.schema.json").read_text()), registry=registry)


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
    check = validator()
    kinds: set[str] = set()
    for i in range(4):
        lines = (tmp_path / f"seen-{i}.jsonl").read_text().splitlines()
        assert lines[0].startswith('{"type":"hello"')
        for line in lines:
            message = json.loads(line)
            errors = sorted(check.iter_errors(message), key=str)
            assert not errors, f"{line[:200]}: {errors[0].message}"
            kinds.add(message["type"])
            if message["type"] == "act":
                assert ("view" in message) == view  # a bot that declined the view never gets one
    assert kinds >= {"hello", "game", "deal", "act", "played", "auction_won", "trick", "hand_over", "game_over", "bye"}
