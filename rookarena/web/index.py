"""The games index of a report: what is kept of each game while the records stream past (pure).

A :class:`Digest` takes records one at a time and keeps, per game, its id, its standings result and one
row of small integers for the page's games list, never the record; :func:`embed_plan` then picks the
games whose records the page embeds in full, for the caller to read again by position.
"""

from __future__ import annotations

import array
import dataclasses
import functools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from rookarena.results import store
from rookarena.wire.position import fault_where

Record = Mapping[str, Any]

DEFAULT_CAP = 400  # records embedded in a report; about 9 KB each with the sample bots


def game_id(record: Record, index: int) -> str:
    """The record's ``game_id``, or ``game-N`` (N from 1) for records without one (``simulate``)."""
    value = record.get("game_id")
    return str(value) if value is not None else f"game-{index + 1}"


STOPPED = "stopped before its end"
# The columns of a row of the games index, in the order the page's script reads them.
INDEX_COLUMNS = ("id", "team0", "team1", "score0", "score1", "winner", "hands", "reason", "faults", "kinds", "deal")
_T0, _T1, _S0, _S1, _WIN, _HANDS, _REASON, _FAULTS, _KINDS, _DEAL = range(10)
_WIDTH = 10
_INT32 = (-(2**31), 2**31)


class Digest:
    """What the report keeps of each game while the records stream past: its id, its standings result,
    one row of small integers for the games list, and its faults; never the record itself.

    About 200 bytes a game, whatever the records hold, so the figures and the games index of a league of
    any size are built in one pass and the records to embed read again by position afterwards.
    """

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.results = store.ResultStore()
        self._values: list[Any] = []  # names, reasons and fault-kind lists, each once
        self._index: dict[Any, int] = {}
        self._rows = array.array("i")
        self.fault_list: list[dict[str, Any]] = []
        self.first: Record | None = None
        self.hands = 0

    def __len__(self) -> int:
        return len(self.ids)

    def _id(self, value: Any) -> int:
        return store.intern(self._values, self._index, value)

    def add(self, record: Record, gid: str | None = None) -> int:
        """Take in the next record (``gid``: its id, when not :func:`game_id`'s); its position."""
        position = len(self.ids)
        gid = game_id(record, position) if gid is None else gid
        if self.first is None:
            self.first = record
        result = store.game_result(record, keep=False)
        game = record.get("result") or {}
        winner = game.get("winner")
        faults = record.get("faults") or []
        deal = (record.get("league") or {}).get("deal")
        row = [
            self._id(result.teams[0]),
            self._id(result.teams[1]),
            *result.points,
            winner if winner in (0, 1) else -1,
            len(record.get("hands") or []),
            self._id(str(game.get("reason", STOPPED))),
            len(faults),
            self._id(tuple(sorted({str(f.get("kind")) for f in faults}))),
            deal if isinstance(deal, int) and _INT32[0] <= deal < _INT32[1] else -1,
        ]
        self._rows.extend(v if _INT32[0] <= v < _INT32[1] else 0 for v in row)
        self.ids.append(gid)
        self.results.append(result)
        self.hands += row[_HANDS]
        whole = "rules" in record  # not a games index's digest of the record, which has no play to place a fault in
        for fault in faults:
            entry = {"position": position, **fault}
            if whole:
                entry["where"] = fault_where(record, fault)
            self.fault_list.append(entry)
        return position

    def unplaced(self) -> list[int]:
        """The positions of the faulted games taken in from a games index's digest, whose faults are not yet
        placed (:meth:`place`)."""
        return sorted({fault["position"] for fault in self.fault_list if "where" not in fault})

    def place(self, records: Mapping[int, Record]) -> None:
        """Give each fault of the games at these positions the words that place it (``where``:
        :func:`rookarena.wire.position.fault_where`), from the game's whole record."""
        for fault in self.fault_list:
            record = records.get(fault["position"])
            if record is not None and "where" not in fault:
                fault["where"] = fault_where(record, fault)

    def row(self, position: int) -> array.array[int]:
        return self._rows[position * _WIDTH : (position + 1) * _WIDTH]

    def teams(self, position: int) -> tuple[str, str]:
        row = self.row(position)
        return self._values[row[_T0]], self._values[row[_T1]]

    def margin(self, position: int) -> int:
        row = self.row(position)
        return abs(row[_S0] - row[_S1])

    def faults(self, position: int) -> int:
        return self._rows[position * _WIDTH + _FAULTS]

    def entries(self) -> list[str]:
        return sorted({name for g in self.results for name in g.teams})

    def index_data(self, partner: Mapping[int, int], embedded: Iterable[int]) -> dict[str, Any]:
        """The games list as the page reads it: ``rows`` of small integers naming ``values`` (names,
        reasons, fault kinds), each row's partner as a position (-1: none), and the embedded positions."""
        rows = []
        for position, gid in enumerate(self.ids):
            row = self.row(position).tolist()
            row.append(partner.get(position, -1))
            rows.append([gid, *row])
        return {
            "columns": [*INDEX_COLUMNS, "partner"],
            "values": [list(v) if isinstance(v, tuple) else v for v in self._values],
            "rows": rows,
            "embedded": sorted(embedded),
        }

    def index_json(self, partner: Mapping[int, int], embedded: Iterable[int], batch: int = 2000) -> Iterator[str]:
        """:meth:`index_data` as the pieces of its JSON text, ``batch`` rows a piece (no list of every row
        is made)."""
        dumps = functools.partial(json.dumps, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        head = {
            "columns": [*INDEX_COLUMNS, "partner"],
            "values": [list(v) if isinstance(v, tuple) else v for v in self._values],
            "embedded": sorted(embedded),
        }
        yield dumps(head)[:-1] + ',"rows":['
        for first in range(0, len(self.ids), batch):
            yield ("," if first else "") + ",".join(
                f"[{dumps(self.ids[p])},{','.join(map(str, self.row(p)))},{partner.get(p, -1)}]"
                for p in range(first, min(len(self.ids), first + batch))
            )
        yield "]}"


def pair_positions(played: Sequence[store.GameResult]) -> dict[int, int]:
    """Each game of a duplicate deal pair mapped to the other, by position: the pairs of
    :func:`rookarena.results.standings.duplicate_pairs` (a deal with two games, each entry once as team 0)."""
    counts: dict[Any, int] = {}
    for g in played:
        if g.deal_key is not None and g.teams[0] != g.teams[1]:
            counts[g.deal_key] = counts.get(g.deal_key, 0) + 1
    waiting: dict[Any, tuple[int, tuple[str, str]]] = {}
    out: dict[int, int] = {}
    for position, g in enumerate(played):
        key = g.deal_key
        if key is None or g.teams[0] == g.teams[1] or counts[key] != 2:
            continue
        first = waiting.pop(key, None)
        if first is None:
            waiting[key] = (position, g.teams)
        elif first[1] == g.teams[::-1]:
            out[first[0]], out[position] = position, first[0]
    return out


def select_embedded(digest: Digest, partner: Mapping[int, int], cap: int) -> tuple[list[int], dict[str, Any]]:
    """The positions of the games to embed (at most ``cap``, never splitting a duplicate pair when there
    is room for both), and a note saying how they were chosen."""
    total = len(digest)
    if total <= cap:
        return list(range(total)), {"cap": cap, "total": total, "embedded": total, "all": True}
    chosen: dict[int, None] = {}

    def take(position: int) -> bool:
        group = [position]
        other = partner.get(position)
        if other is not None and other not in chosen:
            group.append(other)
        group = [g for g in group if g not in chosen]
        if len(chosen) + len(group) > cap:
            group = group[:1] if len(chosen) < cap else []
        for g in group:
            chosen[g] = None
        return bool(group)

    counts = {"faulted": 0, "closest": 0, "lopsided": 0}
    for position in range(total):
        if len(chosen) >= cap:
            break
        if digest.faults(position) and position not in chosen and take(position):
            counts["faulted"] += 1
    rest = [p for p in range(total) if not digest.faults(p)]
    closest = iter(sorted(rest, key=lambda p: (digest.margin(p), p)))
    lopsided = iter(sorted(rest, key=lambda p: (-digest.margin(p), p)))
    queues = [(closest, "closest"), (lopsided, "lopsided")]
    turn, dry = 0, 0
    while len(chosen) < cap and dry < 2:
        queue, kind = queues[turn % 2]
        turn += 1
        for position in queue:
            if position not in chosen:
                if take(position):
                    counts[kind] += 1
                dry = 0
                break
        else:
            dry += 1
    order = sorted(chosen)
    note = {"cap": cap, "total": total, "embedded": len(order), "all": False, **counts}
    return order, note


def digest(played: Iterable[Record]) -> Digest:
    """A :class:`Digest` of records held in memory."""
    out = Digest()
    for record in played:
        out.add(record)
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class EmbedPlan:
    """Which games a report embeds, each game's duplicate partner (by position), and how they were chosen."""

    positions: list[int]
    partner: dict[int, int]
    note: dict[str, Any]


def embed_plan(summary: Digest, cap: int = DEFAULT_CAP) -> EmbedPlan:
    partner = pair_positions(summary.results)
    positions, note = select_embedded(summary, partner, cap)
    return EmbedPlan(positions, partner, note)
