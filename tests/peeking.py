"""The peeking leagues: a cheating bot (tests/bots/peeker.py) plays real ``rookarena run`` leagues and says
what it learned; :class:`Findings` checks every claim against the records. Used by
tests/e2e/test_secrecy_peeking.py and, at the scale of the published figures, by bench/secrecy.py.
"""

from __future__ import annotations

import collections
import json
import pathlib
import subprocess
import sys
from typing import Any

TESTS = pathlib.Path(__file__).resolve().parent
PEEKER = TESTS / "bots" / "peeker.py"
PEEKERS = ("peek-a", "peek-b")
MEMORY = "memory"  # what a process remembers of its own earlier games: not a channel isolation closes


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
        self.walks = 0  # of those, the ones from a process that looked for files (channels "all")
        self.cut_walks = 0  # and of these, the ones whose process did not look in every directory it could see
        for log in sorted((out / "logs").glob("peek-*.stderr.log")):
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                kind, _, rest = line.partition(" ")
                if kind == "PEEK":
                    self.check(json.loads(rest))
                elif kind == "SEAT":
                    self.reports += 1
                    seat = json.loads(rest)
                    self.contacts.update(seat["contacts"])
                    self.walks += seat["walked"] is not None
                    self.cut_walks += seat["walked"] is False
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
        return (
            f"{self.seat_games} seat-games; learned {dict(self.learned)}; contacts {dict(self.contacts)}; "
            f"{self.cut_walks} of {self.walks} looks for files cut short"
        )
