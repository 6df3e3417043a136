"""One table, three sources: every line of the fault table of PROTOCOL.md §9, read from the page itself,
gets the verdict the table gives from the referee's parser and the word the table gives from the
shipped schema (``schemas/from-bot.schema.json``, by jsonschema).

``tests/arena/test_contract.py`` plays the same lines through real bot processes; this test needs none, so it
also checks the rules that tie the columns together: a line the referee calls malformed or a protocol
fault is refused by the schema (or is not JSON at all, so there is no value to validate), and every line
the referee accepts, ignores or lets time out is accepted by it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import ROOT
from contract_cases import END, START
from test_protocol_docs import is_valid

from rookarena.wire.advice import diagnose
from rookarena.wire.conversation import Conversation, Hello, Ignored, ProtocolFault, Reply, State

DOC = ROOT / "protocol" / "PROTOCOL.md"
HELLO = b'{"type":"hello","name":"b","version":"1","protocol":"rook/1"}\n'
LEGAL = ("pass", "bid 70", "bid 75", "discard G7", "discard G8", "trump R", "trump G", "play R8", "play R12")
OPEN, EARLIER = 7, 6  # the open request's id and the one before it, as the table writes them


def rows() -> list[dict[str, str]]:
    """The table's rows as the page shows them: line, verdict, the referee's words, the schema's word."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index(START) : text.index(END)]
    out = []
    for raw in table.splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", raw)[1:-1]]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        line, verdict, says, _, schema = cells
        out.append(
            {
                "line": line.strip("`").replace("\\|", "|"),
                "verdict": verdict,
                "says": says.strip("…").replace("\\|", "|"),
                "schema": schema,
            }
        )
    return out


def lines_of(shown: str) -> list[str]:
    """The lines a row stands for, from the way the table writes them."""
    shown = shown.removesuffix(" (while 7 is awaited)").replace("U+FEFF", "\ufeff").replace("U+0000", "\0")
    if shown.endswith(" sent twice"):
        once = shown.removesuffix(" sent twice")
        return [once, once]
    if shown.startswith("{ (the first line"):
        return ["{"]
    return shown.split("⏎")


def strict_json(line: str) -> Any:
    """The value of a line under RFC 8259 (no NaN or Infinity, no key twice, no byte order mark), or
    raises ValueError: the schema has a value to validate only then."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({key for key, _ in items}) != len(items):
            raise ValueError("a key twice")
        return dict(items)

    def constant(name: str) -> Any:
        raise ValueError(name)

    if line.startswith("\ufeff"):
        raise ValueError("byte order mark")
    return json.loads(line, object_pairs_hook=pairs, parse_constant=constant)


def referee_verdict(lines: list[str], says: str) -> tuple[str, str]:
    """What the referee's parser makes of ``lines`` sent while request 7 is open (after request 6 was
    answered), or in place of the hello for a hello line: the verdict and the fault's words."""
    conversation = Conversation()
    first = lines[0] if lines[0] else lines[-1]
    hello_line = '"type":"hello"' in first or says.startswith("hello")
    if not hello_line or "second hello" in says:
        assert conversation.receive_data(HELLO)[0] == Hello("b", "1")
        conversation.begin_request(EARLIER)
        assert isinstance(conversation.receive_data(b'{"id":6,"action":"pass"}\n')[0], Reply)
        conversation.begin_request(OPEN)
    events = [event for line in lines for event in conversation.receive_data(line.encode("utf-8") + b"\n")]
    faults = [event for event in events if isinstance(event, ProtocolFault)]
    if faults:
        return faults[0].kind.value, faults[0].detail
    if any(isinstance(event, Hello) for event in events):
        return "accepted", ""
    replies = [event for event in events if isinstance(event, Reply)]
    if not replies:
        assert conversation.state is State.AWAIT_REPLY and conversation.awaiting == OPEN
        return "timeout", "no reply"
    if replies[0].action not in LEGAL:
        return "illegal", ""
    return ("ignored" if any(isinstance(event, Ignored) for event in events) else "accepted"), ""


def schema_word(lines: list[str]) -> str:
    words = []
    for line in filter(None, lines):
        try:
            value = strict_json(line)
        except ValueError:
            words.append("not JSON")
            continue
        words.append("accepts" if is_valid("from-bot.schema.json", value) else "refuses")
    return "accepts" if all(word == "accepts" for word in words) else next(w for w in words if w != "accepts")


ROWS = rows()
LINES = [row for row in ROWS if row["schema"] != "-"]


def test_the_table_is_there_and_holds_the_strict_cases() -> None:
    shown = {row["line"] for row in ROWS}
    assert len(ROWS) >= 30
    for needed in ("NaN", "Infinity", "U+FEFF", '"type":1', '"id":7.0', '"action":"pass","action"'):
        assert any(needed in line for line in shown), needed


@pytest.mark.parametrize("row", LINES, ids=[row["line"][:40] for row in LINES])
def test_the_referee_says_what_the_table_says(row: dict[str, str]) -> None:
    verdict, detail = referee_verdict(lines_of(row["line"]), row["says"])
    assert verdict == row["verdict"]
    if row["verdict"] in ("malformed", "protocol"):
        assert row["says"] in detail


@pytest.mark.parametrize("row", LINES, ids=[row["line"][:40] for row in LINES])
def test_the_schema_says_what_the_table_says(row: dict[str, str]) -> None:
    assert schema_word(lines_of(row["line"])) == row["schema"]


@pytest.mark.parametrize("row", LINES, ids=[row["line"][:40] for row in LINES])
def test_the_columns_agree(row: dict[str, str]) -> None:
    if row["verdict"] == "protocol" and "second hello" in row["says"]:
        assert row["schema"] == "accepts"  # out of turn: a schema judges one line alone, not their order
    elif row["verdict"] in ("malformed", "protocol"):
        assert row["schema"] in ("refuses", "not JSON")
    elif row["verdict"] == "illegal":
        assert row["schema"] in ("accepts", "refuses")  # the schema's grammar of actions rules out some
    else:
        assert row["schema"] == "accepts"
    if row["schema"] == "not JSON":
        assert row["verdict"] == "malformed"


# Lines that are JSON by RFC 8259 but beyond what the referee reads: each gets a fault that says which, and
# advice for it, whatever the size (the line limit of 64 KiB bounds both).
BEYOND = [
    ('{"id":' + "7" * 4301 + ',"action":"pass"}', "an integer with thousands of digits", "a plain integer"),
    ('{"id":' + "1" * 60000 + ',"action":"pass"}', "an integer with thousands of digits", "a plain integer"),
    (
        '{"id":7,"action":"pass","x":' + "[" * 2000 + "]" * 2000 + "}",
        "nested more than 100 levels deep",
        "one flat object",
    ),
    ("[" * 30000 + "]" * 30000, "nested more than 100 levels deep", "one flat object"),
    (
        '{"id":7,"action":"pass","x":' + "[" * 100 + "]" * 100 + "}",
        "nested more than 100 levels deep",
        "one flat object",
    ),
    ('{"id":7,"action":"pass","x":' + "9" * 5000 + "}", "an integer with thousands of digits", "any other key"),
]


@pytest.mark.parametrize(
    ("line", "says", "advice"), BEYOND, ids=["id-4301", "id-60000", "deep-2000", "deep-30000", "deep-101", "x-5000"]
)
def test_json_beyond_what_the_referee_reads_is_named(line: str, says: str, advice: str) -> None:
    verdict, detail = referee_verdict([line], says)
    assert (verdict, detail) == ("malformed", f"line is not JSON the referee reads: {says}")
    assert advice in diagnose("malformed", detail, line).advice


def test_an_id_of_a_few_hundred_digits_is_read() -> None:
    """Below Python's limit a long id is read (it is not the open request's: an unknown id, ignored)."""
    assert referee_verdict(['{"id":' + "7" * 300 + ',"action":"pass"}'], "") == ("timeout", "no reply")


@pytest.mark.parametrize("depth", [99, 100])
@pytest.mark.parametrize("brackets", ["[]", "{}", "mixed"])
def test_nesting_up_to_the_limit_is_read_whatever_the_brackets_and_strings_hold(depth: int, brackets: str) -> None:
    """A reply with an extra key nested to the limit (the reply itself is one level) is read; brackets inside
    strings, escaped quotes among them, do not count."""
    opens = "".join('{"k":' if brackets == "{}" or (brackets == "mixed" and i % 2) else "[" for i in range(depth - 1))
    closes = "".join("}" if o == "{" else "]" for o in reversed([c for c in opens if c in "[{"]))
    noise = '"[[[{{ \\" ]]] [[" '.strip()
    line = '{"id":7,"action":"pass","s":' + noise + ',"x":' + opens + "1" + closes + "}"
    assert referee_verdict([line], "")[0] == "accepted"
