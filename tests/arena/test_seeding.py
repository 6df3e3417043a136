"""Deals from a secret: a league with no seed draws one, records it, resumes with it and replays from it."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rookarena.arena.config import loads
from rookarena.wire import records

BOTS = (
    "bots:\n"
    f"  - {{name: one, command: [{sys.executable}, -m, rookarena.randombot, '1']}}\n"
    f"  - {{name: two, command: [{sys.executable}, -m, rookarena.randombot, '2']}}\n"
)


def run(tmp_path: pathlib.Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "league.yaml"
    config.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def deals(out: pathlib.Path) -> dict[str, object]:
    """Each game's deal seed and cards, by game id."""
    found: dict[str, object] = {}
    for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        found[record["game_id"]] = (record["seed"], [hand["deal"] for hand in record["hands"]])
    return found


def test_no_seed_draws_128_bits_each_time() -> None:
    seeds = {loads("name: x\n" + BOTS, "x.yaml").seed for _ in range(5)}
    assert len(seeds) == 5
    assert all(not records.guessable(seed) for seed in seeds)  # fails once in 2**64 draws
    assert loads("name: x\nseed: 7\n" + BOTS, "x.yaml").seed_drawn is False


@given(st.integers(min_value=0, max_value=2**200))
def test_guessable_is_under_64_bits(seed: int) -> None:
    assert records.guessable(seed) == (seed < 2**63)


def test_a_drawn_seed_is_recorded_kept_on_resume_and_replays_the_same_table(tmp_path: pathlib.Path) -> None:
    first = run(tmp_path, "name: secret\ngames: 2\n" + BOTS)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "results" / "secret"
    seed = json.loads((out / "league.json").read_text())["seed"]
    assert f"seed {seed} (drawn: recorded in league.json)" in first.stderr.splitlines()[1]
    assert first.stderr.splitlines()[-1] == f"seed: {seed} (drawn; replay the same deals with seed: {seed})"
    assert not records.guessable(seed)
    before = deals(out)
    grown = run(tmp_path, "name: secret\ngames: 4\n" + BOTS, "--out", str(out), "--resume")
    assert grown.returncode == 0, grown.stderr
    assert json.loads((out / "league.json").read_text())["seed"] == seed
    # resumed, the seed is the one recorded, not drawn again: no line calls it drawn
    assert "(drawn" not in grown.stderr and grown.stderr.splitlines()[-1] == f"seed: {seed}", grown.stderr
    after = deals(out)
    assert {game: after[game] for game in before} == before and len(after) == 4
    again = tmp_path / "again"
    replay = run(tmp_path, "name: secret\ngames: 4\n" + BOTS, "--out", str(again), "--seed", str(seed))
    assert replay.returncode == 0, replay.stderr
    assert deals(again) == after
    assert (again / "standings.txt").read_bytes() == (out / "standings.txt").read_bytes()
    assert replay.stdout == grown.stdout


def test_shards_of_a_league_without_a_seed_must_be_given_one(tmp_path: pathlib.Path) -> None:
    done = run(tmp_path, "name: secret\ngames: 4\n" + BOTS, "--shard", "1/2")
    assert done.returncode == 1
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("Error: ") and "seed: the shards of a league must share its seed" in message
    assert "--seed" in message
    given = run(tmp_path, "name: secret\ngames: 4\n" + BOTS, "--shard", "1/2", "--seed", "12345678901234567890123")
    assert given.returncode == 0, given.stderr
    # --holdout cannot serve shards (each would draw its own seed): said so, with what to do instead
    for config in ("name: secret\ngames: 4\n", "name: secret\ngames: 4\nseed: 77\n"):
        held = run(tmp_path, config + BOTS, "--shard", "1/2", "--holdout")
        assert held.returncode == 2, held.stderr
        said = held.stderr.strip().splitlines()[-1]
        assert "--holdout draws a seed for this run alone, and the shards of a league must share one" in said
        assert "give every shard the same --seed" in said and "configuration has none" not in said


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH")
def test_isolated_bots_with_a_guessable_seed_are_warned_about_first(tmp_path: pathlib.Path) -> None:
    done = run(tmp_path, "name: weak\ngames: 2\nseed: 2024\nisolation: bwrap\n" + BOTS)
    assert done.returncode == 0, done.stderr
    warning = done.stderr.splitlines()[1]
    assert warning.startswith("warning: seed 2024 has 11 bits, short enough for a bot to guess"), done.stderr
    quiet = run(tmp_path, "name: weak\ngames: 2\nseed: 2024\n" + BOTS, "--out", str(tmp_path / "plain"))
    assert "warning" not in quiet.stderr


def test_match_and_simulate_draw_their_seed_and_print_it(tmp_path: pathlib.Path) -> None:
    bot = f"{sys.executable} -m rookarena.randombot"
    match = subprocess.run(
        [sys.executable, "-m", "rookarena", "match", f"{bot} 1", f"{bot} 2", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert match.returncode in (0, 3), match.stderr
    seed = int(match.stderr.splitlines()[-1].split()[1])
    assert not records.guessable(seed)
    given = subprocess.run(
        [sys.executable, "-m", "rookarena", "match", f"{bot} 1", f"{bot} 2", "--games", "2", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert given.stderr.splitlines()[-1] == "seed: 5"
    simulated = subprocess.run(
        [sys.executable, "-m", "rookarena", "simulate", "--games", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    line = next(line for line in simulated.stdout.splitlines() if line.startswith("seed: "))
    seed = int(line.split()[1])
    replayed = subprocess.run(
        [sys.executable, "-m", "rookarena", "simulate", "--games", "3", "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    drop = ("seed: ", "time", "games per", "hands per")  # timings differ from run to run
    keep = [line for line in simulated.stdout.splitlines() if not line.startswith(drop)]
    assert keep == [line for line in replayed.stdout.splitlines() if not line.startswith(drop)]


def test_a_held_out_run_ignores_the_written_seed_commits_to_its_own_and_keeps_it_on_resume(
    tmp_path: pathlib.Path,
) -> None:
    text = "name: held\ngames: 2\nseed: 7\n" + BOTS
    plain = run(tmp_path, text, "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr
    out = tmp_path / "held"
    first = run(tmp_path, text, "--out", str(out), "--holdout")
    assert first.returncode == 0, first.stderr
    meta = json.loads((out / "league.json").read_text())
    seed, commitment = meta["seed"], meta["holdout"]
    assert seed != 7 and not records.guessable(seed)
    assert commitment == records.seed_commitment(seed) and str(seed) not in commitment
    lines = first.stderr.splitlines()
    committed = next(i for i, line in enumerate(lines) if f"committed as sha256 {commitment}" in line)
    revealed = next(i for i, line in enumerate(lines) if line.startswith(f"seed: {seed}"))
    assert committed < revealed and str(seed) not in "\n".join(lines[: committed + 1])
    assert lines[-1] == f"holdout: seed {seed} is the one committed as sha256 {commitment}"
    assert deals(out) != deals(tmp_path / "plain")
    grown = run(tmp_path, text.replace("games: 2", "games: 4"), "--out", str(out), "--resume", "--holdout")
    assert grown.returncode == 0, grown.stderr
    meta = json.loads((out / "league.json").read_text())
    assert (meta["seed"], meta["holdout"]) == (seed, commitment)
    both = run(tmp_path, text, "--out", str(tmp_path / "both"), "--holdout", "--seed", "3")
    assert both.returncode == 2 and "--holdout or --seed, not both" in both.stderr


@given(st.integers(min_value=0, max_value=2**128))
def test_a_commitment_names_one_seed(seed: int) -> None:
    assert records.seed_commitment(seed) != records.seed_commitment(seed + 1)
    assert len(records.seed_commitment(seed)) == 64


def test_anchors_keep_their_ratings_in_every_standings_file(tmp_path: pathlib.Path) -> None:
    text = "name: anchored\ngames: 4\nseed: 5\nanchors: {one: 0, two: -50}\n" + BOTS
    done = run(tmp_path, text, "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert json.loads((out / "league.json").read_text())["anchors"] == {"one": 0.0, "two": -50.0}
    rows = {row["bot"]: row for row in json.loads((out / "standings.json").read_text())["standings"]}
    assert rows["one"]["rating"] == {"elo": 0, "error": 0} and rows["two"]["rating"]["elo"] == -50
    assert rows["one"]["anchor"] and rows["two"]["anchor"]
    assert "+0 fixed" in done.stdout and "-50 fixed" in done.stdout and "anchors" in done.stdout
    shown = subprocess.run(
        [sys.executable, "-m", "rookarena", "standings", str(out)], capture_output=True, text=True, check=False
    )
    assert shown.returncode == 0 and "-50 fixed" in shown.stdout, shown.stderr


@pytest.mark.parametrize(
    ("anchors", "message"),
    [
        ("{three: 0}", "league.yaml:4: anchors: expected the name of a bot under bots:, got 'three'"),
        ("{one: high}", "league.yaml:4: anchors.one: expected a rating (a number), got"),
        ("[one]", "league.yaml:4: anchors: expected a mapping of bot names to ratings"),
    ],
)
def test_a_wrong_anchor_is_named_with_its_line(tmp_path: pathlib.Path, anchors: str, message: str) -> None:
    done = run(tmp_path, f"name: anchored\ngames: 2\nseed: 5\nanchors: {anchors}\n" + BOTS)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
