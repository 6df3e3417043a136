"""The data of a report or replay page: records in, one JSON-ready dict out (pure: no I/O, no clock).

The page's own script draws everything from this dict. Figures come from :mod:`rookarena.results.standings`,
:mod:`rookarena.results.stats` and :mod:`rookarena.results.tables` (never recomputed here), so the page says what
``rookarena standings`` says. The standings rows are ``export.standings_json`` as it is: a column added
there shows up in the page with its key as its label.

A large league is not embedded whole: every game is listed from a compact index
(:class:`rookarena.web.index.Digest`), and up to ``cap`` records go in, chosen as every game when they
fit, else the faulted games, then the closest and the most lopsided finishes (with their duplicate
partners); the page says how many it left out.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rookarena.engine.presets import PRESETS
from rookarena.results import export, standings, stats, store, tables
from rookarena.web.index import DEFAULT_CAP, STOPPED, Digest, EmbedPlan, digest, embed_plan, pair_positions
from rookarena.web.index import game_id as game_id  # noqa: PLC0414 (the pages' name for it, used by their readers)

if TYPE_CHECKING:
    from rookarena.results import sprt as sequential

Record = Mapping[str, Any]


# Known standings keys: (label, what the column means). Unknown keys get their key as label.
COLUMNS: dict[str, tuple[str, str]] = {
    "rank": (
        "rank",
        "Place in the table: by rating, then score rate; entries with equal figures share a rank (2=), "
        "the next rank skipping as many places (1, 2=, 2=, 4).",
    ),
    "bot": ("bot", "The entry (a team of two seats running the bot and its partner)."),
    "games": ("games", "Games played against other entries (games against itself are left out)."),
    "wins": ("W", "Games won; a forfeit is a loss for the team that faulted."),
    "losses": ("L", "Games lost."),
    "draws": ("D", "Games drawn (the hand limit reached with no winner, or a game without a result)."),
    "score": ("score", "Wins plus half the draws."),
    "win_rate": ("score %", "Score per game in percent, with its Wilson 95% interval."),
    "points_for": ("pts/game", "The entry's team's final score, averaged over its games."),
    "points_against": ("against/game", "The opponents' final score, averaged over the entry's games."),
    "bids_won": ("bids won", "Hands in which the entry's team won the auction."),
    "bids_made": ("bids made", "Of those, hands in which the team made its bid."),
    "made_rate": ("made %", "Bids made as a percentage of bids won."),
    "sets": ("sets", "Bids the entry's team won and failed to make."),
    "opponents_set": ("opp. set", "Bids the opponents won and failed to make."),
    "average_bid": ("avg bid", "The average winning bid of the entry's team."),
    "faults": ("faults", "Faults committed by the entry's seats, by kind (see the faults section)."),
    "rating": (
        "Elo",
        "Bradley–Terry rating on the Elo scale (mean 0 over the entries) with its 95% error bar.",
    ),
    "pairs": ("pairs", "Duplicate deal pairs played: both games of a deal, the teams swapped."),
    "duplicate": (
        "dup diff",
        "Paired duplicate difference: own minus opponent's final score over both games of a deal, "
        "averaged over the deal pairs, with its 95% t-interval.",
    ),
}
# The models of rookarena.results.sprt, by value (a test is handed in; this module only reads it).
TRINOMIAL, PENTANOMIAL, POINTS = "trinomial", "pentanomial", "points"
UNKNOWN_COLUMN = "A figure from rookarena standings (see docs/league.md, section 6)."


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueInfo:
    """What the records alone do not say about a results directory (read by :mod:`rookarena.web.sources`)."""

    name: str | None = None
    format: str | None = None
    planned_games: int | None = None
    seed: int | None = None
    duplicate: bool | None = None
    duration_seconds: float | None = None
    command: str | None = None
    directories: tuple[str, ...] = ()
    settings: Mapping[str, Any] | None = None  # league.json without bots and rules


def anchors_of(info: LeagueInfo) -> dict[str, float] | None:
    """The ratings league.json says the standings keep fixed (``anchors:``), or None."""
    found = (info.settings or {}).get("anchors")
    if not isinstance(found, Mapping) or not found:
        return None
    return {str(k): float(v) for k, v in found.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


@dataclasses.dataclass(frozen=True, slots=True)
class LogTail:
    """The last lines of a bot's stderr log, and the log's file name (empty when no log was found)."""

    name: str
    lines: tuple[str, ...]


# -- games -------------------------------------------------------------------------------------------


def teams_of(record: Record) -> tuple[str, str]:
    result = store.game_result(record)
    return result.teams


def final_scores(record: Record) -> tuple[int, int]:
    return store.game_result(record).points


def game_summary(record: Record, index: int, partner: str | None) -> dict[str, Any]:
    """One line of the games list."""
    teams = teams_of(record)
    scores = final_scores(record)
    result = record.get("result") or {}
    winner = result.get("winner")
    league = record.get("league") or {}
    faults = record.get("faults") or []
    return {
        "id": game_id(record, index),
        "index": index,
        "teams": list(teams),
        "seats": list(record.get("seats") or []),
        "pairing": " vs ".join(sorted(teams)),
        "scores": list(scores),
        "winner": None if winner is None else teams[winner],
        "margin": abs(scores[0] - scores[1]),
        "hands": len(record.get("hands") or []),
        "reason": result.get("reason", STOPPED),
        "faults": len(faults),
        "fault_kinds": sorted({str(f.get("kind")) for f in faults}),
        "deal": league.get("deal"),
        "partner": partner,
    }


def partners(played: Sequence[Record]) -> dict[str, str]:
    """Each game of a duplicate pair mapped to the other (by game id)."""
    results = [store.game_result(record, keep=False) for record in played]
    return {game_id(played[a], a): game_id(played[b], b) for a, b in pair_positions(results).items()}


# -- rules and league -------------------------------------------------------------------------------


def rules_info(record: Record) -> dict[str, Any]:
    """The preset the rules start from and every knob that differs from it."""
    name = str(record.get("rules_name") or "")
    base = PRESETS.get(name.rstrip("+"))
    rules = record.get("rules") or {}
    differences = []
    if base is not None:
        preset_rules = base.rules.to_mapping()
        for key, value in rules.items():
            if preset_rules.get(key) != value:
                differences.append({"knob": key, "value": value, "preset": preset_rules.get(key)})
    return {
        "name": name,
        "preset": base.name if base is not None else None,
        "hash": record.get("rules_hash"),
        "differences": differences,
        "rules": dict(rules),
    }


def league_info(digest: Digest, info: LeagueInfo) -> dict[str, Any]:
    first = digest.first or {}
    league = first.get("league") or {}
    entries = digest.entries()
    return {
        "name": info.name or league.get("name") or "results",
        "format": info.format or ("head-to-head match" if len(entries) == 2 else "games"),
        "entries": entries,
        "games": len(digest),
        "planned_games": info.planned_games,
        "seed": None if info.seed is None else str(info.seed),
        "duplicate": info.duplicate,
        "duration_seconds": info.duration_seconds,
        "command": info.command,
        "directories": list(info.directories),
        "settings": dict(info.settings) if info.settings else None,
        "rules": rules_info(first) if digest.first is not None else None,
        "hands": digest.hands,
        "faults": len(digest.fault_list),
    }


# -- figures ----------------------------------------------------------------------------------------


def _finite(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else value


def columns(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    keys: list[str] = []
    for row in rows:
        keys.extend(key for key in row if key not in keys)
    return [
        {"key": key, "label": COLUMNS.get(key, (key, ""))[0], "help": COLUMNS.get(key, ("", UNKNOWN_COLUMN))[1]}
        for key in keys
    ]


def ratings(rows: Sequence[standings.Standing]) -> list[dict[str, Any]]:
    """Each entry's Elo and duplicate difference with their 95% intervals, for the plots."""
    out = []
    for row in rows:
        dup = row.duplicate
        out.append(
            {
                "name": row.name,
                "elo": row.rating.elo,
                "lo": row.rating.elo - row.rating.error,
                "hi": row.rating.elo + row.rating.error,
                "duplicate": None
                if dup is None
                else {"mean": dup.mean, "lo": _finite(dup.lo), "hi": _finite(dup.hi), "pairs": dup.n},
            }
        )
    return out


def crosstable(played: Sequence[Record | store.GameResult], order: Sequence[str]) -> dict[str, Any]:
    """Row entry against column entry: W-D-L, score rate, its Wilson interval, and whether that
    interval excludes 50%."""
    table = standings.crosstable(played, order)
    cells = []
    for row in table.entries:
        line: list[dict[str, Any] | None] = []
        for column in table.entries:
            cell = table.cell(row, column)
            if row == column or cell.games == 0:
                line.append(None)
                continue
            interval = stats.wilson(cell.wins + cell.draws / 2, cell.games)
            line.append(
                {
                    "wins": cell.wins,
                    "draws": cell.draws,
                    "losses": cell.losses,
                    "games": cell.games,
                    "rate": interval.estimate,
                    "lo": interval.lo,
                    "hi": interval.hi,
                    "significant": interval.lo > 0.5 or interval.hi < 0.5,
                }
            )
        cells.append(line)
    return {"entries": list(table.entries), "cells": cells}


def neighbours(played: Sequence[Record | store.GameResult], rows: Sequence[standings.Standing]) -> list[dict[str, Any]]:
    """Each entry against the next one below it in the standings (the neighbours table of the text); a pair
    that never met has its games (0) and no figures."""
    ranks = {row.name: row.rank for row in rows}
    order = [row.name for row in rows]
    pairs = standings.neighbours(played, order)
    out: list[dict[str, Any]] = []
    for a, b, pair in tables.adjacent(pairs, order) if pairs else ():
        if pair is None:  # next to each other without a game together: said, not left out
            out.append({"ranks": [ranks[a], ranks[b]], "higher": a, "lower": b, "games": 0, "apart": False})
            continue
        kind, value, lo, hi = tables.pair_difference(pair)
        out.append(
            {
                "ranks": [ranks[pair.a], ranks[pair.b]],
                "higher": pair.a,
                "lower": pair.b,
                "games": pair.games,
                "score": pair.win_rate.estimate,
                "diff": {"kind": kind, "value": _finite(value), "lo": _finite(lo), "hi": _finite(hi)},
                "dup": None
                if pair.duplicate is None or pair.duplicate.n < 2
                else {
                    "value": pair.duplicate.mean,
                    "lo": _finite(pair.duplicate.lo),
                    "hi": _finite(pair.duplicate.hi),
                    "pairs": pair.duplicate.n,
                },
                "elo": {"value": _finite(pair.elo.elo), "lo": _finite(pair.elo.lo), "hi": _finite(pair.elo.hi)},
                "apart": tables.apart(pair),
            }
        )
    return out


def match_data(
    played: Sequence[Record | store.GameResult], a: str, b: str, test: sequential.SequentialTest | None
) -> dict[str, Any]:
    """Head to head: ``a``'s running score game by game, and with ``test`` its log-likelihood ratio after
    each deal pair (each game for a trinomial test) against its bounds, counted as ``rookarena match``
    counts it."""
    scores = standings.game_scores(played, a, b)
    running = []
    total = 0.0
    for number, score in enumerate(scores, 1):
        total += score
        running.append({"game": number, "score": score, "total": total, "net": 2 * total - number})
    return {
        "a": a,
        "b": b,
        "running": running,
        "summary": tables.match_summary(standings.head_to_head(played, a, b)),
        "sprt": None if test is None else sprt_data(played, a, b, test),
    }


def sprt_data(
    played: Sequence[Record | store.GameResult], a: str, b: str, test: sequential.SequentialTest
) -> dict[str, Any]:
    """The test's LLR after each game or deal pair of ``a`` against ``b``, in record order."""
    tally = test.start()
    pending: list[store.GameResult] = []
    points = []
    decided = None
    for record in played:
        game = store.game_result(record, keep=False)
        if set(game.teams) != {a, b}:
            continue
        if test.model == TRINOMIAL:
            tally = tally.add_game(game.score if game.teams[0] == a else 1 - game.score)
        elif not pending:
            pending.append(game)
            continue
        else:
            outcome = standings.pair_outcome(pending.pop(), game, a)
            if outcome is None or (outcome[1] is None and test.model == POINTS):
                continue
            tally = tally.add_pair(outcome[0], outcome[1] or 0.0)
        result = tally.result()
        points.append({"games": result.games, "llr": result.llr})
        if result.decision is not None and decided is None:
            decided = {"games": result.games, "hypothesis": str(result.decision)}
    lower, upper = test.bounds
    final = tally.result()
    return {
        "h0": test.h0,
        "h1": test.h1,
        "alpha": test.alpha,
        "beta": test.beta,
        "model": str(test.model),
        "lower": lower,
        "upper": upper,
        "per": "game" if test.model == TRINOMIAL else "deal pair",
        "points": points,
        "decided": decided,
        "text": tables.sprt_text(final),
    }


def sprt_model(played: Sequence[Record | store.GameResult]) -> str:
    """The model of :mod:`rookarena.results.sprt` that ``match --sprt`` would use: deal pairs when the games hold
    duplicate deal pairs, games otherwise."""
    paired = bool(standings.duplicate_pairs(store.game_results(played)))
    return PENTANOMIAL if paired else TRINOMIAL


def faults(digest: Digest, tails: Mapping[tuple[str, int], LogTail]) -> list[dict[str, Any]]:
    """Every fault with its game, and the end of the faulting bot's stderr log (``tails`` by game id and
    seat)."""
    out = []
    for fault in digest.fault_list:
        gid = digest.ids[fault["position"]]
        tail = tails.get((gid, fault.get("seat", -1)))
        out.append(
            {
                "game": gid,
                "bot": fault.get("bot"),
                "seat": fault.get("seat"),
                "hand": fault.get("hand"),
                "kind": fault.get("kind"),
                "detail": fault.get("detail"),
                "line": fault.get("line"),
                "where": fault.get("where") or "",
                "log": None if tail is None or not tail.name else {"name": tail.name, "lines": list(tail.lines)},
            }
        )
    return out


# -- pages -----------------------------------------------------------------------------------------


def report_data(
    played: Sequence[Record],
    info: LeagueInfo,
    tails: Mapping[tuple[str, int], LogTail] | None = None,
    cap: int = DEFAULT_CAP,
    test: sequential.SequentialTest | None = None,
    version: str = "",
) -> dict[str, Any]:
    """Everything the report page shows, from records held in memory."""
    summary = digest(played)
    plan = embed_plan(summary, cap)
    return report_page(summary, plan, {p: played[p] for p in plan.positions}, info, tails, test, version)


def report_page(
    summary: Digest,
    plan: EmbedPlan,
    embedded: Mapping[int, Record],
    info: LeagueInfo,
    tails: Mapping[tuple[str, int], LogTail] | None = None,
    test: sequential.SequentialTest | None = None,
    version: str = "",
    *,
    lean: bool = False,
) -> dict[str, Any]:
    """Everything the report page shows: the figures from the digest's results, the games index, and the
    records of ``plan``'s positions (``embedded``, read again by the caller). ``lean`` leaves out the
    games index and the records, for a caller that writes them as JSON text of its own
    (:meth:`Digest.index_json` and the records' lines)."""
    played = summary.results
    rows = standings.standings(played, anchors=anchors_of(info))
    table = export.standings_json(rows)["standings"]
    entries = [row.name for row in rows]
    head = None
    if len(entries) == 2:
        first = next((teams_of(r) for r in [summary.first] if r and not (r.get("league") or {}).get("swapped")), None)
        a, b = first if first is not None and set(first) == set(entries) else (entries[0], entries[1])
        head = match_data(played, a, b, test)
    return {
        "kind": "report",
        "version": version,
        "league": league_info(summary, info),
        "standings": {"columns": columns(table), "rows": table},
        "ratings": ratings(rows),
        "crosstable": crosstable(played, entries) if entries else None,
        "neighbours": neighbours(played, rows),
        "match": head,
        "faults": faults(summary, tails or {}),
        "embed": plan.note,
        **(
            {}
            if lean
            else {
                "games": summary.index_data(plan.partner, plan.positions),
                "records": {summary.ids[p]: embedded[p] for p in plan.positions},
            }
        ),
    }


def find(played: Sequence[Record], wanted: str) -> int | None:
    """The index of the record whose game id is ``wanted``."""
    for index, record in enumerate(played):
        if game_id(record, index) == wanted:
            return index
    return None


def replay_data(played: Sequence[Record], wanted: str, version: str = "") -> dict[str, Any]:
    """The viewer page of one game, with its duplicate partner when ``played`` holds it."""
    index = find(played, wanted)
    if index is None:
        raise KeyError(wanted)
    other = partners(played).get(wanted)
    games = [(wanted, played[index])]
    if other is not None:
        at = find(played, other)
        assert at is not None
        games.append((other, played[at]))
    return replay_page(games, version)


def replay_page(games: Sequence[tuple[str, Record]], version: str = "") -> dict[str, Any]:
    """The viewer page of the first of ``games`` (id and record), with the second as its duplicate
    partner when there is one."""
    summary = Digest()
    for gid, record in games:
        summary.add(record, gid)
    partner = pair_positions(summary.results)
    return {
        "kind": "replay",
        "version": version,
        "open": games[0][0],
        "games": summary.index_data(partner, range(len(games))),
        "embed": {"cap": len(games), "total": len(games), "embedded": len(games), "all": True},
        "records": dict(games),
    }


def game_ids(played: Iterable[Record]) -> list[str]:
    return [game_id(record, index) for index, record in enumerate(played)]
