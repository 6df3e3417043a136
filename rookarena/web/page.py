"""The HTML pages: the jinja2 template around the page's data, the script and the style, in one file.

The page needs nothing from elsewhere (no CDN, fonts or remote scripts): the style and the scripts
are written into it, and the data is one JSON blob in a ``<script type="application/json">`` element,
with ``<``, ``>`` and ``&`` written as JSON escapes so that no text in a record can end the element.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Mapping
from typing import IO, Any

import jinja2
from markupsafe import Markup

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


def script_json(data: Mapping[str, Any], raw: Mapping[str, str] | None = None) -> Markup:
    """``data`` as JSON that is safe inside a script element (strict JSON: no NaN or infinities); the
    members of ``raw`` are added as they are, each already JSON text (a large part written without
    making its values first)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if raw:
        parts = [text[:-1]] if len(text) > 2 else ["{"]
        for number, (key, value) in enumerate(raw.items()):
            parts.append(("," if number or len(text) > 2 else "") + json.dumps(key) + ":" + value)
        parts.append("}")
        text = "".join(parts)
    return _escaped(text)


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


def _static(name: str) -> Markup:
    text = importlib.resources.files("rookarena.web").joinpath("static", name).read_text(encoding="utf-8")
    if "</" in text and ("</script" in text.lower() or "</style" in text.lower()):
        raise ValueError(f"static file {name!r} would end its element")
    return Markup(text)  # our own script and style, checked above


def records_json(lines: Mapping[str, str]) -> str:
    """Records given as their lines of ``games.jsonl`` (by game id) as one JSON object's text."""
    return "{" + ",".join(json.dumps(gid) + ":" + line.strip() for gid, line in lines.items()) + "}"


def _context(data: Mapping[str, Any], title: str, raw: Mapping[str, str] | None) -> dict[str, Any]:
    return {
        "title": title,
        "kind": data.get("kind", "report"),
        "data": script_json(data, raw),
        "style": _static("style.css"),
        "scripts": [_static(name) for name in _SCRIPTS[data.get("kind", "report")]],
    }


def render(data: Mapping[str, Any], title: str, raw: Mapping[str, str] | None = None) -> str:
    """The whole page: ``data`` is :func:`rookarena.web.model.report_data` or ``replay_data``, or
    :func:`rookarena.web.diff.page_data`, with ``raw``'s members (JSON text) added to it; each script
    draws the parts of its ``kind``."""
    return _ENV.get_template("page.html.j2").render(_context(data, title, raw))


def write(stream: IO[bytes], data: Mapping[str, Any], title: str, raw: Mapping[str, str] | None = None) -> int:
    """:func:`render`'s page written to ``stream`` a part at a time (a large page is never one string
    more than once); the number of bytes written."""
    size = 0
    for part in _ENV.get_template("page.html.j2").generate(_context(data, title, raw)):
        chunk = part.encode()
        stream.write(chunk)
        size += len(chunk)
    return size
