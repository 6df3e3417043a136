"""A reply's optional ``comment``: kept (cleaned and bounded) in the record beside its decision, never sent to
another bot, shown escaped by ``show`` and ``diff``; a non-string comment is a malformed reply."""

from __future__ import annotations

import json
import random
from typing import Any

from conftest import ROOT
from fakes import Answer, ScriptedSeat
from hypothesis import given, settings
from hypothesis import strategies as st
from record_schema import schema_errors, validator

from rookarena.arena.referee import GameSetup, Referee
from rookarena.arena.specs import FaultPolicy, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.web import diff, text
from rookarena.wire import position, records
from rookarena.wire.conversation import Conversation, ProtocolFault, Reply
from rookarena.wire.replies import COMMENT_MAX, CUT_MARK, clean_comment
from rookarena.wire.transcript import Answer as DiffAnswer
from rookarena.wire.transcript import Decision, script

EVIL = '<script>alert("x")</script>\x1b[31m red\x07 \u202e'


def _conversation_awaiting(request_id: int = 7) -> Conversation:
    conversation = Conversation()
    conversation.receive_data(b'{"type":"hello","name":"x","version":"1","protocol":"rook/1"}\n')
    conversation.begin_request(request_id)
    return conversation


def _reply(message: dict[str, Any]) -> Any:
    (event,) = _conversation_awaiting().receive_data(json.dumps(message).encode() + b"\n")
    return event


def test_a_reply_carries_its_comment_cleaned() -> None:
    event = _reply({"id": 7, "action": "pass", "comment": "  weak hand\n"})
    assert isinstance(event, Reply) and event.comment == "weak hand"
    assert _reply({"id": 7, "action": "pass"}).comment is None
    assert _reply({"id": 7, "action": "pass", "comment": None}).comment is None  # null: no comment
    assert _reply({"id": 7, "action": "pass", "comment": "   "}).comment is None


def test_a_non_string_comment_is_malformed_and_named() -> None:
    for value in (5, ["a"], {"a": 1}, True):
        event = _reply({"id": 7, "action": "pass", "comment": value})
        assert isinstance(event, ProtocolFault) and event.kind.value == "malformed"
        assert "'comment' must be a string" in event.detail


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_a_kept_comment_is_one_bounded_printable_line(raw: str) -> None:
    kept = clean_comment(raw)
    if kept is None:
        return
    assert 0 < len(kept) <= COMMENT_MAX and kept == kept.strip()
    assert not any(ch in kept for ch in "\n\r\x1b\x07\u202e\u2028")
    kept.encode("utf-8")  # no lone surrogate left
    if len(raw.strip()) > COMMENT_MAX and raw.isprintable() and raw.isascii():
        assert kept.endswith(CUT_MARK)


def test_a_long_comment_is_cut_with_a_mark() -> None:
    kept = clean_comment("x" * 1000)
    assert kept is not None and len(kept) == COMMENT_MAX and kept.endswith(CUT_MARK)


def _talker(seed: int) -> Any:
    rng = random.Random(seed)

    def answer(message: dict[str, Any]) -> Answer:
        action = rng.choice(message["legal"])
        body: dict[str, Any] = {"id": message["id"], "action": action}
        if rng.random() < 0.3:
            body["comment"] = f"{EVIL} because {action}"
        elif rng.random() < 0.05:
            body["comment"] = "x" * 500 + f" because {action}"  # cut: no 'because'
        return 0.0, json.dumps(body).encode() + b"\n"

    return answer


async def _game(seed: int) -> tuple[dict[str, Any], list[ScriptedSeat]]:
    seats = [ScriptedSeat("talker", _talker(seed)), ScriptedSeat("quiet"), ScriptedSeat("talker", _talker(seed + 1))]
    seats.append(ScriptedSeat("quiet"))
    setup = GameSetup(game_id="g1", rules=TOURNAMENT, rules_name="tournament", seed=seed)
    record = await Referee(seats, setup, TimeControl(move=1.0), FaultPolicy.FORFEIT).play()
    return record, seats


async def test_comments_are_kept_beside_their_decisions_and_never_sent() -> None:
    record, seats = await _game(11)
    comments = record["comments"]
    assert comments and {c["seat"] for c in comments} <= {0, 2}
    records.replay(json.loads(records.dumps(record)))  # still exact
    hands = {hand["number"]: hand for hand in record["hands"]}
    nest_order = record["rules"]["nest_order"]
    for c in comments:
        texts = position.action_texts(hands[c["hand"]], nest_order)
        if not c["text"].endswith(CUT_MARK):
            assert c["text"].endswith(f"because {texts[c['decision']]}"), c  # the decision it explained
        assert "\x1b" not in c["text"] and "\u202e" not in c["text"]
    for bot in seats:  # no bot is sent a comment: its own, or another's
        assert all("comment" not in message and "script" not in json.dumps(message) for message in bot.received)
    shown = text.game_text(record)
    assert "  comment  seat 0 on " in shown and "\x1b" not in shown and '\\"x\\"' in shown
    assert "seat 0 on" not in text.game_text(record, seat=1)  # another seat's words are not in its view
    older = {key: value for key, value in record.items() if key != "comments"}
    records.replay(older)
    assert "comment" not in text.game_text(older)


async def test_diff_shows_both_comments_beside_the_two_decisions() -> None:
    record, _ = await _game(12)
    c = record["comments"][0]
    decision = next(
        step for step in script(record, [c["seat"]]) if isinstance(step, Decision) and step.old_comment is not None
    )
    assert decision.old_comment == c["text"]
    answer = DiffAnswer(decision, "pass" if decision.old != "pass" else "bid 100", comment='<b>mine</b>"')
    summary = diff.summarize(new="new", new_hello="", old="talker", games=1, answers=[answer])
    out = diff.text(summary)
    assert f"saying {json.dumps(c['text'], ensure_ascii=False)}" in out and 'saying "<b>mine</b>\\""' in out
    row = diff.page_data(summary, {})["diff"]["differences"][0]
    assert row["old_comment"] == c["text"] and row["new_comment"] == '<b>mine</b>"'


async def test_a_record_with_comments_validates_against_the_record_schema() -> None:
    record, _ = await _game(13)
    kept = json.loads(records.dumps(record))
    texts = [c["text"] for c in kept["comments"]]
    assert any(text.endswith(CUT_MARK) for text in texts) and any("<script>" in text for text in texts)
    schema = validator().schema
    assert schema["properties"]["comments"]["items"]["properties"]["text"]["maxLength"] == COMMENT_MAX
    for doc in ("PROTOCOL.md", "RECORD.md"):
        assert f"{COMMENT_MAX} characters" in (ROOT / "protocol" / doc).read_text(encoding="utf-8"), doc
    assert schema_errors(kept) == []
    check = validator()
    first = kept["comments"][0]
    for wrong in ({"text": ""}, {"text": "a\nb"}, {"text": "x" * (COMMENT_MAX + 1)}, {"decision": -1}, {"said": 1}):
        bad = {**kept, "comments": [{**first, **wrong}]}
        assert not check.is_valid(bad), wrong
    assert not check.is_valid({**kept, "comments": []})  # no comments: no field
