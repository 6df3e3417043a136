"""Advice for bot authors, chosen by the cause of a fault rather than its class: pure, no I/O.

The referee's verdict names a class (``malformed``, ``illegal``, ...) and a detail; the same class has
many causes (a string id, a pretty-printed object, debugging output on stdout) and each needs its own
advice. :func:`diagnose` reads the detail, the line the bot sent and the lines the referee ignored
meanwhile, and returns the cause: what happened, in words, and what to change.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence


@dataclasses.dataclass(frozen=True, slots=True)
class Cause:
    detail: str  # what happened
    advice: str  # what to change


FLUSH = (
    "flush stdout after every line: Python print(..., flush=True), C fflush(stdout), Java System.out.flush(), "
    "Rust io::stdout().flush(), Node process.stdout.write (unbuffered)"
)
FLUSH_OR_READ = (
    f"{FLUSH}; and read stdin a line at a time, answering each line before the next read (mawk reads in "
    "blocks unless run as mawk -W interactive)"
)
LOGS = "every line on stdout is read as a message: write logs and debugging output to stderr"
ONE_LINE = "write each message as one line of compact JSON: never pretty-print (no newlines inside a message)"
ID_INTEGER = 'copy the request\'s id as a JSON integer: {"id": 7}, not {"id": "7"}'
ID_WHOLE = "the id must be a JSON integer: write 7, not 7.5 (copy the request's id as it was sent)"
BOTH_FIELDS = 'a reply is {"id": <the request\'s id>, "action": "<one of legal>"}: always both keys'
CASE = (
    "actions are case-sensitive: a lower-case verb and an upper-case card, exactly as in 'legal'; "
    "copy one of the strings, never rebuild it"
)
EXACT = "send one of the request's 'legal' strings exactly as written (copy it, never rebuild it from parts)"
LEGAL = "answer only with one of the strings of the request's 'legal' list, not from your own idea of the rules"
STALE = "answer each request with its own id: your reply carried an earlier request's id"
UNKNOWN = "copy the id of the request into the reply; never count ids yourself"
PROTOCOL = 'say "protocol": "rook/1" in the hello'
EXIT = "exit when a 'bye' message arrives or stdin reaches end of file"
CHILDREN = "wait for (or kill) every child process before exiting"
SLOW = "no reply within the deadline: flush stdout after every reply, answer every 'act' request, and think less"
REPLIES_BUFFERED = (
    "your bot did not flush stdout after its replies (its hello came, its replies only when its input closed): " + FLUSH
)


EXITED_EARLY = (
    "the bot exited with status 0 while the match went on: one process plays every game of a match, so keep "
    "reading after game_over and exit only on 'bye' or end of input"
)
EXITED_BEFORE_HELLO = (
    "the bot exited with status 0 before its hello: read the referee's hello line, answer it with your own "
    "hello at once, and keep reading stdin until 'bye' or its end"
)
READ_ALL = (
    "answer each message as it arrives (read one line, write the reply, flush): a bot that reads all of stdin "
    "before writing waits for an end of input that comes only after 'bye'"
)
CRASHED = "the bot exited on an error: fix the error its stderr shows (quoted with the failure)"
CLOSED_OUTPUT = (
    "the bot closed its stdout and went on running: keep stdout open until 'bye' or end of input (a child "
    "process, or a library that closes file descriptors, may have closed it)"
)
CLOSED_INPUT = (
    "the bot closed its stdin and went on running: keep reading stdin until 'bye' or its end (a child process, "
    "or a library that closes file descriptors, may have closed it)"
)
SLOW_HELLO = (
    "its hello came, but after the startup time: load less before the hello, or give it more time "
    "(--startup, or time.startup in a league)"
)
LOAD_EARLY = (
    "its first decision of the game was late: load tables, models and caches before the hello (the startup "
    "deadline allows for it), not on the first 'act'"
)
SIGNALLED = (
    "the bot was killed by a signal: SIGSEGV is a null or stray pointer or an overrun buffer, SIGABRT a failed "
    "assert or abort; build it with -g -fsanitize=address,undefined to see where"
)
NEWLINE = (
    "end every message with a newline ('\\n'): the referee reads whole lines, and had your reply waiting "
    'without one; print/println add it, write/printf("%s") do not'
)
SHEBANG_CR = (
    "the script's first line (#!) ends in a carriage return (Windows line endings), so the system looks for "
    "a program whose name ends in '\\r': save the file with Unix line endings (LF), as dos2unix does"
)
NUL = (
    "a line held a NUL byte ('\\0'): write a string's characters only, not the zero that ends it in C (write "
    "strlen(s) bytes, or use fputs/printf; never strlen(s) + 1 or sizeof the buffer)"
)
STOPPED = (
    "a stopped process cannot answer: never stop the bot's processes (kill -STOP, Ctrl-Z in a terminal that runs "
    "the bot) while it plays; to step through a bot in a debugger, raise the move time and bank"
)
HELLO = (
    'the hello is {"type":"hello","name":"<a non-empty string>","version":"<a string>","protocol":"rook/1"}, '
    'and "view": false to decline the view (true or left out: take it)'
)
ACTION_KEY = 'the reply\'s key is "action", not "move": {"id": 7, "action": "pass"}'
COMMENT = 'a reply\'s "comment" is a string (or leave it out): {"id": 7, "action": "pass", "comment": "weak hand"}'
# The PROTOCOL.md section each piece of advice comes from.
SECTIONS = {
    FLUSH: "§2",
    FLUSH_OR_READ: "§2",
    LOGS: "§2",
    ONE_LINE: "§2",
    NUL: "§2",
    ID_INTEGER: "§6",
    ID_WHOLE: "§6",
    BOTH_FIELDS: "§6",
    ACTION_KEY: "§6",
    COMMENT: "§6",
    CASE: "§4",
    EXACT: "§4",
    LEGAL: "§5 (act)",
    STALE: "§6",
    UNKNOWN: "§6",
    PROTOCOL: "§3",
    HELLO: "§3",
    EXIT: "§10",
    CHILDREN: "§10",
    SLOW: "§8",
    STOPPED: "§8",
    REPLIES_BUFFERED: "§2",
    READ_ALL: "§2",
    EXITED_EARLY: "§10",
    EXITED_BEFORE_HELLO: "§3",
    CRASHED: "§9",
    NEWLINE: "§2",
    SIGNALLED: "§9",
    LOAD_EARLY: "§8",
    SLOW_HELLO: "§8",
    SHEBANG_CR: "§9",
}
KIND_SECTIONS = {"timeout": "§8", "malformed": "§6", "illegal": "§4", "protocol": "§7", "limit": "§9", "crash": "§9"}


def diagnose(
    kind: str,
    detail: str,
    line: str = "",
    ignored: Sequence[str] = (),
    *,
    flushed_late: bool = False,
    first_decision: bool = False,
) -> Cause:
    """The cause of a fault of class ``kind`` with the referee's ``detail``; ``line`` is what the bot sent,
    ``ignored`` the reasons for the lines of the bot the referee ignored while it waited; ``first_decision``
    says the fault was on the seat's first request of a game, ``flushed_late`` that the awaited hello or
    reply came only once the bot's input was closed (it sat in the bot's stdout buffer). The advice ends with
    the PROTOCOL.md section."""
    cause = _diagnose(kind, detail, line, ignored, flushed_late, first_decision)
    section = SECTIONS.get(cause.advice) or KIND_SECTIONS.get(kind, "")
    if not cause.advice or not section:
        return cause
    return Cause(cause.detail, f"{cause.advice} (PROTOCOL.md {section})")


def shebang_cause(first_line: bytes, cause: Cause) -> Cause:
    """``cause``, for a bot that could not be started or exited before its hello, unless the first line of
    its program (``first_line``, as read) explains it: a ``#!`` line ended by CR LF names an interpreter no
    system has (``python3\\r``)."""
    if first_line.startswith(b"#!") and first_line.endswith(b"\r\n"):
        return Cause(cause.detail, f"{SHEBANG_CR} (PROTOCOL.md {SECTIONS[SHEBANG_CR]})")
    return cause


def _diagnose(
    kind: str, detail: str, line: str, ignored: Sequence[str], flushed_late: bool, first_decision: bool
) -> Cause:
    if kind == "timeout":
        cause = _timeout(detail, ignored, flushed_late)
        if first_decision and cause.advice == SLOW:
            return Cause(detail, LOAD_EARLY)
        return cause
    if kind == "malformed":
        return Cause(detail, _malformed(detail, line))
    if kind == "illegal":
        return Cause(detail, _illegal(detail))
    if kind == "protocol":
        return Cause(detail, _protocol(detail))
    if kind == "limit":
        if detail.startswith("line"):
            return Cause(detail, "end every message with '\\n', and keep lines under 64 KiB")
        if detail.startswith("stderr"):
            return Cause(detail, "the bot writes too much to stderr: log less")
        if detail.startswith("output"):
            return Cause(detail, f"write one reply to each request and nothing else: {LOGS}")
        return Cause(detail, "the bot used more than the league allows (see the limit named)")
    if kind == "crash":
        if "without their newline" in detail:
            return Cause(detail, NEWLINE)
        if detail.startswith("cannot start"):
            return Cause(detail, "check the command: the program, its path and its execute permission")
        if detail.startswith("exited with status 0"):
            return Cause(detail, EXITED_BEFORE_HELLO if detail.endswith("before saying hello") else EXITED_EARLY)
        if detail.startswith("killed by SIG"):
            return Cause(detail, SIGNALLED)
        if detail.startswith("closed its output"):  # and had not exited half a second later
            return Cause(detail, CLOSED_OUTPUT)
        if detail.startswith("closed its input"):
            return Cause(detail, CLOSED_INPUT)
        return Cause(detail, CRASHED)
    return Cause(detail, "")


def _timeout(detail: str, ignored: Sequence[str], flushed_late: bool) -> Cause:
    if flushed_late and "hello" not in detail:
        return Cause(
            f"{detail}; the reply came only when its input was closed: it sat in the bot's stdout buffer",
            REPLIES_BUFFERED,
        )
    if flushed_late:
        return Cause(
            "no hello until the referee closed the bot's input: its output sat in a buffer until it exited, or it "
            "reads its input in blocks and saw the referee's hello only at the end of input",
            FLUSH_OR_READ,
        )
    for reason in ignored:
        if "(unknown)" in reason:
            return Cause(f"{detail}; meanwhile {reason}", UNKNOWN)
        if "(stale)" in reason:
            return Cause(f"{detail}; meanwhile {reason}", STALE)
    if "without their newline" in detail:
        return Cause(detail, NEWLINE)
    if "was stopped (state T" in detail:
        return Cause(detail, STOPPED)
    if "without having written a line" in detail:
        return Cause(detail, READ_ALL)
    if "hello" in detail and "it came" in detail:
        return Cause(detail, SLOW_HELLO)
    if "hello" in detail:
        return Cause(detail, f"no hello after the referee's: {FLUSH}")
    return Cause(detail, SLOW)


def _malformed(detail: str, line: str) -> str:
    if "\x00" in line and "not JSON" in detail:  # (a NUL byte is valid UTF-8)
        return NUL
    if "RFC 8259" in detail:
        return "write strict JSON (RFC 8259): no NaN or Infinity, and each key once in an object"
    if "byte order mark" in detail:
        return "write UTF-8 without a byte order mark"
    if "levels deep" in detail:
        return 'a reply is one flat object: {"id": 7, "action": "pass"}'
    if "thousands of digits" in detail:
        return (
            "send back the request's id as it came, a plain integer of a few digits, and no long number in any "
            "other key"
        )
    if "not JSON" in detail:
        text = line.strip()
        if text in ("{", "[") or (text.startswith("{") and not text.endswith("}")) or _is_json_fragment(text):
            return ONE_LINE
        return LOGS
    if "not valid UTF-8" in detail:
        return "write UTF-8 text only"
    if "'id' must be a JSON integer, got the number" in detail:
        return ID_WHOLE
    if "'id' must be a JSON integer" in detail:
        return ID_INTEGER
    if "has no 'action'" in detail and re.search(r'"move"\s*:', line):
        return ACTION_KEY
    if "has no 'id'" in detail or "has no 'action'" in detail or "'action' must be a string" in detail:
        return BOTH_FIELDS
    if "'comment' must be a string" in detail:
        return COMMENT
    if "expected a JSON object" in detail:
        return 'every message is a JSON object: {"id": 7, "action": "pass"}'
    if detail.startswith("hello"):
        return HELLO
    if "'type' must be a string" in detail:
        return 'leave "type" out of a reply, or write "type": "action"'
    return LOGS


def _is_json_fragment(text: str) -> bool:
    """A line of a pretty-printed object: ``"id": 7,`` or ``}``."""
    return bool(re.fullmatch(r'\s*("[^"]*"\s*:.*|[}\]],?)', text))


def _illegal(detail: str) -> str:
    match = re.search(r"is not one of the .* legal strings.*did you mean '(.*)'\?$", detail)
    if match is None:
        return LEGAL
    sent = detail.split(" is not one of", 1)[0].strip("'")
    if sent.lower() == match.group(1).lower():
        return CASE
    return EXACT


def _protocol(detail: str) -> str:
    if "speaks protocol" in detail:
        return PROTOCOL
    if "second hello" in detail:
        return "send the hello once, in answer to the referee's hello"
    if "unknown message type" in detail:
        return "send only your hello and replies: no messages of your own on stdout (write status to stderr)"
    if "before the bot's hello" in detail:
        return "answer the referee's hello with your hello before anything else"
    if "did not exit" in detail:
        return EXIT
    if "leaving" in detail:
        return CHILDREN
    return "only send a hello after the referee's hello, and replies to 'act' requests"


def ignored_cause(reason: str) -> Cause:
    """A warning's cause: why the referee ignored one of the bot's lines (compliant, but fragile)."""
    if reason == "empty line":
        return Cause("empty lines on stdout", "write only messages to stdout; an empty line is ignored today")
    if "(stale)" in reason:
        return Cause(
            "replies to a request already answered or timed out (answering twice, or late)",
            "send exactly one reply per request, with its id; a late reply is never applied",
        )
    if "no request was open" in reason:
        return Cause(
            "replies sent when no request was open, with an id never sent (a reply before any request?)",
            "write a reply only to answer an 'act' request, after it arrives, with its id; the other "
            "messages need no answer",
        )
    if "(unknown)" in reason:
        return Cause("replies with an id that was never sent", UNKNOWN)
    return Cause(reason, "")
