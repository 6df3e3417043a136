"""Fuzzing the two readers of untrusted input: the protocol reader (a bot's stdout) and the league
configuration loader (a user's YAML file).

Whatever the bytes, the protocol reader must answer with events and never raise, frame lines the same
however the bytes are chunked, and turn only a well-formed reply to the open request into a
:class:`Reply`. Whatever the file, :func:`rookarena.arena.config.load` must give a configuration or one
:class:`ConfigError` line starting with the file's path, never another exception.

Every test is derandomized, so CI sees the same examples on every run.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
import yaml
from conftest import TESTS
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rookarena.arena import config as league_config
from rookarena.arena.config import ConfigError, load
from rookarena.arena.specs import LeagueConfig
from rookarena.engine.rules import KNOBS
from rookarena.wire import VERSION
from rookarena.wire.conversation import (
    Conversation,
    Event,
    FaultKind,
    Hello,
    Ignored,
    LineBuffer,
    LineTooLongError,
    ProtocolFault,
    Reply,
    State,
)

FUZZ = settings(max_examples=300, deadline=None, derandomize=True)
FILES = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# -- the protocol reader -----------------------------------------------------------------------------------

HELLO = b'{"type": "hello", "name": "fuzz", "version": "1", "protocol": "rook/1"}\n'


def conversation(state: str, max_line: int = 4096, answered: int = 0) -> Conversation:
    """A conversation awaiting the hello, or (``"reply"``) with a request open after ``answered`` others."""
    conv = Conversation(max_line)
    if state == "hello":
        return conv
    conv.buffer = LineBuffer()  # the lines of the set-up may be longer than ``max_line``
    assert conv.receive_data(HELLO) == [Hello("fuzz", "1")]
    for request_id in range(1, answered + 1):
        conv.request({"type": "act"}, request_id)
        assert isinstance(conv.receive_data(b'{"id": %d, "action": "pass"}\n' % request_id)[0], Reply)
    conv.request({"type": "act", "legal": ["pass"]}, answered + 1)
    assert conv.state is State.AWAIT_REPLY
    assert conv.buffer.pending == 0
    conv.buffer = LineBuffer(max_line)
    return conv


def split(data: bytes, cuts: Iterable[int]) -> list[bytes]:
    points = sorted({0, len(data), *(min(cut, len(data)) for cut in cuts)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def feed(conv: Conversation, chunks: Iterable[bytes]) -> list[Event]:
    events: list[Event] = []
    for chunk in chunks:
        events.extend(conv.receive_data(chunk))
    return events


def check_events(events: Sequence[Event]) -> None:
    for event in events:
        assert isinstance(event, Hello | Reply | Ignored | ProtocolFault), event
        if isinstance(event, ProtocolFault):
            assert isinstance(event.kind, FaultKind), event
            assert isinstance(event.detail, str) and event.detail, event
            assert len(event.detail.splitlines()) == 1, f"a fault detail of several lines: {event.detail!r}"
            assert isinstance(event.line, str), event


def until_fault(events: Sequence[Event]) -> list[Event | tuple[str, FaultKind]]:
    """The events up to and including the first fault; a line-length fault as its kind only (its detail
    says how many bytes were buffered when it was noticed, which depends on the chunks)."""
    out: list[Event | tuple[str, FaultKind]] = []
    for event in events:
        if isinstance(event, ProtocolFault):
            out.append(("fault", event.kind) if event.kind is FaultKind.LIMIT else event)
            break
        out.append(event)
    return out


# Random bytes, with the bytes that matter to framing and JSON over-represented.
NOISE = st.binary(max_size=80) | st.sampled_from(
    [b"\n", b"\r\n", b"\r", b"{", b"}", b'"', b"\xff", b"\xc3", b"\xe2\x80\xa8", b" ", b"[" * 40]
)
LINES = st.sampled_from(
    [
        HELLO,
        b'{"id": 1, "action": "pass"}\n',
        b'{"id": 2, "action": "bid 70"}\n',
        b'{"id": 0, "action": "pass"}\n',
        b'{"type": "hello", "name": "again"}\n',
        b'{"type": "action", "id": 1}\n',
        b'{"id": true, "action": "pass"}\n',
        b"not json\n",
        b"\n",
        b"[]\n",
    ]
)
STREAM = st.lists(NOISE | LINES, max_size=12).map(b"".join)


@FUZZ
@given(
    data=STREAM,
    cuts=st.lists(st.integers(0, 1000), max_size=8),
    state=st.sampled_from(["hello", "reply"]),
    answered=st.integers(0, 2),
    max_line=st.sampled_from([8, 40, 4096]),
)
@example(data=b'{"type": []}\n', cuts=[], state="reply", answered=0, max_line=4096)
@example(data=b'{"id": ' + b"1" * 5000 + b', "action": "pass"}\n', cuts=[], state="reply", answered=0, max_line=8192)
def test_random_bytes_in_random_chunks_give_only_events(
    data: bytes, cuts: list[int], state: str, answered: int, max_line: int
) -> None:
    conv = conversation(state, max_line, answered)
    check_events(feed(conv, split(data, cuts)))


@FUZZ
@given(
    data=STREAM,
    state=st.sampled_from(["hello", "reply"]),
    answered=st.integers(0, 2),
    max_line=st.sampled_from([8, 40, 4096]),
)
@example(data=HELLO + b"x" * 100, state="hello", answered=0, max_line=80)
def test_framing_does_not_depend_on_the_chunks(data: bytes, state: str, answered: int, max_line: int) -> None:
    at_once = conversation(state, max_line, answered).receive_data(data)
    one_by_one = feed(conversation(state, max_line, answered), (data[i : i + 1] for i in range(len(data))))
    check_events(at_once)
    check_events(one_by_one)
    assert until_fault(at_once) == until_fault(one_by_one)


# JSON values, with the keys and values of the protocol over-represented.
KEYS = st.sampled_from(["type", "id", "action", "name", "version", "protocol"]) | st.text(max_size=6)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.integers()
    | st.floats()
    | st.text(max_size=10)
    | st.sampled_from(["hello", "action", "act", "pass", "bid 70", VERSION, "rook/2", ""])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=12,
)
REPLY_LIKE = st.fixed_dictionaries(
    {"id": st.integers(0, 4) | JSON, "action": st.text(max_size=8) | JSON},
    optional={"type": st.sampled_from(["action", "hello"]) | JSON, "extra": JSON},
)
HELLO_LIKE = st.fixed_dictionaries(
    {"type": st.just("hello") | JSON},
    optional={"name": st.text(max_size=6) | JSON, "version": st.text(max_size=4) | JSON, "protocol": st.just(VERSION)},
)


def expected_reply(value: Any, awaiting: int) -> bool:
    return (
        isinstance(value, dict)
        and value.get("type", "action") == "action"
        and type(value.get("id")) is int
        and value["id"] == awaiting
        and isinstance(value.get("action"), str)
    )


def expected_hello(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("type") == "hello"
        and value.get("protocol", VERSION) == VERSION
        and isinstance(value.get("name"), str)
        and value["name"] != ""
        and isinstance(value.get("version", ""), str)
    )


@FUZZ
@given(
    value=JSON | REPLY_LIKE | HELLO_LIKE,
    state=st.sampled_from(["hello", "reply"]),
    answered=st.integers(0, 3),
    ascii_only=st.booleans(),
)
@example(value={"type": [], "id": 1, "action": "pass"}, state="reply", answered=0, ascii_only=True)
@example(value={"type": {"a": 1}}, state="hello", answered=0, ascii_only=True)
def test_json_values_give_a_reply_or_hello_only_when_well_formed(
    value: Any, state: str, answered: int, ascii_only: bool
) -> None:
    conv = conversation(state, 1 << 20, answered)
    awaiting = conv.awaiting
    before = conv.state
    line = json.dumps(value, ensure_ascii=ascii_only).encode() + b"\n"
    events = conv.receive_data(line)
    check_events(events)
    assert len(events) == 1, events
    (event,) = events
    if state == "reply":
        assert awaiting == answered + 1
        assert isinstance(event, Reply) == expected_reply(value, awaiting), (value, event)
        if isinstance(event, Reply):
            assert (event.id, event.action) == (awaiting, value["action"])
            assert (conv.state, conv.awaiting) == (State.IDLE, None)
        else:
            assert not isinstance(event, Hello)
            assert (conv.state, conv.awaiting) == (before, awaiting), "a refused line changed the conversation"
    else:
        assert isinstance(event, Hello) == expected_hello(value), (value, event)
        assert not isinstance(event, Reply)
        if isinstance(event, Hello):
            assert event == Hello(value["name"], value.get("version", ""))
            assert conv.state is State.IDLE
        else:
            assert conv.state is before


# -- the line buffer -----------------------------------------------------------------------------------------

NOT_NEWLINE = st.binary(max_size=120).map(lambda b: b.replace(b"\n", b"."))


@FUZZ
@given(
    max_line=st.integers(1, 64),
    extra=st.integers(1, 40),
    fill=st.binary(min_size=1, max_size=4).map(lambda b: b.replace(b"\n", b".")),
    before=st.lists(st.sampled_from([b"", b" ", b"\r", b"\t "]), max_size=3),
    newline=st.booleans(),
    cuts=st.lists(st.integers(0, 400), max_size=10),
)
def test_a_line_over_max_line_is_a_limit_fault_whatever_the_chunks(
    max_line: int, extra: int, fill: bytes, before: list[bytes], newline: bool, cuts: list[int]
) -> None:
    size = max_line + extra
    long = (fill * size)[:size]
    # Blank lines before it (ignored, not faults: after a fault the rest of a chunk is not read).
    prefix = b"".join(line[:max_line] + b"\n" for line in before)
    data = prefix + long + (b"\n" if newline else b"")
    chunks = split(data, cuts)
    buffer = LineBuffer(max_line)
    with pytest.raises(LineTooLongError):
        for chunk in chunks:
            buffer.feed(chunk)
    conv = conversation("reply", max_line)
    events = feed(conv, chunks)
    check_events(events)
    limits = [e for e in events if isinstance(e, ProtocolFault) and e.kind is FaultKind.LIMIT]
    assert limits, events
    assert limits[0].detail.startswith(f"line: longer than {max_line} bytes"), limits[0]


@FUZZ
@given(
    max_line=st.integers(1, 64),
    lines=st.lists(NOT_NEWLINE, max_size=8),
    cuts=st.lists(st.integers(0, 600), max_size=10),
)
def test_lines_up_to_max_line_always_pass(max_line: int, lines: list[bytes], cuts: list[int]) -> None:
    lines = [line[:max_line] for line in lines]
    data = b"".join(line + b"\n" for line in lines)
    buffer = LineBuffer(max_line)
    got: list[bytes] = []
    for chunk in split(data, cuts):
        got.extend(buffer.feed(chunk))
    assert got == [line.removesuffix(b"\r") for line in lines]
    assert buffer.pending == 0
    conv = conversation("reply", max_line)
    events = feed(conv, split(data, cuts))
    check_events(events)
    assert not any(isinstance(e, ProtocolFault) and e.kind is FaultKind.LIMIT for e in events), events


# -- the configuration loader ------------------------------------------------------------------------------

KNOWN_KEYS = sorted(
    {
        *league_config.TOP_KEYS,
        *league_config.BOT_KEYS,
        *league_config.TIME_KEYS,
        *league_config.LIMIT_KEYS,
        *KNOBS,
        "preset",
    }
)
CONFIG_KEYS = st.sampled_from(KNOWN_KEYS) | st.sampled_from(KNOWN_KEYS) | st.sampled_from(KNOWN_KEYS) | st.text()
CONFIG_STRINGS = st.sampled_from(
    [
        "tournament",
        "open-nest",
        "kentucky",
        "round-robin",
        "gauntlet",
        "forfeit",
        "substitute",
        "python3",
        sys.executable,
        "python3 -m rookarena.randombot 1",
        "./no-such-bot",
        "python3 missing.py",
        "'unclosed",
        ".",
        "",
        "high",
        "ten-half",
        "all",
        "bidder",
    ]
)
CONFIG_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 130)
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=12)
    | CONFIG_STRINGS
)
STRUCTURES = st.recursive(
    CONFIG_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(CONFIG_KEYS, inner, max_size=6),
    max_leaves=25,
)
RANDOM_BOT = [sys.executable, "-m", "rookarena.randombot", "1"]
VALID_BOT = {
    "command": st.sampled_from([RANDOM_BOT, "python3 -m rookarena.randombot 2", [sys.executable, "-c", "pass"]]),
    "partner": st.sampled_from([RANDOM_BOT, "python3 -m rookarena.randombot 3"]),
    "cwd": st.sampled_from([".", str(TESTS)]),
    "env": st.dictionaries(
        st.text(min_size=1, max_size=5), st.text(max_size=5) | st.integers() | st.floats(), max_size=3
    ),
    "limits": st.dictionaries(st.sampled_from(league_config.LIMIT_KEYS), st.integers(16, 1 << 20), max_size=3),
}
VALID_TOP = {
    "name": st.sampled_from(["fuzz", "a league"]),
    "rules": st.sampled_from(
        [
            "tournament",
            "open-nest",
            {"preset": "kentucky"},
            {"must_trump": True},
            {"preset": "tournament", "bid_step": 10},
        ]
    ),
    "format": st.sampled_from(league_config.FORMATS),
    "games": st.sampled_from([2, 4, 10]),
    "duplicate": st.booleans(),
    "seed": st.integers(0, 1 << 40),
    "jobs": st.integers(1, 8),
    "time": st.dictionaries(st.sampled_from(league_config.TIME_KEYS), st.floats(0.1, 20), max_size=3),
    "faults": st.sampled_from(["forfeit", "substitute"]),
    "withdraw_after": st.integers(1, 5),
    "limits": st.dictionaries(st.sampled_from(league_config.LIMIT_KEYS), st.integers(16, 1 << 20), max_size=3),
}


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, Any]:
    """A valid configuration (every key optional but ``bots``), then up to three values made random."""
    config: dict[str, Any] = {}
    for key, values in VALID_TOP.items():
        if draw(st.booleans()):
            config[key] = draw(values)
    bots = []
    for name in draw(st.sampled_from([["a", "b"], ["a", "b", "c"]])):
        bot: dict[str, Any] = {"name": name, "command": draw(VALID_BOT["command"])}
        for key, values in VALID_BOT.items():
            if key != "command" and draw(st.integers(0, 3)) == 0:
                bot[key] = draw(values)
        bots.append(bot)
    config["bots"] = bots
    for _ in range(draw(st.integers(0, 3))):
        target = draw(st.sampled_from([config, *bots]))
        keys = league_config.TOP_KEYS if target is config else league_config.BOT_KEYS
        key = draw(st.sampled_from(keys) | CONFIG_KEYS)
        if draw(st.integers(0, 4)) == 0:
            target.pop(key, None)
        else:
            target[key] = draw(STRUCTURES)
    return config


# Hand-written YAML: the tags, aliases and scalars that a dump of plain data never produces.
YAML_VALUES = st.sampled_from(
    [
        "1",
        "2",
        "0x10",
        "1_000",
        "-1",
        "1.5",
        ".inf",
        ".nan",
        "~",
        "yes",
        "2001-02-03",
        "2001-02-30",
        "!!int abc",
        "!!float abc",
        "!!bool maybe",
        "!!timestamp soon",
        "!!binary ~~~",
        "!!str 5",
        "!!python/name:os.system",
        "!local x",
        "&anchor 3",
        "*anchor",
        "*nowhere",
        "[1, 2",
        "{a: 1, a: 2}",
        '"a\\0b"',
        '"a\\nb"',
        '"\\x01"',
        "'" + "a" * 300 + "'",
        "./" + "a" * 300,
        "9" * 5000,
        "[" * 300 + "]" * 300,
        "|\n  block\n  text",
        "tournament",
        "python3 -m rookarena.randombot 1",
    ]
)
YAML_KEYS = st.sampled_from([*KNOWN_KEYS, "<<", '"a\\nb"', "? [complex]", "- item", "x"])


@st.composite
def yaml_text(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        indent = draw(st.sampled_from(["", "", "  ", "  - "]))
        lines.append(f"{indent}{draw(YAML_KEYS)}: {draw(YAML_VALUES)}")
    if draw(st.booleans()):
        lines.append("bots:")
        for name in ("a", "b"):
            lines.append(f"  - name: {name}")
            lines.append(f"    {draw(st.sampled_from(league_config.BOT_KEYS))}: {draw(YAML_VALUES)}")
    return "\n".join(lines) + "\n"


def dumped(value: Any) -> str:
    return yaml.safe_dump(value, allow_unicode=True, default_flow_style=None, sort_keys=False)


CONFIG_TEXTS = (
    STRUCTURES.map(dumped)
    | near_valid().map(dumped)
    | yaml_text()
    | st.text(max_size=200)
    | st.text(alphabet=st.sampled_from(list("ab: -[]{}!&*?|>'\"#\n\t\\0x")), max_size=120)
)


def check_load(path: pathlib.Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        result = load(path)
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith(str(path)), message
        assert len(message.splitlines()) == 1, f"an error of several lines: {message!r}"
    else:
        assert isinstance(result, LeagueConfig)


@pytest.mark.slow
@FILES
@given(text=CONFIG_TEXTS)
@example(text="games: !!int abc\n")
@example(text="games: 2001-02-30\n")
@example(text="duplicate: !!bool maybe\n")
@example(text="seed: !!timestamp soon\n")
@example(text="games: " + "9" * 5000 + "\n")
@example(text="bots:\n  - {name: a, command: ./" + "a" * 300 + "}\n  - {name: b, command: python3}\n")
@example(text="bots:\n  - {name: a, command: python3, cwd: " + "a" * 300 + "}\n  - {name: b, command: python3}\n")
@example(text="[" * 2000 + "\n")
@example(text="name: a\x01b\n")
@example(text='"a\\nb": 1\n')
@example(text='rules: {"a\\nb": 1}\n')
@example(text="---\n...\n")
def test_config_loader_gives_a_config_or_one_line_error(tmp_path: pathlib.Path, text: str) -> None:
    check_load(tmp_path / "league.yaml", text.encode("utf-8", "surrogatepass"))


@FILES
@given(data=st.binary(max_size=200))
@example(data=b"name: \xff\n")
def test_config_loader_survives_random_bytes(tmp_path: pathlib.Path, data: bytes) -> None:
    check_load(tmp_path / "league.yaml", data)


def test_a_near_valid_config_can_load(tmp_path: pathlib.Path) -> None:
    """The strategies reach the end of the loader: a config they build from valid parts loads."""
    text = dumped(
        {
            "name": "fuzz",
            "bots": [
                {"name": "a", "command": [sys.executable, "-m", "rookarena.randombot", "1"]},
                {"name": "b", "command": [sys.executable, "-m", "rookarena.randombot", "2"], "env": {"X": 1}},
            ],
        }
    )
    path = tmp_path / "league.yaml"
    path.write_text(text, encoding="utf-8")
    config = load(path)
    assert [entry.name for entry in config.entries] == ["a", "b"]
    assert dict(config.entries[1].bot.env) == {"X": "1"}


@FUZZ
@given(
    lines=st.lists(st.sampled_from([b"", b" ", b"\r", b"x", b"x\r", b'{"id": 1}', b"\r\r"]), max_size=30),
    cuts=st.lists(st.integers(0, 200), max_size=10),
)
def test_lines_come_out_whole_and_in_order_however_the_bytes_are_split(lines: list[bytes], cuts: list[int]) -> None:
    """Each line as written, less one ``\\r`` before its newline, whichever read brought that ``\\r``."""
    buffer = LineBuffer(max_line=64)
    data = b"".join(line + b"\n" for line in lines)
    out = [line for chunk in split(data, cuts) for line in buffer.feed(chunk)]
    assert out == [line.removesuffix(b"\r") for line in lines]
    assert buffer.pending == 0
