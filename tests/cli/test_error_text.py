"""Every error a command prints is plain text: what a file, a key, a path or a record holds is quoted with its
control characters escaped, so no error can drive the terminal that shows it (set its title, clear it,
reverse the text after it)."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.wire.names import printable

# What a terminal acts on: C0 and C1 controls (ESC, BEL, CR...), bidi overrides and isolates, among letters.
HOSTILE = st.text(
    st.one_of(
        st.sampled_from("\x1b\x07\r\x08\x9b\u202e\u2066\u200f\x00\t"),
        st.sampled_from("]0;[2Jab-"),
    ),
    min_size=1,
    max_size=12,
)
PY = json.dumps(sys.executable)


def plain(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), color=True)  # color: click keeps what it would send a terminal
    assert result.exit_code not in (0, None), result.output
    assert "Traceback" not in result.output
    return result.output


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    key=HOSTILE,
    file=HOSTILE.filter(lambda t: "\x00" not in t and "\t" not in t),
    where=st.sampled_from(["top", "time", "bot"]),
)
def test_a_config_error_quotes_keys_and_file_names_as_plain_text(
    key: str, file: str, where: str, tmp_path: pathlib.Path
) -> None:
    bots = f"bots:\n  - name: a\n    command: [{PY}]\n  - name: b\n    command: [{PY}]\n"
    bad = json.dumps(key)
    body = {
        "top": f"name: t\n{bad}: 1\n{bots}",
        "time": f"name: t\ntime: {{{bad}: 1}}\n{bots}",
        "bot": f"name: t\n{bots}    {bad}: 1\n",
    }[where]
    path = tmp_path / f"{file}.yaml"
    path.write_text(body, encoding="utf-8")
    output = run("run", str(path), "--out", str(tmp_path / "out"))
    assert plain(output), repr(output)
    assert printable(path.name) in output, output  # the file is named, escaped


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=HOSTILE)
def test_a_rules_file_error_quotes_its_knob_as_plain_text(key: str, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(f"{json.dumps(key)}: 1\n", encoding="utf-8")
    output = run("simulate", "--rules", str(path), "--games", "1")
    assert plain(output), repr(output)


def test_a_long_name_is_quoted_shortened() -> None:
    output = run("match", "a", "b", "--name-a", "x" * 10_000, "--games", "2")
    assert "cannot be a name" in output and "(10000 characters)" in output
    assert len(output) < 1_000


@pytest.mark.parametrize("error", [ArithmeticError("did not converge"), ValueError("singular information matrix")])
def test_standings_that_cannot_be_computed_after_a_league_are_one_line_and_keep_every_game(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """Whatever fails in the figures once the games are played, run says so in one line naming the records,
    which hold every game (a failed fit had ended a whole league in a traceback)."""
    from rookarena.cli import run_cmd

    def failing(*args: object, **kwargs: object) -> str:
        raise error

    monkeypatch.setattr(run_cmd, "write_standings", failing)
    bots = "".join(
        f"  - name: r{k}\n    command: [{json.dumps(sys.executable)}, -m, rookarena.randombot, '{k}']\n" for k in (1, 2)
    )
    config = tmp_path / "l.yaml"
    config.write_text(f"name: l\ngames: 4\nseed: 3\njobs: 1\nbots:\n{bots}")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: the standings could not be computed") and str(error) in last, last
    assert str(out / "games.jsonl") in last
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
