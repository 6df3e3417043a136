"""Nothing a bot or a user does can crash, hang or corrupt a league: real `rookarena` processes throughout.

Each test runs the command line as a user would and checks what the user sees (one line, never a
traceback, the resume command after every stop) and what is left on disk (every game exactly once).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT, TEST_BOTS
from procs import processes_with

HEURISTIC = ROOT / "sample_bots" / "python" / "heuristic_bot.py"
ADVERSARY = TEST_BOTS / "adversary.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def rookarena(*args: str, cwd: pathlib.Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rookarena", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def random_bot(name: str, seed: int, marker: str) -> list[str]:
    return [
        f"  - name: {name}",
        f"    command: [{sys.executable}, -m, rookarena.randombot, '{seed}']",
        f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
    ]


def write_config(path: pathlib.Path, bots: list[str], **top: object) -> pathlib.Path:
    settings = {"name": "trust", "games": 4, "seed": 3, "jobs": 2, "time": "{move: 2, startup: 10}", **top}
    lines = [f"{key}: {value}" for key, value in settings.items()] + ["bots:", *bots]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def start_run(config: pathlib.Path, out: pathlib.Path, *extra: str, **popen: Any) -> subprocess.Popen[str]:
    """`rookarena run CONFIG --out OUT` in the background, its output captured."""
    command = [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, **popen)


def wait_until(ready: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def has_games(out: pathlib.Path, count: int) -> Callable[[], bool]:
    return lambda: (out / "games.jsonl").exists() and len(game_ids(out)) >= count


def game_ids(out: pathlib.Path) -> list[str]:
    return [json.loads(line)["game_id"] for line in (out / "games.jsonl").read_text().splitlines() if line.strip()]


def assert_one_plain_line(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    assert "sub-exception" not in result.stderr, result.stderr


# -- bad arguments and configurations: refused before anything runs ---------------------------------


def _bad_cases(tmp: pathlib.Path) -> list[tuple[str, list[str], int, str]]:
    marker = "unused"
    good = [*random_bot("a", 1, marker), *random_bot("b", 2, marker)]
    plain = tmp / "plain.py"
    plain.write_text("print('hi')\n")
    plain.chmod(0o644)
    cases = [
        ("missing config", ["run", str(tmp / "nope.yaml")], 2, "does not exist"),
        ("config is a directory", ["run", str(tmp)], 2, "is a directory"),
        ("unknown table format", ["run", str(write_config(tmp / "f.yaml", good)), "--format", "bogus"], 2, "bogus"),
        ("standings format", ["standings", str(tmp), "--format", "bogus"], 2, "bogus"),
        (
            "a slash in a bot's name",
            ["run", str(write_config(tmp / "n.yaml", [*random_bot("a/b", 1, marker), *good[3:]]))],
            1,
            "bots[0].name",
        ),
        (
            "a name too long",
            ["run", str(write_config(tmp / "l.yaml", [*random_bot("x" * 120, 1, marker), *good[3:]]))],
            1,
            "at most 40 characters",
        ),
        ("a league name outside results", ["run", str(write_config(tmp / "x.yaml", good, name="../../x"))], 1, "name"),
        (
            "a program without the execute bit",
            ["run", str(write_config(tmp / "e.yaml", ["  - name: p", f"    command: {plain}", *good[3:]]))],
            1,
            "not executable",
        ),
        (
            "a directory as the program",
            ["run", str(write_config(tmp / "d.yaml", ["  - name: p", "    command: /tmp", *good[3:]]))],
            1,
            "is a directory",
        ),
        ("an empty shard", ["run", str(write_config(tmp / "s.yaml", good, games=2)), "--shard", "2/4"], 2, "empty"),
        # Slice 1 of more slices than deals holds a deal, but others of the same N would be empty.
        (
            "more shards than deals",
            ["run", str(write_config(tmp / "t.yaml", good, games=2)), "--shard", "1/4"],
            2,
            "empty",
        ),
        ("a shard in other digits", ["run", str(write_config(tmp / "u.yaml", good)), "--shard", "\u0661/2"], 2, "K/N"),
        ("match odd games", ["match", "true", "true", "--games", "3"], 2, "even"),
        ("match negative seed", ["match", "true", "true", "--seed", "-5"], 2, "--seed"),
        ("match bad name", ["match", "true", "true", "--name-a", "a/b"], 2, "cannot be a name"),
    ]
    return cases


CASE_NAMES = [
    "missing config",
    "config is a directory",
    "unknown table format",
    "standings format",
    "a slash in a bot's name",
    "a name too long",
    "a league name outside results",
    "a program without the execute bit",
    "a directory as the program",
    "an empty shard",
    "more shards than deals",
    "a shard in other digits",
    "match odd games",
    "match negative seed",
    "match bad name",
]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_bad_input_is_refused_with_one_line(case: str, tmp_path: pathlib.Path) -> None:
    (_, args, status, words) = next(c for c in _bad_cases(tmp_path) if c[0] == case)
    result = rookarena(*args, cwd=tmp_path, timeout=60)
    assert result.returncode == status, (result.returncode, result.stderr)
    assert words in result.stderr, result.stderr
    assert_one_plain_line(result)
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("games.jsonl"))
    assert not (tmp_path.parent / "x").exists()


def test_a_tiny_move_time_plays_out(tmp_path: pathlib.Path) -> None:
    """--move-time 0.001 is allowed, so it must play (bots forfeit on time), never end in a traceback."""
    bot = f"{sys.executable} -m rookarena.randombot 1"
    result = rookarena("match", bot, bot, "--games", "2", "--move-time", "0.001", cwd=tmp_path, timeout=120)
    assert result.returncode in (0, 3), result.stderr
    assert_one_plain_line(result)


# -- the results directory ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_second_run_into_one_directory_is_refused_while_the_first_runs(tmp_path: pathlib.Path) -> None:
    """The first run's bots wait for a gate before their hello, so it is surely running while the others try."""
    marker = f"rookarena-lock-{uuid.uuid4().hex}"
    gate = tmp_path / "gate"
    bots = []
    for name, seed in (("a", 1), ("b", 2)):
        wait = f"while [ ! -e {gate} ]; do sleep 0.02; done; exec {sys.executable} -m rookarena.randombot {seed}"
        bots += [f"  - name: {name}", f"    command: [sh, -c, {json.dumps(wait)}]"]
        bots.append(f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}")
    config = write_config(tmp_path / "lock.yaml", bots, games=40, time="{move: 2, startup: 120}")
    out = tmp_path / "out"
    first = start_run(config, out)
    try:
        wait_until((out / "league.json").exists)
        for extra in ([], ["--resume"]):
            second = rookarena("run", str(config), "--out", str(out), *extra, cwd=tmp_path)
            assert second.returncode == 1, second.stderr
            assert f"{out} is in use by another rookarena run (pid {first.pid})" in second.stderr
            assert_one_plain_line(second)
        match = rookarena("match", "true", "true", "--out", str(out), cwd=tmp_path)
        assert match.returncode == 1 and "in use by another rookarena run" in match.stderr, match.stderr
        gate.touch()
        _, err = first.communicate(timeout=300)
    finally:
        gate.touch()
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 0, err
    ids = game_ids(out)
    assert len(ids) == len(set(ids)) == 40


@pytest.mark.slow
def test_the_final_table_is_the_standings_table(tmp_path: pathlib.Path) -> None:
    """Records appearing twice (an old run's duplicate) count once, in `run` as in `standings`."""
    config = write_config(tmp_path / "dup.yaml", [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")], jobs=1)
    out = tmp_path / "out"
    assert rookarena("run", str(config), "--out", str(out), cwd=tmp_path).returncode == 0
    games = out / "games.jsonl"
    games.write_text(games.read_text() * 2)
    again = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    table = rookarena("standings", str(out), cwd=tmp_path)
    assert table.stdout.strip() in again.stdout
    assert "± inf" not in again.stdout
    as_json = rookarena("standings", str(out), "--format", "json", cwd=tmp_path)
    assert json.loads(as_json.stdout) == json.loads((out / "standings.json").read_text())


@pytest.mark.slow
def test_resume_into_a_match_directory_is_refused(tmp_path: pathlib.Path) -> None:
    bot = f"{sys.executable} -m rookarena.randombot 1"
    out = tmp_path / "m"
    assert rookarena("match", bot, bot, "--games", "2", "--out", str(out), cwd=tmp_path).returncode in (0, 3)
    config = write_config(tmp_path / "r.yaml", [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")])
    result = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    assert result.returncode == 1 and "no league.json" in result.stderr, result.stderr
    assert_one_plain_line(result)
    again = rookarena("match", bot, bot, "--games", "2", "--out", str(out), cwd=tmp_path)
    assert again.returncode == 1 and "already holds the games of another match" in again.stderr


# -- the run itself ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_logs_folder_removed_during_a_run(tmp_path: pathlib.Path) -> None:
    marker = f"rookarena-logs-{uuid.uuid4().hex}"
    config = write_config(
        tmp_path / "logs.yaml", [*random_bot("a", 1, marker), *random_bot("b", 2, marker)], games=30, jobs=1
    )
    out = tmp_path / "out"
    run = start_run(config, out)
    wait_until(lambda: (out / "logs").exists() and any((out / "logs").iterdir()))
    subprocess.run(["rm", "-rf", str(out / "logs")], check=True)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert len(set(game_ids(out))) == 30
    assert "Traceback" not in err


@pytest.mark.slow
def test_bot_traffic_is_logged_with_workers(tmp_path: pathlib.Path) -> None:
    config = write_config(tmp_path / "v.yaml", [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")], games=8)
    result = rookarena("run", str(config), "--out", str(tmp_path / "out"), "--jobs", "2", "-vv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert " << " in result.stderr and " >> " in result.stderr
    # each traffic line (the workers' too) begins with its time to the millisecond: how long a bot took
    traffic = [line for line in result.stderr.splitlines() if " << " in line or " >> " in line]
    stamp = r"\d\d:\d\d:\d\d\.\d{3} \[worker (\d)\] DEBUG rookarena\."
    assert all(re.match(stamp, line) for line in traffic), traffic[:3]
    # and the worker that logged it: two workers' bots carry the same labels (name#slot)
    assert {re.match(stamp, line)[1] for line in traffic} == {"1", "2"}  # type: ignore[index]


def _worker_pids() -> list[int]:
    return [int(line.split()[0]) for line in processes_with("-m rookarena.arena.worker")]


@pytest.mark.slow
def test_a_killed_worker_loses_nothing(tmp_path: pathlib.Path) -> None:
    marker = f"rookarena-kill-{uuid.uuid4().hex}"
    config = write_config(tmp_path / "k.yaml", [*random_bot("a", 1, marker), *random_bot("b", 2, marker)], games=40)
    out = tmp_path / "out"
    run = start_run(config, out)
    wait_until(has_games(out, 3))
    mine = [pid for pid in _worker_pids() if _parent(pid) == run.pid]
    assert mine
    os.kill(mine[0], signal.SIGKILL)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert "was killed by SIGKILL" in err and "go to a new one" in err
    ids = game_ids(out)
    assert len(ids) == len(set(ids)) == 40
    time.sleep(0.5)
    assert processes_with(marker, in_environment=True) == []


def _parent(pid: int) -> int:
    try:
        return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_twice_at_the_terminal(jobs: str, tmp_path: pathlib.Path) -> None:
    """SIGINT to the whole foreground process group, twice, as a terminal sends it: one line, the resume
    command, no traceback, nothing left running."""
    marker = f"rookarena-int-{uuid.uuid4().hex}"
    config = write_config(tmp_path / "i.yaml", [*random_bot("a", 1, marker), *random_bot("b", 2, marker)], games=40)
    out = tmp_path / "out"
    run = start_run(config, out, "--jobs", jobs, start_new_session=True)  # its own group, like a foreground job
    wait_until(has_games(out, 2))
    os.killpg(run.pid, signal.SIGINT)
    time.sleep(0.1)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err, err
    assert f" run {config} --out {out} --resume" in err and "resume with: " in err
    time.sleep(0.5)
    assert processes_with(marker, in_environment=True) == []


@pytest.mark.slow
def test_a_refused_resume_names_the_setting_that_differs(tmp_path: pathlib.Path) -> None:
    bots = [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")]
    config = write_config(tmp_path / "c.yaml", bots, games=2, jobs=1)
    out = tmp_path / "out"
    first = rookarena("run", str(config), "--out", str(out), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"results go to {out}" in first.stderr  # said on the first run too
    write_config(tmp_path / "c.yaml", bots, games=2, jobs=1, seed=4)
    again = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    assert again.returncode == 1
    assert "different league (seed: 3 there, 4 here)" in again.stderr, again.stderr


@pytest.mark.slow
def test_faults_are_shown_as_they_happen_and_summed_up(tmp_path: pathlib.Path) -> None:
    bots = [
        *random_bot("good", 1, "m"),
        "  - name: flaky",
        f"    command: [{sys.executable}, {TEST_BOTS / 'bad_bot.py'}, crash-mid]",
    ]
    config = write_config(tmp_path / "f.yaml", bots, games=4, jobs=1, time="{move: 0.3, startup: 5}")
    out = tmp_path / "out"
    result = rookarena("run", str(config), "--out", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    fault_lines = [line for line in result.stderr.splitlines() if line.startswith("fault: flaky ")]
    crashes = [line for line in fault_lines if ": crash: exited with status 7" in line]
    assert len(crashes) == 3, fault_lines  # each crash when it happened; then the team is withdrawn
    assert "before it started: withdrawn: faulted in 3 games in a row" in fault_lines[-1]  # no seat, no hand
    assert "faults:\n  flaky: " in result.stderr
    assert f"the bots' stderr logs are in {out / 'logs'}" in result.stderr
    assert "elapsed" in result.stderr and "faults 0" not in result.stderr.splitlines()[-1]
    resumed = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    counted = [line for line in resumed.stderr.splitlines() if "games," in line]
    assert counted and "faults 0" not in counted[-1], resumed.stderr  # earlier faults still count


@pytest.mark.slow
def test_a_league_grows_by_games_and_bots_and_keeps_its_games(tmp_path: pathlib.Path) -> None:
    two = [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")]
    three = [*two, *random_bot("c", 3, "m")]
    config = tmp_path / "g.yaml"
    out = tmp_path / "out"
    write_config(config, two, games=8, jobs=1)
    assert rookarena("run", str(config), "--out", str(out), cwd=tmp_path).returncode == 0
    before = (out / "games.jsonl").read_text()
    write_config(config, two, games=16, jobs=1)  # 8 to 16 games a pairing: only the 8 new ones are played
    plan = rookarena("run", str(config), "--out", str(out), "--resume", "--dry-run", cwd=tmp_path)
    assert plan.returncode == 0, plan.stderr
    assert "games: 16 (8 already in" in plan.stdout and "8 to play" in plan.stdout, plan.stdout
    assert (out / "games.jsonl").read_text() == before  # a dry run writes nothing
    grown = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    assert grown.returncode == 0, grown.stderr
    assert (out / "games.jsonl").read_text().startswith(before)  # the first 8 were not replayed
    assert len(set(game_ids(out))) == 16
    before = (out / "games.jsonl").read_text()
    write_config(config, three, games=16, jobs=1)  # a third bot: only its two new pairings are played
    assert rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path).returncode == 0
    assert (out / "games.jsonl").read_text().startswith(before)
    assert len(set(game_ids(out))) == 48
    for bots, games, why in ((two, 16, "new bots may only be added"), (three, 8, "games may grow, not shrink")):
        write_config(config, bots, games=games, jobs=1)
        refused = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
        assert refused.returncode == 1 and why in refused.stderr, refused.stderr


@pytest.mark.slow
def test_a_league_whose_bot_never_started_is_an_error(tmp_path: pathlib.Path) -> None:
    """A bot that never says hello ranks last, but the run says it never played and exits 1."""
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nsys.stderr.write('ImportError: no module named strategy\\n')\nsys.exit(1)\n")
    bots = [*random_bot("good", 1, "m"), "  - name: broken", f"    command: [{sys.executable}, {broken}]"]
    config = write_config(tmp_path / "b.yaml", bots, games=2, jobs=1)
    result = rookarena("run", str(config), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert (
        "error: broken never completed its handshake in its 2 game(s): crash: exited with status 1; its stderr "
        "ended with: 'ImportError: no module named strategy'" in result.stderr
    ), result.stderr
    assert_one_plain_line(result)


UNSTARTABLE = [
    # the program's bytes (made executable), what the run's last lines say of it
    (
        b"#!/nonexistent/interpreter\nprint(1)\n",
        "No such file or directory: its #! line names '/nonexistent/interpreter'",
    ),
    (b"\x9c\x01\xfe random bytes, no #! line", "Exec format error: not a program (a script needs a #! line"),
    (b"\x7fELF\x02\x01\x01" + bytes(57), "Exec format error: a program built for another kind of machine"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("program", "cause"), UNSTARTABLE, ids=["shebang", "no-shebang", "elf"])
def test_a_bot_that_cannot_start_is_named_with_the_cause(tmp_path: pathlib.Path, program: bytes, cause: str) -> None:
    """It writes no stderr: the error says what the system said, and what the program's first bytes explain."""
    broken = tmp_path / "broken"
    broken.write_bytes(program)
    broken.chmod(0o755)
    bots = [*random_bot("good", 1, "m"), "  - name: broken", f"    command: [{broken}]"]
    config = write_config(tmp_path / "b.yaml", bots, games=2, jobs=1)
    result = rookarena("run", str(config), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    said = f"error: broken never completed its handshake in its 2 game(s): crash: cannot start '{broken}': {cause}"
    assert said in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("pin", "jobs"), [("true", 1), ("auto", 1), ("true", 2), ("false", 2)])
def test_the_bots_run_where_the_placement_says(tmp_path: pathlib.Path, pin: str, jobs: int) -> None:
    """Every bot process may run only on its referee's CPU when the run is pinned, on every CPU otherwise."""
    starts = tmp_path / "starts"
    counting = TEST_BOTS / "counting_bot.py"
    bots = []
    for index, name in enumerate(("a", "b", "c")):
        bots += [
            f"  - name: {name}",
            f"    command: [{sys.executable}, {counting}, {name}, '{index}']",
            f"    env: {{PYTHONPATH: {ROOT}, ROOKARENA_TEST_STARTS: {starts}}}",
        ]
    config = write_config(tmp_path / "p.yaml", bots, games=2, jobs=jobs, pin_cpus=pin)
    out = tmp_path / "out"
    assert rookarena("run", str(config), "--out", str(out), cwd=tmp_path).returncode == 0
    cpus = json.loads((out / "league.json").read_text())["placement"]["cpus"]
    allowed = sorted(os.sched_getaffinity(0))
    seen = {line.split()[2] for line in starts.read_text().splitlines()}
    if cpus is None:
        assert seen == {",".join(map(str, allowed))}
    else:
        assert len(cpus) == min(jobs, 3) and seen <= {str(cpu) for cpu in cpus}, (cpus, seen)
    if pin == "true":
        assert cpus is not None and len(seen) == min(jobs, len(allowed)), (cpus, seen)  # each bot on one CPU
    if pin == "auto" and jobs == 1:
        assert cpus is None  # one job is never pinned unless asked: two such leagues would share a CPU


@pytest.mark.slow
def test_cpu_placement_is_recorded_and_never_blocks_a_resume(tmp_path: pathlib.Path) -> None:
    bots = [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")]
    config = write_config(tmp_path / "p.yaml", bots, games=4, jobs=2, pin_cpus="true")
    out = tmp_path / "out"
    assert rookarena("run", str(config), "--out", str(out), cwd=tmp_path).returncode == 0
    placement = json.loads((out / "league.json").read_text())["placement"]
    allowed = sorted(os.sched_getaffinity(0))
    assert placement == {"pin_cpus": "on", "cpus": [allowed[0], allowed[1 % len(allowed)]]}
    write_config(tmp_path / "p.yaml", bots, games=6, jobs=2, pin_cpus="false")
    resumed = rookarena("run", str(config), "--out", str(out), "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((out / "league.json").read_text())["placement"] == {"pin_cpus": "off", "cpus": None}
    assert len(set(game_ids(out))) == 6


@pytest.mark.slow
def test_the_demo_killed_and_resumed_prints_the_table_of_a_whole_run(tmp_path: pathlib.Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed (the demo plays the Node sample bot)")

    def run(out: pathlib.Path, *extra: str) -> subprocess.Popen[str]:
        command = [sys.executable, "-m", "rookarena", "run", "configs/demo.yaml", "--out", str(out), *extra]
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)

    whole = run(tmp_path / "whole")
    expected, err = whole.communicate(timeout=300)
    assert whole.returncode == 0, err
    out = tmp_path / "killed"
    killed = run(out)
    deadline = time.monotonic() + 120
    while not (out / "games.jsonl").exists() or len(game_ids(out)) < 5:
        assert time.monotonic() < deadline and killed.poll() is None
        time.sleep(0.02)
    killed.kill()  # kill -9 of the referee, mid-league
    killed.communicate(timeout=60)
    assert len(game_ids(out)) < 24
    resumed = run(out, "--resume")
    table, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert table.replace(str(out), "OUT") == expected.replace(str(tmp_path / "whole"), "OUT")


@pytest.mark.slow
@pytest.mark.parametrize("growth", ["games", "bots"])
def test_a_sharded_league_cannot_grow(tmp_path: pathlib.Path, growth: str) -> None:
    """Growing a league moves its slices: each shard would then play games another shard already holds."""
    two = [*random_bot("a", 1, "m"), *random_bot("b", 2, "m")]
    config = write_config(tmp_path / "s.yaml", two, games=4, jobs=1)
    for k in (1, 2):
        done = rookarena("run", str(config), "--shard", f"{k}/2", "--out", str(tmp_path / f"s{k}"), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    before = [(tmp_path / f"s{k}" / "games.jsonl").read_text() for k in (1, 2)]
    bots = [*two, *random_bot("c", 3, "m")] if growth == "bots" else two
    write_config(config, bots, games=6 if growth == "games" else 4, jobs=1)
    for k in (1, 2):
        refused = rookarena(
            "run", str(config), "--shard", f"{k}/2", "--out", str(tmp_path / f"s{k}"), "--resume", cwd=tmp_path
        )
        assert refused.returncode == 1 and "a shard's league cannot grow" in refused.stderr, refused.stderr
        assert_one_plain_line(refused)
    assert [(tmp_path / f"s{k}" / "games.jsonl").read_text() for k in (1, 2)] == before
