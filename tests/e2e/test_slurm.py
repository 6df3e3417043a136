"""The shipped Slurm array script on a real single-node Slurm cluster: a sharded league, merged, gives the
unsharded league's table; a task cancelled mid-run and resubmitted gives it too.

Runs where Debian's slurm-wlm and munge are installed and the tests run as root (``.ci/run`` installs
them); skipped with the reason elsewhere.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import slurm_cluster
from conftest import ROOT, TEST_BOTS

SCRIPT = ROOT / "deploy" / "slurm" / "league.sbatch"
SHARDS = 4

WHY_NOT = slurm_cluster.missing()
# Where .ci/run could install Slurm it must run: a missing cluster then fails the test instead of skipping it.
REQUIRED = os.environ.get("ROOKARENA_REQUIRE_SLURM") == "1"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(WHY_NOT is not None and not REQUIRED, reason=str(WHY_NOT))]


def league(path: pathlib.Path) -> pathlib.Path:
    bots = [
        ("heuristic", [sys.executable, str(ROOT / "sample_bots" / "python" / "heuristic_bot.py")]),
        ("random", [sys.executable, "-m", "rookarena.randombot", "3"]),
        ("slow-first", [sys.executable, str(TEST_BOTS / "adversary.py"), "slow", "0.004"]),
    ]
    lines = ["name: cluster", "games: 16", "seed: 9", "jobs: 1", "time: {move: 5}", "bots:"]
    for name, command in bots:
        lines += [f"  - name: {name}", f"    command: {json.dumps(command)}", f"    env: {{PYTHONPATH: {ROOT}}}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def standings(*directories: pathlib.Path) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "rookarena", "standings", *map(str, directories)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return result.stdout


def records(directory: pathlib.Path) -> int:
    path = directory / "games.jsonl"
    return sum(1 for line in path.read_text().splitlines() if line.strip()) if path.exists() else 0


@pytest.fixture
def cluster(tmp_path: pathlib.Path) -> Iterator[slurm_cluster.Cluster]:
    base = tmp_path / "slurm"
    base.mkdir()
    running = slurm_cluster.Cluster(base)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def submit(cluster: slurm_cluster.Cluster, work: pathlib.Path, array: str, config: pathlib.Path) -> str:
    venv = pathlib.Path(sys.prefix)
    exports = f"ALL,PYTHONPATH={ROOT}" + (f",ROOKARENA_VENV={venv}" if (venv / "bin" / "activate").exists() else "")
    result = cluster.run(
        "sbatch",
        "--parsable",
        f"--array={array}",
        "--cpus-per-task=1",
        f"--chdir={work}",
        f"--output={work}/task-%A_%a.out",
        f"--export={exports}",
        str(SCRIPT),
        str(config),
        str(work / "results"),
        str(SHARDS),
    )
    return result.stdout.strip().split(";")[0]


def test_a_sharded_league_on_slurm_gives_the_unsharded_table(
    cluster: slurm_cluster.Cluster, tmp_path: pathlib.Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    config = league(work / "league.yaml")
    reference = work / "reference"
    subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(reference)],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    expected = standings(reference)
    total = records(reference)
    per_shard = total // SHARDS

    job = submit(cluster, work, f"1-{SHARDS}", config)
    victim = work / "results" / f"shard-2-of-{SHARDS}"
    deadline = time.monotonic() + 300
    while records(victim) < 1:  # cancel task 2 in the middle of its shard
        assert time.monotonic() < deadline, cluster.logs()
        time.sleep(0.05)
    cluster.run("scancel", f"{job}_2")
    cluster.wait_done(job)
    cut = records(victim)
    assert 0 < cut < per_shard, f"task 2 was not cancelled mid-run ({cut} of {per_shard} games)"
    logs = "\n".join(path.read_text() for path in work.glob("task-*.out"))
    assert "Traceback" not in logs, logs

    again = submit(cluster, work, "2", config)  # resubmit the cancelled task alone
    cluster.wait_done(again)
    shards = [work / "results" / f"shard-{k}-of-{SHARDS}" for k in range(1, SHARDS + 1)]
    assert [records(d) for d in shards] == [per_shard] * SHARDS, cluster.logs()
    assert standings(*shards) == expected
