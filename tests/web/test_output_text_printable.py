"""``Rook.printable`` (viewer.js): the one function every text the pages' scripts show passes through. Run
in Node over generated text, it writes each character Python's ``str.isprintable`` refuses (ESC, BEL,
bidi controls, separators, lone surrogates) as the escape :func:`rookarena.wire.names.printable` gives it,
and keeps every other character, newlines and tabs included."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

VIEWER = ROOT / "rookarena" / "web" / "static" / "viewer.js"
# Loads viewer.js (it touches the DOM only when drawing), then answers each JSON line with Rook.printable.
SCRIPT = """
const fs = require("fs");
const readline = require("readline");
const Rook = new Function(fs.readFileSync(process.argv[1], "utf8") + "\\nreturn Rook;")();
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => process.stdout.write(JSON.stringify(Rook.printable(JSON.parse(line))) + "\\n"));
"""
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def node() -> Iterator[subprocess.Popen[str]]:
    with subprocess.Popen(
        ["node", "-e", SCRIPT, str(VIEWER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    ) as proc:
        yield proc  # leaving the block closes its input (node ends) and waits for it


def shown(node: subprocess.Popen[str], text: str) -> str:
    assert node.stdin is not None and node.stdout is not None
    node.stdin.write(json.dumps(text) + "\n")  # ASCII: a lone surrogate travels as its JSON escape
    node.stdin.flush()
    answer: str = json.loads(node.stdout.readline())
    return answer


def expected(text: str) -> str:
    """``rookarena.wire.names.printable``'s escapes, newlines and tabs kept (a page lays them out)."""
    return "".join(ch if ch in "\n\t" or ch.isprintable() else repr(ch)[1:-1] for ch in text)


def test_what_a_bot_can_send(node: subprocess.Popen[str]) -> None:
    assert shown(node, "play R5\u202e\x1b[31m\x07!") == "play R5\\u202e\\x1b[31m\\x07!"
    assert shown(node, "\u2066abc\u2069 \u200f\u061c") == "\\u2066abc\\u2069 \\u200f\\u061c"
    assert shown(node, "a\nb\tc\rd") == "a\nb\tc\\rd"
    assert shown(node, "\ud800 \U000e0001 \xa0\u3000\u2028") == "\\ud800 \\U000e0001 \\xa0\\u3000\\u2028"
    assert shown(node, "漢字 é ± – … <b>&amp;</b> \\u202e") == "漢字 é ± – … <b>&amp;</b> \\u202e"


# Characters unassigned in Python's Unicode (Cn) may be assigned in Node's newer one: left out.
characters = st.characters(exclude_categories=["Cn"], exclude_characters="")
surrogates = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
text = st.lists(st.one_of(characters, surrogates, st.sampled_from(list(BIDI + "\x1b\x07\x00\r\n\t\x85"))), max_size=40)


@settings(max_examples=300, deadline=None)
@given(text.map("".join))
def test_generated_text(node: subprocess.Popen[str], value: str) -> None:
    # A high surrogate then a low one is one character in JavaScript's UTF-16 (and once JSON is read).
    value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    out = shown(node, value)
    assert out == expected(value)
    assert not any(ch in BIDI for ch in out)
    assert all(ch in "\n\t" or ch.isprintable() for ch in out)
