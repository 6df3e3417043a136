"""The command line. The only code that prints or reads YAML; everything else is called from here.

``group`` holds the click group, which imports each command's module when the command runs (so that each
starts with what it needs alone); ``common`` what several commands share; each ``*_cmd`` module is one
command (``tools`` the views and tools around the results); ``text`` writes what the commands print,
``progress`` the live line, ``gate`` the exit statuses and ``stopping`` Ctrl-C.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from rookarena.cli.group import main

__all__ = ["_bot_name", "load_rules", "main", "render_standings", "write_standings"]

SHARED = frozenset({"_bot_name", "load_rules", "render_standings", "write_standings"})


def __getattr__(name: str) -> Any:
    """What the commands share (``rookarena.cli.common``), loaded when first asked for."""
    if name in SHARED:
        return getattr(importlib.import_module("rookarena.cli.common"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
