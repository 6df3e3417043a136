"""League configuration files: every kind of mistake is one line naming the file, the line and the key.

Each bad case is a whole YAML file written to ``tmp_path``. The first two lines of every case are the
same comment and name, so a loader that blames line 1 by default cannot pass by accident.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.config import LIMIT_MOST, MOST_GAMES, ConfigError, load
from rookarena.arena.userfiles import MOST_BYTES

PY = json.dumps(sys.executable)  # a JSON string is a YAML double-quoted scalar
HEAD = "# a league for the loader's tests\nname: test\n"  # lines 1 and 2
ALPHA = f"  - name: alpha\n    command: [{PY}, -m, rookarena.randombot, '1']\n"
BETA = f"  - name: beta\n    command: [{PY}, -m, rookarena.randombot, '2']\n"
BOTS = "bots:\n" + ALPHA + BETA


def with_bots(body: str) -> str:
    """A file whose mistake is at line 3 (the first line of ``body``), followed by two good bots."""
    return HEAD + body + BOTS


def second_bot(*lines: str) -> str:
    """A file whose second bot (``bots[1]``, starting on line 6) is made of ``lines``."""
    return HEAD + "bots:\n" + ALPHA + "  - " + "\n    ".join(lines) + "\n"


# id, file text, line blamed (None: no line in the file to blame), key named (None: no key), words expected
CASES: list[tuple[str, str, int | None, str | None, tuple[str, ...]]] = [
    (
        "unknown-top-level-key",
        with_bots("colour: red\n"),
        3,
        "colour",
        ("unknown key 'colour'", "expected one of", "games", "bots"),
    ),
    (
        "unknown-bot-key",
        second_bot("name: beta", f"command: {PY}", "colour: red"),
        8,
        "bots[1].colour",
        ("unknown key 'colour'", "expected one of", "command", "env"),
    ),
    ("a-list-as-a-key", with_bots("[games]: 1\n"), 3, "the file", ("a key must be a plain word", "[games]")),
    ("a-complex-key", with_bots("? [a, b]\n: 1\n"), 3, "the file", ("a key must be a plain word", "[a, b]")),
    (
        "a-mapping-as-a-bot-key",
        second_bot("name: beta", f"command: {PY}", "{x: 1}: 2"),
        8,
        "bots[1]",
        ("a key must be a plain word", "{x: 1}"),
    ),
    ("games-a-string", with_bots("games: four\n"), 3, "games", ("expected a whole number", "'four'")),
    ("games-zero", with_bots("games: 0\n"), 3, "games", ("expected a whole number >= 1", "got 0")),
    ("games-negative", with_bots("games: -2\n"), 3, "games", ("expected a whole number >= 1", "-2")),
    ("games-a-fraction", with_bots("games: 4.5\n"), 3, "games", ("expected a whole number", "4.5")),
    (
        "odd-games-with-duplicate",
        with_bots("duplicate: true\ngames: 3\n"),
        4,
        "games",
        ("expected an even number", "duplicate", "got 3"),
    ),
    ("duplicate-not-a-boolean", with_bots("duplicate: maybe\n"), 3, "duplicate", ("expected true or false", "maybe")),
    (
        "unknown-format",
        with_bots("format: swiss\n"),
        3,
        "format",
        ("expected one of", "round-robin", "gauntlet", "'swiss'"),
    ),
    (
        "unknown-preset",
        with_bots("rules: nope\n"),
        3,
        "rules",
        ("unknown preset 'nope'", "expected one of", "tournament"),
    ),
    (
        "unknown-preset-in-a-rules-mapping",
        with_bots("rules:\n  preset: nope\n"),
        4,
        "rules.preset",
        ("unknown preset 'nope'", "expected one of", "tournament"),
    ),
    (
        "rules-knob-refused",
        with_bots("rules:\n  preset: tournament\n  bid_step: 7\n"),
        5,
        "rules.bid_step",
        ("7", "expected a step that divides"),
    ),
    (
        "rules-knob-unplayable",
        with_bots("rules: {preset: tournament, nest_size: 4}\n"),
        3,
        "rules.nest_size",
        ("4", "must split evenly"),
    ),
    (
        "unknown-rules-knob",
        with_bots("rules:\n  preset: tournament\n  trumps: red\n"),
        5,
        "rules.trumps",
        ("unknown rules knob 'trumps'", "expected one of", "bid_step"),
    ),
    ("time-move-negative", with_bots("time:\n  move: -1\n"), 4, "time.move", ("expected a number > 0", "-1")),
    ("time-move-zero", with_bots("time:\n  move: 0\n"), 4, "time.move", ("expected a number > 0", "got 0")),
    ("time-move-a-string", with_bots("time: {move: fast}\n"), 3, "time.move", ("expected a number > 0", "'fast'")),
    ("time-bank-negative", with_bots("time: {bank: -1}\n"), 3, "time.bank", ("expected a number >= 0", "-1")),
    ("time-move-yaml-text", with_bots("time: {move: 1e6}\n"), 3, "time.move", ("got '1e6' (text to YAML: write",)),
    ("games-yaml-text", with_bots("games: 2e3\n"), 3, "games", ("got '2e3' (text to YAML", "whole number as 1000000,")),
    ("time-yaml-text", with_bots("time: {move: 2e3}\n"), 3, "time.move", ("got '2e3' (text to YAML", "1.0e+6")),
    ("time-move-past-a-day", with_bots("time: {move: 1.0e+300}\n"), 3, "time.move", ("at most 86400 s", "1e+300")),
    ("time-bank-past-a-day", with_bots("time:\n  bank: 86401\n"), 4, "time.bank", ("at most 86400 seconds", "86401")),
    ("time-startup-past-a-day", with_bots("time: {startup: 1.0e+6}\n"), 3, "time.startup", ("(a day)", "1000000.0")),
    # a value just past a day is shown as written, not rounded to the day it passes
    ("time-move-just-past-a-day", with_bots("time: {move: 86400.0000001}\n"), 3, "time.move", ("got 86400.0000001",)),
    # under a millisecond, a bot would be told 0 ms
    ("time-move-under-a-ms", with_bots("time: {move: 0.0004}\n"), 3, "time.move", ("at least 0.001 seconds", "0.0004")),
    ("time-startup-under-a-ms", with_bots("time: {startup: 1.0e-5}\n"), 3, "time.startup", ("at least 0.001", "1e-05")),
    (
        "unknown-time-key",
        with_bots("time:\n  move: 1\n  hurry: 2\n"),
        5,
        "time.hurry",
        ("unknown key 'hurry'", "expected one of", "move", "startup", "bank"),
    ),
    ("time-not-a-mapping", with_bots("time: 5\n"), 3, "time", ("expected a mapping", "move", "got 5")),
    (
        "unknown-faults-policy",
        with_bots("faults: ignore\n"),
        3,
        "faults",
        ("expected one of", "forfeit", "substitute", "'ignore'"),
    ),
    ("limits-line-zero", with_bots("limits: {line: 0}\n"), 3, "limits.line", ("expected a whole number >= 1",)),
    ("limits-files-few", with_bots("limits: {files: 3}\n"), 3, "limits.files", ("expected a whole number >= 16",)),
    ("limits-cpu-float", with_bots("limits: {cpu: 1.5}\n"), 3, "limits.cpu", ("whole number", "(seconds)")),
    *(
        (
            f"limits-{key}-past-its-most",
            with_bots(f"limits: {{{key}: {most + 1}}}\n"),
            3,
            f"limits.{key}",
            (f"{most:,} ",),
        )
        for key, most in LIMIT_MOST.items()
    ),
    ("withdraw-after-zero", with_bots("withdraw_after: 0\n"), 3, "withdraw_after", ("expected a whole number >= 1",)),
    ("pin-cpus-word", with_bots("pin_cpus: sometimes\n"), 3, "pin_cpus", ("expected auto, true or false", "sometimes")),
    ("reuse-word", with_bots("reuse: sometimes\n"), 3, "reuse", ("expected true or false", "'sometimes'")),
    ("seed-negative", with_bots("seed: -1\n"), 3, "seed", ("expected a whole number >= 0", "-1")),
    ("per-game-word", with_bots("process_per_game: yes please\n"), 3, "process_per_game", ("expected true or false",)),
    ("isolation-word", with_bots("isolation: docker\n"), 3, "isolation", ("expected one of none, bwrap", "docker")),
    ("jobs-zero", with_bots("jobs: 0\n"), 3, "jobs", ("expected a whole number >= 1", "got 0")),
    ("anchors-unknown-bot", with_bots("anchors: {nobody: 0}\n"), 3, "anchors", ("name of a bot", "'nobody'")),
    ("anchors-not-a-number", with_bots("anchors: {alpha: high}\n"), 3, "anchors.alpha", ("a rating", "'high'")),
    ("name-empty", HEAD.replace("name: test", "name: ''") + BOTS, 2, "name", ("expected a non-empty string",)),
    ("key-given-twice", with_bots("games: 2\ngames: 4\n"), 4, "games", ("given twice",)),
    ("bots-missing", HEAD + "games: 2\n", 2, "bots", ("missing", "expected a list of at least two bots")),
    (
        "bots-not-a-list",
        HEAD + "bots: {alpha: beta}\n",
        3,
        "bots",
        ("expected a list of at least two bots", "got {alpha: beta}"),
    ),
    ("only-one-bot", HEAD + "bots:\n" + ALPHA, 4, "bots", ("expected a list of at least two bots",)),
    (
        "bot-not-a-mapping",
        HEAD + "bots:\n" + ALPHA + "  - beta\n",
        6,
        "bots[1]",
        ("expected a mapping", "name", "command", "'beta'"),
    ),
    ("bot-missing-name", second_bot(f"command: {PY}"), 6, "bots[1].name", ("missing",)),
    ("bot-missing-command", second_bot("name: beta"), 6, "bots[1].command", ("missing",)),
    (
        "duplicate-bot-names",
        second_bot("name: alpha", f"command: {PY}"),
        6,
        "bots[1].name",
        ("'alpha' is already the name of bots[0]",),
    ),
    (
        "name-taken-but-for-case",
        second_bot("name: ALPHA", f"command: {PY}"),
        6,
        "bots[1].name",
        ("'ALPHA' is already the name of bots[0] ('alpha', but for case)",),
    ),
    (
        "name-with-the-game-id-separator",
        second_bot("name: alpha-vs-beta", f"command: {PY}"),
        6,
        "bots[1].name",
        ("'alpha-vs-beta' cannot be a name", "expected no 'vs' between dashes"),
    ),
    (
        "name-a-look-alike-letter",
        second_bot('name: "\\u212Bngstrom"', f"command: {PY}"),
        6,
        "bots[1].name",
        ("cannot be a name", "'Ångstrom' as Unicode's NFKC writes it", "\\u212bngstrom"),
    ),
    (
        "command-a-number",
        second_bot("name: beta", "command: 42"),
        7,
        "bots[1].command",
        ("expected a list of strings or a string", "42"),
    ),
    (
        "command-an-empty-list",
        second_bot("name: beta", "command: []"),
        7,
        "bots[1].command",
        ("expected a list of strings or a string", "[]"),
    ),
    (
        "command-unbalanced-quote",
        second_bot("name: beta", 'command: "python3 \'unterminated"'),
        7,
        "bots[1].command",
        ("cannot split", "No closing quotation"),
    ),
    (
        "program-not-on-path",
        second_bot("name: beta", "command: no-such-program-rookarena --fast"),
        7,
        "bots[1].command",
        ("no program 'no-such-program-rookarena'", "PATH"),
    ),
    (
        "program-path-missing",
        second_bot("name: beta", "command: ./no/such/bot --fast"),
        7,
        "bots[1].command",
        ("no program './no/such/bot'",),
    ),
    (
        "script-file-missing",
        second_bot("name: beta", "command: python3 nope.py"),
        7,
        "bots[1].command",
        ("no file 'nope.py'", "python3"),
    ),
    (
        "partner-an-empty-list",
        second_bot("name: beta", f"command: {PY}", "partner: []"),
        8,
        "bots[1].partner",
        ("expected a list of strings or a string",),
    ),
    (
        "cwd-missing",
        second_bot("name: beta", f"command: {PY}", "cwd: no/such/directory"),
        8,
        "bots[1].cwd",
        ("no directory 'no/such/directory'",),
    ),
    (
        "env-not-a-mapping",
        second_bot("name: beta", f"command: {PY}", "env: [A, B]"),
        8,
        "bots[1].env",
        ("expected a mapping of variable names to strings", "got [A, B]"),
    ),
    (
        "sandbox-a-number",
        second_bot("name: beta", f"command: {PY}", "sandbox: 5"),
        8,
        "bots[1].sandbox",
        ("expected a list of strings or a string", "got 5"),
    ),
    (
        "sandbox-program-missing",
        second_bot("name: beta", f"command: {PY}", "sandbox: [no-such-jail, --flag]"),
        8,
        "bots[1].sandbox",
        ("no program 'no-such-jail' on PATH",),
    ),
    (
        "bot-per-game-a-number",
        second_bot("name: beta", f"command: {PY}", "process_per_game: 1"),
        8,
        "bots[1].process_per_game",
        ("expected true or false", "got 1"),
    ),
    (
        "bot-isolation-a-list",
        second_bot("name: beta", f"command: {PY}", "isolation: [bwrap]"),
        8,
        "bots[1].isolation",
        ("expected one of none, bwrap", "got [bwrap]"),
    ),
    (
        "bot-reuse-a-number",
        second_bot("name: beta", f"command: {PY}", "reuse: 1"),
        8,
        "bots[1].reuse",
        ("expected true or false", "got 1"),
    ),
    (
        "bot-limits-not-a-mapping",
        second_bot("name: beta", f"command: {PY}", "limits: 5"),
        8,
        "bots[1].limits",
        ("expected a mapping with keys line, stderr, memory, cpu, processes, files", "got 5"),
    ),
    (
        "bot-limits-unknown",
        second_bot("name: beta", f"command: {PY}", "limits: {gpu: 1}"),
        8,
        "bots[1].limits.gpu",
        ("unknown key 'gpu'", "memory"),
    ),
    (
        "bot-limits-memory-string",
        second_bot("name: beta", f"command: {PY}", "limits: {memory: lots}"),
        8,
        "bots[1].limits.memory",
        ("expected a whole number >= 1", "'lots'", "(MiB)"),
    ),
    (
        "env-value-a-list",
        second_bot("name: beta", f"command: {PY}", "env: {A: [1, 2]}"),
        8,
        "bots[1].env",
        ("expected a mapping of variable names to strings",),
    ),
    ("invalid-yaml-indentation", HEAD + "games: 4\n  seed: 3\n" + BOTS, 4, None, ("not valid YAML",)),
    ("invalid-yaml-unclosed-flow", HEAD + "bots: [\n  - a\n", 4, None, ("not valid YAML",)),
    ("invalid-yaml-tab", HEAD + "games: 2\n\tseed: 1\n" + BOTS, 4, None, ("not valid YAML", "'\\t'")),
    ("empty-file", "", 1, "bots", ("empty", "expected", "bots")),
    ("only-comments", "# nothing here yet\n", 1, "bots", ("empty", "expected", "bots")),
]


@pytest.mark.parametrize(("text", "line", "key", "words"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_bad_config_is_one_line_naming_file_line_and_key(
    text: str,
    line: int | None,
    key: str | None,
    words: tuple[str, ...],
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # relative commands and scripts are looked up here, where there are none
    path = tmp_path / "league.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert "\n" not in message, message
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    if key is not None:
        prefix += f"{key}: "
    assert message.startswith(prefix), message
    for word in words:
        assert word in message, message


def test_the_cases_cover_every_top_level_and_bot_key() -> None:
    from rookarena.arena.config import BOT_KEYS, TOP_KEYS

    blamed = {case[3] for case in CASES if case[3] is not None}
    top = {key.split(".", 1)[0] for key in blamed}
    assert set(TOP_KEYS) <= top
    bot = {key.rsplit(".", 1)[1] for key in blamed if key.startswith("bots[1].")}
    assert set(BOT_KEYS) <= bot


def test_a_missing_file_is_one_line_naming_it(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "absent.yaml"
    with pytest.raises(ConfigError, match=r"absent\.yaml: cannot read") as caught:
        load(path)
    assert str(caught.value).startswith(str(path))
    assert "\n" not in str(caught.value)


def test_a_file_that_is_not_utf8_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: d\xe9mo\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="UTF-8"):
        load(path)


ENDLESS = ["/dev/zero", "/dev/urandom"]


@pytest.mark.parametrize("device", ENDLESS)
def test_a_device_named_as_the_file_is_refused_not_read_without_end(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    with pytest.raises(ConfigError, match=rf"^{device}: larger than 16 MiB: not a configuration$"):
        load(device)


def test_a_file_over_the_most_read_is_refused_and_one_at_it_is_read(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MOST_BYTES - 1) + b"\n")
    with pytest.raises(ConfigError, match="the file is empty"):  # read whole: a comment only
        load(path)
    path.write_bytes(b"#" * MOST_BYTES + b"\n")
    with pytest.raises(ConfigError, match="larger than 16 MiB"):
        load(path)


@pytest.mark.parametrize("device", ENDLESS)
@pytest.mark.parametrize("command", ["run", "rules"])
def test_the_commands_refuse_a_device_as_one_line(device: str, command: str, tmp_path: pathlib.Path) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    args = ["run", device] if command == "run" else ["simulate", "--games", "1", "--rules", device]
    done = rookarena(*args, cwd=tmp_path)
    assert done.returncode in (1, 2), done
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        f"{device}: larger than 16 MiB: not a {'configuration' if command == 'run' else 'rules file'}"
    )


@pytest.mark.parametrize(("bots", "fmt"), [(3, "round-robin"), (5, "round-robin"), (4, "gauntlet"), (2, "round-robin")])
def test_a_league_plans_at_most_its_most_games(bots: int, fmt: str, tmp_path: pathlib.Path) -> None:
    pairs = bots - 1 if fmt == "gauntlet" else bots * (bots - 1) // 2
    most = MOST_GAMES // pairs // 2 * 2  # the most games a pairing (even, for duplicate deals)
    lines = ["name: big", f"format: {fmt}", "bots:"]
    lines += [f"  - {{name: b{i}, command: [{sys.executable}, -c, pass]}}" for i in range(bots)]
    path = tmp_path / "big.yaml"
    path.write_text("\n".join([f"games: {most}", *lines]) + "\n", encoding="utf-8")
    assert load(path).games == most
    path.write_text("\n".join([f"games: {most + 2}", *lines]) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"big\.yaml:1: games: .* make {(most + 2) * pairs:,} games: a league plans"):
        load(path)


def test_a_file_that_is_not_a_mapping_names_something(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- alpha\n- beta\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:1: "), message
    assert not message.startswith(f"{path}:1: : "), message


def test_a_cwd_accepted_is_a_cwd_the_bot_can_start_in(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conf = tmp_path / "conf"
    (conf / "bots").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = conf / "league.yaml"
    path.write_text(HEAD + "bots:\n" + ALPHA + BETA + "    cwd: bots\n", encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    try:
        config = load(path)
    except ConfigError:
        return  # refusing it is fine too
    cwd = config.entries[1].bot.cwd
    assert cwd is not None
    assert pathlib.Path(cwd).is_dir(), f"bots[1].cwd {cwd!r} was accepted but is no directory from {elsewhere}"


def test_a_good_file_loads_with_its_values(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "league.yaml"
    text = (
        HEAD
        + "rules: {preset: tournament, bid_step: 10}\nformat: gauntlet\ngames: 6\nduplicate: true\nseed: 9\njobs: 3\n"
        + "time: {move: 0.5, startup: 4, bank: 2}\nfaults: substitute\nwithdraw_after: 2\n"
        + "limits: {line: 4096, stderr: 1000}\n"
        + "bots:\n"
        + ALPHA
        + "    env: {LEVEL: 3, MODE: fast}\n"
        + BETA
        + f"    partner: [{PY}, -m, rookarena.randombot, '7']\n"
    )
    path.write_text(text, encoding="utf-8")
    config = load(path)
    assert (config.name, config.format, config.games, config.duplicate, config.seed, config.jobs) == (
        "test",
        "gauntlet",
        6,
        True,
        9,
        3,
    )
    assert config.rules_name == "tournament+"
    assert config.rules.bid_step == 10
    assert (config.time.move, config.time.startup, config.time.bank) == (0.5, 4.0, 2.0)
    assert config.faults.value == "substitute"
    assert config.withdraw_after == 2
    assert (config.limits.max_line, config.limits.stderr_cap) == (4096, 1000)
    alpha, beta = config.entries
    assert alpha.bot.env == {"LEVEL": "3", "MODE": "fast"}
    assert alpha.partner == alpha.bot
    assert beta.partner.command == (sys.executable, "-m", "rookarena.randombot", "7")
    assert config.source == text


@pytest.mark.skipif(shutil.which("node") is None, reason="the demo league has a Node bot")
def test_the_demo_config_loads_from_the_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # its commands are relative to the repository root
    config = load("configs/demo.yaml")
    assert config.name == "demo"
    assert [entry.name for entry in config.entries] == ["heuristic", "random-py", "random-js"]
    assert config.games % 2 == 0 and config.duplicate


def test_the_demo_config_elsewhere_blames_its_first_script(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = ROOT / "configs" / "demo.yaml"
    with pytest.raises(ConfigError) as caught:
        load(path)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "heuristic_bot.py" in text)
    assert str(caught.value).startswith(f"{path}:{line}: bots[0].command: no file "), caught.value


# -- the command line ------------------------------------------------------------------------------


def rookarena(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "rookarena", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


CLI_CASES = [
    ("command-a-number", 7, "bots[1].command: expected a list of strings or a string"),
    ("invalid-yaml-indentation", 4, "not valid YAML"),
    ("odd-games-with-duplicate", 4, "games: expected an even number"),
]


@pytest.mark.parametrize(("case", "line", "words"), CLI_CASES)
def test_run_shows_a_config_error_as_one_line_without_traceback(
    case: str, line: int, words: str, tmp_path: pathlib.Path
) -> None:
    text = next(c[1] for c in CASES if c[0] == case)
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "results"
    done = rookarena("run", str(path), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 1, done
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.endswith("\n")
    (only,) = done.stderr.splitlines()
    assert only.startswith(f"Error: {path}:{line}: {words}"), only
    assert not out.exists()  # nothing is created before the whole file is valid


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["yes", "no", "on", "~", "1e3", "0x1F", "2001-02-03", "12:30", "null", "'quoted'"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(_values, st.booleans())
def test_a_value_is_read_from_its_node_as_safe_load_reads_its_text(value: object, flow: bool) -> None:
    """The loader builds each value straight from its parsed node; it must equal what yaml.safe_load makes
    of the same text, whatever the value (aliases included)."""
    import yaml

    from rookarena.arena.config import _Reader

    text = yaml.safe_dump({"a": value, "b": value}, default_flow_style=flow, allow_unicode=True)
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    assert node is not None
    assert _Reader("f.yaml", pathlib.Path(".")).value(node, "a") == yaml.safe_load(text)
    aliased = (
        "x: &v " + yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("...").strip() + "\ny: *v\n"
    )
    try:
        expected = yaml.safe_load(aliased)
    except yaml.YAMLError:
        return
    second = yaml.compose(aliased, Loader=yaml.SafeLoader)
    assert second is not None
    assert _Reader("f.yaml", pathlib.Path(".")).value(second, "x") == expected


@pytest.mark.parametrize(
    ("league_keys", "beta_keys", "expected"),
    [
        ("", "", (False, False)),
        ("isolation: bwrap\n", "", (True, True)),
        ("isolation: bwrap\nprocess_per_game: false\n", "", (False, False)),
        ("isolation: bwrap\n", "    process_per_game: false\n", (True, False)),
        ("", "    isolation: bwrap\n", (False, True)),
        ("process_per_game: true\n", "", (True, True)),
        ("process_per_game: false\n", "    isolation: bwrap\n", (False, False)),
    ],
)
def test_an_isolated_entry_plays_each_game_in_new_processes_unless_told(
    tmp_path: pathlib.Path, league_keys: str, beta_keys: str, expected: tuple[bool, bool]
) -> None:
    """Isolation closes the memory channel too by default: a process kept from game to game remembers deals."""
    path = tmp_path / "league.yaml"
    path.write_text(HEAD + league_keys + "bots:\n" + ALPHA + BETA + beta_keys, encoding="utf-8")
    alpha, beta = load(path).entries
    assert (alpha.bot.per_game, beta.bot.per_game) == expected
    assert (alpha.partner.per_game, beta.partner.per_game) == expected


def test_a_program_is_looked_for_on_the_path_the_bot_is_given(tmp_path: pathlib.Path) -> None:
    """A bot's own `env: PATH` is where its program is found when it starts, so it is where the check looks:
    a program only there (a relative entry is the bot's cwd's) is accepted; a program only on the referee's
    PATH, with a PATH that lacks it, is refused before any game, since it could not start."""
    (tmp_path / "bin").mkdir()
    program = tmp_path / "bin" / "only-here-bot"
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    own = tmp_path / "own.yaml"
    own.write_text(
        f"{HEAD}bots:\n  - name: alpha\n    command: only-here-bot\n    env: {{PATH: 'bin:/usr/bin'}}\n"
        f"    cwd: {json.dumps(str(tmp_path))}\n{BETA}",
        encoding="utf-8",
    )
    assert [entry.name for entry in load(own).entries] == ["alpha", "beta"]
    lacking = tmp_path / "lacking.yaml"
    lacking.write_text(
        f"{HEAD}bots:\n  - name: alpha\n    command: python3 -m rookarena.randombot\n"
        f"    env: {{PATH: {json.dumps(str(tmp_path / 'bin'))}}}\n{BETA}",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="no program 'python3' on PATH \\(the bot's"):
        load(lacking)
