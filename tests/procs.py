"""Finding the processes a test started, by a marker it put on their command line or in their environment."""

from __future__ import annotations

import pathlib


def processes_with(marker: str, *, in_environment: bool = False) -> list[str]:
    """Live processes whose command line (or, with ``in_environment``, environment) holds ``marker``, each
    as ``PID [STATE] COMMAND LINE``. A zombie's command line and environment read as empty."""
    found = []
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            where = (proc / "environ").read_bytes().decode(errors="replace") if in_environment else cmdline
            state = (proc / "stat").read_text().split(") ", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in where:
            found.append(f"{proc.name} [{state}] {cmdline}")
    return found
