"""Elo, pure: no Django, no database.

``E = 1 / (1 + 10^((R_j - R_i)/400))``, ``S`` = 1/0.5/0 for a better/equal/worse place,
``R_i' = R_i + K/(N-1) * sum_j (S - E)``, all with the ratings before the game.

:func:`compute_ratings` plays a sequence of :class:`RatedGame` in order from
:data:`ELO_START` (or given start ratings); the incremental update and the recompute of
:mod:`ratings.services` both use it, so they give identical numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

#: Everyone's rating before their first rated game of a kind.
ELO_START = 1500.0
#: Fewer rated games than this: the rating is provisional.
PROVISIONAL_GAMES = 10
#: K of a friendly game (one without a tournament table, hence without a league).
FRIENDLY_K = 32.0


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def elo_game(
    before: Mapping[str, float], placements: Mapping[str, int], k: float
) -> dict[str, float]:
    """New ratings of the players of one game (iteration order of ``placements``).

    ``before`` holds every player's rating before the game. Needs at least 2 players.
    """
    players = list(placements)
    n = len(players)
    if n < 2:
        return {p: before[p] for p in players}
    scale = k / (n - 1)
    after = {}
    for i in players:
        ri = before[i]
        pi = placements[i]
        total = 0.0
        for j in players:
            if j == i:
                continue
            pj = placements[j]
            s = 1.0 if pi < pj else (0.5 if pi == pj else 0.0)
            total += s - 1.0 / (1.0 + 10.0 ** ((before[j] - ri) / 400.0))
        after[i] = ri + scale * total
    return after


@dataclass(frozen=True)
class RatedGame:
    """The input of the rating computation for one game (player ids, places, K)."""

    game_id: int
    finished_at: datetime
    result_version: int
    k: float
    placements: dict[int, int]  # player id -> place, in seat order


@dataclass
class Computation:
    """Result of :func:`compute_ratings`: final ratings and every change, in order."""

    ratings: dict[int, float]
    games: dict[int, int]
    changes: list[tuple[int, int, float, float, datetime, int]]  # player, game, before, after,
    # finished_at, result_version


def compute_ratings(
    games: Iterable[RatedGame], *, start: dict[int, float] | None = None
) -> Computation:
    """Play the rated games in order from :data:`ELO_START` (or ``start``)."""
    ratings: dict[int, float] = dict(start or {})
    counts: dict[int, int] = {}
    changes = []
    append = changes.append
    for g in games:
        before = {p: ratings.get(p, ELO_START) for p in g.placements}
        after = elo_game(before, g.placements, g.k)
        for p, value in after.items():
            append((p, g.game_id, before[p], value, g.finished_at, g.result_version))
            ratings[p] = value
            counts[p] = counts.get(p, 0) + 1
    return Computation(ratings=ratings, games=counts, changes=changes)
