"""The decision diff for people: counts by kind of decision, then every difference, as text or page data.

Pure: values in (the answers of :mod:`rookarena.arena.differ`), text or JSON-ready data out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from rookarena.wire.names import printable
from rookarena.wire.position import quoted
from rookarena.wire.transcript import KINDS, Answer, Decision, DecisionKind

EMBED_CAP = 200  # games embedded in the page for the viewer; the others are listed without a link
SKIPPED = "skipped: "  # how the fault of a decision that was never asked begins (see rookarena.arena.differ)


@dataclasses.dataclass(frozen=True, slots=True)
class Count:
    kind: str
    decisions: int
    differ: int
    faults: int  # NEW timed out, crashed, broke the protocol or answered illegally
    skipped: int  # not asked: NEW had faulted earlier in the game at that seat, or never started


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    new: str
    new_hello: str
    old: str
    games: int
    counts: tuple[Count, ...]  # one per kind, then the total
    differences: tuple[Answer, ...]
    faults: tuple[Answer, ...]  # the faults themselves (not the decisions skipped after them)
    skipped: tuple[tuple[str, int, int, str], ...]  # (game, seat, decisions skipped, why), in order
    suspect: int  # decisions in which the record's action may be the referee's substitute, not OLD's
    restarts: int


def summarize(
    *, new: str, new_hello: str, old: str, games: int, answers: Sequence[Answer], restarts: int = 0
) -> Summary:
    counts = []
    for kind in (*KINDS, None):
        mine = [a for a in answers if kind is None or a.decision.kind is kind]
        skips = sum(_skipped(a) for a in mine)
        faults = sum(a.fault is not None for a in mine) - skips
        name = "total" if kind is None else kind.value
        counts.append(Count(name, len(mine), sum(a.differs for a in mine), faults, skips))
    skipped: dict[tuple[str, int], tuple[int, str]] = {}
    for answer in answers:
        if _skipped(answer):
            place = (answer.decision.game_id, answer.decision.seat)
            count, _ = skipped.get(place, (0, ""))
            skipped[place] = (count + 1, str(answer.fault).removeprefix(SKIPPED))
    return Summary(
        new=new,
        new_hello=new_hello,
        old=old,
        games=games,
        counts=tuple(counts),
        differences=tuple(a for a in answers if a.differs),
        faults=tuple(a for a in answers if a.fault is not None and not _skipped(a)),
        skipped=tuple((gid, seat, count, why) for (gid, seat), (count, why) in skipped.items()),
        suspect=sum(a.decision.suspect for a in answers),
        restarts=restarts,
    )


def _skipped(answer: Answer) -> bool:
    return answer.fault is not None and answer.fault.startswith(SKIPPED)


def where(decision: Decision) -> str:
    """``game G hand 2 trick 3 seat 1 (lead)``."""
    trick = f" trick {decision.trick}" if decision.trick is not None else ""
    return f"game {decision.game_id} hand {decision.hand}{trick} seat {decision.seat} ({decision.kind})"


def view_text(decision: Decision) -> str:
    """The seat's view in one line: what matters for this kind of decision, then the scores."""
    v = decision.view
    parts = [f"hand {' '.join(v['hand'])}"]
    kind = decision.kind
    if kind is DecisionKind.BID:
        calls = " ".join(f"{call['seat']}:{call['action']}" for call in v["auction"])
        parts.append(f"auction {calls}" if calls else "auction not opened")
    elif kind in (DecisionKind.DISCARD, DecisionKind.TRUMP):
        parts.append(f"nest {' '.join(v['nest'] or [])}")
        parts.append(f"discarded {' '.join(v['discards']) if v['discards'] else 'nothing yet'}")
    if v["bidder"] is not None:
        parts.append(f"bid {v['high_bid']} by seat {v['bidder']}")
    if v["trump"] is not None:
        parts.append(f"trump {v['trump']}")
    if kind in (DecisionKind.LEAD, DecisionKind.FOLLOW):
        leader = v["trick_leader"]
        played = " ".join(f"{(leader + i) % 4}:{card}" for i, card in enumerate(v["trick"]))
        parts.append(f"trick {played}" if played else "trick empty")
        parts.append(f"counters {v['counters'][0]} to {v['counters'][1]}")
    parts.append(f"scores {v['scores'][0]} to {v['scores'][1]}")
    return "; ".join(parts)


def text(summary: Summary) -> str:
    """The diff as terminal text: the counts by kind of decision, each difference, each fault. Every line is
    written :func:`printable`: game ids, actions and reasons come from records and a bot's words."""
    hello = f" ({summary.new_hello})" if summary.new_hello else ""
    total = summary.counts[-1]
    lines = [
        f"NEW {summary.new!r}{hello} against OLD {summary.old!r}: {summary.games} games, {total.decisions} decisions",
        "",
        f"{'decision':<10}{'total':>8}{'differ':>8}{'faults':>8}{'skipped':>9}",
    ]
    lines += [f"{c.kind:<10}{c.decisions:>8}{c.differ:>8}{c.faults:>8}{c.skipped:>9}" for c in summary.counts]
    lines.append("")
    if not summary.differences:
        lines.append("no decision differs")
    else:
        lines.append(f"{len(summary.differences)} different decisions:")
    for answer in summary.differences:
        d = answer.decision
        mark = " (OLD's action is the referee's, after a fault)" if d.suspect else ""
        old, new = f"{d.old!r}{_said(d.old_comment)}", f"{answer.action!r}{_said(answer.comment)}"
        lines.append(f"{where(d)}: OLD {old}, NEW {new}{mark}")
        lines.append(f"    {view_text(d)}")
    if summary.faults:
        lines += ["", f"{len(summary.faults)} decisions NEW did not answer with a legal action:"]
    for answer in summary.faults:
        d = answer.decision
        lines.append(f"{where(d)}: OLD {d.old!r}{_said(d.old_comment)}, NEW {answer.fault}{_said(answer.comment)}")
    if summary.skipped:
        lines += ["", "decisions not asked:"]
    for gid, seat, count, why in summary.skipped:
        lines.append(f"game {gid} seat {seat}: {count} decisions: {why}")
    notes = []
    if summary.restarts:
        notes.append(f"NEW was started again {summary.restarts} times after a fault")
    if summary.suspect:
        notes.append(
            f"{summary.suspect} decisions were played by the referee in OLD's place, after a fault of OLD's: the "
            "recorded action is not OLD's own"
        )
    if notes:
        lines += ["", *notes]
    return "\n".join(printable(line) for line in lines) + "\n"


def _said(comment: str | None) -> str:
    """`` saying "text"`` for a decision's comment (escaped as JSON: a bot's words), or nothing."""
    return "" if comment is None else f" saying {quoted(comment)}"


def _answer(answer: Answer, embedded: bool) -> dict[str, Any]:
    d = answer.decision
    return {
        "game": d.game_id,
        "hand": d.hand,
        "trick": d.trick,
        "seat": d.seat,
        "kind": d.kind.value,
        "old": d.old,
        "new": answer.action,
        "old_comment": d.old_comment,
        "new_comment": answer.comment,
        "fault": answer.fault,
        "view": view_text(d),
        "step": d.step,
        "suspect": d.suspect,
        "embedded": embedded,
    }


def page_data(
    summary: Summary, records: Mapping[str, Mapping[str, Any]], version: str = "", cap: int = EMBED_CAP
) -> dict[str, Any]:
    """The diff page's data: the counts, every difference and fault, and the games they happened in
    (up to ``cap`` of them), so that each links to the viewer at the seat's moment of decision."""
    shown: list[str] = []
    for answer in (*summary.differences, *summary.faults):
        gid = answer.decision.game_id
        if gid not in shown and gid in records and len(shown) < cap:
            shown.append(gid)
    keep = set(shown)
    return {
        "kind": "diff",
        "version": version,
        "diff": {
            "new": summary.new,
            "new_hello": summary.new_hello,
            "old": summary.old,
            "games": summary.games,
            "counts": [dataclasses.asdict(count) for count in summary.counts],
            "differences": [_answer(a, a.decision.game_id in keep) for a in summary.differences],
            "faults": [_answer(a, a.decision.game_id in keep) for a in summary.faults],
            "skipped": [{"game": g, "seat": seat, "decisions": n, "why": why} for g, seat, n, why in summary.skipped],
            "suspect": summary.suspect,
            "restarts": summary.restarts,
        },
        "games": [{"id": gid, "embedded": True, "partner": None} for gid in shown],
        "embed": {"cap": cap, "total": len({a.decision.game_id for a in (*summary.differences, *summary.faults)})},
        "records": {gid: records[gid] for gid in shown},
    }
