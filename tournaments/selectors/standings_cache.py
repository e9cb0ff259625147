"""The standings of big events, cached until something of the tournament changes.

Computing the standings reads every game of every round (1,000 players and 5 rounds:
about 100 ms); the public tournament page and the API standings ask for them on every
visit and every live refresh. :func:`tournament_standings_cached` keeps the computed
rows (before masking) in Django's cache under a per-tournament version;
:func:`standings_invalidate` moves the version on; only :mod:`tournaments.effects`
calls it, once per transaction after commit, for every change of the tournament
(every audited step, and every result of one of its games). A reader who cached the
old rows before the commit stored them under the old version, which the move makes
stale.

A cache that cannot be reached is skipped (logged): the rows are computed.

Invariants: privacy is never cached: the ``hidden`` flags are read afresh on every
cached read (one query) and masking is done per viewer. A player's new display name
may lag by at most :data:`CACHE_SECONDS`. Small events (fewer than
:data:`CACHE_MIN_ROWS` rows) are computed on every read: they cost a few milliseconds.
The key holds the tournament's creation time, so a reused primary key (test databases)
never meets old rows. Services never read cached standings (seating uses
:func:`~tournaments.selectors.standings.tournament_standings` in its transaction).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

from tournaments.models import Player, Tournament
from tournaments.selectors.standings import StandingRow, standings_mask, standings_unmasked

logger = logging.getLogger(__name__)

#: Rows from which computed standings are kept in the cache.
CACHE_MIN_ROWS = 200
#: How long cached rows live at most (bounds how long a renamed player's old name shows).
CACHE_SECONDS = 120


def _version_key(tournament_id: int) -> str:
    return f"tock:standings-version:{tournament_id}"


def _rows_key(tournament: Tournament, version: int) -> str:
    stamp = tournament.created_at.timestamp() if tournament.created_at else 0
    return f"tock:standings:{tournament.pk}:{stamp:.6f}:{version}"


def _bump(tournament_id: int) -> None:
    key = _version_key(tournament_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no version yet (or evicted): any new value will do
            cache.set(key, 1, None)
    except Exception:  # the cache is down: nothing is read from it either
        logger.warning("standings cache: version of %s not moved on", tournament_id, exc_info=True)


def standings_invalidate(*, tournament_id: int) -> None:
    """Forget the cached standings of a tournament (after commit, by the effects)."""
    _bump(tournament_id)


def _rows(
    tournaments: list[Tournament], *, min_rows: int
) -> dict[int, tuple[list[StandingRow], bool]]:
    """Each tournament's unmasked rows by id, with whether they came from the cache: the
    versions, then the rows, in two cache round trips for them all; the others computed
    and kept when they have ``min_rows`` rows or more. A cache that cannot be reached
    is skipped (logged): every one is computed."""
    try:
        versions = cache.get_many([_version_key(t.pk) for t in tournaments])
        keys = {t.pk: _rows_key(t, versions.get(_version_key(t.pk), 0)) for t in tournaments}
        found = cache.get_many(list(keys.values()))
    except Exception:
        logger.warning("standings cache unreachable", exc_info=True)
        keys, found = {}, {}
    out: dict[int, tuple[list[StandingRow], bool]] = {}
    computed: dict[str, list[StandingRow]] = {}
    for t in tournaments:
        key = keys.get(t.pk)
        rows = found.get(key) if key is not None else None
        if rows is not None:
            out[t.pk] = (rows, True)
            continue
        rows = standings_unmasked(tournament=t)
        if key is not None and len(rows) >= min_rows:
            computed[key] = rows
        out[t.pk] = (rows, False)
    if computed:
        try:
            cache.set_many(computed, CACHE_SECONDS)  # copies (pickled), before masking
        except Exception:
            logger.warning("standings cache: rows not stored", exc_info=True)
    return out


def tournament_standings_cached(*, tournament: Tournament, user: Any = None) -> list[StandingRow]:
    """:func:`~tournaments.selectors.standings.tournament_standings` for the pages and
    the API: the same rows, masked for ``user``, from the cache when the event is big
    and nothing changed since they were computed."""
    rows, cached = _rows([tournament], min_rows=CACHE_MIN_ROWS)[tournament.pk]
    if cached:
        # Privacy is read afresh: a player who hid since the rows were cached is hidden
        # now. (Hidden players are few: all of them, then those of these rows.)
        hidden = set(Player.objects.filter(hidden=True).values_list("pk", flat=True))
        # ``rows`` is this request's own copy (the cache unpickles on every read).
        for row in rows:
            row.hidden = row.player_id in hidden
    return standings_mask(rows=rows, tournament=tournament, user=user)


def standings_of_many(*, tournaments: list[Tournament]) -> dict[int, list[StandingRow]]:
    """The unmasked standings rows of several tournaments (a season's table), by id:
    from the cache in two round trips for all of them, computed for the others, which
    are kept whatever their size: a season lists finished tournaments, whose rows change
    only with a correction (a change, which moves the version on). Masking is the
    caller's (a season table names players by id and reads their names itself)."""
    if not tournaments:
        return {}
    return {pk: rows for pk, (rows, _cached) in _rows(tournaments, min_rows=0).items()}


__all__ = [
    "CACHE_MIN_ROWS",
    "standings_invalidate",
    "standings_of_many",
    "tournament_standings_cached",
]
