"""The demo league's standings, as a user sees them: they fit the terminal, and --wide has every column."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
from conftest import ROOT


def rookarena(*args: str, columns: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS=str(columns))
    return subprocess.run(
        [sys.executable, "-m", "rookarena", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("demo") / "results"
    result = rookarena("run", "configs/demo.yaml", "--out", str(out), columns=80)
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 100])
def test_the_demo_table_fits(demo: pathlib.Path, columns: int) -> None:
    result = rookarena("standings", str(demo), columns=columns)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "bot", "games", "score", "%", "Elo", "dup", "diff"]
    assert max(len(line) for line in lines) <= columns
    note = next(line for line in lines if line.startswith("±"))
    assert "95%" in note and "Bradley–Terry" in note and "deal pairs" in note
    # The neighbours: each entry against the next one, ranks 1-2 and 2-3 of the three.
    head = next(i for i, line in enumerate(lines) if line.split()[:1] == ["ranks"])
    assert [line.split()[0] for line in lines[head + 2 : head + 4]] == ["1-2", "2-3"]
    assert all(line.split()[-1] in ("yes", "no") for line in lines[head + 2 : head + 4])
    assert any(line.startswith("Neighbours:") for line in lines)


@pytest.mark.slow
def test_wide_and_the_files_have_every_column(demo: pathlib.Path) -> None:
    wide = rookarena("standings", str(demo), "--wide", columns=80).stdout.splitlines()
    assert "win % [95% CI]" in wide[0] and "avg bid" in wide[0]
    assert max(len(line) for line in wide) > 80  # wider than the terminal: --wide does not fit
    assert "win % [95% CI]" in (demo / "standings.txt").read_text()
    assert "apart" in (demo / "standings.txt").read_text()
    header = (demo / "standings.csv").read_text().splitlines()[0].split(",")
    assert {"faults_timeout", "faults_withdrawn", "faults_other", "rating_unit", "dup_hi"} <= set(header)
