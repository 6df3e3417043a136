"""What ``rookarena run`` shows while it runs: the progress line fits the terminal, the standings so far."""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import pathlib
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.cli import progress

ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@settings(max_examples=200, deadline=None)
@given(
    width=st.sampled_from([20, 40, 60, 80, 120]),
    total=st.integers(1, 10**9),
    share=st.floats(0, 1),
    faults=st.integers(0, 10**8),
    elapsed=st.floats(0, 10**7),
    resumed=st.booleans(),
)
def test_the_line_fits_the_width(
    width: int, total: int, share: float, faults: int, elapsed: float, resumed: bool
) -> None:
    done = int(total * share)
    line = progress.Progress(total, done // 2 if resumed else 0)
    line.done, line.faults = done, faults
    line.started = time.monotonic() - elapsed
    text = line.text(width)
    assert len(text) <= width - 1, text
    if width >= 60 and total < 10**7:  # what a league's line holds: the count and the faults always
        assert f"{done}/{total} games" in text and f"faults {faults}" in text
    if width >= 80 and total < 10**5 and faults < 100 and elapsed < 3600:
        assert text.startswith("[") and "elapsed" in text  # room for the bar and the times


def test_a_wide_terminal_gets_the_whole_line() -> None:
    line = progress.Progress(80, 0)
    line.done = 40
    line.started = time.monotonic() - 20
    text = line.text(120)
    assert text.startswith("[############............] 40/80 games, 0:20 elapsed, 2.00/s, ETA 0:20"), text
    assert text.endswith("faults 0")


def _pty_run(arguments: list[str], columns: int, key: bytes = b"") -> str:
    """``rookarena ARGUMENTS`` with stderr and stdout on a terminal ``columns`` wide; all it wrote. With
    ``key``, stdin is the terminal too, and ``key`` is typed once the run offers keys."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    child = subprocess.Popen(
        [sys.executable, "-m", "rookarena", *arguments],
        stdin=follower if key else subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=ROOT,
        env=env,
    )
    os.close(follower)
    out = b""
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the terminal is gone: the child has ended
                    break
                if not chunk:
                    break
                out += chunk
                if key and b"press s for the standings" in out and b"0/" in out:
                    os.write(leader, key)
                    key = b""
            elif child.poll() is not None:
                break
        assert child.wait(timeout=60) == 0, out.decode(errors="replace")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(leader)
    return out.decode(errors="replace")


@pytest.mark.slow
@pytest.mark.parametrize("columns", [60, 80, 120])
def test_in_a_terminal_every_redraw_stays_on_its_line(tmp_path: pathlib.Path, columns: int) -> None:
    bots = "".join(
        f"  - name: random-entry-with-a-long-name-{n}\n"
        f"    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{n}']\n"
        for n in (1, 2, 3)
    )
    config = tmp_path / "league.yaml"
    config.write_text(f"name: t\ngames: 2\njobs: 1\nbots:\n{bots}", encoding="utf-8")
    shown = _pty_run(["run", str(config), "--out", str(tmp_path / "out"), "--standings-every", "0"], columns)
    redraws = [ESCAPE.sub("", part) for part in shown.replace("\r\n", "\n").split("\r")]
    lines = [ESCAPE.sub("", line) for line in shown.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    progress_lines = [part for part in redraws if re.match(r"(\[[#.]+\] )?\d+/6 games", part)]
    assert progress_lines and all(len(part.split("\n")[0]) <= columns - 1 for part in progress_lines), progress_lines
    # The standings so far, between games, fitted to the terminal too.
    assert sum("standings after" in line for line in lines) == 5, shown
    tables = [line for line in lines if re.match(r"\s*\d+=?\s+random-entry", line)]
    assert tables and all(len(line) <= columns for line in tables), tables


@pytest.mark.slow
def test_the_s_key_asks_for_the_standings(tmp_path: pathlib.Path) -> None:
    bots = "".join(
        f"  - name: r{n}\n    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{n}']\n" for n in (1, 2)
    )
    config = tmp_path / "league.yaml"
    config.write_text(f"name: t\ngames: 8\njobs: 1\nbots:\n{bots}", encoding="utf-8")
    quiet = _pty_run(["run", str(config), "--out", str(tmp_path / "quiet")], 80)  # stdin is not the terminal
    assert "press s" not in quiet and "standings after" not in quiet
    shown = _pty_run(["run", str(config), "--out", str(tmp_path / "out")], 80, key=b"s")
    assert "press s for the standings so far" in shown and shown.count("standings after") == 1, shown
    assert re.search(r"standings after [1-7] of 8 games:", shown), shown


@settings(max_examples=60, deadline=None)
@given(
    every=st.sampled_from([0.0, 0.5, 2.0, 10.0]),
    costs=st.lists(st.floats(0.0, 3.0), min_size=1, max_size=5),
    gaps=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5),
)
def test_the_standings_so_far_take_at_most_a_fifth_of_the_time(
    every: float, costs: list[float], gaps: list[float]
) -> None:
    """--standings-every on a fake clock: games end ``gaps`` apart and each print of the standings costs
    ``costs`` (they grow with the games, and at 100,000 games took 1.3 s): the prints are at least
    ``every`` apart, and printing takes at most a fifth of the time (with 0: after every game, whatever it costs)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        now = [0.0]
        monkeypatch.setattr(time, "monotonic", lambda: now[0])
        line = progress.Progress(total=10**6, done=0, standings_every=every)
        line.tty = False
        monkeypatch.setattr(line, "_say", lambda text: None)
        monkeypatch.setattr(line, "show", lambda: None)
        printed: list[tuple[float, float]] = []

        def standings_text() -> str:
            cost = costs[len(printed) % len(costs)]
            printed.append((now[0], cost))
            now[0] += cost
            return "standings"

        monkeypatch.setattr(line, "standings_text", standings_text)
        for game in range(300):
            now[0] += gaps[game % len(gaps)]
            line.update({"game_id": f"g{game}", "teams": ["a", "b"], "result": None})
        if every == 0:  # asked for after every game: so it is, whatever it costs
            assert len(printed) == 300
            return
        assert printed or now[0] < every + max(gaps) + 1e-9
        for (start, cost), (later, _) in itertools.pairwise(printed):
            assert later - (start + cost) >= max(every, 4 * cost) - 1e-9, (start, cost, later)
        spent = sum(cost for _, cost in printed)
        assert spent <= 0.2 * now[0] + max(costs), (spent, now[0])
