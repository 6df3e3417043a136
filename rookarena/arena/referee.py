"""The referee: plays one game between four bot processes, enforcing the rules and the clock.

Each decision: the seat to act gets its view and the legal actions; its reply is parsed and checked by
the engine; every failure becomes a fault of a named kind. Under the ``forfeit`` policy a fault ends
the game at once, lost by the faulting team; under ``substitute`` a random legal action is played in its
place (for the rest of the game if the bot is gone) and the fault is counted. The record written is the
engine's game record plus ``game_id``, ``bots``, ``faults``, ``timing``, ``decision_ms`` and, after a
forfeit, ``forfeit``.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Sequence
from time import perf_counter
from typing import Any

from rookarena.arena.specs import Fault
from rookarena.arena.specs import FaultPolicy as FaultPolicy  # noqa: PLC0414 (check-bot's name for it)
from rookarena.arena.specs import TimeControl as TimeControl  # noqa: PLC0414 (check-bot's name for it)
from rookarena.arena.transport import Seat
from rookarena.engine.actions import Action, Discard, parse_action
from rookarena.engine.game import Game
from rookarena.engine.rules import Rules
from rookarena.engine.seeding import substitute_seed
from rookarena.errors import IllegalActionError, ParseError
from rookarena.players import random_action
from rookarena.wire import errorline, position, records
from rookarena.wire.conversation import FaultKind, encode, request_id
from rookarena.wire.messages import (
    News,
    ViewEncoder,
    act_line,
    action_text,
    after_action_lines,
    deal_messages,
    encode_per_seat,
    game_message,
    offered_action,
    seat_seed,
)
from rookarena.wire.replies import not_legal


@dataclasses.dataclass(frozen=True, slots=True)
class GameSetup:
    game_id: str
    rules: Rules
    rules_name: str
    seed: int
    first_dealer: int = 0


class _ForfeitError(Exception):
    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


# Under ``substitute``, a seat whose bot lets this many requests in a row time out is played by the referee
# for the rest of the game: a hung or stopped bot would otherwise cost a move time at each of its turns.
TIMEOUTS_IN_A_ROW = 3


class Referee:
    """One game: four seats (bot processes, or scripts in tests; seat order 0..3), a clock, and a fault policy."""

    def __init__(self, bots: Sequence[Seat], setup: GameSetup, time: TimeControl, policy: FaultPolicy) -> None:
        self.bots = list(bots)
        self.setup = setup
        self.time = time
        self.policy = policy
        self.game = records.new_game(setup.rules, setup.seed, setup.first_dealer)
        self.rng = random.Random(substitute_seed(setup.seed))
        self.bank = [time.bank] * 4
        self.faults: list[dict[str, Any]] = []
        self.replaced = [not bot.alive for bot in self.bots]
        self.late = [0] * 4  # each seat's timeouts in a row: at TIMEOUTS_IN_A_ROW the referee plays for it
        self.times: list[list[float]] = [[] for _ in range(4)]
        self.decided: list[list[float | None]] = [[] for _ in range(4)]  # each decision's reply seconds, or None
        self.overhead: list[float] = []
        self.outbox: list[list[bytes]] = [[] for _ in range(4)]
        self.views = ViewEncoder()
        self.decisions = [0] * 4  # each seat's decisions so far, substituted ones included: its next request's number
        self.log_from: list[int | None] = [None] * 4  # where this game's stderr starts in each bot's log
        self.comments: list[dict[str, Any]] = []  # the comments of the replies taken, in order (RECORD.md §2)

    async def play(self) -> dict[str, Any]:
        """Play the game to its end (or a forfeit) and return its record."""
        for bot in self.bots:
            bot.catch_up_stderr()  # what it wrote before, the game before's
        self.log_from = [bot.log_at for bot in self.bots]  # where this game's stderr starts in each log
        forfeit: int | None = None
        try:
            for seat, bot in enumerate(self.bots):
                if self.replaced[seat]:
                    self._fault(seat, bot.fault or Fault(FaultKind.CRASH, _gone(bot)))
            self._post(encode_per_seat(self._start_messages()))
            while not self.game.is_over:
                await self._decide()
            await self._flush()
        except _ForfeitError as exc:
            forfeit = exc.seat
            self._post(encode_per_seat([[self._forfeit_message(exc.seat)]] * 4))
            await self._flush()
        for seat, bot in enumerate(self.bots):
            # What a bot wrote in this game after its last reply is this game's doing, charged here (the result
            # stands), not in its next game, whose first request would read it: a line that is not JSON, written
            # by both of a team's processes at once, had forfeited two games.
            if not self.replaced[seat] and (fault := bot.take_unasked()) is not None:
                self.faults.append(self._entry(seat, fault))
        return self._record(forfeit)

    def _forfeit_message(self, seat: int) -> dict[str, Any]:
        fault = self.faults[-1]
        return {
            "type": "game_over",
            "winner": 1 - seat % 2,
            "scores": list(self.game.scores),
            "reason": forfeit_notice(fault),
        }

    def _start_messages(self) -> list[list[dict[str, Any]]]:
        setup, names = self.setup, [bot.spec.name for bot in self.bots]
        deals = deal_messages(self.game)
        return [
            [
                game_message(
                    game_id=setup.game_id,
                    seat=seat,
                    rules=setup.rules,
                    rules_name=setup.rules_name,
                    players=names,
                    first_dealer=setup.first_dealer,
                    seed=seat_seed(setup.seed, seat),
                ),
                deals[seat],
            ]
            for seat in range(4)
        ]

    async def _decide(self) -> None:
        game = self.game
        started = perf_counter()
        seat = game.to_act
        legal = game.legal_actions()
        waited = 0.0
        action: Action | None = None
        number = self.decisions[seat]
        self.decisions[seat] = number + 1
        self.decided[seat].append(None)  # stays None if the referee plays for the seat, or the fault forfeits
        if not self.replaced[seat]:
            action, waited = await self._ask(seat, legal, request_id(self.setup.seed, seat, number))
        substituted = action is None
        if not substituted:
            self.decided[seat][-1] = waited
        if action is None:
            action = random_action(legal, self.rng)
        hands_before, tricks_before, phase_before = len(game.history), len(game.tricks), game.phase
        game.apply(action, known_legal=True)  # from this state's legal list, by the bot or the substitute
        self._post(after_action_lines(game, seat, action, hands_before, tricks_before, phase_before))
        if substituted and type(action) is Discard and not self.replaced[seat]:
            # Discards are secret, but a bot must learn which card the referee discarded for it.
            self.outbox[seat].append(encode({"type": "played", "seat": seat, "action": str(action)}))
        self.overhead.append(perf_counter() - started - waited)

    async def _ask(self, seat: int, legal: list[Action], request_id: int) -> tuple[Action | None, float]:
        """The bot's legal action, or None after a fault (which is recorded, and may forfeit)."""
        bot, move, bank, game = self.bots[seat], self.time.move, self.bank[seat], self.game
        deadline_ms, bank_ms = TimeControl.told_ms(move), TimeControl.told_ms(bank)
        with_view, views = bot.hello is None or bot.hello.view, self.views

        def request(stamped: int) -> bytes:
            return act_line(game, seat, legal, deadline_ms, bank_ms, stamped, with_view=with_view, views=views)

        outbox = self.outbox[seat]
        before = b"".join(outbox)
        outbox.clear()
        reply, elapsed = await bot.ask(request, request_id, self.time.grant(bank), before)
        self.times[seat].append(elapsed)
        self.bank[seat] = self.time.charge(bank, elapsed)
        timed_out = isinstance(reply, Fault) and reply.kind is FaultKind.TIMEOUT
        if timed_out and isinstance(reply, Fault) and reply.detail.startswith("no reply within"):
            grant = reply.detail.replace(" s", f" s{self.time.timeout_text(bank)}", 1)  # move time, and bank left
            reply = dataclasses.replace(reply, detail=grant)
        self.late[seat] = self.late[seat] + 1 if timed_out else 0
        if isinstance(reply, Fault):
            self._fault(seat, reply, legal)
            return None, elapsed
        action = offered_action(reply.action, legal)  # nearly always: one of the legal strings, exactly
        detail = ""
        if action is None:
            action, detail = self._not_offered(reply.action, legal)
        if action is not None:
            if reply.comment is not None:
                self._comment(seat, reply.comment)
            return action, elapsed
        self._fault(seat, Fault(FaultKind.ILLEGAL, detail, reply.line), legal)
        return None, elapsed

    def _comment(self, seat: int, text: str) -> None:
        game = self.game
        self.comments.append(
            {"seat": seat, "hand": game.hand_number, "decision": position.decision_index(game), "text": text}
        )

    def _not_offered(self, text: str, legal: list[Action]) -> tuple[Action | None, str]:
        """A reply's action that the fast path did not find: the legal action it names exactly (rare), or
        None and why it is illegal. Only the exact text of a legal action is accepted (PROTOCOL.md §4); a
        text the engine reads as a legal action written another way (``play r8``) gets a suggestion."""
        try:
            parsed: Action | None = parse_action(text)
        except ParseError:
            parsed = None
        exact = parsed is not None and action_text(parsed) == text
        if exact and parsed in legal:
            return parsed, ""
        if exact and parsed is not None:
            try:
                self.game.apply(parsed)
            except IllegalActionError as exc:
                return None, str(exc)
            raise AssertionError(f"engine accepted {text!r} outside its legal list")  # pragma: no cover
        return None, not_legal(text, [action_text(action) for action in legal])

    def _fault(self, seat: int, fault: Fault, legal: Sequence[Action] | None = None) -> None:
        bot = self.bots[seat]
        entry = self._entry(seat, fault, legal)
        self.faults.append(entry)
        if self.policy is FaultPolicy.FORFEIT:
            raise _ForfeitError(seat)
        if not bot.alive:
            self.replaced[seat] = True
        elif self.late[seat] >= TIMEOUTS_IN_A_ROW:  # hung or stopped: asking on would cost a move time a turn
            self.replaced[seat] = True
            entry["detail"] += f" ({TIMEOUTS_IN_A_ROW} in a row: the referee plays for this seat to the game's end)"

    def _entry(self, seat: int, fault: Fault, legal: Sequence[Action] | None = None) -> dict[str, Any]:
        """The record's entry for a fault of ``seat``'s bot, where the game is now."""
        bot = self.bots[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "bot": bot.spec.name,
            "kind": fault.kind.value,
            "detail": fault.detail,
            "line": fault.line[:500],
            "hand": self.game.hand_number,
        }
        if legal is not None:  # a request the bot failed to answer: where in the hand, and what it was offered
            entry.update(position.fault_position(self.game, legal))
        if fault.kind is FaultKind.CRASH and (error := errorline.quote(bot.stderr_tail)):
            entry["error"] = error  # the record's only: what a bot printed may name its cards
        return entry

    def _post(self, news: News) -> None:
        """Queue each seat's encoded news; it goes with the seat's next request, or at the end of the game.

        Writing to a pipe costs far more than encoding a line, so a seat's news travels in one write.
        """
        for outbox, lines, replaced in zip(self.outbox, news, self.replaced, strict=True):
            if lines and not replaced:
                outbox.append(lines)

    async def _flush(self) -> None:
        for seat, bot in enumerate(self.bots):
            data, self.outbox[seat] = b"".join(self.outbox[seat]), []
            if data and not self.replaced[seat]:
                fault = await bot.send_raw(data, self.time.move)
                if fault is not None and self.policy is FaultPolicy.SUBSTITUTE:
                    self._fault(seat, fault)

    def _record(self, forfeit: int | None) -> dict[str, Any]:
        game, setup = self.game, self.setup
        for bot in self.bots:
            bot.catch_up_stderr()  # what it wrote in this game, up to now, is this game's
        extra: dict[str, Any] = {
            "game_id": setup.game_id,
            "bots": [
                {
                    "name": bot.spec.name,
                    "label": bot.label,
                    "hello": None if bot.hello is None else {"name": bot.hello.name, "version": bot.hello.version},
                }
                for bot in self.bots
            ],
            "faults": self.faults,
            "timing": [_timing(times) for times in self.times],
            "decision_ms": [[_ms(seconds) for seconds in decided] for decided in self.decided],
            "overhead_us": _timing(self.overhead, scale=1e6),
            "stderr_range": [
                None if start is None or bot.log_at is None else [start, bot.log_at]
                for start, bot in zip(self.log_from, self.bots, strict=True)
            ],
        }
        if self.comments:  # a record without comments has no such field, as before comments existed
            extra["comments"] = self.comments
        if forfeit is not None:
            extra.update(position.unfinished(game))
            fault = self.faults[-1]
            team = forfeit % 2
            extra["forfeit"] = {"seat": forfeit, "team": team, "kind": fault["kind"]}
            extra["result"] = {
                "winner": 1 - team,
                "scores": list(game.scores),
                "hands": len(game.history),
                "reason": forfeit_reason(fault),
            }
        return records.build(
            game,
            seed=setup.seed,
            rules_name=setup.rules_name,
            seats=[bot.spec.name for bot in self.bots],
            extra=extra,
        )


def _gone(bot: Seat) -> str:
    """Why a bot that is not running is not: how its process ended, when it ended by itself."""
    code = bot.returncode
    return "not running" if code is None else f"exited with status {code} after the game before"


def _timing(values: Sequence[float], scale: float = 1000.0) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "median": round(statistics.median(values) * scale, 3),
        "max": round(max(values) * scale, 3),
        "total": round(sum(values) * scale, 3),
    }


def _ms(seconds: float | None) -> float | int | None:
    """Milliseconds to a tenth, a whole number written without its ``.0`` (the list is long)."""
    if seconds is None:
        return None
    ms = round(seconds * 1000, 1)
    return int(ms) if ms.is_integer() else ms


def forfeit_record(
    game: Game, setup: GameSetup, names: Sequence[str], team: int, fault: dict[str, Any]
) -> dict[str, Any]:
    """The record of a game that could not be played at all (a bot that would not start, or was withdrawn)."""
    return records.build(
        game,
        seed=setup.seed,
        rules_name=setup.rules_name,
        seats=list(names),
        extra={
            "game_id": setup.game_id,
            "faults": [fault],
            "forfeit": {"seat": fault["seat"], "team": team, "kind": fault["kind"]},
            "result": {
                "winner": 1 - team,
                "scores": [0, 0],
                "hands": 0,
                "reason": forfeit_reason(fault),
            },
        },
    )


def forfeit_reason(fault: dict[str, Any]) -> str:
    """The record's reason for a forfeit: the fault's detail, for the organiser."""
    return f"{forfeit_notice(fault)}: {fault['detail']}"


def forfeit_notice(fault: dict[str, Any]) -> str:
    """What the bots are told of a forfeit: the seat, its name and the fault's class, never the detail (an
    illegal reply's detail lists the seat's legal cards, and quotes what the bot wrote)."""
    return f"forfeit: seat {fault['seat']} ({fault['bot']}) {fault['kind']}"
