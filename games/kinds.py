"""The game kinds, as the Django side sees them: whatever the engine's registry holds.

A kind exists for the site exactly when the engine can start it, so a league, a game
or a rating can never be of a kind whose start events are refused. Model fields use
:func:`game_kind_choices` (a callable, so that a new kind needs no migration).
"""

from __future__ import annotations

import games.engine as engine


def game_kind_choices() -> list[tuple[str, str]]:
    """``(kind, title)`` for every kind the engine plays, e.g. ``("tock", "TOCK")``."""
    return engine.kind_choices()


def game_kinds() -> tuple[str, ...]:
    return engine.game_kinds()


def is_game_kind(kind: object) -> bool:
    return isinstance(kind, str) and kind in engine.game_kinds()


def rules_kinds() -> dict[str, str]:
    """Kinds with a rules page (every kind the engine plays): kind -> title."""
    return dict(game_kind_choices())


def player_count_range(kind: str) -> tuple[int, int]:
    """Fewest and most players at one table of ``kind``: the game class's
    ``min_players``/``max_players`` (TOCK: 2 to 6), the one statement of the table-size
    limits (``tournaments.services.core.table_size_limits`` asks here).
    ``engine.InvalidEvent`` for an unknown kind."""
    cls = engine.game_class(kind)
    return cls.min_players, cls.max_players


def _class(kind: object) -> type[engine.Game] | None:
    try:
        return engine.game_class(kind)
    except engine.EngineError:
        return None


def has_knocks(kind: object) -> bool:
    """Whether players of ``kind`` knock and a referee rules on knocks (the engine's
    ``has_knocks``: TOCK); ``False`` for an unknown kind."""
    cls = _class(kind)
    return cls is not None and cls.has_knocks


def rules_in_progress(kind: object) -> bool:
    """Whether a referee may rule on a game of ``kind`` while it is in progress (a
    knock ruling); ``False`` for an unknown kind."""
    cls = _class(kind)
    return cls is not None and cls.rules_in_progress()


def knock_from_position(kind: str, *, facts: object, by: object) -> dict[str, object]:
    """The engine's verdict on a knock judged from what the table shows (the kind's
    ``knock_from_position``); ``engine.InvalidEvent`` naming the broken rule for a bad
    position, or for a kind without knocks."""
    return engine.game_class(kind).knock_from_position(facts, by)


def ruling_event(kind: str, *, by: str, ruling: str, referee: str) -> dict[str, object]:
    """The event that records a referee's ruling on a knock by ``by`` in a game of
    ``kind`` (the engine's ``ruling_event``); ``engine.InvalidEvent`` for a kind
    without knocks."""
    return engine.game_class(kind).ruling_event(by, ruling, referee)


def ruling_of(kind: object, event: object) -> tuple[str, str] | None:
    """``(knocker, ruling)`` when ``event`` is a referee's ruling on a knock in a game
    of ``kind`` (the engine's ``ruling_of``), else ``None``."""
    cls = _class(kind)
    return None if cls is None else cls.ruling_of(event)


def reserved_names() -> frozenset[str]:
    """Names no player may have, because some kind's logs use them (TOCK: ``center``).
    A handle plays every kind, so a name reserved by any kind is refused."""
    names: set[str] = set()
    for kind in engine.game_kinds():
        names |= engine.game_class(kind).reserved_names
    return frozenset(names)
