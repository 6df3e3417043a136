"""Leagues end to end: the plan, shards, a killed run resumed, refusals, and a bot that never answers.

Real ``rookarena run`` processes play small leagues of the packaged random bot, which reseeds per game,
so a game's moves depend only on the league's seed and the game: a resumed, sharded or differently
parallel league must give the very same games. Standings are compared as the text of
``rookarena standings``, whatever its layout.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, TEST_BOTS
from procs import processes_with

from rookarena.arena import league
from rookarena.arena.config import load
from rookarena.arena.specs import LeagueConfig
from rookarena.results import directory as results
from rookarena.results.summary import standings_text

BAD_BOT = TEST_BOTS / "bad_bot.py"
NAMES = ("alpha", "beta", "gamma")
GAMES = 4  # per pairing: two duplicate deals
TOTAL = 3 * GAMES  # three pairings


def league_yaml(
    marker: str, *, seed: int = 5, jobs: int = 2, move: float = 2.0, sleeper: bool = False, name: str = "league"
) -> str:
    """A league of three random bots (and a bot that never answers its 5th request, with ``sleeper``)."""
    lines = [
        f"name: {name}",
        "rules: tournament",
        f"games: {GAMES}",
        "duplicate: true",
        f"seed: {seed}",
        f"jobs: {jobs}",
        f"time: {{move: {move}, startup: 10}}",
        "bots:",
    ]
    for number, bot in enumerate(NAMES, 1):
        lines += [
            f"  - name: {bot}",
            f"    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{number}']",
            f"    env: {{ROOKARENA_TEST_MARKER: {marker}, PYTHONPATH: {json.dumps(str(ROOT))}}}",
        ]
    if sleeper:
        lines += [
            "  - name: sleeper",
            f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(BAD_BOT))}, silent]",
            f"    env: {{ROOKARENA_TEST_MARKER: {marker}, PYTHONPATH: {json.dumps(str(ROOT))}}}",
        ]
    return "\n".join(lines) + "\n"


def write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.write_text(text, encoding="utf-8")
    return path


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "rookarena", *args]


def rookarena(*args: str, cwd: pathlib.Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command(*args), cwd=cwd, env=environment(), capture_output=True, text=True, timeout=120, check=False
    )
    if check:
        assert done.returncode == 0, f"rookarena {' '.join(args)}: exit {done.returncode}\n{done.stderr}"
    return done


def standings(*directories: pathlib.Path) -> str:
    return rookarena("standings", *map(str, directories), cwd=directories[0]).stdout


def games_of(directory: pathlib.Path) -> list[dict[str, Any]]:
    return results.read_games(directory / results.GAMES_FILE)


def outcome(record: dict[str, Any]) -> tuple[str, str]:
    """A game as its id and everything that was played and scored: winner, scores, every hand."""
    result = record["result"] or {}
    played = {"winner": result.get("winner"), "scores": result.get("scores"), "hands": record["hands"]}
    return record["game_id"], json.dumps(played, sort_keys=True)


def outcomes(records: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {outcome(record) for record in records}


def no_processes_with(marker: str, within: float = 5.0) -> list[str]:
    """Wait up to ``within`` seconds for every process carrying ``marker`` to end; return the survivors."""
    deadline = time.monotonic() + within
    while (left := processes_with(marker, in_environment=True)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def complete_lines(path: pathlib.Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


class League:
    """One league configuration file in a directory of its own, and the directory of its full run."""

    def __init__(self, base: pathlib.Path, marker: str) -> None:
        self.base = base
        self.marker = marker
        self.path = write(base / "league.yaml", league_yaml(marker))
        self.reference = base / "reference"

    def config(self) -> LeagueConfig:
        return load(self.path)

    @functools.cached_property
    def standings(self) -> str:
        """The standings of the uninterrupted run."""
        return standings(self.reference)

    def run(self, out: pathlib.Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return rookarena("run", str(self.path), "--out", str(out), *args, cwd=self.base, check=check)


@pytest.fixture(scope="module")
def marker() -> str:
    return f"rookarena-league-test-{uuid.uuid4().hex}"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, marker: str) -> Iterator[League]:
    """The league, run once to the end without interruption."""
    setup = League(tmp_path_factory.mktemp("league"), marker)
    setup.run(setup.reference)
    yield setup
    assert no_processes_with(marker) == []


# -- the plan, without processes ---------------------------------------------------------------------


def test_plan_is_the_same_for_the_same_config(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path / "league.yaml", league_yaml("m"))

    def described(config: LeagueConfig) -> list[tuple[int, str, int, int, bool]]:
        return [(g.number, g.game_id, g.game.seed, g.game.deal, g.game.swapped) for g in league.plan(config)]

    first = described(load(path))
    assert first == described(load(path))
    assert len(first) == TOTAL
    assert len({game_id for _, game_id, *_ in first}) == TOTAL
    assert [number for number, *_ in first] == list(range(TOTAL))
    # Every pairing plays the same deals, each twice with the seats swapped.
    by_pairing: dict[str, list[tuple[int, int, bool]]] = {}
    for _, game_id, seed, deal, swapped in first:
        by_pairing.setdefault(game_id.rsplit("-", 1)[0], []).append((seed, deal, swapped))
    assert list(by_pairing) == ["alpha-vs-beta", "alpha-vs-gamma", "beta-vs-gamma"]
    deals = list(by_pairing.values())
    assert deals[0] == deals[1] == deals[2]
    assert [(deal, swapped) for _, deal, swapped in deals[0]] == [(0, False), (0, True), (1, False), (1, True)]
    # Another seed deals other cards to the same game ids.
    other = described(load(write(tmp_path / "other.yaml", league_yaml("m", seed=6))))
    assert [g[1] for g in other] == [g[1] for g in first]
    assert {g[2] for g in other}.isdisjoint({g[2] for g in first})


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_shards_are_disjoint_cover_the_plan_and_keep_deals_whole(tmp_path: pathlib.Path, n: int) -> None:
    games = league.plan(load(write(tmp_path / "league.yaml", league_yaml("m"))))
    shards = [league.shard(games, k, n) for k in range(1, n + 1)]
    ids = [[g.game_id for g in part] for part in shards]
    flat = [game_id for part in ids for game_id in part]
    assert len(flat) == len(set(flat)), "a game is in two shards"
    assert sorted(flat) == sorted(g.game_id for g in games)
    assert [league.shard(games, k, n) for k in range(1, n + 1)] == shards  # deterministic
    home: dict[tuple[str, str, int], set[int]] = {}
    for k, part in enumerate(shards):
        for g in part:
            home.setdefault((g.entries[0].name, g.entries[1].name, g.game.deal), set()).add(k)
    assert all(len(where) == 1 for where in home.values()), "a duplicate deal is split across shards"
    if n <= TOTAL // 2:
        assert all(part for part in shards), "a shard with no games while others have several deals"


@pytest.mark.parametrize("jobs", [1, 2, 3, 5, 12])
def test_units_cover_the_games_once_one_pairing_each_and_keep_deals_whole(tmp_path: pathlib.Path, jobs: int) -> None:
    games = league.plan(load(write(tmp_path / "league.yaml", league_yaml("m"))))
    work = league.units(games, jobs)
    flat = [g.number for unit in work for g in unit]
    assert sorted(flat) == list(range(TOTAL))
    for unit in work:
        assert len({(g.entries[0].name, g.entries[1].name) for g in unit}) == 1
    deal_units: dict[tuple[str, str, int], set[int]] = {}
    for index, unit in enumerate(work):
        for g in unit:
            deal_units.setdefault((g.entries[0].name, g.entries[1].name, g.game.deal), set()).add(index)
    assert all(len(where) == 1 for where in deal_units.values())
    assert len(work) >= min(jobs, TOTAL // 2)


# -- real runs -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_full_run_plays_every_planned_game_once(played: League) -> None:
    records = games_of(played.reference)
    assert sorted(r["game_id"] for r in records) == sorted(g.game_id for g in league.plan(played.config()))
    assert all(r["faults"] == [] for r in records)
    assert all(r["league"]["name"] == "league" for r in records)
    assert (played.reference / results.PLAN_FILE).exists()
    assert (played.reference / "config.yaml").read_text(encoding="utf-8") == played.path.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_killed_run_resumed_gives_the_games_and_standings_of_an_uninterrupted_run(played: League) -> None:
    out = played.base / "killed"
    games_file = out / results.GAMES_FILE
    proc = subprocess.Popen(
        command("run", str(played.path), "--out", str(out)),
        cwd=played.base,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while complete_lines(games_file) < 2:
            assert proc.poll() is None, f"the run ended (exit {proc.returncode}) before it could be killed"
            assert time.monotonic() < deadline, "no 2 games within 60 s"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    before = games_of(out)
    assert 2 <= len(before) < TOTAL, "the run was not interrupted"
    # The bots run in process groups of their own: they end on the end of their input.
    assert no_processes_with(played.marker) == []
    said = _standings_warnings(played, out)
    assert said == [
        f"warning: {out} holds {len(before)} of the {TOTAL} games its run planned: it did not finish "
        "(rookarena run with --resume and the same --out finishes it)"
    ], said

    played.run(out, "--resume")
    assert _standings_warnings(played, out) == []
    after = games_of(out)
    ids = [r["game_id"] for r in after]
    assert len(ids) == len(set(ids)) == TOTAL, "a game was played twice or is missing"
    assert outcomes(before) <= outcomes(after)
    assert outcomes(after) == outcomes(games_of(played.reference))
    assert standings(out) == played.standings
    assert no_processes_with(played.marker) == []


@pytest.mark.slow
def test_three_shards_merged_give_the_standings_of_the_whole_league(played: League) -> None:
    dirs = [played.base / f"shard-{k}" for k in (1, 2, 3)]
    procs = [
        subprocess.Popen(
            command("run", str(played.path), "--out", str(d), "--shard", f"{k}/3", "--jobs", "1"),
            cwd=played.base,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for k, d in enumerate(dirs, 1)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode(errors="replace")
    plan = league.plan(played.config())
    for k, d in enumerate(dirs, 1):
        assert sorted(r["game_id"] for r in games_of(d)) == sorted(g.game_id for g in league.shard(plan, k, 3))
    merged = results.merge(dirs)
    assert outcomes(merged) == outcomes(games_of(played.reference))
    assert standings(*dirs) == played.standings
    assert standings(dirs[2], dirs[0], dirs[1]) == played.standings  # in any order
    assert results.missing_shards(dirs) == []
    streamed = results.merge_results(dirs)  # what run and standings read: no record kept, the same table
    assert all(g.record is None for g in streamed.games)
    assert standings_text(streamed.games, "plain") == standings_text(merged, "plain")
    assert results.missing_shards([dirs[1]]) == ["1/3", "3/3"]
    partial = subprocess.run(
        command("standings", str(dirs[1])),
        cwd=played.base,
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "warning: shards 1/3, 3/3 are missing" in partial.stderr
    assert _standings_warnings(played, *dirs) == []
    # a shard whose task ran out of time (its last games never written) is said to be short, by how much
    lines = (dirs[1] / results.GAMES_FILE).read_bytes().splitlines(keepends=True)
    kept = random.Random(len(lines)).randrange(len(lines))
    (dirs[1] / results.GAMES_FILE).write_bytes(b"".join(lines[:kept]))
    said = _standings_warnings(played, *dirs)
    assert said == [
        f"warning: {dirs[1]} (shard 2/3) holds {kept} of the {len(lines)} games its run planned: it did "
        "not finish (rookarena run with --resume and the same --out finishes it)"
    ], said
    played.run(dirs[1], "--shard", "2/3", "--resume")
    assert _standings_warnings(played, *dirs) == []


def _standings_warnings(played: League, *dirs: pathlib.Path) -> list[str]:
    done = subprocess.run(
        command("standings", *map(str, dirs)),
        cwd=played.base,
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("warning:")]


@pytest.mark.slow
def test_a_directory_with_games_is_only_continued_with_resume(played: League) -> None:
    out = played.base / "again"
    shutil.copytree(played.reference, out)
    kept = {name: (out / name).read_bytes() for name in (results.GAMES_FILE, results.PLAN_FILE)}
    done = played.run(out, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("Error: ") and "--resume" in line, line
    assert str(TOTAL) in line, line  # says how many games are there
    assert {name: (out / name).read_bytes() for name in kept} == kept


@pytest.mark.slow
def test_resuming_a_finished_league_plays_nothing_more(played: League) -> None:
    out = played.base / "finished"
    shutil.copytree(played.reference, out)
    kept = {name: (out / name).read_bytes() for name in (results.GAMES_FILE, results.PLAN_FILE)}
    for _ in range(3):  # the run has nothing to do: it must still end cleanly, every time
        done = played.run(out, "--resume")
        assert done.stdout.strip(), "no standings printed"
        assert {name: (out / name).read_bytes() for name in kept} == kept


@pytest.mark.slow
def test_a_cut_first_record_is_repaired_or_refused_without_resume(played: League, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "results"
    out.mkdir()
    first = (played.reference / results.GAMES_FILE).read_bytes().split(b"\n", 1)[0]
    (out / results.GAMES_FILE).write_bytes(first[: len(first) // 2])
    done = played.run(out, "--shard", "1/3", check=False)
    assert "Traceback" not in done.stderr, done.stderr
    if done.returncode == 0:
        plan = league.shard(league.plan(played.config()), 1, 3)
        assert sorted(r["game_id"] for r in games_of(out)) == sorted(g.game_id for g in plan)
    else:
        assert done.returncode == 1
        assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "args"),
    [("seed", ()), ("seed", ("--resume",)), ("shard", ("--resume", "--shard", "1/3")), ("bots", ("--resume",))],
)
def test_a_directory_of_another_league_is_refused(
    played: League, change: str, args: tuple[str, ...], tmp_path: pathlib.Path
) -> None:
    out = tmp_path / "results"
    shutil.copytree(played.reference, out)
    kept = {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()}
    path = played.path
    if change == "seed":
        path = write(tmp_path / "league.yaml", league_yaml(played.marker, seed=6))
    elif change == "bots":
        text = league_yaml(played.marker).replace("randombot, '3'", "randombot, '33'")
        path = write(tmp_path / "league.yaml", text)
    done = rookarena("run", str(path), "--out", str(out), *args, cwd=tmp_path, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"Error: {out}"), line
    assert "different league" in line, line
    assert {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()} == kept


# -- a bot that never answers ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sleeper_leagues(
    tmp_path_factory: pytest.TempPathFactory, marker: str
) -> Iterator[tuple[pathlib.Path, pathlib.Path]]:
    """The league with a bot that times out, and the same league without it; both with jobs 1."""
    base = tmp_path_factory.mktemp("sleeper")
    dirs = []
    for sleeper in (True, False):
        name = "with" if sleeper else "without"
        path = write(base / f"{name}.yaml", league_yaml(marker, jobs=1, move=0.5, sleeper=sleeper))
        out = base / name
        rookarena("run", str(path), "--out", str(out), cwd=base)
        dirs.append(out)
    yield dirs[0], dirs[1]
    assert no_processes_with(marker) == []


def sleeper_timeouts(records: list[dict[str, Any]]) -> int:
    return sum(
        fault["kind"] == "timeout" and record["seats"][fault["seat"]] == "sleeper"
        for record in records
        for fault in record["faults"]
    )


@pytest.mark.slow
def test_a_bot_that_times_out_loses_every_game_and_the_others_play_the_same_games(
    sleeper_leagues: tuple[pathlib.Path, pathlib.Path],
) -> None:
    with_dir, without_dir = sleeper_leagues
    records = games_of(with_dir)
    assert len(records) == 6 * GAMES
    theirs = [r for r in records if "sleeper" in r["teams"]]
    others = [r for r in records if "sleeper" not in r["teams"]]
    assert len(theirs) == 3 * GAMES
    for record in theirs:
        assert record["faults"], record["game_id"]
        assert {record["seats"][f["seat"]] for f in record["faults"]} == {"sleeper"}
        # A hung bot also fails to exit at the end of its run of games: a fault apart from the cause.
        causes = [f for f in record["faults"] if not f["detail"].startswith("did not exit")]
        assert {f["kind"] for f in causes} <= {"timeout", "withdrawn"}
        assert record["result"]["winner"] == 1 - record["teams"].index("sleeper")
    assert sleeper_timeouts(records) >= 3
    assert all(r["faults"] == [] for r in others)
    assert outcomes(others) == outcomes(games_of(without_dir))


@pytest.mark.slow
def test_a_bot_that_times_out_is_last_in_the_standings_with_its_timeouts(
    sleeper_leagues: tuple[pathlib.Path, pathlib.Path],
) -> None:
    with_dir, _ = sleeper_leagues
    text = standings(with_dir)
    names = [*NAMES, "sleeper"]
    assert all(name in text for name in names), text
    ranked = sorted(names, key=text.index)  # the order in which the bots first appear: their ranks
    assert ranked[-1] == "sleeper", text
    row = next(line for line in text.splitlines() if "sleeper" in line)
    assert "timeout" in row, text
    count = sleeper_timeouts(games_of(with_dir))
    assert re.search(rf"timeouts?\W{{0,3}}{count}\b|\b{count}\W{{0,3}}timeout", row), text


# -- the time of each decision ---------------------------------------------------------------------------


def seat_decisions(record: dict[str, Any]) -> list[int]:
    """How many actions each seat made in the record's hands (calls, discards, trump, cards)."""
    made = [0] * 4
    for hand in record["hands"]:
        for call in hand["auction"]:
            made[call["seat"]] += 1
        if hand["bidder"] is not None:
            made[hand["bidder"]] += len(hand["discards"]) + 1
            for trick in hand["tricks"]:
                for k in range(4):
                    made[(trick["leader"] + k) % 4] += 1
    return made


@pytest.mark.slow
def test_a_league_records_the_time_of_every_decision_each_seat_was_asked(played: League) -> None:
    for record in games_of(played.reference):
        times, timing = record["decision_ms"], record["timing"]
        assert [len(seat) for seat in times] == [t["count"] for t in timing] == seat_decisions(record)
        for seat, (seat_times, summary) in enumerate(zip(times, timing, strict=True)):
            assert all(isinstance(t, (int, float)) and t >= 0 and round(t, 1) == t for t in seat_times), seat
            assert not any(isinstance(t, float) and t.is_integer() for t in seat_times), seat  # 3, not 3.0
            assert abs(max(seat_times) - summary["max"]) <= 0.05 + 1e-9, (record["game_id"], seat)
            assert abs(sum(seat_times) - summary["total"]) <= 0.05 * len(seat_times) + 1e-6, (record["game_id"], seat)


@pytest.mark.slow
def test_a_decision_that_timed_out_has_no_time_and_ends_the_list(
    sleeper_leagues: tuple[pathlib.Path, pathlib.Path],
) -> None:
    with_dir, _ = sleeper_leagues
    timed_out = 0
    for record in games_of(with_dir):
        if "timing" not in record:  # a game forfeited before it began: nobody was asked anything
            assert "decision_ms" not in record
            continue
        for seat, (seat_times, summary) in enumerate(zip(record["decision_ms"], record["timing"], strict=True)):
            assert len(seat_times) == summary["count"], (record["game_id"], seat)
            faulted = any(f["seat"] == seat and f["kind"] == "timeout" for f in record["faults"])
            if faulted:
                timed_out += 1
                assert seat_times[-1] is None and None not in seat_times[:-1], (record["game_id"], seat)
                assert len(seat_times) > seat_decisions(record)[seat]  # the hand it stopped is not recorded
            else:
                assert None not in seat_times, (record["game_id"], seat)
                assert len(seat_times) >= seat_decisions(record)[seat], (record["game_id"], seat)
    assert timed_out >= 3
