"""Annotated example conversations of the rook/1 protocol, built from the engine and the referee's builders.

For each example below this plays one seeded game in-process (the engine, with every seat played by
``rookarena.players.random_action``) and builds exactly what the referee sends: the messages come from
``rookarena.wire.messages`` (``hello_message``, ``game_message``, ``deal_messages``, ``act_message`` with its
id stamped by a ``Conversation``, ``after_action`` after every action) and the bot's replies are fed back
through that conversation. It keeps what one seat sees: the first hand as its bidder sees it (one example
per preset), or a whole short game, redeal, ``game_over`` and ``bye`` included, as a defender sees it;
and writes ``<name>.jsonl`` (one object per line: ``dir`` is ``>`` for referee to bot and ``<`` for bot
to referee, ``note`` a short annotation, ``message`` the message) and ``<name>.md`` beside this file.
Between them the examples hold every message type of PROTOCOL.md in both directions.

Regenerate after any change to the protocol's messages, from the repository root, and review the diff::

    python protocol/examples/generate.py

With ``--check`` it writes nothing and exits 1 if a file is missing or out of date (the tests check the
same thing).
"""

from __future__ import annotations

import argparse
import dataclasses
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
from rookarena.engine.rules import FirstLead, NestOrder, NestSeenBy, Rules
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


@dataclasses.dataclass(frozen=True, slots=True)
class Example:
    """One example conversation: a seeded game under a preset, and whose side of it is shown."""

    preset: str
    seed: int  # the deal seed
    seat: int | None = None  # None: the first hand's bidder, to the end of that hand; else this seat, a whole game
    target: int | None = None  # the game's target when not the preset's (the rules' name then ends in '+')

    @property
    def whole_game(self) -> bool:
        return self.seat is not None


# name -> example. The first two seeds were picked so that the first hand is bid for (not redealt); the
# short game's so that its first hand is redealt, the game ends after the next one, and seat 1 never bids.
EXAMPLES: dict[str, Example] = {
    "tournament": Example("tournament", 3),
    "open-nest": Example("open-nest", 6),
    "short-game": Example("tournament", 84, seat=1, target=100),
}
# The short game's bot says why it made its first call, in its reply's comment (PROTOCOL.md §6).
FIRST_CALL_COMMENT = "a random bot: pass or the lowest bid, at even odds"

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


def referee(
    preset_name: str, seed: int, hands: int | None = 1, target: int | None = None, comment_seat: int | None = None
) -> tuple[Game, list[Exchange]]:
    """Referee one seeded game between random bots; return it and, by seat, every line each bot saw or sent.

    It stops at the end of hand number ``hands`` (``None``: at the end of the game, followed by ``bye``).
    ``target`` changes the preset's; the bot in ``comment_seat`` comments on its first reply.
    """
    rules = preset(preset_name).rules
    rules_name = preset_name
    if target is not None and target != rules.target:
        rules, rules_name = dataclasses.replace(rules, target=target), f"{preset_name}+"
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
            rules_name=rules_name,
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
        reply: dict[str, Any] = {"id": stamp, "action": str(action)}
        if seat == comment_seat and numbers[seat] == 1:
            reply["comment"] = FIRST_CALL_COMMENT
        bot_sends(seat, reply)
        hands_before, tricks_before = len(game.history), len(game.tricks)
        game.apply(action)
        for listener, messages in enumerate(after_action(game, seat, action, hands_before, tricks_before)):
            seen[listener].extend((TO_BOT, message) for message in messages)
    if game.is_over:
        for exchange in seen:
            exchange.append((TO_BOT, bye_message()))
    return game, seen


def _check(rules: Rules, seat: int, game: Game) -> None:
    """The short game is what its example says: a redeal first, then a game ``seat`` never bids in."""
    if game.history[0].bidder is not None or not game.is_over:
        raise ValueError("the short game's seed must redeal its first hand and end the game: pick another")
    if any(hand.bidder == seat for hand in game.history) or rules.target == preset("tournament").rules.target:
        raise ValueError(f"seat {seat} must defend in every hand of the short game: pick another seat or seed")


def play_first_hand(preset_name: str, seed: int) -> tuple[int, Exchange]:
    """Referee a game to the end of its first hand; return the bidder and what it saw and sent."""
    game, seen = referee(preset_name, seed)
    bidder = game.history[0].bidder
    if bidder is None:
        raise ValueError(f"seed {seed} redeals the first hand of {preset_name!r}: pick another")
    return bidder, seen[bidder]


def play_whole_game(spec: Example) -> tuple[int, Exchange]:
    """Referee a whole game to its ``bye``; return the example's seat and what it saw and sent."""
    assert spec.seat is not None
    game, seen = referee(spec.preset, spec.seed, hands=None, target=spec.target, comment_seat=spec.seat)
    _check(game.rules, spec.seat, game)
    return spec.seat, seen[spec.seat]


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
        elif kind == "deal":
            tricks = 0
            note = _note(seat, message)
        elif kind == "trick":
            tricks += 1
            winner = message["winner"]
            who = f"seat {winner}, your partner" if winner != seat and winner % 2 == seat % 2 else _who(seat, winner)
            note = f"trick {tricks} is won by {who} ({message['counters']} counters)"
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
        said = "; a comment says why, for people: no other bot is sent it" if "comment" in message else ""
        return f"the reply: the request's id and one of the legal strings, exactly ({action!r}){said}"
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
    if kind == "game_over":
        won = "a draw" if message["winner"] is None else f"team {message['winner']} won"
        yours = "" if message["winner"] is None else (" (yours)" if message["winner"] == me % 2 else " (not yours)")
        return f"the game is over, {message['reason']}: {won}{yours}; do not exit, the next game or bye follows"
    if kind == "bye":
        return "the match is over: exit (your stdin is closed next)"
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


def example(name: str) -> list[Entry]:
    spec = EXAMPLES[name]
    if spec.whole_game:
        seat, exchange = play_whole_game(spec)
    else:
        seat, exchange = play_first_hand(spec.preset, spec.seed)
    return annotate(seat, exchange)


def jsonl(entries: Sequence[Entry]) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)


def markdown(name: str, entries: Sequence[Entry]) -> str:
    spec = EXAMPLES[name]
    found = preset(spec.preset)
    rules = found.rules
    game = next(entry["message"] for entry in entries if entry["message"].get("type") == "game")
    seat, rules_name = game["seat"], game["rules_name"]
    nest = "everyone" if rules.nest_seen_by is NestSeenBy.ALL else "the bidder only"
    if rules.nest_order is NestOrder.DISCARD_THEN_TRUMP:
        order = "discards, then names trump"
    else:
        order = "names trump, then discards"
    wire_words = [
        "`>` is a line the referee writes to the bot's stdin, `<` a line the bot writes to its stdout; each is",
        "shown exactly as it travels, one JSON object per line.",
    ]
    if spec.whole_game:
        target = game["rules"]["target"]
        head = [
            f"# Example: a whole short game under `{rules_name}`, as seat {seat}, a defender, sees it",
            "",
            f"Rules: `{spec.preset}`, {found.description}, with one knob changed: the game is won at {target}",
            f"points instead of {rules.target}, so it is short (`rules_name` is `{rules_name}`: `+` says a knob",
            "was changed).",
            f"The nest is shown to {nest}; the bidder {order}; the first trick is led by {_LEADER[rules.first_lead]}.",
            "",
            f"Seat {seat} never wins an auction: it is told the bidder and trump, never the nest or the discards.",
            "Everybody passes the first hand, so it is dealt again (a `hand_over` with `redeal: true`); the next",
            "hand ends the game (`game_over`), and the match ends with `bye`. Its first reply carries a `comment`",
            f"(PROTOCOL.md §6). Every seat is played by a random player; the deals come from seed {spec.seed}.",
            *wire_words,
        ]
    else:
        head = [
            f"# Example: the first hand of a game under `{rules_name}`, as seat {seat} sees it",
            "",
            f"Rules: `{rules_name}`, {found.description}.",
            f"The nest is shown to {nest}; the bidder {order}; the first trick is led by {_LEADER[rules.first_lead]}.",
            "",
            f"Seat {seat} is the seat that wins the auction. Every seat is played by a random player; the deal",
            f"comes from seed {spec.seed}.",
            *wire_words,
            "After the first hand the game goes on the same way, hand after hand, until `game_over`; the match",
            "ends with `bye` ([`short-game.md`](short-game.md) shows both).",
        ]
    lines = [
        *head,
        "See [PROTOCOL.md](../PROTOCOL.md).",
        "",
        f"Generated by `python protocol/examples/generate.py`, with the same lines in `{name}.jsonl`.",
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
    for name in EXAMPLES:
        entries = example(name)
        files[HERE / f"{name}.jsonl"] = jsonl(entries)
        files[HERE / f"{name}.md"] = markdown(name, entries)
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
