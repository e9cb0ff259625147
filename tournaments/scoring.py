"""Pure functions: tournament points per placement. No database access.

(Elo is :mod:`ratings.elo`.)

Points per placement
    A tournament stores the points for 1st, 2nd, ... place at a full table
    (``Tournament.points_per_place``). The default for ``n`` seats halves from place to
    place and gives the last place nothing: 2 seats ``[1, 0]``, 3 ``[2, 1, 0]``,
    4 ``[4, 2, 1, 0]``, 5 ``[8, 4, 2, 1, 0]``, 6 ``[16, 8, 4, 2, 1, 0]``.
    A table with another number of players ``m`` (when the players do not divide into
    full tables) maps its places linearly onto the list: first place always gets the
    first entry, last place the last one, places in between are interpolated
    (3 players with ``[4, 2, 1, 0]``: 4, 1.5, 0).
    Players sharing a place share the points of the places they cover: a tie for 2nd
    at a table of 4 gives each ``(2 + 1) / 2 = 1.5``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def default_points(seats: int) -> list[int]:
    """The default points for 1st..last place at a table of ``seats``."""
    if seats < 2:
        return [0] * max(seats, 0)
    return [2 ** (seats - 2 - i) for i in range(seats - 1)] + [0]


def _points_at(points: Sequence[float], place: int, seats: int) -> float:
    """Points for ``place`` (1-based) at a table of ``seats``, interpolating ``points``."""
    n = len(points)
    if seats == n:
        return float(points[place - 1])
    if seats <= 1 or n == 1:
        return float(points[0])
    x = (place - 1) * (n - 1) / (seats - 1)
    lo = math.floor(x)
    if lo >= n - 1:
        return float(points[-1])
    frac = x - lo
    return float(points[lo]) + (float(points[lo + 1]) - float(points[lo])) * frac


def table_points(points: Sequence[float], placements: Mapping[str, int]) -> dict[str, float]:
    """Tournament points of every player of one finished game (shared places share)."""
    seats = len(placements)
    counts: dict[int, int] = {}
    for place in placements.values():
        counts[place] = counts.get(place, 0) + 1
    cache: dict[int, float] = {}
    for place, tied in counts.items():
        cache[place] = sum(_points_at(points, q, seats) for q in range(place, place + tied)) / tied
    return {player: cache[place] for player, place in placements.items()}
