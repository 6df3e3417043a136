"""A rules file (``--rules FILE``) is read as strictly as a league's ``rules:``: a key given twice at any depth,
a tag safe loading does not know and a knob past its most are each one line naming the file, the line and
the knob; and a drawn game's progress line says so."""

from __future__ import annotations

import pathlib

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.cli.text import game_line
from rookarena.engine.rules import MOST


def simulate(path: pathlib.Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "--rules", str(path), "--games", "1", "--seed", "1"])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    (line,) = result.output.splitlines()
    assert line.startswith(f"Error: {path}:"), line
    return line.removeprefix(f"Error: {path}:")


def test_the_repro_a_knob_given_twice(tmp_path: pathlib.Path) -> None:
    assert simulate(tmp_path / "r.yaml", "target: 300\ntarget: 400\n") == "2: rules.target: given twice"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.sampled_from(["target", "preset", "counters", "5"]))
def test_a_key_given_twice_at_any_depth_is_refused_with_its_line(before: int, depth: int, key: str) -> None:
    """``key`` twice in a mapping ``depth`` levels under ``counters`` (0: at the top), after ``before`` lines."""
    import tempfile

    lines = ["# a rules file"] * before + ["preset: tournament"]
    indent, path = "", "rules"
    for level in range(depth):
        lines.append(f"{indent}counters:" if level == 0 else f"{indent}n{level}:")
        path += ".counters" if level == 0 else f".n{level}"
        indent += "  "
    lines += [f"{indent}{key}: 1", f"{indent}{key}: 2"]
    with tempfile.TemporaryDirectory() as folder:
        message = simulate(pathlib.Path(folder) / "r.yaml", "\n".join(lines) + "\n")
    if key == "preset" and depth == 0:
        assert message == f"{before + 2}: rules.preset: given twice"
    else:
        assert message == f"{len(lines)}: {path}.{key}: given twice", lines


@pytest.mark.parametrize("tag", ["!!python/object:os.system x", "!!python/name:os.system", "!mine 3"])
def test_a_tag_in_a_rules_file_is_named_with_its_knob(tag: str, tmp_path: pathlib.Path) -> None:
    written = tag.split(maxsplit=1)[0]
    message = simulate(tmp_path / "r.yaml", f"preset: tournament\ntarget: {tag}\n")
    assert message == f"2: rules.target: the tag {written} is not allowed: write the value without it"


@pytest.mark.parametrize("knob", sorted(MOST))
def test_a_knob_past_its_most_is_one_line(knob: str, tmp_path: pathlib.Path) -> None:
    value = MOST[knob] * 10 + 1
    text = f"bid_min: {value}\nbid_max: {value}\n" if knob in ("bid_min", "bid_max") else f"{knob}: {value}\n"
    message = simulate(tmp_path / "r.yaml", "# huge\n" + text)
    assert message.startswith("2: rules.") and f"{value}: expected a whole number" in message, message


def test_a_knob_written_as_a_date_or_yes_is_shown_as_written(tmp_path: pathlib.Path) -> None:
    assert "got 2024-01-01" in simulate(tmp_path / "r.yaml", "2024-01-01\n")
    message = simulate(tmp_path / "r.yaml", "target: yes\n")
    assert message == "1: rules.target: yes: expected a whole number 1 to 99999000", message


def record(winner: int | None, scores: list[int]) -> dict[str, object]:
    return {"result": {"winner": winner, "scores": scores}, "seats": ["new", "old", "new", "old"], "faults": []}


@pytest.mark.parametrize(
    ("winner", "scores", "line"),
    [
        (None, [0, 0], "game 1/2: drawn, 0 to 0 (A at seats 0,2)"),
        (None, [250, 250], "game 1/2: drawn, 250 to 250 (A at seats 0,2)"),
        (0, [300, 120], "game 1/2: new wins, 300 to 120 (A at seats 0,2)"),
        (1, [120, 310], "game 1/2: old wins, 120 to 310 (A at seats 0,2)"),
    ],
)
def test_a_game_line_says_who_won_or_that_it_was_drawn(winner: int | None, scores: list[int], line: str) -> None:
    assert game_line(record(winner, scores), "new", 1, 2) == line
