"""The open-file preflight: raised when the hard limit allows, refused with advice when it does not."""

from __future__ import annotations

import pathlib
import resource
import subprocess
import sys
from collections.abc import Iterator

import pytest

from rookarena.arena import preflight
from rookarena.arena.specs import Limits


@pytest.fixture
def restore_limit() -> Iterator[tuple[int, int]]:
    saved = resource.getrlimit(resource.RLIMIT_NOFILE)
    yield saved
    resource.setrlimit(resource.RLIMIT_NOFILE, saved)


def test_need_grows_with_jobs() -> None:
    assert preflight.open_files_needed(1) == 64 + 24
    assert preflight.open_files_needed(10) == 64 + 240


def test_a_low_soft_limit_is_raised_when_the_hard_limit_allows(restore_limit: tuple[int, int]) -> None:
    _, hard = restore_limit
    resource.setrlimit(resource.RLIMIT_NOFILE, (100, hard))
    assert preflight.check_open_files(8, []) == []
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == preflight.open_files_needed(8)


def test_a_low_hard_limit_is_refused_with_advice(restore_limit: tuple[int, int]) -> None:
    # Lowering the hard limit is irreversible for a normal user: do it in a child process.
    import subprocess
    import sys

    code = (
        "import resource; from rookarena.arena import preflight; "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (100, 120)); "
        "print(preflight.check_open_files(8, [preflight.Limits(files=500)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "the open-file limit is 100 (hard limit 120) but 8 jobs need about 256" in out
    assert "--jobs 2" in out and "raise the hard limit" in out and "'ulimit -n" not in out  # (beyond the hard)
    assert "limits.files is 500" in out


def test_a_run_asks_for_the_files_of_the_jobs_it_can_use(tmp_path: pathlib.Path) -> None:
    """--jobs beyond the league's units of work starts no more workers, so it needs no more files."""
    config = tmp_path / "l.yaml"
    bots = "".join(f"  - {{name: b{n}, command: [{sys.executable}, -m, rookarena.randombot]}}\n" for n in range(3))
    config.write_text("seed: 1\ngames: 2\nbots:\n" + bots)
    run = [sys.executable, "-m", "rookarena", "run", str(config), "--dry-run", "--out", str(tmp_path / "o")]
    low = f"import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (300, 300)); sys.argv = {run[2:]!r}"
    for jobs, status in ((3, 0), (1000, 0)):
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                low + f" + ['--jobs', '{jobs}']; runpy.run_module('rookarena', run_name='__main__')",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == status, done.stderr


def test_enough_is_quiet(restore_limit: tuple[int, int]) -> None:
    soft, _ = restore_limit
    if soft != resource.RLIM_INFINITY and soft < preflight.open_files_needed(1):
        pytest.skip("this shell's limit is below what one job needs")
    assert preflight.check_open_files(1, [Limits()]) == []
