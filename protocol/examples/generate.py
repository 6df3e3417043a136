"""Annotated example conversations of the rook/1 protocol, built from the engine and the referee's builders.

For each example below this plays one seeded game in-process (the engine, with every seat played by
``rookarena.players.random_action``) and builds exactly what the referee sends: the messages come from
``rookarena.wire.messages`` (``hello_message``, ``game_message``, ``deal_messages``, ``act_message`` with its
id stamped by a ``Conversation``, ``after_action`` after every action) and the bot's replies are fed back
through that conversation. It keeps what one seat sees of the first hand, the seat that wins the auction,
and writes ``<preset>.jsonl`` (one object per line: ``dir`` is ``>`` for referee to bot and ``<`` for bot
to referee, ``note`` a short annotation, ``message`` the message) and ``<preset>.md`` beside this file.

Regenerate after any change to the protocol's messages, from the repository root, and review the diff::

    python protocol/examples/generate.py

With ``--check`` it writes nothing and exits 1 if a file is missing or out of date (the tests check the
same thing).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rookarena import __version__
from rookarena.engine.actions import Action
from rookarena.engine.game import Game
from rookarena.engine.presets import preset
from rookarena.engine.rules import FirstLead, NestOrder, NestSeenBy
from rookarena.players import random_action
from rookarena.wire.conversation import Conversation, Hello, Reply, encode, request_id
from rookarena.wire.messages import (
    act_message,
    after_action,
    bye_message,
    deal_messages,
    game_message,
    hello_message,
    seat_seed,
)
from rookarena.wire.records import derive_seed

HERE = Path(__file__).resolve().parent

# preset -> deal seed; each seed was picked so the first hand is bid for (not redealt).
EXAMPLES: dict[str, int] = {"tournament": 3, "open-nest": 6}

PLAYERS = ("crow", "jay", "magpie", "raven")
FIRST_DEALER = 0
DEADLINE_MS = 1000
BANK_MS = 10000
TO_BOT, FROM_BOT = ">", "<"

Entry = dict[str, Any]

_LEADER = {
    FirstLead.LEFT_OF_DEALER: "the player left of the dealer",
    FirstLead.BIDDER: "the bidder",
    FirstLead.LEFT_OF_BIDDER: "the player left of the bidder",
}


Exchange = list[tuple[str, dict[str, Any]]]


def referee(preset_name: str, seed: int, hands: int | None = 1) -> tuple[Game, list[Exchange]]:
    """Referee one seeded game between random bots; return it and, by seat, every line each bot saw or sent.

    It stops at the end of hand number ``hands`` (``None``: at the end of the game, followed by ``bye``).
    """
    rules = preset(preset_name).rules
    game = Game(rules, random.Random(seed), first_dealer=FIRST_DEALER)
    rng = random.Random(derive_seed(seed, "players"))
    conversations = [Conversation() for _ in PLAYERS]
    seen: list[Exchange] = [[] for _ in PLAYERS]

    def bot_sends(seat: int, message: dict[str, Any]) -> None:
        seen[seat].append((FROM_BOT, message))
        events = conversations[seat].receive_data(encode(message))
        if len(events) != 1 or not isinstance(events[0], (Hello, Reply)):
            raise RuntimeError(f"the referee did not accept {message!r}: {events!r}")

    for seat, name in enumerate(PLAYERS):
        seen[seat].append((TO_BOT, hello_message(f"rookarena {__version__}")))
        bot_sends(seat, {"type": "hello", "name": name, "version": "1.0", "protocol": "rook/1"})
        start = game_message(
            game_id=f"example-{preset_name}-{seed}",
            seat=seat,
            rules=rules,
            rules_name=preset_name,
            players=PLAYERS,
            first_dealer=FIRST_DEALER,
            seed=seat_seed(seed, seat),
        )
        seen[seat].append((TO_BOT, start))
    for seat, message in enumerate(deal_messages(game)):
        seen[seat].append((TO_BOT, message))

    numbers = [0] * 4
    while not game.is_over and (hands is None or len(game.history) < hands):
        seat = game.to_act
        legal = game.legal_actions()
        stamp = request_id(seed, seat, numbers[seat])
        numbers[seat] += 1
        data = conversations[seat].request(act_message(game, seat, legal, DEADLINE_MS, BANK_MS), stamp)
        seen[seat].append((TO_BOT, json.loads(data)))
        action: Action = random_action(legal, rng)
        bot_sends(seat, {"id": stamp, "action": str(action)})
        hands_before, tricks_before = len(game.history), len(game.tricks)
        game.apply(action)
        for target, messages in enumerate(after_action(game, seat, action, hands_before, tricks_before)):
            seen[target].extend((TO_BOT, message) for message in messages)
    if game.is_over:
        for exchange in seen:
            exchange.append((TO_BOT, bye_message()))
    return game, seen


def play_first_hand(preset_name: str, seed: int) -> tuple[int, Exchange]:
    """Referee a game to the end of its first hand; return the bidder and what it saw and sent."""
    game, seen = referee(preset_name, seed)
    bidder = game.history[0].bidder
    if bidder is None:
        raise ValueError(f"seed {seed} redeals the first hand of {preset_name!r}: pick another")
    return bidder, seen[bidder]


def annotate(seat: int, exchange: Exchange) -> list[Entry]:
    """The exchange with a short note on each line, written from the point of view of ``seat``."""
    entries: list[Entry] = []
    tricks = 0
    replies: list[str] = []
    rules: dict[str, Any] = {}
    for direction, message in exchange:
        kind = message.get("type", "action")
        if direction == FROM_BOT:
            note = _reply_note(message, replies)
        elif kind == "game":
            rules = message["rules"]
            note = f"a game starts: you are seat {seat} (team {message['team']}); every rule is in 'rules'"
        elif kind == "trick":
            tricks += 1
            note = f"trick {tricks} is won by {_who(seat, message['winner'])} ({message['counters']} counters)"
        elif kind == "auction_won" and message["bidder"] == seat:
            shown = "shown to every seat" if rules.get("nest_seen_by") == "all" else "shown to you only"
            note = f"you won the auction at {message['bid']}; the nest, {shown}, joins your hand"
        else:
            note = _note(seat, message)
        entries.append({"dir": direction, "note": note, "message": message})
    return entries


def _who(me: int, seat: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def _reply_note(message: dict[str, Any], replies: list[str]) -> str:
    """A note on the bot's first reply and its first discard; ``replies`` collects the actions so far."""
    if message.get("type") == "hello":
        return "the bot's hello, before the startup deadline"
    action = message["action"]
    replies.append(action)
    if len(replies) == 1:
        return f"the reply: the request's id and one of the legal strings, exactly ({action!r})"
    if action.startswith("discard") and not any(done.startswith("discard") for done in replies[:-1]):
        return "the discards are told to nobody else"
    return ""


def _note(me: int, message: dict[str, Any]) -> str:
    kind = message["type"]
    if kind == "hello":
        return "the referee's hello: answer with your own"
    if kind == "deal":
        return f"hand {message['hand_number']} is dealt by seat {message['dealer']}: your cards"
    if kind == "act":
        return _request_note(message)
    if kind == "played":
        who, action = _who(me, message["seat"]), message["action"]
        if action == "pass":
            return f"{who} passed"
        verb, arg = action.split()
        return {"bid": f"{who} bid {arg}", "trump": f"{who} named trump {arg}", "play": f"{who} played {arg}"}[verb]
    if kind == "auction_won":
        shown = "shown to everyone" if message["nest"] is not None else "not shown to you"
        return f"seat {message['bidder']} won the auction at {message['bid']}; the nest is {shown}"
    if kind == "hand_over":
        if message["redeal"]:
            return f"hand {message['hand_number']} was passed out and is redealt"
        result = "made" if message["made"] else "set"
        scores = message["scores"]
        return f"hand {message['hand_number']}: the bid was {result}; the scores are {scores[0]} to {scores[1]}"
    return ""


def _request_note(message: dict[str, Any]) -> str:
    view = message["view"]
    phase = view["phase"]
    if phase == "bidding":
        return "your call in the auction"
    if phase == "discard":
        nest_size = len(view["nest"])
        return f"discard {len(view['discards']) + 1} of {nest_size}, one card per request"
    if phase == "trump":
        later = ", before discarding" if not view["discards"] else ""
        return f"name trump{later}"
    if view["trick"]:
        return f"your card for trick {len(view['tricks']) + 1}"
    return f"you lead trick {len(view['tricks']) + 1}"


def example(preset_name: str) -> list[Entry]:
    seed = EXAMPLES[preset_name]
    seat, exchange = play_first_hand(preset_name, seed)
    return annotate(seat, exchange)


def jsonl(entries: Sequence[Entry]) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)


def markdown(preset_name: str, entries: Sequence[Entry]) -> str:
    seed = EXAMPLES[preset_name]
    found = preset(preset_name)
    rules = found.rules
    game = next(entry["message"] for entry in entries if entry["message"].get("type") == "game")
    seat = game["seat"]
    nest = "everyone" if rules.nest_seen_by is NestSeenBy.ALL else "the bidder only"
    if rules.nest_order is NestOrder.DISCARD_THEN_TRUMP:
        order = "discards, then names trump"
    else:
        order = "names trump, then discards"
    lines = [
        f"# Example: the first hand of a game under `{preset_name}`, as seat {seat} sees it",
        "",
        f"Rules: `{preset_name}`, {found.description}.",
        f"The nest is shown to {nest}; the bidder {order}; the first trick is led by {_LEADER[rules.first_lead]}.",
        "",
        f"Seat {seat} is the seat that wins the auction. Every seat is played by a random player; the deal",
        f"comes from seed {seed}. `>` is a line the referee writes to the bot's stdin, `<` a line the bot",
        "writes to its stdout; each is shown exactly as it travels, one JSON object per line. After the",
        "first hand the game goes on the same way, hand after hand, until `game_over`; the match ends",
        "with `bye` (see [PROTOCOL.md](../PROTOCOL.md)).",
        "",
        f"Generated by `python protocol/examples/generate.py`, with the same lines in `{preset_name}.jsonl`.",
        "",
    ]
    for number, entry in enumerate(entries, 1):
        arrow = "referee → bot" if entry["dir"] == TO_BOT else "bot → referee"
        note = f": {entry['note']}" if entry["note"] else ""
        wire = encode(entry["message"]).decode().rstrip("\n")
        lines += [f"{number}. `{entry['dir']}` {arrow}{note}", "", "   ```json", f"   {wire}", "   ```", ""]
    return "\n".join(lines)


def outputs() -> dict[Path, str]:
    """Every file this script writes, by path, with its content."""
    files: dict[Path, str] = {}
    for preset_name in EXAMPLES:
        entries = example(preset_name)
        files[HERE / f"{preset_name}.jsonl"] = jsonl(entries)
        files[HERE / f"{preset_name}.md"] = markdown(preset_name, entries)
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"out of date: {', '.join(stale)}; run python protocol/examples/generate.py", file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
