"""Names that become parts of file names and game ids: what is allowed, and file names made safe.

A bot's or a league's name is written into game ids (``a-vs-b-0001``), results folders and the names of
stderr logs, so it is checked when it is read: letters, digits and ``-_.+@``, starting with a letter, a
digit or ``_``, at most :data:`MAX_NAME` characters. File names built from names are made safe again and
kept short (a hash keeps long ones distinct), so no name can reach outside its folder or past the file
system's limit on a name's length.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_NAME = 40
NAME_PUNCTUATION = "-_.+@"
MAX_FILE_NAME = 200  # bytes; file systems allow 255
# Game ids are ``A-vs-B-0001``: a name holding the separator could make two pairings' ids the same.
SEPARATOR = "-vs-"
# Letters that show as nothing (Unicode's Hangul fillers: letters to isalnum, blank on screen).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a bot or a league, or None when it can."""
    if not name:
        return "expected a non-empty name"
    if len(name) > MAX_NAME:
        return f"expected at most {MAX_NAME} characters, got {len(name)}"
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch in NAME_PUNCTUATION)})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        return f"expected letters, digits and {' '.join(NAME_PUNCTUATION)} only, got {shown}"
    if not (name[0].isalnum() or name[0] == "_"):
        return f"expected a name starting with a letter, a digit or '_', got {name[0]!r}"
    blank = sorted(BLANK_LETTERS.intersection(name))
    if blank:
        return f"expected letters that show, got {', '.join(ascii(ch) for ch in blank)}, which show as nothing"
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        return f"expected each letter in its usual form ({normal!r} as Unicode's NFKC writes it), got {name!a}"
    if SEPARATOR in f"-{name}-":
        return f"expected no {SEPARATOR.strip('-')!r} between dashes: game ids are NAME{SEPARATOR}NAME-0001"
    return None


def name_key(name: str) -> str:
    """What two names must not share: names the same but for case (or a letter's form) would look alike
    in a table and name the same files where the file system ignores case."""
    return unicodedata.normalize("NFKC", name).casefold()


def safe_file_name(text: str, suffix: str = "") -> str:
    """``text`` as one file name (no ``/``, no leading dot, at most :data:`MAX_FILE_NAME` bytes with
    ``suffix``); distinct texts stay distinct when they had to be changed. Any text will do, lone
    surrogates included (a bot's hello may hold one)."""
    safe = "".join(ch if ch.isalnum() or ch in NAME_PUNCTUATION else "_" for ch in text).lstrip(".") or "_"
    room = MAX_FILE_NAME - len(suffix.encode("utf-8", "surrogatepass"))
    if safe != text or len(safe.encode()) > room:
        digest = _digest(text)
        head = safe.encode()[: max(0, room - 11)].decode(errors="ignore")
        safe = f"{head}~{digest}"
    return safe + suffix


def printable(text: str) -> str:
    """``text`` made fit for one printed line: tabs as spaces, and every other character that is not
    printable (a newline, NUL, an escape sequence's ESC, a bidi override, a lone surrogate) written as its
    escape, so that what a bot wrote can neither break a line nor drive the terminal showing it."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text.expandtabs(4))


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: 2 for each East Asian wide or fullwidth character (``漢``),
    0 for each combining mark, format character (a zero-width joiner, a bidi control), control character
    or Hangul vowel and final jamo (they join the syllable before them), 1 for each other character.
    Text made :func:`printable` first has neither control nor format characters left to count."""
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(_char_width(ch) for ch in text)


def _char_width(ch: str) -> int:
    if unicodedata.category(ch) in _ZERO_WIDTH or "\u1160" <= ch <= "\u11ff":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


_ZERO_WIDTH = frozenset({"Mn", "Me", "Cf", "Cc"})


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def name_from_hello(text: str) -> str:
    """A bot's name from the name its hello gave: that name when it is a valid one (see
    :func:`name_problem`), else a valid name made from it, with a hash that keeps distinct texts apart.
    A hello is the bot's to write, so its name may hold newlines, NUL, lone surrogates or bidi overrides;
    none of them reaches a game id, a file name or a printed line."""
    if name_problem(text) is None:
        return text
    safe = "".join(ch if _kept(ch) else "_" for ch in unicodedata.normalize("NFKC", text))
    if not safe or not (safe[0].isalnum() or safe[0] == "_"):
        safe = "_" + safe
    made = unicodedata.normalize("NFKC", f"{safe[: MAX_NAME - 11]}-{_digest(text)}")  # kept letters may compose
    return re.sub(r"(?:^|(?<=-))vs(?=-)", "v_s", made)  # no separator (the hex digest ends none)


def _kept(ch: str) -> bool:
    return (ch.isalnum() and ch not in BLANK_LETTERS and unicodedata.normalize("NFKC", ch) == ch) or (
        ch in NAME_PUNCTUATION
    )
