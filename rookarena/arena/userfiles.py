"""Files the user names (a league configuration, a rules file): read whole as UTF-8 text, up to a size; and
the text YAML reads as a string that a person takes for a number."""

from __future__ import annotations

import pathlib

from rookarena.errors import RookError

MOST_BYTES = 16 << 20  # the largest configuration or rules file read: far above any league's, far below memory


class UnreadableFileError(RookError):
    """A file the user named that cannot be read as text (missing, too large, not UTF-8)."""


def read_text(path: pathlib.Path, what: str) -> str:
    """The text of the user's file ``path`` (``what`` it should be, for the errors): UTF-8, and at most
    :data:`MOST_BYTES`, so that a device or a pipe named by mistake (``/dev/zero``) is refused, not read
    until memory runs out."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MOST_BYTES + 1)
    except OSError as exc:
        raise UnreadableFileError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > MOST_BYTES:
        raise UnreadableFileError(f"{path}: larger than {MOST_BYTES >> 20} MiB: not a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFileError(f"{path}: not a UTF-8 text file") from None


def looks_numeric(text: str) -> bool:
    """Whether ``text``, which YAML read as a string, is a number to a reader of it (``1e6``, ``1_000.5``)."""
    try:
        float(text)
    except ValueError:
        return False
    return text.strip().lower() not in ("nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")
