"""``isolation: bwrap``: the bubblewrap command rookarena builds, what a bot under it can and cannot see."""

from __future__ import annotations

import json
import pathlib
import random
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
    keeper = isolation.KEEPER if isolation.FILTER is None else isolation.FILTERED_KEEPER
    assert a.bot.command[: len(keeper)] == keeper and a.partner.command == a.bot.command
    assert b.bot.command == ("python3", "-m", "rookarena.randombot", "2")


def _tree(root: pathlib.Path, rng: random.Random) -> tuple[list[pathlib.Path], list[pathlib.Path]]:
    """A bot's directory drawn from ``rng``: its own files and folders, and other runs' results and league
    configurations at random depths among them. (what the bot must see, what it must not)"""
    own: list[pathlib.Path] = []
    league: list[pathlib.Path] = []
    folders = [root]
    for number in range(rng.randint(8, 20)):
        where = rng.choice(folders)
        kind = rng.choice(["folder", "file", "yaml", "results", "results", "config", "results-file"])
        path = where / f"{kind}-{number}"
        if kind == "folder":
            path.mkdir()
            folders.append(path)
            own.append(path)
        elif kind == "file":
            path.write_text(f"mine {number}\n")
            own.append(path)
        elif kind == "yaml":  # the bot's own YAML: no league's ``bots:`` at its top
            path = path.with_suffix(".yaml")
            path.write_text(f"level: {number}\nopponents:\n  bots: 3\n")
            own.append(path)
        elif kind == "config":
            path = path.with_suffix(rng.choice([".yaml", ".yml"]))
            path.write_text(f"# a league\nname: x{number}\nseed: {rng.getrandbits(64)}\nbots:\n  - {{name: a}}\n")
            league.append(path)
        else:
            path.mkdir()
            marker = "league.json" if kind == "results" else "games.jsonl"
            (path / marker).write_text('{"seed": 12345}\n')
            (path / "inner").mkdir()  # a results directory is masked whole, not searched
            league.append(path)
    return own, league


@needs_bwrap
@pytest.mark.parametrize("seed", range(3))
def test_no_run_s_results_nor_league_configuration_in_a_bot_s_directory_is_in_its_sight(
    tmp_path: pathlib.Path, seed: int
) -> None:
    """Another shard's results, an earlier run's, a copy of a configuration: each may hold a seed this league
    shares (which deals every hand), wherever it lies in the bot's own directory."""
    home = tmp_path / "bot"
    home.mkdir()
    (home / "look.py").write_text(LOOK)
    own, league = _tree(home, random.Random(seed))
    seen = look(BotSpec("mine", (sys.executable, "look.py"), cwd=str(home)), [], *own, *league)
    for path in own:
        if path.is_dir():
            assert seen[str(path)] == sorted(p.name for p in path.iterdir()), path
        else:
            assert seen[str(path)] == path.read_text(), path
    for path in league:
        assert seen[str(path)] in ([], "error: PermissionError"), path


@needs_bwrap
def test_the_directory_of_the_results_is_masked_so_that_a_shard_started_later_is_out_of_sight(
    tmp_path: pathlib.Path,
) -> None:
    home = tmp_path / "bot"
    home.mkdir()
    (home / "look.py").write_text(LOOK)
    shards = home / "out"
    (shards / "shard-1-of-2").mkdir(parents=True)
    spec = BotSpec("mine", (sys.executable, "look.py", str(shards / "shard-2-of-2")), cwd=str(home))
    boxed = isolation.isolate(spec, isolation.hidden_paths(shards / "shard-1-of-2", None, []))
    (shards / "shard-2-of-2").mkdir()  # the other shard starts after this one's bots were shut in
    (shards / "shard-2-of-2" / "league.json").write_text('{"seed": 12345}\n')
    done = subprocess.run(list(boxed.command), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[str(shards / "shard-2-of-2")] == "error: FileNotFoundError"


def test_a_shard_whose_results_sit_beside_an_isolated_bot_is_refused(tmp_path: pathlib.Path) -> None:
    (tmp_path / "bot.py").write_text("")
    config = tmp_path / "league.yaml"
    bot = tmp_path / "bot.py"
    config.write_text(
        f"isolation: bwrap\nbots:\n  - {{name: a, command: python3 {bot}}}\n  - {{name: b, command: python3 {bot}}}\n"
    )
    problem = isolation.shards_in_sight(load(config), tmp_path / "shard-1")
    assert problem is not None and "'a'" in problem and repr(str(tmp_path)) in problem
    assert isolation.shards_in_sight(load(config), tmp_path / "shards" / "shard-1") is None


def test_a_bot_directory_too_big_to_search_is_one_line(tmp_path: pathlib.Path) -> None:
    for number in range(12):
        (tmp_path / f"f{number}").write_text("")
    assert isolation.runs_in_sight(tmp_path, "mine", most=20) == []
    with pytest.raises(isolation.IsolationError, match=r"bot 'mine'.s directory .* holds over 10 files.*`cwd`"):
        isolation.runs_in_sight(tmp_path, "mine", most=10)


def test_a_directory_several_bots_share_is_searched_once_a_league(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = "".join(f"  - {{name: b{n}, command: python3 {tmp_path / 'bot.py'}}}\n" for n in range(4))
    (tmp_path / "bot.py").write_text("")
    (tmp_path / "league.yaml").write_text("isolation: bwrap\nbots:\n" + bots)
    searched: list[pathlib.Path] = []
    real = isolation.runs_in_sight

    def counted(directory: pathlib.Path, bot: str, most: int = isolation.SEARCH_MOST) -> list[pathlib.Path]:
        searched.append(directory)
        return real(directory, bot, most)

    monkeypatch.setattr(isolation, "runs_in_sight", counted)
    isolation.isolate_league(load(tmp_path / "league.yaml"), tmp_path / "results" / "x")
    assert searched == [tmp_path.resolve()]  # 4 entries, 8 processes' commands: one search
