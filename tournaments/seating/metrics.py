"""How good a seating is, on plain data (the bench and the tests use these).

* :func:`repeat_pairs`: pairs at the same table who met before (each pair once);
  :func:`weighted_repeats` counts a pair by the times they met (what the optimiser
  minimises);
* :func:`mean_spread`: the mean, over tables, of the highest minus the lowest points;
* :func:`seat_cost`: the sum, over players, of the times each already sat in the
  position given this round (what the seat order minimises);
* :func:`seat_imbalance`: over an event, the largest difference, for one player,
  between the positions they sat in most and least often.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, combinations, repeat
from typing import Any

Tables = Sequence[Sequence[Any]]


def _pairs(tables: Tables) -> Iterable[frozenset]:
    """Every pair at each table, tables in order, each table's pairs in seat order
    (built in C: a round of 1,000 players has 1,500)."""
    return map(frozenset, chain.from_iterable(map(combinations, tables, repeat(2))))


def _met_times(tables: Tables, met: Mapping[frozenset, int]) -> list[int]:
    """The times each pair of :func:`_pairs` met before (0: never)."""
    return list(map(met.get, _pairs(tables), repeat(0)))


def repeat_pairs(tables: Tables, met: Mapping[frozenset, int]) -> int:
    """Pairs at the same table who have met before."""
    return sum(1 for times in _met_times(tables, met) if times > 0)


def weighted_repeats(tables: Tables, met: Mapping[frozenset, int]) -> int:
    """Pairs at the same table, each counted as many times as they have met."""
    return sum(_met_times(tables, met))


def mean_spread(tables: Tables, points: Mapping[Any, float]) -> float:
    """Mean over tables of (highest - lowest points at the table); 0 for no tables."""
    if not tables:
        return 0.0
    total = 0.0
    for table in tables:
        values = [points.get(p, 0.0) for p in table]
        total += max(values) - min(values)
    return total / len(tables)


def seat_cost(tables: Tables, seats: Mapping[Any, Sequence[int]]) -> int:
    """Sum over players of the times each already sat in the position given."""
    total = 0
    for table in tables:
        for pos, p in enumerate(table):
            history = seats.get(p, ())
            total += history[pos] if pos < len(history) else 0
    return total


def seat_imbalance(seats: Mapping[Any, Sequence[int]], size: int) -> int:
    """Over an event: max over players of (most - least times in one of the first
    ``size`` positions)."""
    worst = 0
    for history in seats.values():
        counts = [history[i] if i < len(history) else 0 for i in range(size)]
        worst = max(worst, max(counts) - min(counts))
    return worst


@dataclass(frozen=True)
class SeatingMetrics:
    repeats: int
    weighted_repeats: int
    mean_spread: float
    seat_cost: int


def measure(tables: Tables, request: Any) -> SeatingMetrics:
    """All the round metrics of ``tables`` for a :class:`~tournaments.seating.SeatingRequest`."""
    points = {p.id: p.points for p in request.players}
    seats = {p.id: p.seats for p in request.players}
    times = _met_times(tables, request.met)  # once for both repeat counts
    return SeatingMetrics(
        repeats=sum(1 for t in times if t > 0),
        weighted_repeats=sum(times),
        mean_spread=mean_spread(tables, points),
        seat_cost=seat_cost(tables, seats),
    )
