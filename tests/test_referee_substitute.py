"""Under ``faults: substitute`` a bot learns the discards the referee made for it, and nobody else does."""

from __future__ import annotations

import json
import pathlib
import sys
import textwrap
from typing import Any

import pytest
import trio

from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.specs import BotSpec, FaultPolicy, Limits, TimeControl
from rookarena.engine.presets import TOURNAMENT

LOGGING_BOT = textwrap.dedent(
    """\
    import json, sys, time
    slow_discards = sys.argv[1] == "slow"
    for line in sys.stdin:
        sys.stderr.write(line); sys.stderr.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "logger", "version": "1", "view": False}), flush=True)
        elif message["type"] == "act":
            legal = message["legal"]
            if slow_discards and legal[0].startswith("discard"):
                time.sleep(0.4)  # past the deadline: the referee discards for it
                continue
            choice = legal[-1] if legal[-1].startswith("bid") and slow_discards else legal[0]
            print(json.dumps({"id": message["id"], "action": choice}), flush=True)
        elif message["type"] == "bye":
            break
    """
)


@pytest.mark.slow
async def test_a_substituted_discard_is_told_to_the_bidder_only(tmp_path: pathlib.Path) -> None:
    script = tmp_path / "logger.py"
    script.write_text(LOGGING_BOT)
    slow = BotSpec("slow", (sys.executable, str(script), "slow"))
    quick = BotSpec("quick", (sys.executable, str(script), "quick"))
    config = MatchConfig(
        team_a=(slow, slow),
        team_b=(quick, quick),
        rules=TOURNAMENT,
        rules_name="tournament",
        games=2,
        seed=3,
        time=TimeControl(move=0.15, startup=5.0),
        policy=FaultPolicy.SUBSTITUTE,
        limits=Limits(startup=5.0, grace=0.5),
        log_dir=tmp_path,
    )
    played: list[dict[str, Any]] = []
    with trio.fail_after(120):
        await Match(config).run(played.append)
    assert any(fault["kind"] == "timeout" for record in played for fault in record["faults"])
    told: dict[str, list[str]] = {}
    for log in tmp_path.glob("*.stderr.log"):
        for line in log.read_text().splitlines():
            message = json.loads(line)
            if message["type"] == "played" and message["action"].startswith("discard"):
                told.setdefault(log.name.split("-")[0], []).append(message["action"])
    # The slow bot bids high, wins auctions and times out on every discard: each is told to it alone.
    assert told.get("slow"), "the referee's discards were never told to the bot they were made for"
    assert "quick" not in told
    discarded = sum(
        len(hand["discards"] or [])
        for record in played
        for hand in record["hands"]
        if hand.get("bidder") is not None and record["seats"][hand["bidder"]] == "slow"
    )
    assert len(told["slow"]) == discarded
