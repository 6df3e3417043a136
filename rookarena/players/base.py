"""What the built-in bot loop asks of a player, and the deadline it hands it.

A player is pure: the loop owns the clock and passes it in as a :class:`Deadline` (a function that
reads the time and the moment to have answered by), so a player can be tested without processes and
made deterministic by giving it a clock that never runs out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol


@dataclasses.dataclass(frozen=True, slots=True)
class Deadline:
    """``now()`` reads a clock in seconds; a player should answer before ``now() >= stop_at``."""

    now: Callable[[], float]
    stop_at: float

    def passed(self) -> bool:
        return self.now() >= self.stop_at

    def capped(self, seconds: float) -> Deadline:
        """This deadline, or ``seconds`` from now on its clock if that comes first."""
        return Deadline(self.now, min(self.stop_at, self.now() + seconds))

    @classmethod
    def never(cls) -> Deadline:
        """A deadline that never comes: the player's own budget alone decides how long it thinks."""
        return cls(lambda: 0.0, float("inf"))


class Player(Protocol):
    """One seat's decision maker. Messages are the decoded rook/1 JSON objects."""

    name: str
    view: bool  # whether its requests must carry the view (its hello says so)

    def start_game(self, message: dict[str, Any]) -> None:
        """A ``game`` message: reset what belongs to one game (seat, rules, seeds)."""

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        """An ``act`` request: one of its ``legal`` strings."""
