"""The error a crashed bot printed: the lines of its stderr that say what went wrong, not merely the last.

The last line of a crash's stderr is often no error at all: Node ends with its ``Node.js v20.11.0``
banner, Java with a stack frame, Rust with the ``RUST_BACKTRACE`` note, and a C program killed by a
signal prints nothing. ``quote`` finds the error of the common runtimes (Python, Node, Java, Rust, Go,
C and C++ aborts and sanitizers) and returns it with the few lines before it that place it (Python's
last frame, Node's source line and caret), or the last lines that are not noise when it finds none.
Pure: bytes in, lines out.
"""

from __future__ import annotations

import re

from rookarena.wire.names import printable

CONTEXT = 3  # lines before the error line that belong to it
WIDTH = 300  # characters kept of a line

# Lines that close a crash without saying what went wrong.
_NOISE = re.compile(
    r"^(Node\.js v\d|note: run with `RUST_BACKTRACE=|note: Some details are omitted|\s+at |\s*\.\.\. \d+ more"
    r"|\s*$|Aborted|Segmentation fault|\[rookarena: |goroutine \d+ |exit status \d+|Traceback \(most recent)"
)
# An error line, by runtime: its pattern, and how many lines before it to keep.
_ERRORS: tuple[tuple[re.Pattern[str], int], ...] = (
    # Python: "ZeroDivisionError: division by zero", "KeyError: 'x'", a bare "KeyboardInterrupt".
    # Node: "TypeError: x is not a function" after the file:line, the source line and the caret.
    (re.compile(r"^(Uncaught )?[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)( \[\w+\])?(: .*)?$"), CONTEXT),
    # Java: 'Exception in thread "main" java.lang.NullPointerException: ...', "Caused by: ..."
    (re.compile(r"^(Exception in thread \".*\" |Caused by: )[\w.$]+"), 0),
    # Rust: "thread 'main' panicked at src/main.rs:3:5:" and the message on the next line.
    (re.compile(r"^thread '.*' panicked at"), 0),
    # Go: "panic: runtime error: index out of range"
    (re.compile(r"^(panic|fatal error): "), 0),
    # C and C++: assert, abort, terminate, sanitizers.
    (
        re.compile(
            r"(Assertion `.*' failed|terminate called after|AddressSanitizer|UndefinedBehaviorSanitizer"
            r"|runtime error: )"
        ),
        0,
    ),
)


def quote(stderr: bytes, lines: int = CONTEXT + 1) -> list[str]:
    """The error of a crash's stderr: the last error line of a known runtime with the lines that belong to
    it, or the last ``lines`` lines that are not noise; empty when there is nothing to quote."""
    text = stderr.decode("utf-8", errors="replace")
    all_lines = [line.rstrip()[:WIDTH] for line in text.splitlines()]
    for index in range(len(all_lines) - 1, -1, -1):
        line = all_lines[index]
        for pattern, before in _ERRORS:
            if pattern.search(line):
                return [printable(line)[:WIDTH] for line in _around(all_lines, index, before)]
    kept = [line for line in all_lines if not _NOISE.match(line)]
    return [printable(line)[:WIDTH] for line in kept[-lines:]]


def _around(all_lines: list[str], index: int, before: int) -> list[str]:
    """The error line at ``index``, up to ``before`` lines before it (no blank ones, no noise), and for a
    Rust panic its message, the line after it."""
    start, kept = index, 0
    while start > 0 and kept < before:
        previous = all_lines[start - 1]
        if previous.startswith(("Traceback (most recent", "[rookarena: ")) or _is_error(previous):
            break
        start -= 1
        kept += bool(previous.strip())
    out = [line for line in all_lines[start : index + 1] if line.strip()]
    if all_lines[index].startswith("thread '") and index + 1 < len(all_lines) and all_lines[index].endswith(":"):
        out.append(all_lines[index + 1])
    return out


def _is_error(line: str) -> bool:
    return any(pattern.search(line) for pattern, _ in _ERRORS)


def summary(stderr: bytes) -> str:
    """The error as one line (a Rust panic with its message), or the last line worth quoting, or ""."""
    return summary_of(quote(stderr))


def summary_of(quoted: list[str]) -> str:
    """The one line of quoted lines (``quote``'s, or a record's, which may be older) that says the error."""
    for index in range(len(quoted) - 1, -1, -1):
        if _is_error(quoted[index]):
            return printable(" ".join(line.strip() for line in quoted[index : index + 2]))
    return printable(quoted[-1].strip()) if quoted else ""
