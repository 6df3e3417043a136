"""A bot process sees only the allow-listed variables of the referee's environment, plus its own.

A tiny standard-library bot writes its whole environment to stderr when a game starts (the referee keeps
that in the bot's log) and otherwise plays like the sample random bot. A secret set only in the
referee's environment must not reach it; the bot's own variables, PATH, HOME and PYTHONUNBUFFERED=1 must.
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import subprocess
import sys
from typing import Any

import pytest
import trio
from conftest import ROOT

from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.process import ENV_ALLOWED
from rookarena.arena.proctree import MARK as BOT_MARK
from rookarena.arena.specs import BotSpec, Limits, TimeControl
from rookarena.engine.presets import TOURNAMENT

SECRET = "ROOKARENA_TEST_SECRET"
OWN = "ROOKARENA_TEST_OWN"
MARK = "ROOKARENA-ENV "
SHOWN = ("PATH", "HOME", "PYTHONUNBUFFERED", "PYTHONPATH")

SPY_BOT = f"""\
import json, os, random, sys

rng = random.Random(7)
for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({{"type": "hello", "name": "env-spy", "version": "1", "protocol": "rook/1"}}), flush=True)
    elif kind == "game":
        # Every name, but only the values the test needs: a failing test must not print the others.
        shown = [name for name in os.environ if name.startswith("ROOKARENA_TEST_") or name in {SHOWN!r}]
        report = {{
            "secret": os.environ.get({SECRET!r}),
            "names": sorted(os.environ),
            "values": {{name: os.environ[name] for name in shown}},
        }}
        sys.stderr.write({MARK!r} + json.dumps(report) + "\\n")
        sys.stderr.flush()
    elif kind == "act":
        legal = message["legal"]
        bids = [action for action in legal if action.startswith("bid ")]
        if bids and ("pass" not in legal or rng.random() < 0.5):
            action = min(bids, key=lambda bid: int(bid.split()[1]))
        elif bids:
            action = "pass"
        else:
            action = rng.choice(legal)
        print(json.dumps({{"id": message["id"], "action": action}}), flush=True)
    elif kind == "bye":
        break
"""


def spy_script(directory: pathlib.Path) -> pathlib.Path:
    path = directory / "env_spy.py"
    path.write_text(SPY_BOT, encoding="utf-8")
    return path


def reports(log_dir: pathlib.Path) -> dict[str, list[dict[str, Any]]]:
    """Per stderr log (by file name), the environment reports the bot wrote into it."""
    out: dict[str, list[dict[str, Any]]] = {}
    for log in sorted(log_dir.glob("*.stderr.log")):
        text = log.read_text(encoding="utf-8")
        out[log.name] = [json.loads(line[len(MARK) :]) for line in text.splitlines() if line.startswith(MARK)]
    return out


async def test_a_bot_sees_its_own_variables_but_not_the_referees(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = secrets.token_hex(16)
    monkeypatch.setenv(SECRET, secret)
    monkeypatch.setenv("HOME", str(tmp_path))  # a value of the referee's that must be passed as it is
    script = spy_script(tmp_path)
    # Team B's own variables try to override PYTHONUNBUFFERED: the referee's "1" wins.
    env_a = {OWN: "team-a", "ROOKARENA_TEST_EXTRA": "x y=z"}
    env_b = {OWN: "team-b", "PYTHONUNBUFFERED": "0"}
    spy_a = BotSpec("spy-a", (sys.executable, str(script)), env=env_a)
    spy_b = BotSpec("spy-b", (sys.executable, str(script)), env=env_b)
    logs = tmp_path / "logs"
    logs.mkdir()
    config = MatchConfig(
        team_a=(spy_a, spy_a),
        team_b=(spy_b, spy_b),
        rules=TOURNAMENT,
        rules_name="tournament",
        games=2,
        seed=3,
        time=TimeControl(move=5.0, startup=10.0),
        limits=Limits(startup=10.0, grace=0.5),
        log_dir=logs,
    )
    played: list[dict[str, Any]] = []
    with trio.fail_after(60):
        await Match(config).run(played.append)
    assert len(played) == 2
    assert all(record["faults"] == [] for record in played), [record["faults"] for record in played]
    found = reports(logs)
    assert len(found) == 4, sorted(found)  # one process per seat, each playing both games
    for name, entries in found.items():
        assert len(entries) == 2, (name, entries)
        check_one(logs / name, entries, secret, env_a if name.startswith("spy-a") else env_b)


def check_one(log: pathlib.Path, entries: list[dict[str, Any]], secret: str, own: dict[str, str]) -> None:
    if secret in log.read_text(encoding="utf-8"):
        pytest.fail(f"{log.name}: the referee's secret reached the bot")
    for entry in entries:
        names: list[str] = entry["names"]
        values: dict[str, str] = entry["values"]
        assert entry["secret"] is None
        assert SECRET not in names
        assert values["PATH"] == os.environ["PATH"]
        assert values["HOME"] == os.environ["HOME"]
        assert values["PYTHONUNBUFFERED"] == "1"
        # Nothing else of the referee's environment: the allow-list, the bot's own, the mark its processes
        # carry (BOT_MARK, the referee's own value), and what Python itself may add (LC_CTYPE, when it coerces a
        # C locale).
        assert BOT_MARK in names
        assert set(names) <= {*ENV_ALLOWED, *own, "PYTHONUNBUFFERED", BOT_MARK, "LC_CTYPE"}, names
        for name, value in own.items():
            assert values[name] == ("1" if name == "PYTHONUNBUFFERED" else value), name


def test_a_league_bot_sees_the_env_of_its_config_but_not_the_referees(tmp_path: pathlib.Path) -> None:
    secret = secrets.token_hex(16)
    script = spy_script(tmp_path)
    own = {OWN: "from-config", "ROOKARENA_TEST_NUMBER": "42"}
    config = "\n".join(
        [
            "name: env-league",
            "rules: tournament",
            "games: 2",
            "duplicate: true",
            "seed: 4",
            "jobs: 1",
            "time: {move: 5, startup: 10}",
            "bots:",
            "  - name: spy",
            f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(script))}]",
            f"    env: {{{OWN}: from-config, ROOKARENA_TEST_NUMBER: 42}}",
            "  - name: random",
            f"    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '1']",
            f"    env: {{PYTHONPATH: {json.dumps(str(ROOT))}}}",
            "",
        ]
    )
    path = tmp_path / "league.yaml"
    path.write_text(config, encoding="utf-8")
    out = tmp_path / "results"
    environment = {
        **os.environ,
        SECRET: secret,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(path), "--out", str(out)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    assert all(record["faults"] == [] for record in records), [record["faults"] for record in records]
    found = {name: entries for name, entries in reports(out / "logs").items() if name.startswith("spy")}
    assert len(found) == 2, sorted(reports(out / "logs"))  # the spy's two seats, each playing both games
    for name, entries in found.items():
        assert len(entries) == 2, entries
        check_one(out / "logs" / name, entries, secret, own)
        for entry in entries:
            # The referee's PYTHONPATH stays behind too: only the config's env adds variables.
            assert "PYTHONPATH" not in entry["names"]
