"""What a hand's calls and plays say about the cards a seat cannot see, for the search's deals.

The auction bounds each caller's hand (:func:`calls`); the cards played so far belong to their seats
(:func:`played_by`); the opponents' plays can be replayed from the views they had (:func:`opponent_plays`);
and a deal is drawn again while it disagrees with them (:func:`sample_fitting`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rookarena.engine.rules import Rules
from rookarena.players.fast import Deck
from rookarena.players.worlds import Knowledge, sample

# A deal that disagrees with what the seat knows is drawn again up to this many times.
SAMPLE_TRIES = 8


def sample_fitting(
    knowledge: Knowledge, rng: random.Random, misfits: Callable[[list[list[int]]], int], grouped: bool = False
) -> list[list[int]]:
    """A deal (:func:`sample`) with no ``misfits``, or the one with fewest of 1 + SAMPLE_TRIES drawn."""
    held = sample(knowledge, rng, grouped)
    wrong = misfits(held)
    for _retry in range(SAMPLE_TRIES):
        if not wrong:
            break
        other = sample(knowledge, rng, grouped)
        other_wrong = misfits(other)
        if other_wrong < wrong:
            held, wrong = other, other_wrong
    return held


def calls(view: dict[str, Any], rules: Rules, slack: float) -> dict[int, tuple[float, float]]:
    """For each seat that spoke in the auction, the range its calls put its hand's estimated worth in.

    A bid of b says at least ``b - slack``; a pass when the lowest legal bid was b says less than
    ``b + slack`` (and a partner's overcall margin more when its partner held the bid). A bid the rules
    forced (the opener's, where it may not pass) says nothing.
    """
    out: dict[int, tuple[float, float]] = {}
    high: int | None = None
    holder: int | None = None
    margin = 2 * rules.bid_step
    for entry in view["auction"]:
        who: int = entry["seat"]
        action: str = entry["action"]
        low, top = out.get(who, (float("-inf"), float("inf")))
        if action.startswith("bid "):
            amount = int(action.split()[1])
            forced = high is None and not rules.opener_may_pass
            if not forced:
                low = max(low, amount - slack)
            high, holder = amount, who
        elif action == "pass":
            lowest = rules.bid_min if high is None else high + rules.bid_step
            top = min(top, lowest + slack + (margin if holder == (who + 2) % 4 else 0))
        else:
            continue
        out[who] = (low, top)
    return out


def opponent_plays(view: dict[str, Any], team: int, count: int) -> list[tuple[dict[str, Any], list[str]]]:
    """The opponents' last ``count`` plays of the hand: for each, the view its seat had then (its hand and
    discards to be filled in from a deal) and the cards it has played since, the one played then first."""
    if count <= 0:
        return []
    plays: list[tuple[int, int, int]] = []  # (trick number, position, seat)
    tricks = [(t["leader"], list(t["cards"])) for t in view["tricks"]]
    if view["trick"]:
        tricks.append((view["trick_leader"], list(view["trick"])))
    for number, (leader, texts) in enumerate(tricks):
        for i in range(len(texts)):
            who = (leader + i) % 4
            if who % 2 != team:
                plays.append((number, i, who))
    out: list[tuple[dict[str, Any], list[str]]] = []
    for number, i, who in plays[-count:]:
        leader = tricks[number][0]
        later = [
            texts[k]
            for n, (lead, texts) in enumerate(tricks[number:], number)
            for k in range(len(texts))
            if (lead + k) % 4 == who and (n > number or k >= i)
        ]
        past = {
            "seat": who,
            "phase": "play",
            "trump": view["trump"],
            "bidder": view["bidder"],
            "trick_leader": leader,
            "trick": tricks[number][1][:i],
            "tricks": [{"leader": lead, "cards": texts} for lead, texts in tricks[:number]],
            "discards": None,
        }
        out.append((past, later))
    return out


def played_by(view: dict[str, Any], deck: Deck) -> list[list[int]]:
    """The cards each seat has played this hand."""
    out: list[list[int]] = [[] for _ in range(4)]
    plays = [(t["leader"], t["cards"]) for t in view["tricks"]]
    if view["trick"]:
        plays.append((view["trick_leader"], view["trick"]))
    for leader, texts in plays:
        for i, text in enumerate(texts):
            out[(leader + i) % 4].append(deck.index[text])
    return out
