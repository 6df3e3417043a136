"""The parent's side of the worker pool against scripted worker processes (the transport seam).

A scripted worker is a small real process that speaks the parent-worker lines (the head, unit lines,
records, ``{"next": true}``, ``{"unit_done": true}``) and then misbehaves as told: it dies after a
unit's last record but before saying the unit is done, or after some records, or it asks for the next
unit and dies. In every case each game is recorded exactly once and nothing promised is lost.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import pytest
import trio
from conftest import ROOT

from rookarena.arena import pool as workers
from rookarena.arena.league import Ahead, PlannedGame, Units
from rookarena.arena.match import Scheduled
from rookarena.arena.specs import BotSpec, Entry
from rookarena.wire.conversation import LineBuffer

SCRIPT = """
import json, os, sys
mode, state = sys.argv[1], sys.argv[2]
lives = int(open(state).read()) if os.path.exists(state) else 0
open(state, "w").write(str(lives + 1))
first = lives == 0  # only the first process of the slot misbehaves
read = sys.stdin.readline
read()  # the head
def say(value):
    sys.stdout.write(json.dumps(value) + "\\n"); sys.stdout.flush()
line = read()
while line:
    games = json.loads(line)["games"]
    if not games:
        break
    for number, game in enumerate(games):
        if first and mode == "die-mid" and number == 1:
            os._exit(9)
        if number == len(games) - 1:
            say({"next": True})
            following = json.loads(read())["games"]
            if first and mode == "die-after-next":
                os._exit(9)
        say({"game_id": game})
    if first and mode == "die-before-done":
        os._exit(9)
    say({"unit_done": True})
    line = json.dumps({"games": following}) if following else ""
"""


def planned(pairs: int, games: int) -> list[list[PlannedGame]]:
    units = []
    for p in range(pairs):
        a = Entry(f"a{p}", BotSpec(f"a{p}", ("x",)), BotSpec(f"a{p}", ("x",)))
        b = Entry(f"b{p}", BotSpec(f"b{p}", ("x",)), BotSpec(f"b{p}", ("x",)))
        units.append([PlannedGame(p * games + i, (a, b), Scheduled(i, i // 2, i % 2 == 1, i, 0)) for i in range(games)])
    return units


class Scripted(workers.Worker):
    def __init__(self, script: pathlib.Path, mode: str, state: pathlib.Path) -> None:
        super().__init__({"text": "", "origin": "", "log_dir": None, "verbose": 0, "cpu": None})
        self.command = [sys.executable, str(script), mode, str(state)]

    async def _start(self) -> trio.Process:
        import subprocess

        process = await trio.lowlevel.open_process(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.process, self.buffer, self.lines, self.promised = process, LineBuffer(workers.MAX_RECORD), [], None
        await self._send(self.head)
        return process


@pytest.mark.parametrize("mode", ["well", "die-before-done", "die-mid", "die-after-next"])
async def test_every_game_is_recorded_once_whatever_the_worker_does(tmp_path: pathlib.Path, mode: str) -> None:
    script = tmp_path / "worker.py"
    script.write_text(SCRIPT, encoding="utf-8")
    work = planned(4, 3)
    queue = Units(work)
    seen: list[str] = []
    worker = Scripted(script, mode, tmp_path / "lives")

    def on_record(record: dict[str, Any]) -> None:
        seen.append(record["game_id"])

    try:
        unit = await queue.take()
        while unit is not None:
            ahead = Ahead(queue.take)
            await workers._play_unit(worker, unit, on_record, ahead)
            unit = await ahead.unit()
        await worker.close()
    finally:
        await worker.terminate(on_record)
    expected = [game.game_id for piece in work for game in piece]
    assert sorted(seen) == sorted(expected), json.dumps(seen)
    assert len(seen) == len(set(seen))
    lives = int((tmp_path / "lives").read_text())
    assert lives == (1 if mode == "well" else 2)


def test_a_worker_stopped_while_it_asks_for_its_next_unit_still_sends_the_game_it_played(
    tmp_path: pathlib.Path,
) -> None:
    """A real worker: SIGTERM arrives while it waits for the answer to ``{"next": true}``. The unit's last
    game was played out, so its record (with how the bots exited) must still come before the worker ends."""
    import os
    import signal
    import subprocess

    from rookarena.arena import league
    from rookarena.arena.config import loads

    root = ROOT
    text = "\n".join(
        ["name: seam", "games: 2", "jobs: 2", "time: {move: 5, startup: 20}", "bots:"]
        + [
            line
            for index in (1, 2)
            for line in (
                f"  - name: r{index}",
                f"    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{index}']",
                f"    env: {{PYTHONPATH: {json.dumps(str(root))}}}",
            )
        ]
    )
    path = tmp_path / "seam.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    ids = [game.game_id for game in league.plan(loads(text, str(path)))]
    env = {**os.environ, "PYTHONPATH": str(root)}
    head = {"text": text, "origin": str(path), "log_dir": None, "verbose": 0, "cpu": None}
    lines = []
    with subprocess.Popen(
        [sys.executable, "-m", "rookarena.arena.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    ) as worker:
        assert worker.stdin is not None and worker.stdout is not None
        try:
            worker.stdin.write((json.dumps(head) + "\n" + json.dumps({"games": ids}) + "\n").encode())
            worker.stdin.flush()
            while True:
                line = json.loads(worker.stdout.readline())
                lines.append(line)
                if line.get("next"):
                    break
            worker.send_signal(signal.SIGTERM)  # and no answer: the parent is going away
            rest = [json.loads(line) for line in worker.stdout.read().splitlines()]
            assert worker.wait(timeout=30) == 0
        finally:
            worker.kill()
    recorded = [value["game_id"] for value in lines + rest if "game_id" in value]
    assert recorded == ids


async def test_a_stopped_worker_asking_for_its_next_unit_hands_on_only_records(tmp_path: pathlib.Path) -> None:
    """SIGTERM reaches a worker just after it asked for its next unit: its question comes with the records
    still in its pipe, and only the records reach the results (the question was once written to games.jsonl
    as a record, and the run ended in a KeyError)."""
    script = tmp_path / "asking.py"
    script.write_text(
        "import json, sys, time\n"
        "sys.stdin.readline()\n"  # the head
        "for value in ({'game_id': 'g1'}, {'next': True}, {'game_id': 'g2'}):\n"
        "    sys.stdout.write(json.dumps(value) + '\\n')\n"
        "sys.stdout.flush()\n"
        "open(sys.argv[2], 'w').close()\n"  # its lines are in the pipe
        "time.sleep(30)\n",
        encoding="utf-8",
    )
    ready = tmp_path / "ready"
    worker = Scripted(script, "asking", ready)
    await worker._start()
    with trio.fail_after(30):
        while not ready.exists():
            await trio.sleep(0.01)
    seen: list[dict[str, Any]] = []
    await worker.terminate(seen.append)
    assert seen == [{"game_id": "g1"}, {"game_id": "g2"}]
