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
    ``suffix``); distinct texts stay distinct when they had to be changed."""
    safe = "".join(ch if ch.isalnum() or ch in NAME_PUNCTUATION else "_" for ch in text).lstrip(".") or "_"
    room = MAX_FILE_NAME - len(suffix.encode())
    if safe != text or len(safe.encode()) > room:
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        head = safe.encode()[: max(0, room - 11)].decode(errors="ignore")
        safe = f"{head}~{digest}"
    return safe + suffix
