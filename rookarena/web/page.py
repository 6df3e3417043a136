"""The HTML pages: the jinja2 template around the page's data, the script and the style, in one file.

The page needs nothing from elsewhere (no CDN, fonts or remote scripts): the style and the scripts
are written into it, and the data is one JSON blob in a ``<script type="application/json">`` element,
with ``<``, ``>`` and ``&`` written as JSON escapes so that no text in a record can end the element.
"""

from __future__ import annotations

import importlib.resources
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

import jinja2
from markupsafe import Markup

from rookarena.wire.names import printable

STATIC = ("style.css", "viewer.js", "report.js", "diff.js")
_SCRIPTS = {  # the scripts of each kind of page, in order: the viewer first, the page's own after it
    "report": ("viewer.js", "report.js"),
    "replay": ("viewer.js", "report.js"),
    "diff": ("viewer.js", "report.js", "diff.js"),
}

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("rookarena.web", "templates"),
    autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


Raw = Mapping[str, "str | Iterable[str]"]


def script_json(data: Mapping[str, Any], raw: Raw | None = None) -> Markup:
    """``data`` as JSON that is safe inside a script element (strict JSON: no NaN or infinities); the
    members of ``raw`` are added as they are, each already JSON text (or its pieces, in order: a large
    part written without making its values first)."""
    return Markup(_no_surrogates("".join(str(_escaped(part)) for part in _json_parts(data, raw))))  # escaped


def _json_parts(data: Mapping[str, Any], raw: Raw | None) -> Iterator[str]:
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if not raw:
        yield text
        return
    yield text[:-1]
    for number, (key, value) in enumerate(raw.items()):
        yield ("," if number or len(text) > 2 else "") + json.dumps(key) + ":"
        if isinstance(value, str):
            yield value
        else:
            yield from value
    yield "}"


def _escaped(text: str) -> Markup:
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return Markup(text)  # escaped above for the script element


# A lone surrogate: what Python makes of a byte of a file name that is not UTF-8 (a results directory named
# on another system); it has no UTF-8 form, so it is written as JSON's escape for it.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_surrogates(text: str) -> str:
    """``text`` with each lone surrogate as JSON's escape for it; looked for only when ``text`` has no UTF-8
    form, so that the pages' usual text costs no search."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return text


def _static(name: str) -> Markup:
    text = importlib.resources.files("rookarena.web").joinpath("static", name).read_text(encoding="utf-8")
    if "</" in text and ("</script" in text.lower() or "</style" in text.lower()):
        raise ValueError(f"static file {name!r} would end its element")
    return Markup(text)  # our own script and style, checked above


def records_json(lines: Mapping[str, str]) -> Iterator[str]:
    """Records given as their lines of ``games.jsonl`` (by game id) as the pieces of one JSON object."""
    yield "{"
    for number, (gid, line) in enumerate(lines.items()):
        yield ("," if number else "") + json.dumps(gid) + ":"
        yield line.strip()
    yield "}"


def _context(data: Mapping[str, Any], title: str, blob: Markup) -> dict[str, Any]:
    return {
        "title": printable(title),  # it names a league or a game: text of a record, shown as the scripts show it
        "kind": data.get("kind", "report"),
        "data": blob,
        "style": _static("style.css"),
        "scripts": [_static(name) for name in _SCRIPTS[data.get("kind", "report")]],
    }


def render(data: Mapping[str, Any], title: str, raw: Raw | None = None) -> str:
    """The whole page: ``data`` is :func:`rookarena.web.model.report_data` or ``replay_data``, or
    :func:`rookarena.web.diff.page_data`, with ``raw``'s members (JSON text) added to it; each script
    draws the parts of its ``kind``."""
    return _ENV.get_template("page.html.j2").render(_context(data, title, script_json(data, raw)))


_MARK = "\x00rookarena-data\x00"


def write(stream: IO[bytes], data: Mapping[str, Any], title: str, raw: Raw | None = None) -> int:
    """:func:`render`'s page written to ``stream`` a piece at a time: the data's JSON, ``raw``'s pieces
    included, is never made whole, so a large page costs little memory; the number of bytes written."""
    page = _ENV.get_template("page.html.j2").render(_context(data, title, Markup(_MARK)))
    head, tail = page.split(_MARK)
    size = 0
    for part in (head, *(_escaped(piece) for piece in _json_parts(data, raw)), tail):
        try:
            chunk = str(part).encode()
        except UnicodeEncodeError:  # (rare: see _no_surrogates; the usual text is encoded once)
            chunk = _no_surrogates(str(part)).encode()
        stream.write(chunk)
        size += len(chunk)
    return size
