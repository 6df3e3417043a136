"""Checks before a league starts, so that it does not fail for want of a system resource mid-run."""

from __future__ import annotations

import resource
from collections.abc import Sequence

from rookarena.arena.specs import Limits

# File descriptors the referee holds per bot process: three pipes, the stderr log, and trio's process
# handle; with some to spare for the results files and the event loop.
FDS_PER_BOT = 6
FDS_BASE = 64
BOTS_PER_UNIT = 4


def open_files_needed(jobs: int) -> int:
    return FDS_BASE + jobs * BOTS_PER_UNIT * FDS_PER_BOT


def check_open_files(jobs: int, bot_limits: Sequence[Limits]) -> list[str]:
    """Raise the soft open-file limit if the league needs more and the hard limit allows; otherwise say
    what to raise. Returns one sentence per problem (an empty list when all is well)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = open_files_needed(jobs)
    problems = []
    unlimited = hard == resource.RLIM_INFINITY
    if soft != resource.RLIM_INFINITY and soft < need:
        if unlimited or hard >= need:
            resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
        else:
            most = max(1, (hard - FDS_BASE) // (BOTS_PER_UNIT * FDS_PER_BOT))
            problems.append(
                f"the open-file limit is {soft} (hard limit {hard}) but {jobs} jobs need about {need}: "
                f"raise the hard limit (in /etc/security/limits.conf, or 'ulimit -Hn {need}' as root) "
                f"or use --jobs {most}"
            )
    for limits in bot_limits:
        if limits.files is not None and not unlimited and limits.files > hard:
            problems.append(
                f"a bot's limits.files is {limits.files} but this shell's hard open-file limit is {hard}: "
                "lower limits.files or raise the hard limit"
            )
    return problems
