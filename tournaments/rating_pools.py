"""What ratings need to know of a game's tournament: its league's rating settings.

Registered with :func:`ratings.pools.register_pool_resolver` in
``TournamentsConfig.ready()``, so that ``ratings`` names no field of ``tournaments``.
"""

from __future__ import annotations

from django.db.models import F, QuerySet

from ratings.pools import K_FIELD, UNVERIFIED_FIELD


def game_rating_settings(games: QuerySet) -> QuerySet:
    """``games`` annotated with the K factor and ``rate_unverified`` of their league
    (``None`` for a friendly game, which has no table), in the same query."""
    return games.annotate(
        **{
            K_FIELD: F("table__round__tournament__league__k_factor"),
            UNVERIFIED_FIELD: F("table__round__tournament__league__rate_unverified"),
        }
    )
