"""What a league configuration hands to the OS, and how its YAML is read: every value a bot's process is
started with (command words, partner, sandbox, cwd, environment) is one the OS accepts, a key given twice
at any depth or a tag safe loading does not know is refused, and a refused value is shown as it was written.

Each refusal is one line naming the file, the line and the key, as in ``test_config.py``.
"""

from __future__ import annotations

import datetime
import json
import pathlib
import re
import sys

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.arena.config import BOT_KEYS, TOP_KEYS, ConfigError, load

PY = json.dumps(sys.executable)
HEAD = "# a league for the loader's tests\nname: test\n"  # lines 1 and 2
ALPHA = f"  - name: alpha\n    command: [{PY}, -m, rookarena.randombot, '1']\n"  # lines 4 and 5


def second_bot(*lines: str) -> str:
    """A file whose second bot (``bots[1]``, starting on line 6) is made of ``lines``."""
    return HEAD + "bots:\n" + ALPHA + "  - " + "\n    ".join(lines) + "\n"


def refusal(text: str, tmp_path: pathlib.Path) -> str:
    path = tmp_path / "league.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert "\n" not in message, message
    assert message.startswith(f"{path}:"), message
    return message.removeprefix(f"{path}:")


NUL = "contains a NUL character"
BOT = ("name: beta", f"command: {PY}")  # lines 6 and 7
# id, the second bot's lines, line blamed, key named, words expected
OS_VALUES = [
    ("command-string", ("name: beta", f'command: "{sys.executable} -c pass\\0"'), 7, "bots[1].command", NUL),
    ("command-word", ("name: beta", f'command: [{PY}, "-\\0c", pass]'), 7, "bots[1].command[1]", NUL),
    ("command-program", ("name: beta", 'command: ["\\0"]'), 7, "bots[1].command[0]", NUL),
    ("partner", (*BOT, 'partner: "x\\0"'), 8, "bots[1].partner", NUL),
    ("sandbox", (*BOT, 'sandbox: [env, "A=\\0"]'), 8, "bots[1].sandbox[1]", NUL),
    ("cwd", (*BOT, 'cwd: ".\\0"'), 8, "bots[1].cwd", NUL),
    ("env-value", (*BOT, 'env: {A: "b\\0"}'), 8, "bots[1].env.A", NUL),
    ("env-name-nul", (*BOT, 'env: {"A\\0": b}'), 8, "bots[1].env.A\0", NUL),
    ("env-name-equals", (*BOT, "env: {'A=B': x}"), 8, "bots[1].env", "expected a variable name (not empty, no '=')"),
    ("env-name-empty", (*BOT, "env: {'': y}"), 8, "bots[1].env", "got ''"),
    ("env-name-empty-later", (*BOT, "env:", "  A: x", "  '': y"), 10, "bots[1].env", "variable name"),
    ("env-name-number", (*BOT, "env: {1: x}"), 8, "bots[1].env", "variable names to strings"),
]


@pytest.mark.parametrize(("lines", "line", "key", "words"), [c[1:] for c in OS_VALUES], ids=[c[0] for c in OS_VALUES])
def test_a_value_the_os_refuses_is_refused_at_load(
    lines: tuple[str, ...], line: int, key: str, words: str, tmp_path: pathlib.Path
) -> None:
    message = refusal(second_bot(*lines), tmp_path)
    assert message.startswith(f"{line}: {' '.join(key.split())}: "), message
    assert words in message, message


def test_the_repro_files_are_refused(tmp_path: pathlib.Path) -> None:
    bots = "bots:\n  - name: r1\n    command: {0}\n  - name: r2\n    command: {1}\n"
    good = f"[{PY}, -c, pass]"
    assert refusal(bots.format(f'"{sys.executable} x\\0"', good), tmp_path).startswith("3: bots[0].command: ")
    env = bots.format(good, good) + "    env: {'A=B': x, '': y}\n"
    assert refusal(env, tmp_path).startswith("6: bots[1].env: expected a variable name")


# -- keys given twice, at any depth ----------------------------------------------------------------------

NESTED = {
    "top": ("games: 2\ngames: 4\n", 4, "games"),
    "rules": ("rules:\n  preset: tournament\n  target: 300\n  target: 400\n", 6, "rules.target"),
    "rules-counters": ("rules:\n  counters: {5: 5, 5: 10}\n", 4, "rules.counters.5"),
    "time": ("time: {move: 1, move: 2}\n", 3, "time.move"),
    "limits": ("limits:\n  memory: 100\n  cpu: 10\n  memory: 200\n", 6, "limits.memory"),
}


@pytest.mark.parametrize(("body", "line", "key"), NESTED.values(), ids=NESTED.keys())
def test_a_key_given_twice_at_any_depth_is_refused(body: str, line: int, key: str, tmp_path: pathlib.Path) -> None:
    text = HEAD + body + "bots:\n" + ALPHA + ALPHA.replace("alpha", "beta")
    assert refusal(text, tmp_path) == f"{line}: {key}: given twice"


@pytest.mark.parametrize("where", ["env", "limits"])
def test_a_key_given_twice_in_a_bot_is_refused(where: str, tmp_path: pathlib.Path) -> None:
    value = {"env": "A: x\n      B: y\n      A: z", "limits": "cpu: 1\n      files: 64\n      cpu: 2"}[where]
    text = second_bot(*BOT, f"{where}:\n      {value}")
    assert refusal(text, tmp_path) == f"11: bots[1].{where}.{value.split(':')[0]}: given twice"


# -- tags ------------------------------------------------------------------------------------------------

TAGS = ["!!python/object/apply:os.system ['true']", "!!python/name:os.system", "!custom x", "!<tag:x,1:y> 1"]


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("key", ["games", "name", "rules", "bots"])
def test_a_tag_safe_loading_does_not_know_is_named_with_its_key(key: str, tag: str, tmp_path: pathlib.Path) -> None:
    text = HEAD.replace("name: test\n", "") + f"{key}: {tag}\n"
    if key != "bots":
        text += "bots:\n" + ALPHA + ALPHA.replace("alpha", "beta")
    message = refusal(text, tmp_path)
    written = tag.split(maxsplit=1)[0]
    assert message == f"2: {key}: the tag {written} is not allowed: write the value without it"


def test_a_tag_inside_a_bot_names_the_bot_key(tmp_path: pathlib.Path) -> None:
    message = refusal(second_bot("name: beta", "command: !!python/name:os.system"), tmp_path)
    assert message == "7: bots[1].command: the tag !!python/name:os.system is not allowed: write the value without it"


# -- values shown as they were written -------------------------------------------------------------------

# Scalars YAML reads as something other than a string, as they are written and then shown.
WRITTEN = [
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "!!binary aGVsbG8=",
    "1.5",
    "-3",
    "0x1F",
    "~",
    "null",
    "yes",
    "off",
    ".inf",
    "1_000",
    "[1, 2024-01-01]",
    "{a: 2024-01-01}",
    "'4'",
    '"1.0e+6"',
]
REPR = re.compile(r"datetime\.|\bb'|\bNone\b|\bTrue\b|\bFalse\b|(?<!\.)\binf\b|\(\d+, \d+")


def _yaml_scalars() -> st.SearchStrategy[str]:
    plain = st.one_of(
        st.sampled_from(WRITTEN),
        st.dates().map(datetime.date.isoformat),
        st.integers().map(str),
        st.floats(allow_nan=False).map(lambda f: yaml.safe_dump(f).removesuffix("\n...\n")),
        st.binary(max_size=8).map(lambda b: yaml.safe_dump(b).strip()),
    )
    return plain


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([*TOP_KEYS, *(f"bots[1].{key}" for key in BOT_KEYS)]), _yaml_scalars())
def test_a_refused_value_is_shown_as_written_never_as_a_python_repr(key: str, written: str) -> None:
    import tempfile

    if key.startswith("bots[1]."):
        bot = key.removeprefix("bots[1].")
        lines = [f"{bot}: {written}"] + [line for line in BOT if not line.startswith(f"{bot}:")]
        text = second_bot(*lines)
    else:
        text = HEAD.replace("name: test\n", "") + f"{key}: {written}\nbots:\n" + ALPHA + ALPHA.replace("alpha", "b")
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "league.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            load(path)
        except ConfigError as exc:
            message = str(exc)
        else:
            return
    assert "\n" not in message, message
    assert not REPR.search(message.removeprefix(str(path))), message
    assert "<unicode string>" not in message and "^" not in message, message
    if f"{key}:" in message and "got " in message and written in WRITTEN and key != "anchors":
        assert f"got {written}" in message, message  # (an anchors: error names the one entry it refuses)


def test_the_examples_of_the_report(tmp_path: pathlib.Path) -> None:
    bots = "bots:\n" + ALPHA + ALPHA.replace("alpha", "beta")
    assert refusal("name: 2024-01-01\n" + bots, tmp_path) == "1: name: expected a non-empty string, got 2024-01-01"
    games = refusal('games: "4"\n' + bots, tmp_path)
    assert (
        games == '1: games: expected a whole number >= 1, got "4" (text to YAML: write a whole number as 1000000, '
        "without quotes)"
    )
    (tmp_path / "good.yaml").write_text("games: 4\n" + bots, encoding="utf-8")
    assert load(tmp_path / "good.yaml").games == 4  # the form the hint suggests is accepted
