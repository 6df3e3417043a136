"""No bot learns a card it may not see: a cheating bot (tests/bots/peeker.py) plays real leagues and says
what it learned; every claim is checked against the records.

Leagues of two peeking entries and the random bot are run as real ``rookarena run`` processes. Under the
default settings with a drawn seed the peeker's message channels (guessed seeds, the seat seed, the game
id, request ids) learn nothing; under ``isolation: bwrap`` no channel does (messages, disk, /proc, the
partner through /tmp, /dev/shm, abstract sockets and signals), and it never even reaches another
process or file of the league. The controls show that each channel works where it is open: with a
guessable seed, and without isolation. A bot's memory of its own earlier games of the same deal is
counted apart: isolation plays each game in new processes unless ``process_per_game: false`` says
otherwise, which leaves that channel open (see docs/league.md §8).

The slow tests play over 1,000 peeking seat-games each, in leagues of the two peekers alone (every seat of
every game peeks: two thirds of the games and processes the same count needs with the random bot).
"""

from __future__ import annotations

import collections
import json
import pathlib
import shutil
import subprocess
import sys
from typing import Any

import pytest
from conftest import TEST_BOTS

PEEKER = TEST_BOTS / "peeker.py"
PEEKERS = ("peek-a", "peek-b")
MEMORY = "memory"  # what a process remembers of its own earlier games: not a channel isolation closes

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH")


def league(
    tmp_path: pathlib.Path,
    *,
    games: int,
    channels: str,
    isolation: bool,
    seed: int | None = None,
    jobs: int = 1,
    per_game: bool | None = None,
    random_bot: bool = True,
) -> pathlib.Path:
    """Run a league of the two peekers and (unless ``random_bot`` is false) the random bot; return its results
    directory."""
    lines = [
        "name: peek",
        "rules: tournament",
        f"games: {games}",
        f"jobs: {jobs}",
        "limits: {stderr: 268435456}",
        "time: {move: 10, startup: 20}",
        *([f"seed: {seed}"] if seed is not None else []),
        *(["isolation: bwrap"] if isolation else []),
        *([f"process_per_game: {str(per_game).lower()}"] if per_game is not None else []),
        "bots:",
        *(f"  - {{name: {name}, command: [{sys.executable}, {PEEKER}, {channels}]}}" for name in PEEKERS),
        *([f"  - {{name: random, command: [{sys.executable}, -m, rookarena.randombot, '3']}}"] if random_bot else []),
    ]
    config = tmp_path / "peek.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(  # in tmp_path, so that the results go where they usually do: results/NAME
        [sys.executable, "-m", "rookarena", "run", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return tmp_path / "results" / "peek"


class Findings:
    """What the peekers claimed, checked against the records: the hidden cards each channel got right."""

    def __init__(self, out: pathlib.Path) -> None:
        records = {}
        for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            records[record["game_id"]] = record
        self.records = records
        self.learned: collections.Counter[str] = collections.Counter()
        self.claims: collections.Counter[str] = collections.Counter()
        self.contacts: collections.Counter[str] = collections.Counter()
        self.unchecked = 0
        self.reports = 0  # SEAT lines: one per seat-game the peeker played out
        for log in sorted((out / "logs").glob("peek-*.stderr.log")):
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                kind, _, rest = line.partition(" ")
                if kind == "PEEK":
                    self.check(json.loads(rest))
                elif kind == "SEAT":
                    self.reports += 1
                    self.contacts.update(json.loads(rest)["contacts"])
        self.seat_games = sum(
            1 for record in records.values() for name in record["seats"] if name in PEEKERS and record["hands"]
        )

    def check(self, claim: dict[str, Any]) -> None:
        record = self.records[claim["game"]]
        hand = next((h for h in record["hands"] if h["number"] == claim["hand"]), None)
        if hand is None:  # a hand cut short by a fault is not in the record: the claim cannot be checked
            self.unchecked += 1
            return
        seat, of = claim["seat"], claim["of"]
        if of == "nest":
            hidden = set(hand["nest"])
        elif of == "any":
            hidden = {card for other in range(4) if other != seat for card in hand["deal"][other]} | set(hand["nest"])
        else:
            assert of != seat, claim
            hidden = set(hand["deal"][of])
        hidden -= set(hand["deal"][seat])
        self.claims[claim["channel"]] += 1
        self.learned[claim["channel"]] += len(hidden & set(claim["cards"]))

    def but_memory(self) -> dict[str, int]:
        return {channel: count for channel, count in self.learned.items() if channel != MEMORY and count}

    def summary(self) -> str:
        return f"{self.seat_games} seat-games; learned {dict(self.learned)}; contacts {dict(self.contacts)}"


def test_default_settings_the_messages_tell_no_card(tmp_path: pathlib.Path) -> None:
    found = Findings(league(tmp_path, games=8, channels="messages", isolation=False))
    assert found.seat_games >= 40, found.summary()
    assert found.reports >= found.seat_games, found.summary()  # every seat-game was searched
    assert found.but_memory() == {}, found.summary()


def test_a_guessable_seed_gives_every_hand_away(tmp_path: pathlib.Path) -> None:
    """The control for the test above: with `seed: 1` the same peeker deals every hand itself."""
    found = Findings(league(tmp_path, games=4, channels="messages", isolation=False, seed=1))
    assert found.learned["messages"] > 0, found.summary()
    assert found.claims["messages"] >= found.seat_games * 4, found.summary()  # 3 seats and the nest, each game


def test_the_match_command_deals_from_a_drawn_seed(tmp_path: pathlib.Path) -> None:
    def match(*seed: str) -> tuple[Findings, str]:
        out = tmp_path / f"match{len(seed)}"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "rookarena",
                "match",
                f"{sys.executable} {PEEKER} messages",
                f"{sys.executable} {PEEKER} messages",
                "--name-a",
                "peek-a",
                "--name-b",
                "peek-b",
                "--games",
                "6",
                "--out",
                str(out),
                *seed,
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode in (0, 3), done.stderr[-2000:]
        (out / "logs").mkdir(exist_ok=True)
        for log in out.glob("*.stderr.log"):
            log.rename(out / "logs" / log.name)
        return Findings(out), done.stderr

    drawn, said = match()
    assert drawn.seat_games == 24 and drawn.but_memory() == {}, drawn.summary()
    assert "seed: " in said and "drawn" in said
    guessed, _ = match("--seed", "1")
    assert guessed.learned["messages"] > 0, guessed.summary()


@needs_bwrap
def test_isolated_no_channel_tells_a_card_nor_reaches_anyone(tmp_path: pathlib.Path) -> None:
    """Isolation's defaults: its own sandbox for each process, and new processes for every game."""
    found = Findings(league(tmp_path, games=4, channels="all", isolation=True))
    assert found.seat_games >= 20, found.summary()
    assert found.reports >= found.seat_games, found.summary()
    assert dict(found.learned) == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()


@needs_bwrap
def test_isolated_processes_kept_from_game_to_game_remember_deals(tmp_path: pathlib.Path) -> None:
    """The control for the test above: with `process_per_game: false` only the bot's memory tells cards."""
    found = Findings(league(tmp_path, games=6, channels="all", isolation=True, per_game=False))
    assert found.seat_games >= 30, found.summary()
    assert found.learned[MEMORY] > 0, found.summary()
    assert found.but_memory() == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()


def test_without_isolation_every_channel_is_open(tmp_path: pathlib.Path) -> None:
    """The control for the test above: the same peekers, unisolated, learn through every channel."""
    found = Findings(league(tmp_path, games=4, channels="all", isolation=False))
    for channel in ("disk", "proc", "tmp", "shm", "socket"):
        assert found.learned[channel] > 0, (channel, found.summary())
    assert found.contacts["signal"] > 0, found.summary()


@pytest.mark.slow
def test_over_a_thousand_seat_games_the_messages_tell_no_card(tmp_path: pathlib.Path) -> None:
    found = Findings(league(tmp_path, games=252, channels="messages", isolation=False, jobs=2, random_bot=False))
    print(found.summary())
    assert found.seat_games >= 1000, found.summary()
    assert found.but_memory() == {}, found.summary()


@needs_bwrap
@pytest.mark.slow
def test_over_a_thousand_isolated_seat_games_nothing_is_learned(tmp_path: pathlib.Path) -> None:
    found = Findings(league(tmp_path, games=252, channels="all", isolation=True, jobs=2, random_bot=False))
    print(found.summary())
    assert found.seat_games >= 1000, found.summary()
    assert dict(found.learned) == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()
