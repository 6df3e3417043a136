"""Names from anywhere, a bot's hello included, never crash and never reach a file name or a printed line raw."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rookarena.names import MAX_FILE_NAME, name_from_hello, name_problem, safe_file_name

HOSTILE = [
    "adv\nseat 0 (other) crash: forged",
    "nul\x00name",
    "lone\ud800surrogate",
    "bidi\u202egnp.exe",
    "bell\x07\x1b[31mred",
    "../../etc/passwd",
    ".hidden",
    "x" * 500,
]
# Every code point, lone surrogates included (a JSON string may hold one as an escape).
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF))


@given(ANY_TEXT, st.sampled_from(["", ".stderr.log", ".jsonl"]))
def test_safe_file_name_takes_any_text(text: str, suffix: str) -> None:
    name = safe_file_name(text, suffix)
    raw = name.encode("utf-8")  # no lone surrogate is left to encode
    assert name.endswith(suffix) and len(raw) <= MAX_FILE_NAME
    assert "/" not in name and "\0" not in name and not name.startswith(".")
    assert all(ch.isprintable() for ch in name)


@given(ANY_TEXT, ANY_TEXT)
def test_distinct_texts_keep_distinct_file_names(one: str, other: str) -> None:
    if one != other:
        assert safe_file_name(one) != safe_file_name(other)


@given(ANY_TEXT.filter(bool))
def test_a_hello_name_always_becomes_a_valid_name(text: str) -> None:
    name = name_from_hello(text)
    assert name_problem(name) is None
    if name_problem(text) is None:
        assert name == text


def test_hostile_hello_names_are_made_valid_and_kept_apart() -> None:
    names = [name_from_hello(text) for text in HOSTILE]
    assert len(set(names)) == len(names)
    for name in names:
        assert name_problem(name) is None
        assert all(ch.isprintable() for ch in name)
