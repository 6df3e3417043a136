"""Write a rook/1 bot in Python in a dozen lines: subclass :class:`Bot`, write ``choose``, call ``run``.

::

    from rookarena.botkit import Bot

    class Cautious(Bot):
        name = "cautious"

        def choose(self, view, legal):
            if "pass" in legal:
                return "pass"
            return self.random.choice(legal)

    if __name__ == "__main__":
        Cautious().run()

The loop, the handshake, the ids and the flushing are done here, as PROTOCOL.md asks: every line is read,
the hello is answered once, each ``act`` request gets exactly one reply carrying its id, stdout is
flushed after every line, and the bot exits on ``bye`` or the end of its input. ``self.random`` is
reseeded from each game's ``seed``, so a bot that draws its randomness from it plays a game the same way
every time. ``choose`` must return one of ``legal``; if it raises, or returns anything else, the error
goes to stderr and the first legal action is sent instead, so a bug costs a poor move, not the seat.
To say why, return the action and a comment, ``return "pass", "weak hand"``: the reply carries it as its
``comment`` (PROTOCOL.md §6), which the record keeps and ``show``, the viewer and ``diff`` show, and which
no other bot is ever sent.
"""

from __future__ import annotations

import json
import random
import sys
import traceback
from typing import IO, Any

from rookarena.players.botloop import converse
from rookarena.wire import VERSION


class Bot:
    """A rook/1 bot. Override :meth:`choose`; optionally :meth:`on_game` and :meth:`on_message`."""

    name = "botkit-bot"  # the name in the hello (a league's configuration may give another)
    version = "1.0"
    view = True  # False declines the view: ``choose`` then gets None (follow the game from the news)

    def __init__(self) -> None:
        self.random = random.Random(0)
        self.seat = 0
        self.rules: dict[str, Any] = {}
        self.players: list[str] = []

    # -- to override ----------------------------------------------------------------------------

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str | tuple[str, str]:
        """One of ``legal``, given the seat's ``view`` (PROTOCOL.md §5; None if :attr:`view` is False); or
        ``(action, comment)``: the action and why, in words for people (the reply's ``comment``)."""
        raise NotImplementedError

    def on_game(self, message: dict[str, Any]) -> None:
        """A game starts (the ``game`` message): reset per-game state here."""

    def on_message(self, message: dict[str, Any]) -> None:
        """Any other notification (``deal``, ``played``, ``trick``, ...), for bots that follow the game."""

    def log(self, *words: object) -> None:
        """Write a line to stderr, which the referee keeps in the bot's log (never to stdout)."""
        print(*words, file=sys.stderr, flush=True)

    # -- the loop -------------------------------------------------------------------------------

    def run(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        """Play until ``bye`` or the end of input."""
        self._out = sys.stdout if stdout is None else stdout
        converse(
            sys.stdin if stdin is None else stdin,
            self.name,
            hello=self._hello,
            act=lambda message, received: self._reply(message),
            send=self._send,
            game=self._game,
            other=self.on_message,
        )

    def _hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"type": "hello", "name": self.name, "version": self.version, "protocol": VERSION}
        if not self.view:
            hello["view"] = False
        return hello

    def _game(self, message: dict[str, Any]) -> None:
        self.seat = int(message.get("seat", 0))
        self.rules = dict(message.get("rules", {}))
        self.players = list(message.get("players", []))
        self.random = random.Random(message.get("seed", 0))
        self.on_game(message)

    def _reply(self, message: dict[str, Any]) -> dict[str, Any]:
        legal: list[str] = message["legal"]
        reply: dict[str, Any] = {"id": message["id"], "action": legal[0]}
        try:
            chosen = self.choose(message.get("view"), list(legal))
        except Exception:  # a bug in the bot must not cost it the seat
            self.log(f"choose failed on request {message['id']}; playing {legal[0]!r}\n{traceback.format_exc()}")
            return reply
        action: Any = chosen
        if isinstance(chosen, tuple) and len(chosen) == 2 and isinstance(chosen[1], str):
            action, comment = chosen
            reply["comment"] = comment
        if action not in legal:
            self.log(f"choose returned {chosen!r}, not one of {legal}; playing {legal[0]!r}")
            reply.pop("comment", None)
            return reply
        reply["action"] = action
        return reply

    def _send(self, message: dict[str, Any]) -> None:
        self._out.write(json.dumps(message, separators=(",", ":")) + "\n")
        self._out.flush()
