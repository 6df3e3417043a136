"""The records file changed under a running league loses no game: a ``games.jsonl`` replaced (an editor's
save, ``sed -i``), removed, cut or written to by another program while the run goes stops the run at its
next record, with one line naming the file and what happened and a count of the games the file holds now;
never an exit status 0 over a file that lacks games the run played. Resumed, the run ends with the
results of a run that was never disturbed.

Where the change comes (after how many records) is drawn, seeded, for each kind of change.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
import sys
import time
from collections.abc import Callable

import pytest
from conftest import random_bots_yaml

pytestmark = pytest.mark.slow

GAMES = 40  # two bots, one pairing: a few seconds of random play


def config(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "moved.yaml"
    lines = ["name: moved", f"games: {GAMES}", "jobs: 1", "seed: 77", "time: {move: 5}"]
    lines += random_bots_yaml([("a", 1), ("b", 2)])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def command(cfg: pathlib.Path, out: pathlib.Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "rookarena", "run", str(cfg), "--out", str(out), *extra]


def results(games: pathlib.Path) -> dict[str, object]:
    found: dict[str, object] = {}
    for line in games.read_bytes().splitlines():
        record = json.loads(line)
        found[record["game_id"]] = record["result"]
    return found


def _lines(games: pathlib.Path) -> list[bytes]:
    return games.read_bytes().splitlines(keepends=True)


def _replace(games: pathlib.Path, rng: random.Random) -> None:
    spare = games.with_name("spare")
    spare.write_bytes(games.read_bytes())
    os.replace(spare, games)


def _replace_cut(games: pathlib.Path, rng: random.Random) -> None:
    lines = _lines(games)
    spare = games.with_name("spare")
    spare.write_bytes(b"".join(lines[: rng.randrange(len(lines) + 1)]))
    os.replace(spare, games)


def _remove(games: pathlib.Path, rng: random.Random) -> None:
    games.unlink()


def _cut(games: pathlib.Path, rng: random.Random) -> None:
    lines = _lines(games)
    os.truncate(games, len(b"".join(lines[: rng.randrange(len(lines))])))


def _written_to(games: pathlib.Path, rng: random.Random) -> None:
    with games.open("ab") as stream:
        stream.write(rng.choice(_lines(games)))


CHANGES: dict[str, Callable[[pathlib.Path, random.Random], None]] = {
    "replaced": _replace,
    "replaced by a cut copy": _replace_cut,
    "removed": _remove,
    "cut": _cut,
    "written to": _written_to,
}
SAID = {
    "replaced": "was replaced by another file",
    "replaced by a cut copy": "was replaced by another file",
    "removed": "was removed",
    "cut": "was cut by another program",
    "written to": "was written to by another program",
}


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("undisturbed")
    done = subprocess.run(command(config(tmp), tmp / "out"), capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return results(tmp / "out" / "games.jsonl")


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_a_records_file_changed_under_a_run_loses_no_game(
    tmp_path: pathlib.Path, undisturbed: dict[str, object], kind: str
) -> None:
    rng = random.Random(f"{kind}-2026")
    at = rng.randint(1, GAMES // 4)  # records written before the change: the run has most of its games to go
    cfg, out = config(tmp_path), tmp_path / "out"
    games = out / "games.jsonl"
    run = subprocess.Popen(command(cfg, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (games.exists() and games.read_bytes().count(b"\n") >= at):
            assert run.poll() is None and time.monotonic() < deadline, "the run ended before the change"
            time.sleep(0.005)
        CHANGES[kind](games, rng)
        _, stderr = run.communicate(timeout=300)
    finally:
        run.kill()
    assert run.returncode == 1, (kind, stderr)
    lines = stderr.rstrip("\n").splitlines()
    stopped = next(line for line in lines if line.startswith("stopped: "))
    assert stopped.startswith(f"stopped: {games}: {SAID[kind]}"), (kind, stderr)
    held = len(results(games)) if games.exists() else 0
    assert lines[-1].startswith(f"{held} of {GAMES} games are in {games}; resume with: "), (kind, stderr)
    assert "Traceback" not in stderr
    resumed = subprocess.run(command(cfg, out, "--resume"), capture_output=True, text=True, timeout=300, check=False)
    assert resumed.returncode == 0, (kind, resumed.stderr)
    assert results(games) == undisturbed, kind
