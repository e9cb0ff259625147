"""Tiebreaks that need more than a player's own row: opponents' points percentage (the
multiplayer form of OMW%), best finish and head-to-head. Pure functions over player ids
(no Django); :mod:`tournaments.selectors.standings` gathers the numbers and orders the
rows. The formulas are the players' documentation too (``docs/rules/standings.*.md``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import repeat

#: An opponent's points percentage never counts below this (Magic's tournament rules
#: floor opponents' match-win percentage at 1/3, so that meeting a player who dropped
#: early after a loss or two is not a penalty of its own).
OPPONENT_FLOOR = 1 / 3


def points_percentage(*, earned: float, possible: float) -> float:
    """A player's points over the most they could have had in the games they played,
    between :data:`OPPONENT_FLOOR` and 1 (nothing possible: the floor)."""
    if possible <= 0:
        return OPPONENT_FLOOR
    return min(1.0, max(OPPONENT_FLOOR, earned / possible))


def opponents_percentage(*, opponents: Sequence[int], percentage: Mapping[int, float]) -> float:
    """The average of the opponents' points percentages (each already floored by
    :func:`points_percentage`), over every opponent met at every table (an opponent met
    twice counts twice; a bye meets nobody). No opponent: 0."""
    if not opponents:
        return 0.0
    # ``map`` rather than a generator: the same terms summed in the same order (the same
    # float), without a Python frame per term (the standings ask this for every player).
    n = len(opponents)
    return sum(map(percentage.get, opponents, repeat(OPPONENT_FLOOR, n))) / n


def best_finish(places: Iterable[int]) -> int | None:
    """The best (lowest) place a player finished a game in; ``None`` without a game."""
    return min(places, default=None)


def head_to_head(
    *, group: Collection[int], meetings_of: Mapping[int, Sequence[Mapping[int, int]]]
) -> dict[int, int]:
    """Head-to-head among the tied players of ``group``: for every game in which two of
    them sat at the same table, the one placed better scores +1 and the other -1
    (a shared place: 0 each). Each player's net score; higher is better.

    ``meetings_of`` maps a player to the placements (player id -> place) of the games
    they played (byes excluded)."""
    members = set(group)
    score: dict[int, int] = defaultdict(int)
    for pid in members:
        for placements in meetings_of.get(pid, ()):
            mine = placements[pid]
            for other, place in placements.items():
                if other != pid and other in members:
                    score[pid] += (mine < place) - (mine > place)
    return {pid: score[pid] for pid in members}
