"""A results directory: its records (``games.jsonl``), its plan file (``league.json``), its lock, and the
files derived from its records (standings and crosstable).

Each record is appended to ``games.jsonl``, flushed and synced before the next is counted, so a crash
loses at most the games in progress; a last line cut short is dropped, and cut from the file by the next
run. Readers take the records one at a time: the standings of any number of games are folded from them
without keeping them.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import pathlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rookarena.engine.cards import ascii_number
from rookarena.errors import RookError
from rookarena.results import gamesindex
from rookarena.results.files import GAMES_FILE as GAMES_FILE  # noqa: PLC0414 (callers' names for them)
from rookarena.results.files import LOCK_FILE as LOCK_FILE  # noqa: PLC0414
from rookarena.results.files import OWN_FILES as OWN_FILES  # noqa: PLC0414
from rookarena.results.files import PLAN_FILE as PLAN_FILE  # noqa: PLC0414
from rookarena.results.files import GameIds as GameIds  # noqa: PLC0414
from rookarena.results.files import ResultsError as ResultsError  # noqa: PLC0414
from rookarena.results.files import not_a_folder
from rookarena.results.files import output as output  # noqa: PLC0414
from rookarena.results.files import over_results as over_results  # noqa: PLC0414
from rookarena.results.files import write_file as write_file  # noqa: PLC0414
from rookarena.results.sink import RecordSink as RecordSink  # noqa: PLC0414
from rookarena.results.store import GameResult, ResultStore, game_result
from rookarena.wire import records

if TYPE_CHECKING:
    from rookarena.arena.specs import LeagueConfig

PLACEMENT = "placement"  # league.json's record of the CPUs the last run's workers were kept on
TRACKING = "process_tracking"  # league.json's record of how the last run followed its bots' processes
ANCHORS = "anchors"  # league.json's ratings held fixed (``anchors:``), which change no game
HOLDOUT = "holdout"  # league.json's commitment to a seed drawn for the run (``run --holdout``)
PLANNED = "planned_games"  # league.json's count of the games its run (or shard) plays, to tell an unfinished one


def read_games(path: pathlib.Path) -> list[dict[str, Any]]:
    """The records of ``games.jsonl`` (none if it does not exist), read as :func:`each_record` reads them."""
    return list(each_record(path)) if path.exists() else []


def prepare(
    out_dir: pathlib.Path,
    config: LeagueConfig,
    resume: bool,
    shard_label: str | None,
    *,
    write: bool = True,
    holdout: str | None = None,
    planned: int | None = None,
) -> set[str]:
    """Create or check the results directory; return the ids of the games already finished.

    With ``write=False`` (a dry run) only check: nothing is created, repaired or written. ``holdout``, the
    commitment to a seed drawn for this run, is recorded with the league's anchors; ``planned``, the number
    of games the run (or its shard) plays, too, so that the standings can tell a run that did not finish.
    """
    if write:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / "logs").mkdir(exist_ok=True)
        except OSError as exc:
            raise ResultsError(f"{out_dir}: cannot hold results: {not_a_folder(out_dir / 'logs', exc)}") from None
    from rookarena.arena.specs import as_mapping  # noqa: PLC0415

    meta: dict[str, Any] = {**as_mapping(config), "shard": shard_label}
    plan_path = out_dir / PLAN_FILE
    games_path = out_dir / GAMES_FILE
    if not plan_path.exists() and games_path.exists() and games_path.stat().st_size > 0:
        raise ResultsError(
            f"{out_dir} holds games but no {PLAN_FILE}: it is not a league's results directory (a match's?): "
            "use another --out"
        )
    if plan_path.exists():
        old, new = _read_meta(plan_path), json.loads(json.dumps(meta))
        old.pop(PLACEMENT, None)  # where a run's workers ran never changes its games
        old.pop(TRACKING, None)  # nor how they followed their bots' processes
        old.pop(ANCHORS, None)  # nor the ratings the standings hold fixed
        old.pop(PLANNED, None)  # a league that grows plans more games
        recorded = old.pop(HOLDOUT, None)
        holdout = holdout if recorded is None else recorded  # a resumed held-out run keeps its commitment
        change = extension_problem(old, new) if resume else first_difference(old, new)
        if change is None and shard_label is not None and first_difference(old, new) is not None:
            change = (
                f"{first_difference(old, new)}; a shard's league cannot grow: its slices would move, and the shards "
                "play each other's games"
            )
        if change is not None:
            raise ResultsError(f"{out_dir} holds results of a different league ({change}): use another --out")
    finished = finished_ids(games_path, repair=write)  # a record cut short by a crash is never kept
    if finished and not resume:
        raise ResultsError(
            f"{out_dir} already holds {len(finished)} games: add --resume to continue, or use another --out"
        )
    if config.anchors:
        meta[ANCHORS] = dict(config.anchors)
    if holdout is not None:
        meta[HOLDOUT] = holdout
    if planned is not None:
        meta[PLANNED] = planned
    if write:
        write_file(plan_path, json.dumps(meta, indent=2) + "\n")
        write_file(out_dir / "config.yaml", config.source)
    return finished


def recorded_anchors(out_dirs: Iterable[pathlib.Path]) -> dict[str, float] | None:
    """The fixed ratings recorded in the league.json of the first of ``out_dirs`` that has any, or None."""
    for out_dir in out_dirs:
        path = out_dir / PLAN_FILE
        if not path.exists():
            continue
        found = _read_meta(path).get(ANCHORS)
        if isinstance(found, dict) and found:
            return {
                str(name): float(elo)
                for name, elo in found.items()
                if isinstance(elo, (int, float)) and not isinstance(elo, bool)
            }
    return None


def recorded_seed(out_dir: pathlib.Path) -> int | None:
    """The seed recorded in a results directory's league.json, or None when it has none."""
    path = out_dir / PLAN_FILE
    if not path.exists():
        return None
    seed = _read_meta(path).get("seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def finished_ids(path: pathlib.Path, repair: bool = False) -> set[str]:
    """The game ids of ``games.jsonl``, read one record at a time; a last line cut short by a crash is
    dropped (and, with ``repair``, cut from the file so appends start on a clean line); a last record that is
    whole but lacks its newline (an editor's save) counts, and with ``repair`` gets its newline."""
    if not path.exists():
        return set()
    gate = GameIds()  # a record of another league or match added to the file is refused here, before any game
    good = 0
    ended = True  # whether the last whole line read ends with its newline
    with path.open("rb") as stream:
        for number, line in enumerate(stream, 1):
            try:
                record = records.load_record(line.decode("utf-8")) if line.strip() else None
            except (UnicodeDecodeError, RookError) as exc:
                if line.endswith(b"\n"):
                    raise ResultsError(f"{path}:{number}: damaged record: {exc}") from None
                break
            if record is not None and "game_id" in record:
                gate.first(record, path)
            good += len(line)
            ended = line.endswith(b"\n")
    if repair and good < path.stat().st_size:
        with path.open("r+b") as stream:
            stream.truncate(good)
    elif repair and not ended:
        with path.open("ab") as stream:
            stream.write(b"\n")
    return gate.ids()


def note_placement(out_dir: pathlib.Path, pin: str, cpus: list[int] | None, tracking: str | None = None) -> None:
    """Record in league.json how the run's workers were placed on CPUs (``cpus``: one per worker, or None),
    and how the bots' processes were followed (``tracking``, see ``rookarena.arena.proctree.tracking``)."""
    path = out_dir / PLAN_FILE
    meta = _read_meta(path)
    meta[PLACEMENT] = {"pin_cpus": pin, "cpus": cpus}
    if tracking is not None:
        meta[TRACKING] = tracking
    write_file(path, json.dumps(meta, indent=2) + "\n")


def first_difference(old: Any, new: Any, where: str = "") -> str | None:
    """The first setting in which ``new`` differs from ``old``, with both values, or None when they agree."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            change = first_difference(old.get(key), new.get(key), f"{where}.{key}" if where else str(key))
            if change is not None:
                return change
        return None
    if isinstance(old, list) and isinstance(new, list):
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            change = first_difference(a, b, f"{where}[{index}]")
            if change is not None:
                return change
        if len(old) != len(new):  # the same as far as both go: say what one has beyond the other
            more, side = (new[len(old) :], "here") if len(new) > len(old) else (old[len(new) :], "there")
            return f"{where or 'settings'}: {len(old)} there, {len(new)} here (only {side}: {_brief(more)})"
        return None
    if old == new:
        return None
    return f"{where or 'settings'}: {_brief(old)} there, {_brief(new)} here"


def extension_problem(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Why a league with settings ``new`` cannot continue the results of ``old``, or None when it can.

    Besides the same settings, a league may grow: more games per pairing (the deals of the games already
    played do not change) and more bots after the old ones (their pairings are new; the old pairings and
    their deals stay). Anything else changes games already played.
    """
    grown = dict(old)
    if isinstance(new.get("games"), int) and isinstance(old.get("games"), int) and new["games"] > old["games"]:
        grown["games"] = new["games"]
    old_bots, new_bots = old.get("bots"), new.get("bots")
    if isinstance(old_bots, list) and isinstance(new_bots, list) and new_bots[: len(old_bots)] == old_bots:
        grown["bots"] = new_bots
    change = first_difference(grown, new)
    if change is not None and change.startswith("bots"):
        return f"{change}; new bots may only be added after the old ones"
    if change is not None and change.startswith("games"):
        return f"{change}; games may grow, not shrink"
    return change


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _read_meta(path: pathlib.Path) -> dict[str, Any]:
    """A results directory's league.json: the settings its games were played under."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ResultsError(f"{path}: unreadable: {exc}") from None
    if not isinstance(meta, dict):
        raise ResultsError(f"{path}: expected a JSON object")
    return meta


class ResultsLock:
    """An exclusive lock on a results directory for the life of one run (``fcntl`` record lock).

    A second run into the same directory, on this machine or another sharing the file system, is refused
    while the first holds it; the kernel releases it when the holder ends, however it ends.
    """

    def __init__(self, directory: pathlib.Path) -> None:
        self.directory = directory
        self.fd = -1

    def acquire(self) -> None:
        path = self.directory / LOCK_FILE
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ResultsError(f"{self.directory}: cannot be used for results: {not_a_folder(path, exc)}") from None
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _lock_holder(os.fstat(fd).st_ino)
            os.close(fd)
            raise ResultsError(
                f"{self.directory} is in use by another rookarena run (pid {holder or 'unknown'}): wait for it "
                "to end, or use another --out"
            ) from None
        self.fd = fd

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> ResultsLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock_holder(inode: int) -> int | None:
    """The process holding a record lock on the file with ``inode``, from ``/proc/locks`` (Linux)."""
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as stream:
            for line in stream:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "POSIX" and fields[5].rsplit(":", 1)[-1] == str(inode):
                    return int(fields[4])
    except (OSError, ValueError):
        return None
    return None


def merge(directories: Iterable[pathlib.Path]) -> list[dict[str, Any]]:
    """The records of several results directories (shards of one league), each game once."""
    ids, merged = GameIds(), []
    for path in _games_files(directories):
        merged += [record for record in read_games(path) if ids.first(record, path)]
    return merged


@dataclasses.dataclass(frozen=True, slots=True)
class Results:
    """What the standings need of a league's records, read without keeping the records."""

    games: Sequence[GameResult]  # each game once, in the order first read
    never_started: dict[str, int]  # entries whose bots never said hello, with their number of games
    held: dict[pathlib.Path, int]  # the records each games file holds (a game in two files counts in both)


def merge_results(directories: Iterable[pathlib.Path]) -> Results:
    """:func:`merge`'s games as standings results, read one record at a time (or from the games index,
    where it matches the records): the memory kept grows with the number of games by about 150 bytes
    each (its id, and its result in a :class:`ResultStore`), never with the records' contents."""
    files = _games_files(directories)
    unindexed: set[pathlib.Path] = set()
    while True:
        try:
            return _merge_results(files, unindexed)
        except gamesindex.StaleIndexError as exc:
            unindexed.add(pathlib.Path(str(exc)))


def _merge_results(files: list[pathlib.Path], unindexed: set[pathlib.Path]) -> Results:
    ids = GameIds()
    games = ResultStore()
    spoke = Spoke()
    held = dict.fromkeys(files, 0)
    for path in files:
        for record in each_digest(path, path not in unindexed):
            held[path] += 1
            if not ids.first(record, path):
                continue
            spoke.add(record)
            games.append(game_result(record, keep=False))
    return Results(games, spoke.silent(), held)


def unfinished_runs(held: Mapping[pathlib.Path, int]) -> list[str]:
    """One sentence for each games file whose run did not play all the games its league.json says it
    planned (a run stopped, or a shard's task that ran out of time); none for results kept before runs
    recorded the count."""
    said = []
    for path, count in held.items():
        meta_path = path.parent / PLAN_FILE
        meta = _read_meta(meta_path) if meta_path.exists() else {}
        planned, shard = meta.get(PLANNED), meta.get("shard")
        if isinstance(planned, int) and not isinstance(planned, bool) and count < planned:
            what = f"{path.parent} (shard {shard})" if isinstance(shard, str) else str(path.parent)
            said.append(
                f"{what} holds {count} of the {planned} games its run planned: it did not finish "
                "(rookarena run with --resume and the same --out finishes it)"
            )
    return said


def _games_files(directories: Iterable[pathlib.Path]) -> list[pathlib.Path]:
    """The games files of ``directories``, after checking they are shards of one league."""
    out = []
    league: tuple[pathlib.Path, dict[str, Any]] | None = None
    for directory in directories:
        path = directory / GAMES_FILE
        if not path.exists():
            raise ResultsError(f"{directory}: no {GAMES_FILE} here")
        meta_path = directory / PLAN_FILE
        if meta_path.exists():
            meta = _read_meta(meta_path)
            meta.pop("shard", None)
            meta.pop(PLACEMENT, None)
            meta.pop(TRACKING, None)
            meta.pop(PLANNED, None)
            if league is None:
                league = (directory, meta)
            elif (change := first_difference(league[1], meta)) is not None:
                raise ResultsError(
                    f"{directory} holds a different league from {league[0]} ({change}): only shards of one "
                    "league can be merged"
                )
        out.append(path)
    return out


def games_files(directories: Iterable[pathlib.Path]) -> list[pathlib.Path]:
    """The games files of ``directories``, after checking they are shards of one league."""
    return _games_files(directories)


def each_digest(path: pathlib.Path, indexed: bool = True) -> Iterator[dict[str, Any]]:
    """What the standings read of each record of ``path``: the digests of the games index when it
    matches the file (:mod:`rookarena.results.gamesindex`), else the records themselves. An index found not to
    match partway raises :class:`rookarena.results.gamesindex.StaleIndexError` naming ``path``, for the caller
    to start again without it."""
    return (digest for _, digest in each_placed_digest(path, indexed))


def each_placed_digest(path: pathlib.Path, indexed: bool = True) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`each_digest` with the byte offset of each record in ``path``."""
    if indexed:
        given = 0
        try:
            for entry in gamesindex.entries(path):
                yield entry.offset, entry.digest()
                given += 1
            return
        except gamesindex.StaleIndexError:
            if given:
                raise gamesindex.StaleIndexError(str(path)) from None
    yield from each_placed(path)


def each_record(path: pathlib.Path) -> Iterator[dict[str, Any]]:
    """The records of ``path`` one at a time: a last line cut short by a crash is dropped; damage anywhere
    else is an error."""
    return (record for _, record in each_placed(path))


def each_placed(path: pathlib.Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`each_record` with the byte offset each record starts at."""
    offset = 0
    with path.open("rb") as stream:
        for number, line in enumerate(stream, 1):
            start, offset = offset, offset + len(line)
            if not line.strip():
                continue
            try:
                record = records.load_record(line.decode("utf-8"))
            except (UnicodeDecodeError, RookError) as exc:
                if not line.endswith(b"\n"):
                    return  # the last line, cut short by a crash
                raise ResultsError(f"{path}:{number}: damaged record: {exc}") from None
            yield start, record


def missing_shards(directories: Iterable[pathlib.Path]) -> list[str]:
    """The slices (``K/N``) of a sharded league that none of ``directories`` holds, in order; none when the
    games are all there anyway: an unsharded copy of the league, or every slice of one way of cutting it."""
    held: set[tuple[int, int]] = set()
    for directory in directories:
        meta_path = directory / PLAN_FILE
        if not meta_path.exists():
            continue
        meta = _read_meta(meta_path)
        label = meta.get("shard")
        if "shard" in meta and label is None:
            return []  # the whole league, unsharded
        if isinstance(label, str) and label.count("/") == 1:
            k, n = (ascii_number(part) for part in label.split("/"))
            if k is not None and n is not None:
                held.add((k, n))
    counts = {n for _, n in held}
    missing = {n: [k for k in range(1, n + 1) if (k, n) not in held] for n in counts}
    if any(not slices for slices in missing.values()):
        return []  # one way of cutting the league is whole
    return [f"{k}/{n}" for n in sorted(counts) for k in missing[n]]


class Spoke:
    """Whether each entry's bots ever said hello, record by record: those that never did had games that did
    not really happen (forfeits, or random play in their place), which ``run`` reports as an error."""

    def __init__(self) -> None:
        self.helloed: dict[str, bool] = {}
        self.games: dict[str, int] = {}

    def add(self, record: dict[str, Any]) -> None:
        teams, bots = record.get("teams"), record.get("bots")
        if not isinstance(teams, list) or len(teams) != 2:
            return
        for team in teams:
            self.games[str(team)] = self.games.get(str(team), 0) + 1
        if not isinstance(bots, list):
            return  # a game forfeited without being played (a withdrawn team): no seat spoke
        for seat, bot in enumerate(bots):
            name = str(teams[seat % 2])
            self.helloed[name] = self.helloed.get(name, False) or bool(isinstance(bot, dict) and bot.get("hello"))

    def silent(self) -> dict[str, int]:
        return {name: self.games[name] for name, said in self.helloed.items() if not said}
