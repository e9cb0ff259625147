"""Seating players at the tables of a round: pure Python, no Django (like
:mod:`games.engine`), tested without a database.

Input is plain data (player ids in standings order, the allowed table sizes, a seed or
an explicit :class:`random.Random`); output is the tables, each a list of ids in seat
order: position 0 starts, play goes clockwise. The round services
(:mod:`tournaments.services.progression`) read the database, call this package and
store what it returns; the table-size limits come from the caller (the game class's
``min_players``/``max_players``), never from a constant here.

Methods (``seat_round(request, method=...)``, :data:`METHODS`)
---------------------------------------------------------------
* ``"auto"`` (the default, for the CLI too): ``"random"`` when ``shuffle``;
  ``"optimise"`` when the request carries a history (any ``met`` pair, ``seats`` count
  or ``points``: Swiss from round 2) and its ``repeats`` rule is not ``"off"``;
  ``"slice"`` otherwise (round 1, and every request made by
  :meth:`SeatingRequest.build` without a history: today's seatings stay reproducible).
* ``"optimise"`` under the request's ``repeats`` rule (:data:`REPEAT_RULES`):
  ``"strict"`` (the default, issue 25, :mod:`.strict`): no pair meets again whenever the
  rest of the stage allows it (small events plan the remaining rounds together: 16
  players at tables of 4 meet everyone exactly once in 5 rounds), otherwise the fewest
  weighted repeats, then the least spread; never more repeats than the greedy.
  ``"balanced"``: issue 9's optimiser (:mod:`.optimise`): the standings sliced into
  tables, then a local search swapping players between nearby tables (best-swap
  descent, then a seeded min-conflicts tabu search while repeats remain) that lowers
  the repeat pairs, weighted by the times they met, without letting the total (so the
  mean) table spread exceed the greedy baseline's; then, at each table, the seat order
  of least total ``seats[player][position]`` (exact, ties from the seed). When the
  request says how many rounds are left in the stage (``rounds_left``, this round
  included) and the event is small (24 players or fewer), the tables are then chosen
  with the next round in view (:mod:`.lookahead`: among this round's best seatings
  within the same spread budget, the one whose next round can have the fewest repeats;
  the exact per-round optimum in the last round). Never more repeat pairs than the
  greedy baseline, never more spread (checked, with the greedy's tables as the
  fallback). The work is bounded by counts (evaluated swaps, ``max_evals``; search
  nodes), not a clock: deterministic on every machine (about 0.03 s at 1,000 players,
  0.2 s at most for 100 with dense repeats, under 1 s at 24 or fewer with ``rounds_left``;
  ``make bench``).
* ``"slice"``: today's seating (:func:`slice_tables`; :func:`random_tables` when
  ``shuffle``), seat order shuffled. The baseline :func:`slice_baseline`.
* ``"greedy"``: the baseline :func:`greedy_baseline`: each table takes the best-placed
  player left, then the next players in standings order whom that player has not met
  (then anyone next); seat order shuffled.
* ``"random"``: the players shuffled from the seed, then sliced.

``shuffle`` with ``"optimise"``/``"greedy"``: the players are shuffled first (their
order means nothing), then seated as above.

Table sizes (``SeatingRequest.size_rule``)
------------------------------------------
* ``"preferred"`` (the default for a request made directly or from JSON: issue 9's
  rule, :func:`table_plan`): ``table_sizes`` lists the allowed sizes, preferred first;
  every player is seated once with **as many tables of the preferred size as
  possible**; the other tables as close to the preferred size as possible (then the
  sizes listed first). The preferred tables come first, the others last (largest
  first), at the bottom of the standings. 10 players at ``[4, 3]``: ``[4, 3, 3]``; at
  ``[4, 2, 3, 5, 6]``: ``[4, 4, 2]`` (list only the sizes you want used).
* ``"even"`` (what :meth:`SeatingRequest.build` asks for: today's rule,
  :func:`split_sizes`): ``ceil(n / size)`` tables as even as possible within the
  smallest and largest allowed size, a size outside the list being refused.
* No plan (1 player, 5 players at ``[4, 3]``): :class:`SeatingError` (``code``
  ``"too_few_players"`` or ``"cannot_split"``).

Metrics (:mod:`.metrics`, for the bench and the tests)
------------------------------------------------------
:func:`repeat_pairs` (pairs at a table who met before), :func:`weighted_repeats`,
:func:`mean_spread` (mean over tables of highest minus lowest points),
:func:`seat_cost` (what the seat order minimises), :func:`seat_imbalance` (over an
event), :func:`measure` (all of a round's at once).

Invariants (tested with hypothesis in ``tests/seating/``)
----------------------------------------------------------
* every player is seated exactly once, and nobody else (dropped players are simply
  not in the request; ``met`` pairs naming them are ignored);
* every table size is allowed; ``"preferred"``: as many preferred tables as possible;
  ``"even"``: sizes differ by at most one;
* the same input and seed always give the same tables (one :class:`random.Random`
  stream, consumed in a fixed order; ``"slice"`` consumes it exactly as before the
  optimiser, so the seatings stored by earlier versions stay reproducible);
* ``"slice"`` tables are contiguous slices of the standings, in order;
* ``"optimise"``: never more repeat pairs than the greedy baseline, at no more mean
  spread (the bound is per round: see :mod:`.optimise`, "The spread rule"), with or
  without ``rounds_left``; each table's seat order has the least seat cost;
* ``rounds_left`` changes nothing above 24 players; in the last round (1) a small
  event gets the exact per-round optimum (least weighted repeats) among the seatings
  with no more spread and no more repeat pairs than the greedy's.

Entry point
-----------
:func:`seat_round` takes a :class:`SeatingRequest`, the shape of the JSON that
``python -m tournaments.seating [--method auto] < round.json > tables.json`` reads::

    {"table_sizes": [4, 3], "players": [{"id": "ana", "points": 7.5, "seats": [1, 2, 0, 2]}],
     "met": [["ana", "ben", 2]], "seed": 1, "shuffle": false, "size_rule": "preferred",
     "rounds_left": 3, "repeats": "strict", "top_table": false}

(``players`` in standings order, best first; ``rounds_left`` optional: the rounds still
to seat in this stage, this one included, a positive integer; the round services send
it for Swiss rounds; ``repeats`` and ``top_table`` optional) and answers
``{"tables": [["cai", "ana", "dan", "ben"], ...], "method", "repeats", "spread",
"seat_cost", "lower_bound"}``, each table in seat order
(:func:`seat_round_explained`: what the seating achieved; every round keeps its request
and these, :meth:`SeatingRequest.to_json`, so the CLI seats a stored round again). Bad
input: ``seating: <reason>`` on stderr, exit status 2. From Python::

    SeatingRequest(players=(SeatingPlayer(pk, points, seats), ...), table_sizes=(4, 3),
                   met={frozenset({a, b}): times, ...}, seed=f"{tournament}:{round}",
                   rounds_left=3)
"""

from __future__ import annotations

from .api import (
    METHODS,
    REPEAT_RULES,
    SIZE_RULES,
    PlayerId,
    SeatingOutcome,
    SeatingPlayer,
    SeatingRequest,
    greedy_baseline,
    resolved_method,
    seat_round,
    seat_round_explained,
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
from .sizes import sizes_that_seat, split_sizes, table_plan
from .slicing import random_tables, slice_tables

__all__ = [
    "METHODS",
    "REPEAT_RULES",
    "SIZE_RULES",
    "PlayerId",
    "SeatingError",
    "SeatingMetrics",
    "SeatingOutcome",
    "SeatingPlayer",
    "SeatingRequest",
    "greedy_baseline",
    "mean_spread",
    "measure",
    "random_tables",
    "repeat_pairs",
    "resolved_method",
    "seat_cost",
    "seat_imbalance",
    "seat_order",
    "seat_round",
    "seat_round_explained",
    "seat_round_json",
    "slice_baseline",
    "slice_tables",
    "sizes_that_seat",
    "split_sizes",
    "table_plan",
    "weighted_repeats",
]
