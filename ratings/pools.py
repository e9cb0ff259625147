"""How a game rates: the settings of its pool, told by the app that owns the games' events.

Ratings depend on ``games`` only (docs/architecture.md: tournaments -> ratings -> games),
so this app does not know where a game's league is. The ``tournaments`` app registers a
resolver at start-up (``TournamentsConfig.ready()``), a function that takes a queryset
of games and returns it annotated, in the same single query, with

* ``rating_k``: the K factor of the game's league (``None``: a friendly game, rated with
  :data:`ratings.elo.FRIENDLY_K`);
* ``rating_unverified``: whether a placements-only result is rated (``None`` or ``True``:
  rated; ``False``: not).

Without a resolver every game rates as a friendly game.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import BooleanField, FloatField, QuerySet, Value

#: The names :func:`rating_settings_annotate` adds to a games queryset.
K_FIELD = "rating_k"
UNVERIFIED_FIELD = "rating_unverified"

PoolResolver = Callable[[QuerySet], QuerySet]

_resolver: PoolResolver | None = None


def register_pool_resolver(fn: PoolResolver) -> None:
    """Set the function that annotates a games queryset with ``rating_k`` and
    ``rating_unverified`` (called once, in an ``AppConfig.ready()``)."""
    global _resolver
    _resolver = fn


def rating_settings_annotate(games: QuerySet) -> QuerySet:
    """``games`` annotated with ``rating_k`` and ``rating_unverified`` (no extra query)."""
    if _resolver is None:
        return games.annotate(
            **{
                K_FIELD: Value(None, output_field=FloatField()),
                UNVERIFIED_FIELD: Value(None, output_field=BooleanField()),
            }
        )
    return _resolver(games)
