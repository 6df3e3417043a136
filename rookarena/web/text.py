"""One game as text for a terminal (``rookarena show``): values in, a string out; never prints.

With ``seat`` the text holds only what that seat knew by the end of each hand, the secrecy of
:mod:`rookarena.engine.views`: its own cards, the calls and the played cards, the nest when the rules show it
to that seat (the bidder, or everyone under ``nest_seen_by: all``) and the discards only if it made them.

A record with the referee's ``decision_ms`` gets each decision's time beside it (the bid, each discard,
the trump, each card played), the slowest of the game marked.

A record may come from someone else (a results directory is a CI artifact too), and any of its strings may
have been forged: every line is written :func:`printable`, so that no text of the record (a name, the rules'
name, a fault's detail, a card) can break a line or drive the terminal; names are padded by display width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rookarena.web.model import final_scores, teams_of
from rookarena.wire.names import display_width, printable
from rookarena.wire.position import comments_of, fault_where, held
from rookarena.wire.position import hand_text as hand_text  # noqa: PLC0414 (its name here, where show's hands are written)

COLOR_NAMES = {"R": "red", "G": "green", "B": "black", "Y": "yellow"}


def nest_seen(rules: Mapping[str, Any], bidder: int | None, seat: int | None) -> bool:
    """Whether ``seat`` (None: everything) saw the nest once the auction was won."""
    if seat is None:
        return True
    return bidder is not None and (seat == bidder or rules.get("nest_seen_by") == "all")


class DecisionTimes:
    """A record's ``decision_ms`` handed out seat by seat in the order each seat decided: the k-th
    decision of a seat (its calls, discards, trump and cards, hand after hand) has the k-th time."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        raw = record.get("decision_ms")
        valid = isinstance(raw, list) and len(raw) == 4 and all(isinstance(times, list) for times in raw)
        self.times: list[list[Any]] | None = raw if valid else None
        self.taken = [0] * 4
        made = _decisions_made(record)  # a forfeit's last entries belong to a hand the record does not hold
        numbers = [t for times, n in zip(self.times or [], made, strict=False) for t in times[:n] if _is_ms(t)]
        self.slowest = max(numbers) if numbers else None
        self.marked = False

    def __bool__(self) -> bool:
        return self.times is not None

    def take(self, seat: int) -> str:
        """The next decision of ``seat`` in milliseconds as text (``3.2``), ``-`` when the referee played
        for it, a ``*`` after the first of the slowest of the game; empty when the record has no times."""
        if self.times is None:
            return ""
        times, k = self.times[seat], self.taken[seat]
        self.taken[seat] = k + 1
        value = times[k] if k < len(times) else None
        if not _is_ms(value):
            return "-"
        slowest = value == self.slowest and not self.marked
        self.marked = self.marked or slowest
        return f"{value:.1f}" + ("*" if slowest else "")


def _decisions_made(record: Mapping[str, Any]) -> list[int]:
    """How many actions each seat made in the record's hands."""
    made = [0] * 4
    for hand in record.get("hands") or []:
        for call in hand["auction"]:
            made[call["seat"]] += 1
        if hand.get("bidder") is not None:
            made[hand["bidder"]] += len(hand["discards"]) + 1
            for trick in hand["tricks"]:
                for k in range(len(trick["cards"])):
                    made[(trick["leader"] + k) % 4] += 1
    return made


def _unit(taken: str) -> str:
    """``3.2 ms`` of a taken time, the slowest's mark after the unit."""
    if taken == "-":
        return taken
    return f"{taken[:-1]} ms*" if taken.endswith("*") else f"{taken} ms"


def _is_ms(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def game_text(record: Mapping[str, Any], seat: int | None = None, game_id: str = "") -> str:
    """The whole game: players, every hand's cards, auction, nest, trump, tricks and scores."""
    rules = record.get("rules") or {}
    seats = [printable(str(name)) for name in record.get("seats") or ["?"] * 4]
    teams = teams_of(record)
    scores = final_scores(record)
    result = record.get("result")

    def who(s: int) -> str:
        return f"seat {s} ({seats[s]})"

    lines = [
        f"game {game_id or record.get('game_id') or '?'}: {teams[0]} (seats 0, 2) vs {teams[1]} (seats 1, 3)",
        f"rules {record.get('rules_name')} ({record.get('rules_hash')}), seed {record.get('seed')}, "
        f"first dealer {who(record.get('first_dealer', 0))}",
    ]
    # A seat's view leaves out the referee's words: a fault's detail (and a forfeit's reason, which
    # quotes it) can name the cards the faulting seat held.
    if result is None:
        lines.append(f"result: stopped before its end at {scores[0]} to {scores[1]}")
    else:
        winner = "a draw" if result.get("winner") is None else f"{teams[result['winner']]} wins"
        reason = f" ({result.get('reason')})" if seat is None else ""
        unfinished = record.get("unfinished")
        when = (
            f"in hand {unfinished.get('number')}"
            if isinstance(unfinished, Mapping)
            else f"after {result.get('hands')} hands"
        )
        lines.append(f"result: {winner}, {scores[0]} to {scores[1]} {when}{reason}")
    if seat is not None:
        lines.append(f"shown: what {who(seat)} knew (its own cards, the nest and discards only as the rules show them)")
    times = DecisionTimes(record)
    if times:
        lines.append(
            "times: the milliseconds each decision took the bot to answer; - where the referee played for "
            "the seat; * the slowest of the game"
        )
    for fault in record.get("faults") or []:
        detail = f": {fault.get('detail')}" + (f" (sent {fault['line']!r})" if fault.get("line") else "")
        lines.append(
            f"fault: {who(fault['seat'])} {fault.get('kind')} in hand {fault.get('hand')}"
            + (detail if seat is None else "")
        )
        placed = seat in (None, fault["seat"])  # the sentence names the faulting seat's cards
        where = fault_where(record, fault) if placed else ""
        if where:
            lines.append(f"  at the fault: {where}")
        error = fault.get("error") if placed else None
        if isinstance(error, list) and error:
            lines.append("  its stderr said:")
            lines.extend(f"    {printable(text)}" for text in error if isinstance(text, str))
    for hand in record.get("hands") or []:
        lines.append("")
        lines.extend(_hand_lines(hand, rules, seats, seat, times))
        lines.extend(f"  comment  {said}" for said in comments_of(record, hand, seat))
    unfinished = record.get("unfinished")
    if isinstance(unfinished, Mapping):
        lines.append("")
        lines.extend(_unfinished_lines(unfinished, rules, seats, seat))
        lines.extend(f"  comment  {said}" for said in comments_of(record, unfinished, seat))
    # Every line, whatever field of the record it holds, is made printable here: one place for them all.
    return "\n".join(printable(line) for line in lines) + "\n"


def _padded(name: str, width: int) -> str:
    """``name`` (printable) followed by spaces to ``width`` columns of the terminal."""
    return name + " " * max(0, width - display_width(name))


def _hand_lines(
    hand: Mapping[str, Any], rules: Mapping[str, Any], seats: Sequence[str], seat: int | None, times: DecisionTimes
) -> list[str]:
    bidder = hand.get("bidder")

    def timed(text: str, taken: str) -> str:
        return f"{text} ({_unit(taken)})" if taken else text

    out = [f"hand {hand['number']}, dealer seat {hand['dealer']}"]
    for s in range(4):
        cards = hand_text(hand["deal"][s], rules) if seat is None or seat == s else f"{len(hand['deal'][s])} cards"
        out.append(f"  seat {s} {_padded(seats[s], 14)} {cards}")
    calls = ", ".join(timed(f"{call['seat']}: {call['action']}", times.take(call["seat"])) for call in hand["auction"])
    out.append(f"  auction  {calls}")
    if bidder is None:
        out.append(f"  everybody passed: redeal; scores {hand['scores'][0]} to {hand['scores'][1]}")
        return out
    nest = hand_text(hand["nest"], rules) if nest_seen(rules, bidder, seat) else f"{len(hand['nest'])} cards"
    discards = hand_text(hand["discards"], rules) if seat in (None, bidder) else f"{len(hand['discards'])} cards"
    if rules.get("nest_order") == "trump-then-discard":  # the bidder's times in the order it decided
        trump_time = times.take(bidder)
        discard_times = [times.take(bidder) for _ in hand["discards"]]
    else:
        discard_times = [times.take(bidder) for _ in hand["discards"]]
        trump_time = times.take(bidder)
    if times:
        discards = f"{discards} ({', '.join(discard_times)} ms)"
    trump = timed(COLOR_NAMES.get(hand["trump"], hand["trump"]), trump_time)
    out.append(f"  seat {bidder} ({seats[bidder]}) wins the bid at {hand['bid']}; nest {nest}")
    out.append(f"  discards {discards}; trump {trump}")
    taken = [0, 0]
    for number, trick in enumerate(hand["tricks"], 1):
        taken[trick["winner"] % 2] += trick["counters"]
        played = [((trick["leader"] + k) % 4, card) for k, card in enumerate(trick["cards"])]
        if times:
            cards = "  ".join(f"{s}:{card} {_unit(times.take(s))}".ljust(15) for s, card in played)
        else:
            cards = "  ".join(f"{s}:{card:<4}" for s, card in played)
        out.append(
            f"  trick {number:>2}  {cards}  won by {trick['winner']}, {trick['counters']:>2} points  "
            f"(taken {taken[0]} to {taken[1]})"
        )
    made = "made" if hand["made"] else "set"
    out.append(
        f"  nest {hand['nest_counters']} points to team {hand['nest_team']}; counters {hand['counters'][0]} to "
        f"{hand['counters'][1]}; bid {hand['bid']} {made}; score {hand['score_change'][0]:+d} "
        f"{hand['score_change'][1]:+d} -> {hand['scores'][0]} to {hand['scores'][1]}"
    )
    return out


def _unfinished_lines(
    hand: Mapping[str, Any], rules: Mapping[str, Any], seats: Sequence[str], seat: int | None
) -> list[str]:
    """The hand a fault stopped: the cards each seat held then, the calls, nest and tricks so far."""
    bidder = hand.get("bidder")
    out = [f"hand {hand['number']}, dealer seat {hand['dealer']}, stopped by the fault; the cards held then"]
    for s in range(4):
        cards = held(hand, s)
        shown = hand_text(cards, rules) if seat is None or seat == s else f"{len(cards)} cards"
        out.append(f"  seat {s} {_padded(seats[s], 14)} {shown}")
    calls = ", ".join(f"{call['seat']}: {call['action']}" for call in hand["auction"]) or "no call yet"
    out.append(f"  auction  {calls}")
    if bidder is not None:
        nest = hand_text(hand["nest"], rules) if nest_seen(rules, bidder, seat) else f"{len(hand['nest'])} cards"
        discards = hand.get("discards") or []
        shown = hand_text(discards, rules) if seat in (None, bidder) else f"{len(discards)} cards"
        colour = hand.get("trump")
        trump = COLOR_NAMES.get(colour, colour) if colour else "not named yet"
        out.append(f"  seat {bidder} ({seats[bidder]}) wins the bid at {hand['bid']}; nest {nest}")
        out.append(f"  discards {shown or '-'}; trump {trump}")
        for number, trick in enumerate(hand.get("tricks") or [], 1):
            played = "  ".join(f"{(trick['leader'] + k) % 4}:{card:<4}" for k, card in enumerate(trick["cards"]))
            out.append(f"  trick {number:>2}  {played}  won by {trick['winner']}, {trick['counters']:>2} points")
        current = hand.get("trick")
        if current is not None:
            played = "  ".join(f"{(current['leader'] + k) % 4}:{card:<4}" for k, card in enumerate(current["cards"]))
            out.append(f"  trick {len(hand.get('tricks') or []) + 1:>2}  {played or '(none led yet)'}")
    to_act = hand.get("to_act")
    if to_act is not None:
        out.append(f"  seat {to_act} ({seats[to_act]}) to act ({hand.get('phase')}): the game stopped here")
    return out
