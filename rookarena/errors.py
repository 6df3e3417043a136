"""Errors shared by every layer: one class per kind of failure, so callers can tell them apart.

A *parse* error means input could not be read at all; an *illegal* action was well formed but breaks
the rules; a *rules* error is a rules configuration that cannot be played. None of these is ever our
own bug: an internal inconsistency raises ``AssertionError`` or ``RuntimeError`` instead.
"""


class RookError(Exception):
    """Base class of every expected failure rookarena reports to a user."""


class ParseError(RookError, ValueError):
    """Text that does not spell a card, colour or action."""


class IllegalActionError(RookError):
    """A well-formed action that the rules do not allow in the current position."""


class RulesError(RookError, ValueError):
    """A rules mapping naming an unknown knob, a bad value, or an unplayable combination."""


class RecordError(RookError, ValueError):
    """A game record that does not parse, or does not replay to what it claims."""
