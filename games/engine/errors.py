"""Exceptions raised by the game engine.

Every exception the engine raises on bad input is an :class:`EngineError`, and
``str(exc)`` is always a single line that names the broken rule, so that the CLI
and the web app can show it verbatim.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""

    def __str__(self) -> str:
        # Keep messages on one line whatever the caller passed in.
        return " ".join(super().__str__().split())


class InvalidEvent(EngineError):
    """The event is malformed: not an object, unknown type, unknown or bad field value."""


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
