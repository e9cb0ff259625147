"""Seating players at the tables of a round: pure Python, no Django (like
:mod:`games.engine`), tested without a database.

Input is plain data (player ids in standings order, the allowed table sizes, a seed or
an explicit :class:`random.Random`); output is the tables, each a list of ids in seat
order: position 0 starts, play goes clockwise. The round services
(:mod:`tournaments.services.progression`) read the database, call this package and
store what it returns; the table-size limits come from the caller (the game class's
``min_players``/``max_players``), never from a constant here.

Rules (today's seating, method ``"slice"``)
-------------------------------------------
* **Sizes** (:func:`split_sizes`): ``n`` players at tables of ``size`` go to
  ``ceil(n / size)`` tables, as evenly as possible (sizes differ by at most one, some
  tables one seat short, largest first); fewer tables when a table would otherwise be
  smaller than the game's minimum. A table above the game's maximum is an error.
* **Swiss** (:func:`slice_tables`): the standings, best first, are cut into
  consecutive slices, so players of similar standing sit together.
* **Random** (:func:`random_tables`; also a Swiss event's first round): the players
  are shuffled from the seed, then sliced the same way.
* **Seat order**: shuffled at every table, from the same random stream.

Invariants (tested with hypothesis in ``tests/seating/``)
----------------------------------------------------------
* every player is seated exactly once, and nobody else;
* every table size is allowed (from the minimum to the maximum), and the sizes are as
  even as possible: they differ by at most one;
* the same input and seed always give the same tables (one :class:`random.Random`
  stream, consumed in a fixed order: the shuffle of the players if any, then each
  table's seat order, first table first) -- the seatings stored by earlier versions
  stay reproducible;
* Swiss tables are contiguous slices of the standings, in order.

Entry point and what comes next
-------------------------------
:func:`seat_round` takes a :class:`SeatingRequest`, the shape of the JSON that
``python -m tournaments.seating < round.json > tables.json`` reads::

    {"table_sizes": [4, 3], "players": [{"id": "ana", "points": 7.5, "seats": [1, 2, 0, 2]}],
     "met": [["ana", "ben", 2]], "seed": 1, "shuffle": false}

and answers ``{"tables": [["cai", "ana", "dan", "ben"], ...]}``. Today's method
(``"slice"``) reads only the ids, their order, the sizes and the seed. Issue 9's
optimiser (Swiss with repeat avoidance and seat-position balance, using ``points``,
``seats`` and ``met``) is a new ``method`` of :func:`seat_round` over the same request.
"""

from __future__ import annotations

from .api import (
    METHODS,
    SIZE_RULES,
    PlayerId,
    SeatingPlayer,
    SeatingRequest,
    greedy_baseline,
    seat_round,
    seat_round_json,
    slice_baseline,
)
from .errors import SeatingError
from .metrics import (
    SeatingMetrics,
    mean_spread,
    measure,
    repeat_pairs,
    seat_cost,
    seat_imbalance,
    weighted_repeats,
)
from .optimise import seat_order
from .sizes import split_sizes, table_plan
from .slicing import random_tables, slice_tables

__all__ = [
    "METHODS",
    "SIZE_RULES",
    "PlayerId",
    "SeatingError",
    "SeatingMetrics",
    "SeatingPlayer",
    "SeatingRequest",
    "greedy_baseline",
    "mean_spread",
    "measure",
    "random_tables",
    "repeat_pairs",
    "seat_cost",
    "seat_imbalance",
    "seat_order",
    "seat_round",
    "seat_round_json",
    "slice_baseline",
    "slice_tables",
    "split_sizes",
    "table_plan",
    "weighted_repeats",
]
