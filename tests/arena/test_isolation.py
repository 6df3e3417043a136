"""``isolation: bwrap``: the bubblewrap command rookarena builds, what a bot under it can and cannot see."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from rookarena.arena import isolation
from rookarena.arena.config import load
from rookarena.arena.specs import BotSpec

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH")

LOOK = """
import json, os, sys
out = {}
for path in sys.argv[1:]:
    try:
        out[path] = sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read()
    except OSError as exc:
        out[path] = "error: " + exc.__class__.__name__
out["cwd"] = os.getcwd()
out["pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
out["net"] = [line.split(":")[0].strip() for line in open("/proc/net/dev").read().splitlines()[2:]]
print(json.dumps(out))
"""


def layout(tmp_path: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path, pathlib.Path, pathlib.Path]:
    """A project with one bot's directory holding the results, the configuration and another bot."""
    home = tmp_path / "bots" / "mine"
    (home / "results" / "league").mkdir(parents=True)
    (home / "results" / "league" / "games.jsonl").write_text('{"deal": "secret"}\n')
    (home / "league.yaml").write_text("seed: 42\n")
    (home / "other").mkdir()
    (home / "other" / "bot.py").write_text("# someone else's bot\n")
    (home / "look.py").write_text(LOOK)
    (home / "notes.txt").write_text("mine\n")
    return home, home / "results" / "league", home / "league.yaml", home / "other"


def look(spec: BotSpec, hidden: list[pathlib.Path], *paths: pathlib.Path) -> dict[str, object]:
    boxed = isolation.isolate(dataclasses_replace(spec, [*spec.command, *map(str, paths)]), hidden)
    done = subprocess.run(list(boxed.command), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def dataclasses_replace(spec: BotSpec, command: list[str]) -> BotSpec:
    return BotSpec(spec.name, tuple(command), spec.cwd, spec.env)


@needs_bwrap
def test_an_isolated_bot_sees_its_own_directory_and_nothing_of_the_league(tmp_path: pathlib.Path) -> None:
    home, results, config, other = layout(tmp_path)
    spec = BotSpec("mine", (sys.executable, "look.py"), cwd=str(home))
    other_spec = BotSpec("other", (sys.executable, "bot.py"), cwd=str(other))
    hidden = isolation.hidden_paths(results, str(config), [other_spec])
    seen = look(spec, hidden, home / "notes.txt", results, config, other, tmp_path, pathlib.Path.home())
    assert seen[str(home / "notes.txt")] == "mine\n"
    assert seen[str(results)] == []  # an empty tmpfs over the results
    assert seen[str(config)] == "error: PermissionError"  # /dev/null (no devices in binds) over the configuration
    assert seen[str(other)] == []  # and over the other bot's directory
    assert seen[str(tmp_path)] == ["bots"]  # only the way down to its own directory
    assert seen["cwd"] == str(home)
    assert seen["net"] == ["lo"]
    assert len(seen["pids"]) <= 2  # type: ignore[arg-type]  # bubblewrap's init and itself


@needs_bwrap
def test_partners_do_not_share_tmp(tmp_path: pathlib.Path) -> None:
    home, *_ = layout(tmp_path)
    writer = BotSpec("w", ("/bin/sh", "-c", "echo hi > /tmp/left && ls /tmp /dev/shm"), cwd=str(home))
    reader = BotSpec("r", ("/bin/sh", "-c", "echo hi > /dev/shm/left; ls /tmp /dev/shm"), cwd=str(home))
    seen = []
    for spec in (writer, reader):
        boxed = isolation.isolate(spec, [])
        done = subprocess.run(list(boxed.command), capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        seen.append(done.stdout.split())
    assert seen[0].count("left") == 1 and seen[1].count("left") == 1  # each its own, never the other's


def test_the_command_names_the_program_by_its_absolute_path(tmp_path: pathlib.Path) -> None:
    home, *_ = layout(tmp_path)
    spec = BotSpec("mine", ("python3", "look.py", "--level", "2"), cwd=str(home))
    words = isolation.command(spec, [])
    assert words[words.index("--") + 1 :] == ("python3", str(home / "look.py"), "--level", "2")
    assert words[words.index("--chdir") + 1] == str(home)
    for flag in ("--unshare-all", "--die-with-parent", "--cap-drop", "--proc", "--dev"):
        assert flag in words
    assert "--new-session" not in words  # the bot keeps the session the referee counts and stops


def test_a_bot_without_files_of_its_own_starts_in_its_private_tmp() -> None:
    words = isolation.command(BotSpec("r", ("python3", "-m", "rookarena.randombot")), [])
    assert words[words.index("--chdir") + 1] == "/tmp"
    assert str(isolation.PACKAGE_DIR) in words  # the package it runs, read-only


def test_missing_bubblewrap_is_one_line() -> None:
    with pytest.raises(isolation.IsolationError) as caught:
        isolation.check("no-such-bwrap-here")
    message = str(caught.value)
    assert "\n" not in message and "no program 'no-such-bwrap-here' on PATH" in message and "bubblewrap" in message


def test_bubblewrap_that_cannot_make_namespaces_is_one_line(tmp_path: pathlib.Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(isolation.IsolationError) as caught:
        isolation.check(str(fake))
    message = str(caught.value)
    assert "\n" not in message and "cannot create its namespaces" in message and "No permissions" in message


def test_the_league_option_isolates_every_entry_and_a_bot_may_opt_out(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "league.yaml"
    path.write_text(
        "isolation: bwrap\nbots:\n"
        "  - {name: a, command: [python3, -m, rookarena.randombot, '1']}\n"
        "  - {name: b, command: [python3, -m, rookarena.randombot, '2'], isolation: none}\n",
        encoding="utf-8",
    )
    config = load(path)
    assert [entry.isolation for entry in config.entries] == ["bwrap", "none"]
    shut = isolation.isolate_league(config, tmp_path / "results")
    a, b = shut.entries
    assert a.bot.command[: len(isolation.KEEPER)] == isolation.KEEPER and a.partner.command == a.bot.command
    assert b.bot.command == ("python3", "-m", "rookarena.randombot", "2")
