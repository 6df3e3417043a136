"""The result store: what each game record says about its two entries (who, the score, the final
points, bids and faults, its duplicate deal), drawn out once so that a long league keeps its results in
a few hundred bytes a game.

Pure: records in (the dicts of ``games.jsonl``), :class:`GameResult` values out; :class:`ResultStore`
holds them packed in arrays. :mod:`rookarena.results.standings` computes the tables from them.
"""

from __future__ import annotations

import array
import dataclasses
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, overload

Record = Mapping[str, Any]


Bids = tuple[int, int, int, int]  # for one team: hands it bid for, their bids' total, bids made, opponents set


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """What one record says about its two entries; ``score`` is team 0's (1, 0.5 or 0).

    Everything the standings need from a record is drawn out when the result is made, so a long league's
    results can be kept without their records (``record`` is then None): a few hundred bytes a game.
    """

    teams: tuple[str, str]
    score: float
    points: tuple[int, int]
    record: Record | None
    bids: tuple[Bids, Bids] = ((0, 0, 0, 0), (0, 0, 0, 0))
    faults: tuple[tuple[int, str], ...] = ()  # (team, kind) of each fault
    deal_key: Hashable | None = None  # the same for the two games of a duplicate deal pair
    hands_played: bool = True  # False for a game forfeited before its first hand ended


def game_result(record: Record | GameResult, keep: bool = True) -> GameResult:
    """The entries, result and final points of a record (and, unless ``keep`` is False, the record)."""
    if isinstance(record, GameResult):
        return record
    teams = record.get("teams")
    if teams is None:
        seats = record["seats"]
        teams = (seats[0], seats[1])
    result = record.get("result")
    if result is None:
        hands = record.get("hands") or []
        points = hands[-1]["scores"] if hands else [0, 0]
        winner = None
    else:
        points, winner = result["scores"], result["winner"]
    score = 0.5 if winner is None else 1.0 - winner
    names = (str(teams[0]), str(teams[1]))
    return GameResult(
        names,
        score,
        (points[0], points[1]),
        record if keep else None,
        _bids(record),
        tuple((fault["seat"] % 2, str(fault["kind"])) for fault in record.get("faults") or []),
        _deal_key(record, names),
        _hands_played(record),
    )


SMALL = (-(2**31), 2**31)  # what a signed 32-bit array element holds


LARGE = (-(2**63), 2**63)  # and a 64-bit one


def intern(values: list[Any], index: dict[Any, int], value: Any) -> int:
    """The number ``value`` is kept under in ``values``, which it is added to the first time."""
    found = index.get(value)
    if found is None:
        found = index[value] = len(values)
        values.append(value)
    return found


@dataclasses.dataclass(frozen=True, slots=True)
class _Whole:
    """A deal key kept whole (not a tuple ending in its deal number)."""

    key: Hashable


class ResultStore(Sequence[GameResult]):
    """Many games' :class:`GameResult` (without records) in flat arrays: 68 bytes a game.

    Names, fault lists and the fixed part of deal keys (league, pairing) are kept once each; a result is
    made again, equal to the one appended, each time it is read. Append only.
    """

    # Per game, 32 bits each: team 0, team 1, 2 x score + 4 x hands_played, points x 2, bids x 8, faults,
    # deal-key prefix; and 64 bits: the deal number (or seed) that ends the deal key.
    FIELDS = 15

    def __init__(self, results: Iterable[GameResult] = ()) -> None:
        self._values: list[Any] = []  # names, fault tuples and deal-key prefixes, each once
        self._index: dict[Any, int] = {}
        self._small = array.array("i")  # FIELDS a game
        self._deals = array.array("q")  # one a game
        self._odd: dict[int, GameResult] = {}  # results that do not fit the arrays, by position
        for g in results:
            self.append(g)

    def _id(self, value: Any) -> int:
        return intern(self._values, self._index, value)

    def append(self, g: GameResult) -> None:
        key = g.deal_key
        prefix, number = (key[:-1], key[-1]) if isinstance(key, tuple) and key else (_Whole(key), 0)
        row = [self._id(g.teams[0]), self._id(g.teams[1]), int(g.score * 2) + 4 * g.hands_played, *g.points]
        row += [*g.bids[0], *g.bids[1], self._id(g.faults), self._id(prefix)]
        fits = g.record is None and g.score in (0.0, 0.5, 1.0) and type(number) is int and LARGE[0] <= number < LARGE[1]
        if not fits or not all(type(v) is int and SMALL[0] <= v < SMALL[1] for v in row):
            self._odd[len(self)] = g
            row, number = [0] * self.FIELDS, 0
        self._small.extend(row)
        self._deals.append(number)

    def __len__(self) -> int:
        return len(self._deals)

    @overload
    def __getitem__(self, index: int) -> GameResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameResult]: ...

    def __getitem__(self, index: int | slice) -> GameResult | list[GameResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("result index out of range")
        odd = self._odd.get(index)
        if odd is not None:
            return odd
        values, at = self._values, index * self.FIELDS
        row = self._small[at : at + self.FIELDS]
        prefix = values[row[14]]
        return GameResult(
            (values[row[0]], values[row[1]]),
            (row[2] % 4) / 2,
            (row[3], row[4]),
            None,
            ((row[5], row[6], row[7], row[8]), (row[9], row[10], row[11], row[12])),
            values[row[13]],
            prefix.key if isinstance(prefix, _Whole) else (*prefix, self._deals[index]),
            row[2] >= 4,
        )

    def __iter__(self) -> Iterator[GameResult]:
        for index in range(len(self)):
            yield self[index]


def game_results(records: Iterable[Record | GameResult]) -> list[GameResult]:
    """Every record as a :class:`GameResult` (results pass as they are), self-play left out."""
    return list(each_result(records))


def each_result(records: Iterable[Record | GameResult]) -> Iterator[GameResult]:
    """:func:`game_results` one at a time."""
    for record in records:
        g = game_result(record)
        if g.teams[0] != g.teams[1]:
            yield g


def _bids(record: Record) -> tuple[Bids, Bids]:
    tallies = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for hand in record.get("hands") or []:
        bidder = hand.get("bidder")
        if bidder is None:
            continue
        own, other = tallies[bidder % 2], tallies[1 - bidder % 2]
        own[0] += 1
        own[1] += hand["bid"]
        own[2] += bool(hand["made"])
        other[3] += not hand["made"]
    return (tallies[0][0], tallies[0][1], tallies[0][2], tallies[0][3]), (
        tallies[1][0],
        tallies[1][1],
        tallies[1][2],
        tallies[1][3],
    )


def _deal_key(record: Record, teams: tuple[str, str]) -> Hashable | None:
    league = record.get("league")
    if league is not None:
        return ("league", league.get("name"), tuple(league["pairing"]), league["deal"])
    seed = record.get("seed")
    if seed is None:
        return None
    return ("seed", tuple(sorted(teams)), seed)


def _hands_played(record: Record) -> bool:
    """False for a game forfeited before its first hand ended (its 0-0 says nothing about points)."""
    result = record.get("result")
    if record.get("forfeit") is None or result is None:
        return True
    return bool(result.get("hands"))
