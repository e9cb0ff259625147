"""Exceptions raised by the game engine.

Every exception the engine raises on bad input is an :class:`EngineError`, and
``str(exc)`` is always a single line that names the broken rule, so that the CLI
and the web app can show it verbatim.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""

    def __str__(self) -> str:
        # Keep messages on one line whatever the caller passed in.
        return " ".join(super().__str__().split())


class InvalidEvent(EngineError):
    """The event is malformed: not an object, unknown type, unknown or bad field value."""


class InvalidPlacements(InvalidEvent):
    """A placements mapping (player -> place) is not valid for the seated players.

    Besides the one-line English message, ``code`` says what is wrong and ``params``
    gives the details, so that a caller can word it its own way (and translate it):

    * ``"not_a_mapping"``: not an object mapping player to place (no params);
    * ``"players_mismatch"``: the keys are not exactly the seated players
      (``missing``, ``unknown``: sorted lists of names);
    * ``"bad_place"``: a place is not an integer (``bool`` excluded) from 1 to the number
      of players (``player``, ``n``);
    * ``"not_competition_ranks"``: the places are not standard competition ranks
      (ties share a place, then places are skipped: 1, 2, 2, 4) (no params).
    """

    def __init__(self, message: str, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:  # picklable despite the extra arguments
        return (type(self), (self.args[0], self.code, self.params))


class IllegalMove(EngineError):
    """The event is well formed but breaks a rule of the game (or comes after the end)."""


class LogError(EngineError):
    """An event log is invalid; ``line`` is the 1-based line number of the first bad line.

    ``reason`` is the underlying one-line message; ``str(exc)`` is ``"line N: reason"``.
    ``cause`` is the original :class:`InvalidEvent`/:class:`IllegalMove`, when there was one.
    """

    def __init__(self, line: int, reason: str, cause: EngineError | None = None) -> None:
        self.line = line
        self.reason = " ".join(str(reason).split())
        self.cause = cause
        super().__init__(f"line {line}: {self.reason}")
