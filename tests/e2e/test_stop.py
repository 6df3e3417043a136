"""SIGINT, SIGTERM and SIGHUP (a closed terminal) stop a league within seconds, stop every bot, keep every
finished game whole, and say how to resume; the resumed league then finishes. A league started with SIGHUP
ignored (``nohup``) goes on through it."""

from __future__ import annotations

import json
import os
import pathlib
import shlex
import signal
import subprocess
import sys
import time
import uuid

import pytest
from conftest import ROOT
from procs import processes_with


def league(tmp_path: pathlib.Path, marker: str) -> pathlib.Path:
    path = tmp_path / "stop.yaml"
    lines = ["name: stop", "games: 40", "jobs: 2", "time: {move: 5}", "bots:"]
    for name, seed in (("a", 1), ("b", 2)):
        lines += [
            f"  - name: {name}",
            f"    command: [{sys.executable}, -m, rookarena.randombot, '{seed}']",
            f"    env: {{PYTHONPATH: {ROOT}, MARKER: {marker}}}",
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


SCRIPT = pathlib.Path(sys.executable).parent / "rookarena"  # the installed program, beside the tests' Python
# How the league is started, and the PATH it is started with: the resume command it prints must run again
# as it was run (the program's path when its name on PATH is not this program, as from cron).
STARTS = {
    "module": ([sys.executable, "-m", "rookarena"], os.environ.get("PATH", "")),
    "script-by-path": ([str(SCRIPT)], "/usr/bin:/bin"),
    "script-on-path": (["rookarena"], f"{SCRIPT.parent}{os.pathsep}/usr/bin:/bin"),
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "start"),
    [(signal.SIGINT, "module"), (signal.SIGTERM, "script-by-path"), (signal.SIGHUP, "script-on-path")],
)
def test_a_signal_stops_the_league_cleanly(sig: signal.Signals, start: str, tmp_path: pathlib.Path) -> None:
    if start != "module" and not SCRIPT.exists():
        pytest.skip(f"no {SCRIPT}")
    marker = f"rookarena-stop-{uuid.uuid4().hex}"
    config = league(tmp_path, marker)
    out = tmp_path / "out"
    program, path = STARTS[start]
    env = {**os.environ, "PATH": path}
    command = [*program, "run", str(config), "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while not (games.exists() and games.read_text().count("\n") >= 2):
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.05)
    sent = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 10
    assert proc.returncode == 130, err
    hint = next(line for line in err.splitlines() if line.startswith("resume with: "))
    resume = shlex.split(hint.removeprefix("resume with: "))
    assert resume == [*program, "run", str(config), "--out", str(out), "--resume"], hint
    assert "Traceback" not in err
    lines = games.read_text().splitlines()
    assert 2 <= len(lines) < 40
    for line in lines:  # every record is whole
        json.loads(line)
    time.sleep(0.5)
    assert processes_with(marker, in_environment=True) == []
    # the command as printed, pasted where the league was started
    resumed = subprocess.run(resume, capture_output=True, text=True, timeout=300, check=False, env=env)
    assert resumed.returncode == 0, resumed.stderr
    ids = [json.loads(line)["game_id"] for line in games.read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 40
    assert processes_with(marker, in_environment=True) == []
    assert os.path.exists(out / "standings.json")


@pytest.mark.slow
def test_a_league_started_under_nohup_goes_on_through_a_hangup(tmp_path: pathlib.Path) -> None:
    marker = f"rookarena-stop-{uuid.uuid4().hex}"
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rookarena", "run", str(league(tmp_path, marker)), "--out", str(out)]

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts it: an ignored signal is inherited
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGHUP, before)
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while not (games.exists() and games.read_text().count("\n") >= 2):
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert len(games.read_text().splitlines()) == 40


SLEEPER = "import sys, time; time.sleep(60)"  # a bot that never says hello; its marker is its argument


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check-bot", "match", "diff"])
@pytest.mark.parametrize("after", [0.5])
def test_a_signal_while_a_bot_starts_stops_the_command_and_the_bot(
    command: str, after: float, tmp_path: pathlib.Path
) -> None:
    """Ctrl-C while the command waits for a bot's hello (check-bot's, match's naming of its bots, a diff's
    replay) ends it with one line and exit 130, the bot stopped: it once ended in a traceback, the bot
    left running."""
    marker = f"rookarena-stop-{uuid.uuid4().hex}"
    bot = f"{sys.executable} -c '{SLEEPER}' {marker}"
    args = {
        "check-bot": ["check-bot", bot, "--startup", "30"],
        "match": ["match", bot, f"{sys.executable} -m rookarena.randombot 2", "--games", "2", "--startup", "30"],
        "diff": ["diff", bot, "a", "--from", str(_results(tmp_path)), "--startup", "30"],
    }[command]
    proc = subprocess.Popen(
        [sys.executable, "-m", "rookarena", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while not _bots(marker):
        assert time.monotonic() < deadline, "the bot was never started"
        time.sleep(0.02)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("interrupted: "), err
    time.sleep(0.3)
    assert processes_with(marker) == []


def _bots(marker: str) -> list[str]:
    """The bot processes with ``marker`` (rookarena's own command line holds it too, as its argument)."""
    return [line for line in processes_with(marker) if " -m rookarena " not in line]


def _results(tmp_path: pathlib.Path) -> pathlib.Path:
    """A results directory of two random bots, a and b, for the diff to replay."""
    out = tmp_path / "played"
    bots = [f"{sys.executable} -m rookarena.randombot {seed}" for seed in (1, 2)]
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "rookarena",
            "match",
            *bots,
            "--games",
            "2",
            *("--name-a", "a", "--name-b", "b"),
            *("--out", str(out), "--seed", "1"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert played.returncode in (0, 3), played.stderr
    return out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_simulation_sums_up_the_games_it_played(sig: signal.Signals, tmp_path: pathlib.Path) -> None:
    out = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "rookarena", "simulate", "--games", "1000000", "--seed", "3", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    spare = tmp_path / ".games.jsonl.new"  # the records go to a new file, renamed over --out at the end
    try:
        deadline = time.monotonic() + 60
        while not (spare.exists() and spare.read_text().count("\n") >= 3):
            assert time.monotonic() < deadline, "no game was written in time"
            time.sleep(0.05)
        proc.send_signal(sig)
        stdout, err = proc.communicate(timeout=30)
    finally:  # a failed wait leaves no simulation of a million games running on
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    played = int(next(line for line in stdout.splitlines() if line.startswith("games")).split()[1])
    assert err.strip() == f"stopped after {played} of 1000000 games: the figures above are theirs"
    assert len(out.read_text().splitlines()) == played  # the summary is of the games written


@pytest.mark.slow
@pytest.mark.parametrize("options", [[], ["--seed", "77"], ["--holdout"], ["--shard", "1/2", "--seed", "5"]])
def test_the_printed_command_resumes_the_league_as_it_was_started(options: list[str], tmp_path: pathlib.Path) -> None:
    """Whatever chose the seed (the file, --seed, --holdout): pasted as printed, the command finishes the same
    league, and a held-out run's seed is not shown before its end."""
    marker = f"rookarena-stop-{uuid.uuid4().hex}"
    config = league(tmp_path, marker)
    config.write_text(config.read_text().replace("games: 40", "games: 12\nseed: 3"), encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(out), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while not (games.exists() and games.read_text().count("\n") >= 1):
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    hint = [line for line in err.splitlines() if line.startswith("resume with: ")]
    assert len(hint) == 1, err
    seed = json.loads((out / "league.json").read_text())["seed"]
    if "--holdout" in options:
        assert str(seed) not in err, err  # committed at the start, revealed at the end only
    resumed = subprocess.run(
        shlex.split(hint[0].removeprefix("resume with: ")),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((out / "league.json").read_text())["seed"] == seed
    assert f"seed {seed} is the one committed" in resumed.stderr or "--holdout" not in options


def test_an_empty_shard_is_a_usage_error(tmp_path: pathlib.Path) -> None:
    config = league(tmp_path, "x")
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--shard", "", "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "expected K/N" in done.stderr, done.stderr
    assert not (tmp_path / "o").exists()
