"""No bot learns a card it may not see: a cheating bot (tests/bots/peeker.py) plays real leagues and says
what it learned; every claim is checked against the records.

Leagues of two peeking entries and the random bot are run as real ``rookarena run`` processes. Under the
default settings with a drawn seed the peeker's message channels (guessed seeds, the seat seed, the game
id, request ids) learn nothing; under ``isolation: bwrap`` no channel does (messages, disk, /proc, the
partner through /tmp, /dev/shm, abstract sockets, signals and file locks), and it never even reaches another
process or file of the league. The controls show that each channel works where it is open: with a
guessable seed, and without isolation. A bot's memory of its own earlier games of the same deal is
counted apart: isolation plays each game in new processes unless ``process_per_game: false`` says
otherwise, which leaves that channel open (see docs/league.md §8).

The slow tests play 256 peeking seat-games each, in leagues of the two peekers alone (every seat of every
game peeks: two thirds of the games and processes the same count needs with the random bot);
``python bench/secrecy.py`` plays the same leagues at 1,008 seat-games each, the figures docs/league.md
§8 gives. Under isolation every process must also have looked in every directory it could see.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest
from peeking import MEMORY, PEEKER, Findings, league

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH")


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
    assert found.reports >= found.seat_games and found.walks == found.reports and found.cut_walks == 0, found.summary()
    assert dict(found.learned) == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()


@needs_bwrap
def test_isolated_processes_kept_from_game_to_game_remember_deals(tmp_path: pathlib.Path) -> None:
    """The control for the test above: with `process_per_game: false` only the bot's memory tells cards."""
    found = Findings(league(tmp_path, games=6, channels="all", isolation=True, per_game=False))
    assert found.seat_games >= 30 and found.walks == found.reports and found.cut_walks == 0, found.summary()
    assert found.learned[MEMORY] > 0, found.summary()
    assert found.but_memory() == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()


def test_without_isolation_every_channel_is_open(tmp_path: pathlib.Path) -> None:
    """The control for the test above: the same peekers, unisolated, learn through every channel."""
    found = Findings(league(tmp_path, games=4, channels="all", isolation=False))
    for channel in ("disk", "proc", "tmp", "shm", "socket", "lock"):
        assert found.learned[channel] > 0, (channel, found.summary())
    assert found.contacts["signal"] > 0, found.summary()


@pytest.mark.slow
def test_hundreds_of_seat_games_the_messages_tell_no_card(tmp_path: pathlib.Path) -> None:
    found = Findings(league(tmp_path, games=64, channels="messages", isolation=False, jobs=2, random_bot=False))
    print(found.summary())
    assert found.seat_games >= 256, found.summary()
    assert found.reports >= found.seat_games, found.summary()
    assert found.but_memory() == {}, found.summary()


@needs_bwrap
@pytest.mark.slow
def test_hundreds_of_isolated_seat_games_nothing_is_learned(tmp_path: pathlib.Path) -> None:
    found = Findings(league(tmp_path, games=64, channels="all", isolation=True, jobs=2, random_bot=False))
    print(found.summary())
    assert found.seat_games >= 256, found.summary()
    assert found.reports >= found.seat_games and found.walks == found.reports and found.cut_walks == 0, found.summary()
    assert dict(found.learned) == {}, found.summary()
    assert dict(found.contacts) == {}, found.summary()
