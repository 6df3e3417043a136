"""Names that become parts of file names and game ids: what is allowed, and file names made safe.

A bot's or a league's name is written into game ids (``a-vs-b-0001``), results folders and the names of
stderr logs, so it is checked when it is read: letters, digits and ``-_.+@``, starting with a letter, a
digit or ``_``, at most :data:`MAX_NAME` characters. File names built from names are made safe again and
kept short (a hash keeps long ones distinct), so no name can reach outside its folder or past the file
system's limit on a name's length.
"""

from __future__ import annotations

import hashlib

MAX_NAME = 40
NAME_PUNCTUATION = "-_.+@"
MAX_FILE_NAME = 200  # bytes; file systems allow 255


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
    return None


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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def name_from_hello(text: str) -> str:
    """A bot's name from the name its hello gave: that name when it is a valid one (see
    :func:`name_problem`), else a valid name made from it, with a hash that keeps distinct texts apart.
    A hello is the bot's to write, so its name may hold newlines, NUL, lone surrogates or bidi overrides;
    none of them reaches a game id, a file name or a printed line."""
    if name_problem(text) is None:
        return text
    safe = "".join(ch if ch.isalnum() or ch in NAME_PUNCTUATION else "_" for ch in text)
    if not safe or not (safe[0].isalnum() or safe[0] == "_"):
        safe = "_" + safe
    return f"{safe[: MAX_NAME - 11]}-{_digest(text)}"
