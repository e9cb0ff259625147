"""A league season's table, from the final ranks of its finished tournaments (issue 24,
"Seasons and their standings"). Pure: no Django, no database; the selector
(:mod:`tournaments.selectors.seasons`) reads the ranks and masks hidden players.

The rules, in order:

* A tournament gives each player the season points of their final rank in it:
  ``season_points[rank - 1]`` (default ``[25, 18, 15, 12, 10, 8, 6, 4, 2, 1]``), 0 beyond
  the list. Players sharing a final rank each get that rank's points (two players
  sharing 2nd both get 18).
* ``best_of`` N: only a player's N best tournaments count (by season points, then the
  better rank, then the earlier tournament); ``None``: all of them. ``events`` is the
  number counted, ``played`` the number played in the season.
* The table is ordered by points; ties by more tournament wins (rank 1), then more
  second places, and so on, over the counted tournaments; then the best single
  tournament's points; then alphabetically by the name shown. Players equal on
  everything but the name share a rank (the name only orders them on the page).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Points by final rank in a tournament when the season sets none (Formula 1's).
DEFAULT_SEASON_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


@dataclass(frozen=True)
class TournamentRanks:
    """One finished tournament of the season: its id, its start date (ISO, for order)
    and each player's final rank in it (player key -> rank, 1 best, ties share)."""

    id: int
    starts_on: str
    ranks: Mapping[str, int]


@dataclass(frozen=True)
class Counted:
    """One tournament in a player's season line: its id, the player's rank and the
    season points it gave; ``counted``: whether it is among the best N."""

    tournament: int
    rank: int
    points: float
    counted: bool = True


@dataclass
class SeasonRow:
    """One line of the season table (``player``: the key the caller gave)."""

    rank: int
    player: str
    name: str
    points: float
    events: int
    played: int
    results: list[Counted] = field(default_factory=list)


def points_for_rank(rank: int, season_points: Sequence[float]) -> float:
    """The season points of a final ``rank`` (1-based): the list's entry, 0 beyond it."""
    return float(season_points[rank - 1]) if 1 <= rank <= len(season_points) else 0.0


def season_table(
    *,
    tournaments: Iterable[TournamentRanks],
    season_points: Sequence[float] = DEFAULT_SEASON_POINTS,
    best_of: int | None = None,
    names: Mapping[str, str] | None = None,
) -> list[SeasonRow]:
    """The season table (see the module's rules), best first."""
    names = names or {}
    lines: dict[str, list[tuple[float, int, str, int]]] = {}
    for t in sorted(tournaments, key=lambda t: (t.starts_on, t.id)):
        for player, rank in t.ranks.items():
            points = points_for_rank(rank, season_points)
            lines.setdefault(player, []).append((points, rank, t.starts_on, t.id))
    rows: list[SeasonRow] = []
    for player, results in lines.items():
        # the best N: most points, then the better rank, then the earlier tournament
        best = sorted(results, key=lambda r: (-r[0], r[1], r[2], r[3]))
        keep = best if best_of is None else best[:best_of]
        kept = {r[3] for r in keep}
        rows.append(
            SeasonRow(
                rank=0,
                player=player,
                name=names.get(player, player),
                points=sum(r[0] for r in keep),
                events=len(keep),
                played=len(results),
                results=[
                    Counted(tournament=tid, rank=rank, points=pts, counted=tid in kept)
                    for pts, rank, _day, tid in results
                ],
            )
        )

    # the deepest rank anyone counts: every key counts places 1..width (equal lengths)
    width = max((c.rank for r in rows for c in r.results if c.counted), default=0)

    def full_key(row: SeasonRow) -> tuple:
        """Most points, then most wins, most seconds... then the best single result."""
        counted = [c for c in row.results if c.counted]
        by_rank = tuple(-sum(1 for c in counted if c.rank == r) for r in range(1, width + 1))
        return (-row.points, by_rank, -max((c.points for c in counted), default=0.0))

    rows.sort(key=lambda r: (full_key(r), r.name.casefold(), r.player))
    previous = None
    for i, row in enumerate(rows, start=1):
        key = full_key(row)
        row.rank = i if key != previous else rows[i - 2].rank
        previous = key
    return rows
