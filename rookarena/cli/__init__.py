"""The command line. The only code that prints or reads YAML; everything else is called from here.

``common`` holds the click group every command registers on and what several commands share; each
``*_cmd`` module is one command (``tools`` the views and tools around the results); ``text`` writes
what the commands print, ``progress`` the live line, ``gate`` the exit statuses and ``stopping`` Ctrl-C.
"""

from __future__ import annotations

import sys

# Each command registers itself on the group when its module is imported.
from rookarena.cli import check_bot_cmd, match_cmd, rules_cmd, run_cmd, simulate_cmd, standings_cmd, tools
from rookarena.cli.common import _bot_name, load_rules, main, render_standings, write_standings

__all__ = [
    "_bot_name",
    "check_bot_cmd",
    "load_rules",
    "main",
    "match_cmd",
    "render_standings",
    "rules_cmd",
    "run_cmd",
    "simulate_cmd",
    "standings_cmd",
    "tools",
    "write_standings",
]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
