"""A bot within its stderr limit cannot fill the disk: each process's stderr is capped by ``limits.stderr``
(over it, a ``limit`` fault) and each log file by four times that, however many processes write to it
(a process per game here). Past the file's cap, one line says so; the games go on without a fault.

The bytes each game's process writes are drawn, seeded, below the process's limit.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

LIMIT = 20_000  # limits.stderr, bytes
GAMES = 8

CHATTY = """
import json, random, sys
low, high = int(sys.argv[1]), int(sys.argv[2])
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "chatty", "protocol": "rook/1"}), flush=True)
    elif kind == "game":  # one burst a game, below the process's limit, drawn from the game's seed
        size = random.Random(message["seed"]).randint(low, high)
        sys.stderr.write("x" * (size - 1) + "\\n")
        sys.stderr.flush()
    elif kind == "act":
        print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)
    elif kind == "bye":
        break
"""


@pytest.mark.parametrize("seed", range(3))
def test_a_log_file_holds_at_most_four_times_the_stderr_limit(tmp_path: pathlib.Path, seed: int) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text(CHATTY, encoding="utf-8")
    cfg = tmp_path / "chatty.yaml"
    lines = [
        "name: chatty",
        f"games: {GAMES}",
        "jobs: 1",
        f"seed: {seed}",
        "process_per_game: true",
        f"limits: {{stderr: {LIMIT}}}",
        "bots:",
        "  - name: chatty",
        f"    command: [{sys.executable}, {bot}, '{LIMIT // 2}', '{LIMIT - 100}']",
        f"    env: {{PYTHONPATH: {ROOT}}}",
        "  - name: quiet",
        f"    command: [{sys.executable}, -m, rookarena.randombot, '2']",
        f"    env: {{PYTHONPATH: {ROOT}}}",
    ]
    cfg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(cfg), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(played) == GAMES and not any(record.get("faults") for record in played)
    logs = sorted((out / "logs").glob("chatty-*.stderr.log"))
    assert logs
    full = 0
    for log in logs:
        data = log.read_bytes()
        assert len(data) <= 4 * LIMIT + 200, (log.name, len(data))
        if b"its most; later stderr is dropped" in data:
            assert data.count(b"later stderr is dropped") == 1
            assert data.index(b"\n[rookarena: this log holds") == 4 * LIMIT
            full += 1
        else:
            assert set(data) <= {ord("x"), ord("\n")}, log.name
    assert full, "no log reached its cap: the test does not test it"
