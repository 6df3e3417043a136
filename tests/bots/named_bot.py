"""The packaged random bot, whose hello gives the name on its command line, in hex (UTF-8, lone surrogates allowed,
as a JSON string may hold one).

Usage: named_bot.py HEX. Its name may hold newlines, NUL, control characters or bidi overrides: the tests
check that none of them reaches a printed line, a game id or a file name.
"""

import json
import runpy
import sys

name = bytes.fromhex(sys.argv[1]).decode("utf-8", errors="surrogatepass")


class Out:
    """Standard output, with the hello's name replaced."""

    def __init__(self) -> None:
        self.stream = sys.stdout

    def write(self, text: str) -> int:
        if text.startswith("{") and '"hello"' in text:
            message = json.loads(text)
            if message.get("type") == "hello":
                text = json.dumps({**message, "name": name}) + "\n"
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


sys.stdout = Out()
sys.argv = ["randombot", "named"]
runpy.run_module("rookarena.randombot", run_name="__main__")
