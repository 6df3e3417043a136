"""League standings, the crosstable and head-to-head summaries, computed from game records.

Pure: records in (the dicts of ``games.jsonl``), frozen values out; the figures come from
:mod:`rookarena.results.stats`. A record names its two entries in ``teams`` (team 0 at seats 0 and 2, team 1 at
seats 1 and 3); a record without ``teams`` is named by the bots at seats 0 and 1. The result decides
each game: ``result.winner`` (a forfeit is already a loss for the forfeiting team), a null winner or
a null result a draw. Points are the final ``result.scores`` (a null result: the last hand's
scores). A game of an entry against itself says nothing about its strength and is left out.

With duplicate deals both games of a deal hold the same cards, the teams swapped; the *duplicate
difference* of an entry for such a pair is its final score minus its opponent's, summed over the two
games. Two games form a pair when they share the league name, the pairing and the deal number
(``league``), or, for records without ``league``, the two entries and the seed; and when exactly one
of them has each entry as team 0. A pair in which a game ended before any hand was played (a bot that
would not start, a withdrawn team) says nothing about points and is left out of the difference.

The unit of the statistics. With duplicate pairs, the two games of a pair hold the same cards and
their results are strongly anti-correlated: every error bar (the Bradley–Terry ratings', the Elo
interval's, the LOS) is then computed over deal pairs (cluster-robust), a game outside any pair
counting as a cluster of its own. Without pairs the games are independent, as they are.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence

from rookarena.results import ratings, stats
from rookarena.results.store import GameResult, Record, each_result, game_result, game_results


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """One entry's line of the standings."""

    rank: int
    name: str
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: stats.Interval  # score per game (a draw counts half) with its Wilson 95 % interval
    points_for: float  # the entry's team's final score, per game
    points_against: float
    bids_won: int  # hands the entry's team bid for
    bids_made: int
    sets: int  # of the bids won, those that failed
    opponents_set: int  # hands the opponents bid for and failed
    average_bid: float | None  # over the bids won
    faults: tuple[tuple[str, int], ...]  # (kind, count), most frequent first
    rating: ratings.Rating
    duplicate: stats.MeanInterval | None  # per deal pair; None without any
    pairs: int = 0  # duplicate deal pairs played: the units of the rating's error when any entry has some
    anchor: bool = False  # its rating is held where the ladder's anchors put it, not fitted

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def made_rate(self) -> float | None:
        return self.bids_made / self.bids_won if self.bids_won else None


@dataclasses.dataclass(slots=True)
class _Tally:
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    bids_won: int = 0
    bids_made: int = 0
    bid_total: int = 0
    opponents_set: int = 0
    faults: Counter[str] = dataclasses.field(default_factory=Counter)

    def add(self, g: GameResult, team: int) -> None:
        self.games += 1
        score = g.score if team == 0 else 1 - g.score
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1
        self.points_for += g.points[team]
        self.points_against += g.points[1 - team]
        won, total, made, opponents_set = g.bids[team]
        self.bids_won += won
        self.bid_total += total
        self.bids_made += made
        self.opponents_set += opponents_set
        for faulty, kind in g.faults:
            if faulty == team:
                self.faults[kind] += 1


def standings(
    records: Iterable[Record | GameResult], prior_draws: float = 1.0, anchors: Mapping[str, float] | None = None
) -> list[Standing]:
    """Every entry's figures, best first: by rating, then win rate, then name; equal figures share a rank.

    ``anchors`` holds the entries it names at fixed ratings (Elo), the others rated against them
    (:func:`rookarena.results.ratings.bradley_terry`); without it the ratings are centred on their mean.

    Ratings are one Bradley–Terry fit over all games (``prior_draws`` virtual draws per entry against a
    0-rated opponent; see :func:`rookarena.results.ratings.bradley_terry`), with errors over deal pairs when
    there are duplicate pairs (:func:`rookarena.results.ratings.bradley_terry_clustered`).
    """
    played = records if isinstance(records, Sequence) else list(records)  # read twice, by _deals
    tallies: dict[str, _Tally] = {}
    pairs: list[tuple[int, str, str, float, float | None]] = []  # position, a, b, a's score, difference
    singles: list[tuple[int, str, str, float]] = []  # games outside any pair: position, a, b, a's score
    for position, g, second in _deals(played):
        for game in (g,) if second is None else (g, second):
            for team in (0, 1):
                tallies.setdefault(game.teams[team], _Tally()).add(game, team)
        if second is None:
            singles.append((position, g.teams[0], g.teams[1], g.score))
        else:
            pairs.append((position, g.teams[0], g.teams[1], pair_score(g, second), pair_difference(g, second)))
    pairs.sort(key=lambda pair: pair[0])  # in the order of their first games, as the records give them
    singles.sort(key=lambda single: single[0])
    if pairs:
        clusters = [(a, b, score, 2) for _, a, b, score, _ in pairs] + [(a, b, s, 1) for _, a, b, s in singles]
        fitted = ratings.bradley_terry_clustered(clusters, prior_draws, anchors=anchors)
    else:
        fitted = ratings.bradley_terry(((a, b, score) for _, a, b, score in singles), prior_draws, anchors=anchors)
    pair_counts: Counter[str] = Counter(name for _, a, b, _, _ in pairs for name in (a, b))
    duplicates: dict[str, list[float]] = {}
    for _, a, b, _, diff in pairs:
        if diff is not None:
            duplicates.setdefault(a, []).append(diff)
            duplicates.setdefault(b, []).append(-diff)
    rows = []
    for name, t in tallies.items():
        diffs = duplicates.get(name)
        rows.append(
            Standing(
                rank=0,
                name=name,
                games=t.games,
                wins=t.wins,
                losses=t.losses,
                draws=t.draws,
                win_rate=stats.wilson(t.wins + t.draws / 2, t.games),
                points_for=t.points_for / t.games,
                points_against=t.points_against / t.games,
                bids_won=t.bids_won,
                bids_made=t.bids_made,
                sets=t.bids_won - t.bids_made,
                opponents_set=t.opponents_set,
                average_bid=t.bid_total / t.bids_won if t.bids_won else None,
                faults=tuple(sorted(t.faults.items(), key=lambda kv: (-kv[1], kv[0]))),
                rating=fitted[name],
                duplicate=stats.t_interval(diffs) if diffs else None,
                pairs=pair_counts[name],
                anchor=anchors is not None and name in anchors,
            )
        )

    # Equal figures are equal up to rounding noise (two entries with the same results get ratings a
    # few ulps apart): compare them rounded. Entries whose figures are equal share a rank, the next rank
    # skipping as many places (1, 2, 2, 4); among them the name gives the order.
    def figures(s: Standing) -> tuple[float, float]:
        return (-round(s.rating.elo, 6), -round(s.win_rate.estimate, 9))

    rows.sort(key=lambda s: (*figures(s), s.name))
    ranked: list[Standing] = []
    for place, row in enumerate(rows, 1):
        shared = ranked and figures(ranked[-1]) == figures(row)
        ranked.append(dataclasses.replace(row, rank=ranked[-1].rank if shared else place))
    return ranked


def tied(rows: Sequence[Standing]) -> set[int]:
    """The ranks that more than one entry of ``rows`` holds."""
    counts = Counter(row.rank for row in rows)
    return {rank for rank, count in counts.items() if count > 1}


def duplicate_pairs(played: Iterable[GameResult]) -> list[tuple[GameResult, GameResult]]:
    """The duplicate deal pairs among ``played``: same deal, each entry once as team 0."""
    found = [(position, g, second) for position, g, second in _deals(list(played)) if second is not None]
    return [(g, second) for _, g, second in sorted(found, key=lambda pair: pair[0])]


def _deals(records: Sequence[Record | GameResult]) -> Iterator[tuple[int, GameResult, GameResult | None]]:
    """Every game of ``records`` (self-play left out) once: a duplicate deal pair as (its first game's
    position, first, second), any other game as (its position, the game, None).

    A pair is a deal with exactly two games, each entry once as team 0. ``records`` is read twice: once to
    count the games of each deal, then to pair them, a deal's first game waiting only until its second
    comes; nothing kept grows faster than the number of deal pairs.
    """
    counts = Counter(g.deal_key for g in each_result(records) if g.deal_key is not None)
    waiting: dict[Hashable, tuple[int, GameResult]] = {}
    for position, g in enumerate(each_result(records)):
        key = g.deal_key
        if key is None or counts[key] != 2:
            yield position, g, None
            continue
        first = waiting.pop(key, None)
        if first is None:
            waiting[key] = (position, g)
        elif first[1].teams == g.teams[::-1]:
            yield first[0], first[1], g
        else:
            yield first[0], first[1], None
            yield position, g, None


def _clusters(
    played: Sequence[GameResult], pairs: Sequence[tuple[GameResult, GameResult]]
) -> list[tuple[str, str, float, int]]:
    """Every deal pair as one cluster ``(a, b, a's score over both games, 2)``, every other game alone."""
    paired = {id(g) for pair in pairs for g in pair}
    out = [(first.teams[0], first.teams[1], pair_score(first, second), 2) for first, second in pairs]
    out.extend((g.teams[0], g.teams[1], g.score, 1) for g in played if id(g) not in paired)
    return out


def pair_score(first: GameResult, second: GameResult) -> float:
    """The score (0 to 2) of ``first``'s team 0 over a deal pair."""
    return first.score + 1 - second.score


def pair_difference(first: GameResult, second: GameResult) -> float | None:
    """``first``'s team 0's final score minus its opponent's, summed over the pair; None when a game of
    the pair ended before any hand was played (a forfeit at the start tells nothing about points)."""
    if not (first.hands_played and second.hands_played):
        return None
    return (first.points[0] - first.points[1]) + (second.points[1] - second.points[0])


def duplicate_differences(played: Iterable[GameResult]) -> dict[str, list[float]]:
    """Per entry, its duplicate difference (own minus opponent's final score over both games) per pair."""
    out: dict[str, list[float]] = {}
    for first, second in duplicate_pairs(played):
        diff = pair_difference(first, second)
        if diff is None:
            continue
        a, b = first.teams
        out.setdefault(a, []).append(diff)
        out.setdefault(b, []).append(-diff)
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class Cell:
    """The games of one entry against another, from the first's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score_rate(self) -> float | None:
        """The score per game (a draw counts half), None without games."""
        return (self.wins + self.draws / 2) / self.games if self.games else None


@dataclasses.dataclass(frozen=True, slots=True)
class Crosstable:
    """Every ordered pair of entries that met, in the order of ``entries``."""

    entries: tuple[str, ...]
    cells: Mapping[tuple[str, str], Cell]

    def cell(self, row: str, column: str) -> Cell:
        return self.cells.get((row, column), Cell())


def crosstable(records: Iterable[Record | GameResult], order: Sequence[str] | None = None) -> Crosstable:
    """W-D-L of every entry against every other; entries in ``order`` (say, the standings') or by name."""
    counts: dict[tuple[str, str], list[int]] = {}
    for g in each_result(records):
        a, b = g.teams
        for key, score in (((a, b), g.score), ((b, a), 1 - g.score)):
            tally = counts.setdefault(key, [0, 0, 0])
            tally[0 if score == 1 else 1 if score == 0.5 else 2] += 1
    names = {name for pair in counts for name in pair}
    entries = tuple(order) if order is not None else tuple(sorted(names))
    missing = names - set(entries)
    if missing:
        raise ValueError(f"crosstable: order lacks {sorted(missing)!r}")
    return Crosstable(entries, {key: Cell(*tally) for key, tally in counts.items()})


@dataclasses.dataclass(frozen=True, slots=True)
class HeadToHead:
    """Entry ``a`` against entry ``b``: every figure from ``a``'s side."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    points_for: float  # a's final score per game (0 without games)
    points_against: float
    win_rate: stats.Interval  # score per game with its Wilson interval
    elo: stats.EloDifference  # over deal pairs when there are any (see ``pairs``), else over games
    los: float
    duplicate: stats.MeanInterval | None
    pairs: int = 0  # duplicate deal pairs among the games


def pair_outcome(first: Record | GameResult, second: Record | GameResult, a: str) -> tuple[float, float | None] | None:
    """``a``'s score over two consecutive records (0 to 2) and its point difference, if they are a deal
    pair with ``a`` in it; the difference is None when a game ended before its first hand."""
    pair = duplicate_pairs([game_result(first), game_result(second)])
    if not pair or a not in pair[0][0].teams:
        return None
    x, y = pair[0]
    score, diff = pair_score(x, y), pair_difference(x, y)
    if x.teams[0] != a:
        score, diff = 2 - score, None if diff is None else -diff
    return score, diff


def game_scores(records: Iterable[Record | GameResult], a: str, b: str) -> list[float]:
    """``a``'s score (1, 0.5, 0) in each game against ``b``, in record order (for a sequential SPRT)."""
    out = []
    for g in game_results(records):
        if set(g.teams) == {a, b}:
            out.append(g.score if g.teams[0] == a else 1 - g.score)
    return out


def neighbours(records: Iterable[Record | GameResult], order: Sequence[str]) -> list[HeadToHead]:
    """Each entry of ``order`` (the standings' order) against the next one, over their games together;
    pairs that never met are left out, and with fewer than three entries there are none (two make a
    match, which the standings already say all of). One pass over the games, whatever their number."""
    if len(order) < 3:
        return []
    wanted = {frozenset(pair): pair for pair in itertools.pairwise(order)}
    groups: dict[frozenset[str], list[GameResult]] = {}
    for g in each_result(records):
        key = frozenset(g.teams)
        if key in wanted:
            groups.setdefault(key, []).append(g)
    return [head_to_head(groups[key], *pair) for key, pair in wanted.items() if key in groups]


def head_to_head(records: Iterable[Record | GameResult], a: str, b: str) -> HeadToHead:
    """The summary of ``a`` against ``b`` over their games in ``records`` (others are ignored)."""
    if a == b:
        raise ValueError(f"head_to_head: expected two different entries, got {a!r} twice")
    played = [g for g in game_results(records) if set(g.teams) == {a, b}]
    tally = _Tally()
    for g in played:
        tally.add(g, g.teams.index(a))
    n = tally.games
    pairs = duplicate_pairs(played)
    diffs = duplicate_differences(played).get(a)
    if pairs:
        sums = stats.ClusterSums()
        for x, _, score, count in _clusters(played, pairs):
            sums = sums.add(score if x == a else count - score, count)
        elo = stats.elo_interval(sums)
        # Clusters without spread (one pair, or every pair alike) give no variance to judge by: then
        # the LOS of the games, as without pairs.
        los = stats.los_clustered(sums) if sums.variance_of_mean > 0 else stats.los(tally.wins, tally.losses)
    else:
        elo, los = stats.elo_difference(tally.wins, tally.draws, tally.losses), stats.los(tally.wins, tally.losses)
    return HeadToHead(
        a=a,
        b=b,
        games=n,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        points_for=tally.points_for / n if n else 0.0,
        points_against=tally.points_against / n if n else 0.0,
        win_rate=stats.wilson(tally.wins + tally.draws / 2, n),
        elo=elo,
        los=los,
        duplicate=stats.t_interval(diffs) if diffs else None,
        pairs=len(pairs),
    )
