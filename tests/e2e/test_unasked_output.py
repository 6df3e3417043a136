"""What a bot writes unasked during a game is that game's doing: a line that is not JSON, written by both
of a team's processes after one of their replies, forfeits that game once (both faults recorded in it), and
the next game is played by new processes. The line of the partner not asked again before the forfeit had
waited in its pipe until its first request of the next game, and forfeited that game too."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

NOISY = textwrap.dedent(
    """\
    import json, sys
    after = int(sys.argv[1])
    first_game = asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": "noisy", "version": "1", "protocol": "rook/1"}), flush=True)
        elif kind == "game":
            first_game = message["game"].endswith("-0001")
        elif kind == "act":
            asked += 1
            reply = json.dumps({"id": message["id"], "action": message["legal"][0]}) + "\\n"
            if first_game and asked == after:  # unasked, and not JSON: written with the reply, in one write,
                reply += "thinking about it...\\n"  # so that it is in the pipe however soon the game ends
            sys.stdout.write(reply)
            sys.stdout.flush()
        elif kind == "bye":
            break
    """
)


@pytest.mark.parametrize("after", [1, 2, 3])
def test_unasked_output_is_charged_to_the_game_it_was_written_in(tmp_path: pathlib.Path, after: int) -> None:
    bot = tmp_path / "noisy.py"
    bot.write_text(NOISY, encoding="utf-8")
    random_bot = ROOT / "sample_bots" / "python" / "random_bot.py"
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "rookarena", "match", f"{sys.executable} {bot} {after}"),
            *(f"{sys.executable} {random_bot}", "--games", "4", "--seed", "7", "--move-time", "1"),
            *("--out", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    first, *rest = played
    noisy_seats = {seat for seat, name in enumerate(first["seats"]) if name == "noisy"}
    assert {fault["seat"] for fault in first["faults"]} == noisy_seats, first["faults"]
    assert all(fault["kind"] == "malformed" for fault in first["faults"]), first["faults"]
    assert "forfeit" in first
    for record in rest:  # written in game 1 only: no later game pays for it
        assert record["faults"] == [] and "forfeit" not in record, record["faults"]
