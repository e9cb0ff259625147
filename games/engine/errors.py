"""Exceptions raised by the game engine.

Every exception the engine raises on bad input is an :class:`EngineError`, and
``str(exc)`` is always a single line that names the broken rule, so that the CLI
and the web app can show it verbatim.
"""

from __future__ import annotations

from typing import Any

#: Longest message the engine gives, and the longest value a message quotes: what a
#: caller passed in can be of any size, and a message is shown to a person.
MAX_MESSAGE = 400
MAX_SHOWN = 60


def shown(value: Any) -> str:
    """``repr(value)`` for a message, at most :data:`MAX_SHOWN` characters (the cut
    says how long it was); also for an integer too long to print (Python refuses more
    than ``sys.get_int_max_str_digits()`` digits), which only a Python caller can pass."""
    try:
        text = repr(value)
    except ValueError:
        return f"<an integer of {value.bit_length()} bits>" if isinstance(value, int) else "<?>"
    if len(text) <= MAX_SHOWN:
        return text
    return f"{text[: MAX_SHOWN - 12]}... ({len(text):,} characters)"


def one_line(text: Any) -> str:
    """``text`` on one line (whitespace runs become one space), cut in the middle to at
    most :data:`MAX_MESSAGE` characters: the rule is named at the start, the value last."""
    line = " ".join(str(text).split())
    if len(line) <= MAX_MESSAGE:
        return line
    head, tail = MAX_MESSAGE * 2 // 3, MAX_MESSAGE // 4
    cut = len(line) - head - tail
    return f"{line[:head]} [... {cut:,} characters ...] {line[-tail:]}"


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""

    def __str__(self) -> str:
        # One line, of a readable length, whatever the caller passed in.
        return one_line(super().__str__())


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
        self.reason = one_line(reason)
        self.cause = cause
        super().__init__(f"line {line}: {self.reason}")
