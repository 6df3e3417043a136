"""Results directories for the tests of the pages: seeded random games laid out as a league writes them."""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

from rookarena.engine.actions import parse_action
from rookarena.engine.cards import Card
from rookarena.engine.game import Deal, Game
from rookarena.engine.presets import preset
from rookarena.engine.rules import Rules
from rookarena.engine.views import View, view
from rookarena.players import random_action
from rookarena.wire import records
from rookarena.wire.records import derive_seed


def play(rules: Rules, deal_seed: int, choice_seed: int, seats: list[str]) -> dict[str, Any]:
    """One game of random players: deals from ``deal_seed``, choices from ``choice_seed``."""
    game = records.new_game(rules, deal_seed, first_dealer=deal_seed % 4)
    rng = random.Random(choice_seed)
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
    return records.build(game, seed=deal_seed, rules_name="tournament", seats=seats)


def league_records(names: list[str], deals: int, seed: int = 1, rules: Rules | None = None) -> list[dict[str, Any]]:
    """A round robin of ``names`` on ``deals`` duplicate deals per pairing, as ``rookarena run`` records it."""
    rules = rules or preset("tournament").rules
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for index in range(2 * deals):
                deal, swapped = index // 2, index % 2 == 1
                first, second = (b, a) if swapped else (a, b)
                deal_seed = derive_seed(seed, "deal", deal)
                record = play(rules, deal_seed, derive_seed(seed, a, b, index), [first, second, first, second])
                record.update(
                    game_id=f"{a}-vs-{b}-{index + 1:04d}",
                    teams=[first, second],
                    faults=[],
                    league={
                        "name": "web-test",
                        "pairing": sorted([a, b]),
                        "deal": deal,
                        "swapped": swapped,
                        "index": index,
                    },
                )
                out.append(record)
    return out


def write_dir(directory: pathlib.Path, played: list[dict[str, Any]], names: list[str], deals: int) -> pathlib.Path:
    """``games.jsonl``, ``league.json``, ``config.yaml`` and ``logs/`` as a league leaves them."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "logs").mkdir(exist_ok=True)
    with (directory / "games.jsonl").open("w", encoding="utf-8") as stream:
        for record in played:
            records.write(stream, record)
    meta = {
        "name": "web-test",
        "rules": preset("tournament").rules.to_mapping(),
        "format": "round-robin",
        "games": 2 * deals,
        "duplicate": True,
        "seed": 1,
        "bots": [{"name": name, "command": ["python3", f"{name}.py"]} for name in names],
        "shard": None,
    }
    (directory / "league.json").write_text(json.dumps(meta), encoding="utf-8")
    (directory / "config.yaml").write_text("name: web-test\n", encoding="utf-8")
    return directory


def add_fault(played: list[dict[str, Any]], directory: pathlib.Path, index: int, seat: int) -> dict[str, Any]:
    """A timeout by ``seat`` in game ``index`` and 30 lines in that bot's stderr log."""
    record = played[index]
    bot = record["seats"][seat]
    fault = {"seat": seat, "bot": bot, "kind": "timeout", "detail": "no reply within 1 s", "line": "", "hand": 1}
    record["faults"] = [fault]
    match_id, number = record["game_id"].rsplit("-", 1)
    slots = [2, 0, 3, 1] if record["league"]["swapped"] else [0, 2, 1, 3]
    first = 1 + 2 * ((int(number) - 1) // 2)
    log = directory / "logs" / f"{bot}-{match_id}-g{first}-s{slots[seat]}.stderr.log"
    log.write_text("".join(f"{bot} log line {n} <b>&amp;</b>\n" for n in range(1, 31)), encoding="utf-8")
    return fault


def decisions(record: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Every decision of the game in the order it was made, as (hand index, seat, action text): the
    calls, the bidder's discards and trump in the order of ``nest_order``, then the cards of each trick."""
    out: list[tuple[int, int, str]] = []
    trump_first = record["rules"]["nest_order"] == "trump-then-discard"
    for index, hand in enumerate(record["hands"]):
        out += [(index, call["seat"], call["action"]) for call in hand["auction"]]
        bidder = hand["bidder"]
        if bidder is None:
            continue
        nest = [(index, bidder, f"discard {card}") for card in hand["discards"]]
        named = [(index, bidder, f"trump {hand['trump']}")]
        out += named + nest if trump_first else nest + named
        for trick in hand["tricks"]:
            out += [(index, (trick["leader"] + k) % 4, f"play {card}") for k, card in enumerate(trick["cards"])]
    return out


def add_times(record: dict[str, Any], rng: random.Random) -> list[float | int | None]:
    """A ``decision_ms`` for ``record`` as the referee writes it: seeded random times to 0.1 ms (some
    whole), a few decisions played by the referee (null), one clearly slowest; the times in game order."""
    made = decisions(record)
    values: list[float | int | None] = []
    for _ in made:
        roll = rng.random()
        value: float | int | None = (
            None if roll < 0.05 else rng.randint(0, 400) if roll < 0.15 else round(rng.uniform(0, 500), 1)
        )
        values.append(value)
    values[rng.randrange(len(values))] = 987.6
    per_seat: list[list[float | int | None]] = [[], [], [], []]
    for (_, seat, _), value in zip(made, values, strict=True):
        per_seat[seat].append(value)
    record["decision_ms"] = per_seat
    return values


def engine_views(record: dict[str, Any]) -> list[list[list[View]]]:
    """views[hand][n][seat]: the protocol's view of each seat after n decisions of the hand."""
    rules = Rules.from_mapping(record["rules"])
    deals = [
        Deal(
            tuple(tuple(Card.parse(c) for c in seat) for seat in hand["deal"]),
            tuple(Card.parse(c) for c in hand["nest"]),
        )
        for hand in record["hands"]
    ]
    game = Game(rules, first_dealer=record["first_dealer"], deals=iter([*deals, deals[-1]]))
    out = []
    for hand in record["hands"]:
        actions = [call["action"] for call in hand["auction"]]
        if hand["bidder"] is not None:
            nest = [f"discard {card}" for card in hand["discards"]]
            turn = [f"trump {hand['trump']}"]
            actions += turn + nest if record["rules"]["nest_order"] == "trump-then-discard" else nest + turn
            actions += [f"play {card}" for trick in hand["tricks"] for card in trick["cards"]]
        seen = []
        for action in actions:
            seen.append([view(game, seat) for seat in range(4)])
            game.apply(parse_action(action))
        out.append(seen)
    return out
