"""The secrecy goal at its published scale: a cheating bot learns no card it may not see.

Two leagues of the two peeking entries of tests/e2e/test_secrecy_peeking.py (tests/bots/peeker.py), each
a real ``rookarena run`` in a new temporary directory:

- ``messages``: the default settings (a drawn seed, no sandbox); the peeker tries what the referee sends
  it: guessed league seeds turned into deals with the engine's own code, the seat seed, the game id and
  the request ids.
- ``isolated``: ``isolation: bwrap``, new processes for every game; the peeker tries every channel: the
  messages, the disk, /proc, its partner through /tmp, /dev/shm, abstract sockets and signals.

Run it as ``python bench/secrecy.py --games 252`` (1,008 seat-games a league; the tests play 64 games a
league). It prints what each league's peekers learned and exits 1 when any hidden card was learned (in
the isolated league: any contact with another process or file of the league, or a process that did not
look in every directory it could see).
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from peeking import Findings, league  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", type=int, default=252, help="games of the league (4 peeking seats each)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("messages", "isolated"), help="play one of the two leagues")
    args = parser.parse_args()
    failed = False
    for kind in ("messages", "isolated"):
        if args.only not in (None, kind):
            continue
        if kind == "isolated" and shutil.which("bwrap") is None:
            print("isolated: skipped (no bubblewrap on PATH)")
            continue
        with tempfile.TemporaryDirectory(prefix="rookarena-peek-") as tmp:
            began = time.monotonic()
            isolated = kind == "isolated"
            found = Findings(
                league(
                    pathlib.Path(tmp),
                    games=args.games,
                    channels="all" if isolated else "messages",
                    isolation=isolated,
                    jobs=args.jobs,
                    random_bot=False,
                )
            )
            learned = dict(found.learned) if isolated else found.but_memory()
            bad = bool(learned) or found.reports < found.seat_games
            if isolated:
                bad = bad or bool(found.contacts) or found.cut_walks > 0 or found.walks < found.reports
            failed = failed or bad
            took = time.monotonic() - began
            print(f"{kind}: {found.summary()} ({took:.0f} s){': FAILED' if bad else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
