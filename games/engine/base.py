"""The interface every game kind implements, and the registry of game kinds.

A game is driven entirely by events (plain JSON objects). ``start(event)`` builds a
game from its start event; ``push(event)`` validates one event and applies it, or
raises :class:`~games.engine.errors.InvalidEvent` (malformed) /
:class:`~games.engine.errors.IllegalMove` (a rule is broken) without changing the state.
Everything else (legal moves, result, summary, cached state) is derived from the state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from .errors import EngineError, InvalidEvent, LogError

IN_PROGRESS = "in_progress"
FINISHED = "finished"
STALEMATE = "stalemate"
STATUSES = (IN_PROGRESS, FINISHED, STALEMATE)


class Game(ABC):
    """Common interface of every game kind (see ``docs/engine-api.md``).

    Invariants every implementation keeps:

    * ``push`` is atomic: on error the state is unchanged.
    * ``event_count`` counts applied events including the start event, so the event
      being pushed is line ``event_count + 1`` of the game's log.
    * ``restore(g.to_state())`` behaves exactly like ``g``.
    """

    #: The ``game`` value of the start event, e.g. ``"tock"``.
    kind: ClassVar[str]

    # -- construction -------------------------------------------------------------
    @classmethod
    @abstractmethod
    def start(cls, event: dict[str, Any]) -> Game:
        """Create a game from its start event (raises ``InvalidEvent``)."""

    @classmethod
    @abstractmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        """Inverse of :meth:`to_state`."""

    # -- events -------------------------------------------------------------------
    @abstractmethod
    def push(self, event: dict[str, Any]) -> None:
        """Validate and apply one event."""

    def push_many(self, events: Iterable[dict[str, Any]]) -> None:
        """Push events in order; on the first bad one raise ``LogError`` with its line
        (``event_count + 1``: the line numbering of the game's log)."""
        push = self.push
        for event in events:
            try:
                push(event)
            except LogError:
                raise
            except EngineError as exc:
                raise LogError(self.event_count + 1, str(exc), exc) from None

    def is_legal(self, event: dict[str, Any]) -> bool:
        """Whether :meth:`push` would accept ``event`` now (the game is not changed)."""
        probe = self.copy()
        try:
            probe.push(event)
        except EngineError:
            return False
        return True

    @abstractmethod
    def legal_moves(self) -> list[dict[str, Any]]:
        """Events the player to move may push now without breaking any rule."""

    # -- results ------------------------------------------------------------------
    @property
    @abstractmethod
    def status(self) -> str:
        """``"in_progress"``, ``"finished"`` or ``"stalemate"``."""

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """Players in seat (clockwise) order."""

    @property
    @abstractmethod
    def event_count(self) -> int:
        """Events applied so far, the start event included."""

    @abstractmethod
    def placements(self) -> dict[str, int] | None:
        """Player -> place (1-based, ties share a place); ``None`` while in progress."""

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The JSON-serialisable object printed by ``replay --json``."""

    @abstractmethod
    def to_state(self) -> dict[str, Any]:
        """The full internal state as JSON-serialisable data (see :func:`restore`)."""

    def copy(self) -> Game:
        """An independent copy of this game."""
        return type(self).from_state(self.to_state())


G = TypeVar("G", bound=type[Game])

_REGISTRY: dict[str, type[Game]] = {}
_SIMULATORS: dict[str, Callable[..., list[dict[str, Any]]]] = {}


def register(cls: G) -> G:
    """Class decorator: make a game kind available to :func:`start` and :func:`restore`."""
    _REGISTRY[cls.kind] = cls
    return cls


def register_simulator(kind: str, func: Callable[..., list[dict[str, Any]]]) -> None:
    """Register the bot simulator of a game kind (used by :func:`games.engine.simulate`)."""
    _SIMULATORS[kind] = func


def game_kinds() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def game_class(kind: object) -> type[Game]:
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidEvent(f"unknown game {kind!r} (known: {known})")
    return cls


def simulator(kind: object) -> Callable[..., list[dict[str, Any]]]:
    func = _SIMULATORS.get(kind) if isinstance(kind, str) else None
    if func is None:
        raise InvalidEvent(f"no simulator for game {kind!r}")
    return func


def start(event: dict[str, Any]) -> Game:
    """Create a game from a start event ``{"type": "start", "game": KIND, ...}``."""
    if not isinstance(event, dict):
        raise InvalidEvent("the start event must be a JSON object")
    if event.get("type") != "start":
        raise InvalidEvent(f"the first event must have type 'start', not {event.get('type')!r}")
    return game_class(event.get("game")).start(event)


def restore(state: dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.to_state` output."""
    if not isinstance(state, dict):
        raise InvalidEvent("state must be a dict produced by Game.to_state()")
    return game_class(state.get("game")).from_state(state)
