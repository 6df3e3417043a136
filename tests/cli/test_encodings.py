"""Names the terminal cannot show: a bot may be named in any script (a name is letters and digits of any
language), and the organiser's terminal may use an encoding without them. Every command still ends as it
would (exit 0), printing such a character as a backslash escape, never a traceback or a false report of
a damaged record."""

from __future__ import annotations

import os
import pathlib
import random
import subprocess
import sys

import pytest
import web_games

# Letters outside Latin-1, from several scripts.
LETTERS = "漢字日本語한국어ΑβγδЖжЯяשלוםعربيअआइ"


def names(seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 5))) + str(n) for n in range(2)]


def rookarena(*args: str, encoding: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run(
        [sys.executable, "-m", "rookarena", *args],
        capture_output=True,
        env=env,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        check=False,
    )


def escaped(name: str) -> str:
    return name.encode("latin-1", errors="backslashreplace").decode("latin-1")


@pytest.mark.parametrize("seed", range(3))
def test_views_of_results_print_names_the_terminal_cannot_show(tmp_path: pathlib.Path, seed: int) -> None:
    named = names(seed)
    out = web_games.write_dir(tmp_path / "out", web_games.league_records(named, deals=1), named, deals=1)
    game = f"{named[0]}-vs-{named[1]}-0001"
    for args in (["standings", str(out)], ["show", str(out), game], ["report", str(out)]):
        done = rookarena(*args, encoding="latin-1")
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr and "damaged" not in done.stderr, (args, done.stderr)
        if args[0] != "report":
            assert escaped(named[0]) in done.stdout, (args, done.stdout)


def test_a_match_prints_its_verdict_for_a_name_the_terminal_cannot_show(tmp_path: pathlib.Path) -> None:
    name = names(7)[0]
    bot = f"{sys.executable} -m rookarena.randombot"
    done = rookarena(
        "match", f"{bot} 1", f"{bot} 2", "--name-a", name, "--games", "2", "--out", str(tmp_path), encoding="latin-1"
    )
    assert done.returncode in (0, 3), done.stderr
    assert "Traceback" not in done.stderr
    assert escaped(name) in done.stdout + done.stderr


def test_a_league_prints_its_standings_for_a_name_the_terminal_cannot_show(tmp_path: pathlib.Path) -> None:
    name = names(11)[0]
    bot = f"[{sys.executable}, -m, rookarena.randombot, '1']"
    config = tmp_path / "league.yaml"
    config.write_text(
        f"name: enc\nrules: tournament\ngames: 2\nbots:\n  - {{name: {name}, command: {bot}}}\n"
        f"  - {{name: plain, command: {bot}}}\n",
        encoding="utf-8",
    )
    done = rookarena("run", str(config), "--out", str(tmp_path / "out"), encoding="latin-1")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and escaped(name) in done.stdout


def not_utf8(seed: int) -> bytes:
    """A file name of a few bytes, at least one of them no UTF-8 (a lone continuation or lead byte, or one
    never used), among ASCII letters and UTF-8 letters."""
    rng = random.Random(seed)
    pieces = [bytes([rng.choice([*range(0x80, 0xC0), 0xC3, 0xE2, 0xF0, 0xFE, 0xFF])])]
    pieces += [rng.choice([b"a", b"Z", b"-", "é".encode(), "漢".encode()]) for _ in range(rng.randint(1, 6))]
    rng.shuffle(pieces)
    name = b"out-" + b"".join(pieces)
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return name
    return name + b"\xff"  # (the bytes happened to make UTF-8)


@pytest.mark.parametrize("seed", range(3))
def test_a_results_directory_whose_name_is_not_utf8_is_read_and_reported(tmp_path: pathlib.Path, seed: int) -> None:
    """A directory named on another system (a byte that is no UTF-8): its name reaches the pages and the
    lines printed as an escape."""
    named = ["alpha", "beta"]
    out = tmp_path / os.fsdecode(not_utf8(seed))
    web_games.write_dir(out, web_games.league_records(named, deals=1), named, deals=1)
    game = "alpha-vs-beta-0001"
    for args in (["standings", str(out)], ["show", str(out), game], ["report", str(out)], ["replay", str(out), game]):
        done = rookarena(*args, encoding="utf-8")
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr + done.stdout, (args, done.stderr)
    assert (out / "report.html").stat().st_size > 0 and (out / f"{game}.html").stat().st_size > 0


def test_text_that_cannot_be_written_is_not_blamed_on_the_records(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should any text still fail to encode, the line says so: it is no damaged record."""
    from click.testing import CliRunner

    from rookarena.cli import main, standings_cmd

    named = ["alpha", "beta"]
    out = web_games.write_dir(tmp_path / "out", web_games.league_records(named, deals=1), named, deals=1)

    def refuse(*args: object, **kwargs: object) -> str:
        raise UnicodeEncodeError("latin-1", "漢", 0, 1, "ordinal not in range(256)")

    monkeypatch.setattr(standings_cmd, "render_standings", refuse)
    done = CliRunner().invoke(main, ["standings", str(out)])
    assert done.exit_code == 1
    assert "could not be written in the encoding latin-1" in done.output and "damaged" not in done.output
