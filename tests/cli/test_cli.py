"""The command line: ``rules list``, ``rules show``, ``simulate`` and its rules files, and its errors."""

from __future__ import annotations

import json
import pathlib
import re
import sys
import tracemalloc

import pytest
import yaml
from click.testing import CliRunner, Result
from record_schema import schema_errors

from rookarena.cli import main
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import Rules
from rookarena.players.simulate import summarize
from rookarena.wire import records


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.output


def rules_line(output: str) -> tuple[str, str]:
    """The name and digest from the ``rules: NAME (DIGEST)`` line of a simulation summary."""
    found = re.search(r"^rules: (\S+) \(([0-9a-f]{16})\)$", output, re.MULTILINE)
    assert found is not None, output
    return found[1], found[2]


def summary_figures(output: str) -> dict[str, str]:
    """The rows of the summary table: label, then value after two or more spaces."""
    rows = (re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in output.splitlines())
    return {row[0]: row[1] for row in rows if len(row) == 2}


# -- rules list / show -----------------------------------------------------------------------------


def test_rules_list_has_one_line_per_preset_name_then_description() -> None:
    lines = ok("rules", "list").splitlines()
    assert [line.split(None, 1) for line in lines] == [[p.name, p.description] for p in PRESETS.values()]


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_show_is_yaml_that_loads_back_to_the_same_rules(name: str, tmp_path: pathlib.Path) -> None:
    text = ok("rules", "show", name)
    data = yaml.safe_load(text)
    assert data.pop("preset") == name
    assert Rules.from_mapping(data) == PRESETS[name].rules
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    assert rules_line(ok("simulate", "--rules", str(path), "--games", "1")) == (name, PRESETS[name].rules.digest)


def test_the_preset_name_gives_the_same_digest_as_its_file() -> None:
    assert rules_line(ok("simulate", "--rules", "kentucky", "--games", "1")) == (
        "kentucky",
        PRESETS["kentucky"].rules.digest,
    )


def test_an_edited_rules_file_is_accepted_with_a_new_digest(tmp_path: pathlib.Path) -> None:
    text = ok("rules", "show", "traditional")
    assert "\ntarget: 300 " in text
    path = tmp_path / "edited.yaml"
    path.write_text(text.replace("\ntarget: 300 ", "\ntarget: 250 "), encoding="utf-8")
    name, digest = rules_line(ok("simulate", "--rules", str(path), "--games", "2"))
    assert name == "traditional+"
    assert digest != PRESETS["traditional"].rules.digest
    assert digest == Rules.from_mapping({"target": 250}, base=PRESETS["traditional"].rules).digest


def test_a_rules_file_of_overrides_only(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "short.yml"
    path.write_text("preset: open-nest\nmust_trump: true\n", encoding="utf-8")
    name, digest = rules_line(ok("simulate", "--rules", str(path), "--games", "1"))
    assert (name, digest) == ("open-nest+", Rules.from_mapping({"must_trump": True}, PRESETS["open-nest"].rules).digest)


# -- errors: one line, naming what is wrong, never a traceback -------------------------------------

BAD_FILES = {
    "unknown knob": ("preset: tournament\njokers: 2\n", ["jokers", "unknown rules knob"]),
    "bad value": ("target: lots\n", ["target", "'lots'", "whole number"]),
    "bad choice": ("nest_to: nobody\n", ["nest_to", "'nobody'", "last-trick | bidder-team"]),
    "bad combination": ("bid_min: 150\n", ["bid_max", "bid_min"]),
    "unplayable deck": ("nest_size: 4\n", ["nest_size"]),
    "unknown preset in the file": ("preset: nosuch\n", ["preset", "'nosuch'"]),
    "invalid YAML": ("target: 300\nranks: [5, 6\n", [":3: not valid YAML"]),
    "not a mapping": ("- target\n", ["expected a preset name or a mapping"]),
}


def assert_one_line_error(result: Result, *wanted: str) -> None:
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for text in wanted:
        assert text in errors[0], errors[0]


@pytest.mark.parametrize(("text", "wanted"), BAD_FILES.values(), ids=BAD_FILES.keys())
def test_a_bad_rules_file_is_refused_naming_the_file_and_knob(
    text: str, wanted: list[str], tmp_path: pathlib.Path
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("simulate", "--rules", str(path), "--games", "1")
    assert_one_line_error(result, str(path), *wanted)
    assert result.output.count("\n") == 1  # the message alone: no usage text for a bad file


def test_an_unknown_preset_is_refused() -> None:
    result = run("simulate", "--rules", "nosuch", "--games", "1")
    assert_one_line_error(result, "--rules", "'nosuch'", "tournament")


def test_a_missing_rules_file_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "missing.yaml"
    result = run("simulate", "--rules", str(path), "--games", "1")
    assert_one_line_error(result, str(path), "cannot read")


def test_rules_show_refuses_an_unknown_preset() -> None:
    assert_one_line_error(run("rules", "show", "nosuch"), "'nosuch'", "tournament")


# -- simulate --out --------------------------------------------------------------------------------


def test_simulate_writes_records_that_validate_and_replay(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "games.jsonl"
    output = ok("simulate", "--games", "20", "--seed", "3", "--out", str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    batch = list(records.read(lines))
    for record in batch:
        assert schema_errors(record) == []
        records.replay(record)
    assert len({record["seed"] for record in batch}) == 20

    summary = summarize(batch)
    figures = summary_figures(output)
    assert figures["games"] == "20" == str(summary.games)
    wins = int(figures["wins team 0 (seats 0, 2)"]), int(figures["wins team 1 (seats 1, 3)"])
    draws = int(figures["draws at the hand limit"])
    assert wins == summary.wins and draws == summary.draws
    assert sum(wins) + draws == 20
    assert figures["hands"] == f"{summary.hands} ({summary.redeals} redealt)"
    assert figures["bids made"].startswith(f"{summary.bids_made} of {summary.bids}")
    assert f"records: {out}" in output


def test_simulate_is_reproducible_byte_for_byte(tmp_path: pathlib.Path) -> None:
    paths = [tmp_path / name for name in ("a.jsonl", "b.jsonl", "c.jsonl")]
    for path, seed in zip(paths, ("3", "3", "4"), strict=True):
        ok("simulate", "--games", "20", "--seed", seed, "--out", str(path))
    first, again, other = (path.read_bytes() for path in paths)
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    ("games", "jobs", "reuse", "where"), [(2, 2, True, "in this process"), (8, 2, False, "worker")]
)
def test_the_dry_run_says_where_units_run_and_whether_bots_play_on(
    tmp_path: pathlib.Path, games: int, jobs: int, reuse: bool, where: str
) -> None:
    import sys

    from rookarena.arena import league
    from rookarena.arena.config import load
    from rookarena.cli.progress import plan_text

    bots = "".join(
        f"  - name: r{n}\n    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{n}']\n" for n in (1, 2)
    )
    path = tmp_path / "l.yaml"
    path.write_text(f"name: l\ngames: {games}\njobs: {jobs}\nreuse: {str(reuse).lower()}\nbots:\n{bots}")
    config = load(path)
    games_planned = league.plan(config)
    text = plan_text(config, games_planned, games_planned, jobs, tmp_path / "out")
    work = next(line for line in text.splitlines() if line.startswith("work:"))
    assert where in work, work
    assert ("kept from unit to unit" if reuse else "new bot processes for each unit") in work, work


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_dry_run_of_a_shard_counts_the_shard_and_names_it(tmp_path: pathlib.Path, n: int) -> None:
    """Each shard's dry run names it and counts its own games; together they count the league's."""
    bots = "".join(
        f"  - name: r{k}\n    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{k}']\n"
        for k in (1, 2, 3)
    )
    path = tmp_path / "l.yaml"
    path.write_text(f"name: l\ngames: 6\nseed: 1\nbots:\n{bots}")
    counted = 0
    for k in range(1, n + 1):
        result = CliRunner().invoke(
            main, ["run", str(path), "--dry-run", "--shard", f"{k}/{n}", "--out", str(tmp_path)]
        )
        assert result.exit_code == 0, result.output
        found = re.search(rf"^shard {k}/{n}: (\d+) of the league's 18 games$", result.output, re.M)
        assert found, result.output
        pairings = re.findall(r"^  r\d vs r\d: (\d+) games$", result.output, re.M)
        assert sum(map(int, pairings)) == int(found[1]), result.output  # the shard's, not the league's 6 a pairing
        assert f"pairings to play in shard {k}/{n}:" in result.output
        counted += int(found[1])
    assert counted == 18


def test_simulate_keeps_no_game_in_memory() -> None:
    """Any number of games fits: each record is written and counted, then dropped (it once kept them all,
    about 7 KB a game, until a long run took all the memory)."""

    def peak(games: int) -> int:
        tracemalloc.start()
        try:
            result = CliRunner().invoke(main, ["simulate", "--games", str(games), "--seed", "1"])
            assert result.exit_code == 0, result.output
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    few, many = peak(30), peak(250)
    assert many < few + (1 << 20), (few, many)  # 220 more games kept would be over 10 MB more


@pytest.mark.parametrize("command", [["run", "CONFIG"], ["standings", "DIR"], ["rules", "list"]])
def test_ctrl_c_before_a_command_sets_up_its_own_stop_is_one_line_and_130(
    command: list[str], tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(click alone says "Aborted!" and exits 1)"""
    import click

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(click.Command, "invoke", interrupted)  # the command's body, wherever Ctrl-C lands in it
    (tmp_path / "c.yaml").write_text("bots: []\n")
    args = [{"CONFIG": str(tmp_path / "c.yaml"), "DIR": str(tmp_path)}.get(word, word) for word in command]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130, result.output
    assert result.output.strip() == "stopped: interrupted (Ctrl-C)"
