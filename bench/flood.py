"""What a flood of short lines costs the referee: a bot's output of empty lines, ``EARLY_MAX`` bytes of it
(what a bot may write while no request is open before it is stopped), judged line by line.

Prints the seconds the conversation takes to judge it (``Conversation.receive_data``, in the referee's
read size) against the plainest job on the same bytes (``bytes.split``, counting the lines), and their
ratio. Run it as ``python bench/flood.py`` (pinned: ``taskset -c 1 python bench/flood.py``).
"""

from __future__ import annotations

import statistics
import time

from rookarena.arena.bots import EARLY_MAX, READ_CHUNK
from rookarena.wire.conversation import Conversation


def judged(data: bytes) -> float:
    conversation = Conversation()
    began = time.perf_counter()
    count = 0
    for at in range(0, len(data), READ_CHUNK):
        count += len(conversation.receive_data(data[at : at + READ_CHUNK]))
    assert count == data.count(b"\n")
    return time.perf_counter() - began


def split(data: bytes) -> float:
    began = time.perf_counter()
    count = sum(len(data[at : at + READ_CHUNK].split(b"\n")) - 1 for at in range(0, len(data), READ_CHUNK))
    assert count == data.count(b"\n")
    return time.perf_counter() - began


FLOODS = (("empty lines", b"\n"), ("blank lines", b" \r\n"), ("CR LF lines", b"\r\n"))


def main() -> None:
    for name, line in FLOODS:
        data = line * (EARLY_MAX // len(line))
        lines = data.count(b"\n")
        ours = statistics.median(judged(data) for _ in range(3))
        plain = statistics.median(split(data) for _ in range(3))
        print(f"{name}: {lines:,} lines: judged in {ours:.3f} s, split in {plain:.3f} s: {ours / plain:.0f}x")


if __name__ == "__main__":
    main()
