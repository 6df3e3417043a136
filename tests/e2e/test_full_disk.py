"""A disk that fills during a run loses nothing: the run stops with one line naming the file, every record
on disk is whole, and the run resumed once there is room ends with the table of a run that never stopped.

The room is drawn at random for each case, from none to what the whole league needs, and
taken away in two ways: a file-size limit on the run (``RLIMIT_FSIZE``: a write past it fails with EFBIG,
on any machine) and, as root, a tmpfs of that size (a real full file system: ENOSPC). Where it runs out
is wherever the draw puts it: the league's settings, its first record, a record half written, the
standings at the end. A match on a full disk stops without a verdict.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import resource
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from conftest import random_bots_yaml

GAMES = 4  # a pairing: three bots make 12 games, about 90 KB of records
CASES = 6
OUT = "out dir's"  # a command printed with the path must be one to paste


def config(tmp_path: pathlib.Path, jobs: int) -> pathlib.Path:
    path = tmp_path / f"full-{jobs}.yaml"
    lines = ["name: full", f"games: {GAMES}", f"jobs: {jobs}", "seed: 1234567", "time: {move: 5}"]
    lines += random_bots_yaml([("a", 1), ("b", 2), ("c", 3)])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(
    cfg: pathlib.Path, out: pathlib.Path, *extra: str, limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    def size_limit() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(cfg), "--out", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=size_limit,
    )


def results(out: pathlib.Path) -> dict[str, object]:
    """Each game's result by id, from records that must each be whole."""
    games = out / "games.jsonl"
    data = games.read_bytes() if games.exists() else b""
    assert data == b"" or data.endswith(b"\n"), f"{games} ends in a record cut short: {data[-80:]!r}"
    found = {}
    for line in data.splitlines():
        record = json.loads(line)
        found[record["game_id"]] = record["result"]
    return found


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], object, int]:
    """The league run with room to spare: its results, its standings and the bytes it wrote."""
    tmp = tmp_path_factory.mktemp("whole")
    out = tmp / "out"
    done = run(config(tmp, 1), out)
    assert done.returncode == 0, done.stderr
    size = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    return results(out), json.loads((out / "standings.json").read_text()), size


def tmpfs(where: pathlib.Path, size: int) -> Iterator[Callable[[], None]]:
    """A file system of ``size`` bytes mounted at ``where``; the callable gives it room; unmounted after."""
    where.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)]
    mounted = subprocess.run(mount, capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")

    def grow() -> None:
        subprocess.run(["mount", "-o", "remount,size=64m", str(where)], check=True)

    try:
        yield grow
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def draws() -> list[tuple[int, str, float, int]]:
    rng = random.Random(20261207)
    return [(case, rng.choice(["fsize", "tmpfs"]), rng.random(), rng.choice([1, 2])) for case in range(CASES)]


@pytest.mark.slow
@pytest.mark.parametrize(("case", "how", "share", "jobs"), draws(), ids=[f"{d[0]}-{d[1]}-jobs{d[3]}" for d in draws()])
def test_a_full_disk_stops_the_run_and_loses_nothing(
    tmp_path: pathlib.Path, whole: tuple[dict[str, object], object, int], case: int, how: str, share: float, jobs: int
) -> None:
    played, table, size = whole
    room = int(share * size)
    cfg = config(tmp_path, jobs)
    if how == "tmpfs":
        if os.geteuid() != 0:
            pytest.skip("mounting a tmpfs needs root")
        disk = tmpfs(tmp_path / "disk", max(room, 4096))
        grow = next(disk)
        out = tmp_path / "disk" / OUT
        full = run(cfg, out)
    else:
        disk, grow, out = iter(()), lambda: None, tmp_path / OUT
        full = run(cfg, out, limit=room)
    try:
        assert full.returncode in (0, 1), full.stderr
        assert "Traceback" not in full.stderr, full.stderr
        if full.returncode == 1:
            said = [line for line in full.stderr.splitlines() if line.startswith(("Error:", "stopped:"))]
            assert len(said) == 1 and str(out) in said[0], full.stderr
            hint = [line.split("resume with: ")[1] for line in full.stderr.splitlines() if "resume with: " in line]
            assert [shlex.split(text) for text in hint] in (
                [],
                [[sys.executable, "-m", "rookarena", "run", str(cfg), "--out", str(out), "--resume"]],
            ), hint  # a command to paste as it is
        kept = results(out)  # whole records only
        assert all(played[gid] == result for gid, result in kept.items())
        if (out / "league.json").exists():
            assert isinstance(json.loads((out / "league.json").read_text()), dict)
        grow()
        resumed = run(cfg, out, "--resume")
        assert resumed.returncode == 0, resumed.stderr
        assert results(out) == played
        assert json.loads((out / "standings.json").read_text()) == table
    finally:
        next(disk, None)


@pytest.mark.slow
def test_a_match_on_a_full_disk_stops_without_a_verdict(tmp_path: pathlib.Path) -> None:
    def size_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (60_000, 60_000))

    bots = [f"{sys.executable} -m rookarena.randombot {seed}" for seed in (1, 2)]
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "match", *bots, "--games", "20", "--out", str(tmp_path / "m")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=size_limit,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    stopped = [line for line in done.stderr.splitlines() if line.startswith("stopped after")]
    assert len(stopped) == 1 and "could not write the record of game" in stopped[0], done.stderr
    kept = int(stopped[0].split()[2])  # "stopped after N of 20 games: ..."
    assert len(results(tmp_path / "m")) == kept < 20  # the games before it, each whole


@pytest.mark.slow
def test_standings_that_cannot_be_written_are_still_shown(
    tmp_path: pathlib.Path, whole: tuple[dict[str, object], object, int]
) -> None:
    out = tmp_path / "out"
    (out / "standings.json").mkdir(parents=True)  # in the way of the file, as a full disk would be
    done = run(config(tmp_path, 2), out)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(said) == 1 and "standings.json: cannot be written" in said[0], done.stderr
    assert f"rookarena standings {out}" in said[0]
    assert "score %" in done.stdout  # the table is printed all the same
    assert results(out) == whole[0]
