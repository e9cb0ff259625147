"""Repeat avoidance ``strict`` (issue 25): no pair meets again whenever that can be
avoided, for the rest of the stage too; then the fewest repeats; then the least spread.

Chess's Swiss rules (FIDE C.04) make "two players shall not play each other more than
once" an absolute criterion and keep a pairing possible for everyone still to be paired
(the completion criterion); only then do they keep score groups together. Here, for one
round (player indices, as :mod:`.optimise`):

1. **Plan the rest of the stage** (events of at most :data:`PLAN_MAX_PLAYERS`, when the
   request says how many rounds are left): the repeat-free seatings of this round, least
   spread first (:class:`_RepeatFree`, a branch and bound), are
   tried in turn; the first one after which the remaining rounds can all be seated
   without a repeat (:class:`_Completion`: a depth-first search over those rounds, the
   "social golfer" problem) is the answer. At 16 players at tables of 4 over 5 rounds
   the rounds must form the parallel classes of the affine plane AG(2, 4): a round-by-
   round optimiser walks into dead ends (round 3 has 24 repeat-free seatings, 6 of which
   extend), this one does not. A seating whose completion the search could neither find
   nor rule out in its node budget is kept as a fallback.
2. **Otherwise** the fewest weighted repeats (a pair that met twice counts 2), then the
   least spread: :mod:`.optimise`'s local search under a spread budget that grows from
   the greedy's (1x, 1.25x, 1.5x, 2x, 3x, unbounded) until a repeat-free seating is
   found; the best seen is kept. Never more repeat pairs (nor weighted repeats) than the
   greedy baseline.

:func:`repeat_lower_bound` says how few repeat pairs this round could have: exact for
small events (an iterative deepening search), else a bound from the players who have met
too many of those present to fill a table with strangers.

Work is bounded by counts (nodes, evaluated swaps), never by the clock: the same request
and seed give the same tables on every machine.
"""

from __future__ import annotations

import contextlib
import heapq
import math
import random
from collections.abc import Sequence

from .lookahead import _in_plan_order, _met_after, _Next, _OutOfNodes
from .optimise import (
    Problem,
    _search,
    greedy_groups,
    repeat_count,
    seat_polish,
    slice_groups,
    spread_sum,
    table_gaps,
    weighted_repeats_of,
)

#: Largest event whose rounds are planned together (step 1).
PLAN_MAX_PLAYERS = 32
#: Repeat-free seatings of this round tried for a completion, least spread first.
PLAN_CANDIDATES = 48
#: Node budget of the candidates' branch and bound.
PLAN_CANDIDATE_NODES = 60_000
_EPS = 1e-9
#: Node budget of one completion search (the remaining rounds after one candidate),
#: and of all of them for one round.
PLAN_NODES = 5_000
PLAN_TOTAL_NODES = 40_000
#: Spread budgets of step 2, as multiples of the greedy's spread sum.
BUDGETS = (1.0, 1.25, 1.5, 2.0, 3.0, math.inf)


class _Completion:
    """Whether ``rounds`` more rounds can be seated with no pair meeting again: a
    depth-first search on bitmasks (``met[i]``: the players ``i`` has met), each table
    filled from the lowest player left with companions in index order."""

    def __init__(self, n: int, sizes: Sequence[int], budget: int) -> None:
        self.full = (1 << n) - 1
        self.n = n
        self.sizes: dict[int, int] = {}
        for size in sizes:
            self.sizes[size] = self.sizes.get(size, 0) + 1
        self.need = min(sizes) - 1
        self.budget = budget
        self.nodes = 0
        self.counts: dict[int, int] = {}

    def run(self, met: list[int], rounds: int) -> bool | None:
        """True (found), False (none exists), None (out of nodes: unknown)."""
        try:
            return self._round(met, rounds)
        except _OutOfNodes:
            return None

    def _round(self, met: list[int], rounds: int) -> bool:
        if rounds <= 0:
            return True
        full = self.full
        # Everyone needs at least the smallest table's worth of strangers.
        for i in range(self.n):
            if ((full & ~met[i]) & ~(1 << i)).bit_count() < self.need:
                return False
        saved = self.counts
        self.counts = dict(self.sizes)
        try:
            return self._table(met, full, [], rounds)
        finally:
            self.counts = saved

    def _table(self, met: list[int], left: int, tables: list[int], rounds: int) -> bool:
        if not left:
            after = list(met)
            for t in tables:
                x = t
                while x:
                    low = x & -x
                    x ^= low
                    after[low.bit_length() - 1] |= t & ~low
            return self._round(after, rounds - 1)
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes
        # The most constrained player left heads the next table (fewest strangers left);
        # a player who can no longer fill the smallest table ends this branch.
        head, fewest = -1, self.n + 1
        x = left
        while x:
            low = x & -x
            x ^= low
            i = low.bit_length() - 1
            free = (left & ~met[i] & ~low).bit_count()
            if free < fewest:
                head, fewest = i, free
        if fewest < min(self.need, left.bit_count() - 1):
            return False
        head_bit = 1 << head
        rest = left & ~head_bit
        cand = rest & ~met[head]
        for size, c in self.counts.items():
            if c:
                self.counts[size] = c - 1
                done = self._grow(met, rest, tables, rounds, head_bit, cand, size - 1)
                self.counts[size] = c
                if done:
                    return True
        return False

    def _grow(
        self,
        met: list[int],
        left: int,
        tables: list[int],
        rounds: int,
        table: int,
        cand: int,
        need: int,
    ) -> bool:
        if need == 0:
            tables.append(table)
            try:
                return self._table(met, left, tables, rounds)
            finally:
                tables.pop()
        if cand.bit_count() < need:
            return False
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            if self._grow(met, left & ~low, tables, rounds, table | low, cand & ~met[v], need - 1):
                return True
        return False


class _RepeatFree:
    """The ``keep`` repeat-free seatings of this round of least spread sum: a branch and
    bound on bitmasks, each table headed by the best-placed player left (standings
    order, so the first seatings found already keep neighbours together), companions
    strangers to everyone at the table, in index order. A branch ends when a player
    left can no longer find the smallest table's worth of strangers, or when its spread
    can no longer beat the worst kept. Every step counts against ``max_nodes``."""

    def __init__(self, problem: Problem, sizes: Sequence[int], keep: int, max_nodes: int) -> None:
        self.n = problem.n
        self.pts = problem.points
        self.met = _met_after(problem, [])
        self.counts: dict[int, int] = {}
        for size in sizes:
            self.counts[size] = self.counts.get(size, 0) + 1
        self.need = min(sizes) - 1
        self.keep = keep
        self.max_nodes = max_nodes
        self.nodes = 0
        self.heap: list[tuple[float, int, list[list[int]]]] = []  # (-spread, -tick, groups)
        self.tick = 0

    def run(self) -> list[list[list[int]]]:
        """The seatings found, least spread first (each a list of tables of indices)."""
        with contextlib.suppress(_OutOfNodes):
            self._table((1 << self.n) - 1, [], 0.0)
        return [groups for _s, _t, groups in sorted(self.heap, key=lambda e: (-e[0], -e[1]))]

    def _loses(self, spread: float) -> bool:
        return len(self.heap) >= self.keep and spread >= -self.heap[0][0] - _EPS

    def _table(self, left: int, groups: list[list[int]], spread: float) -> None:
        if not left:
            if not self._loses(spread):
                self.tick += 1
                item = (-spread, -self.tick, [list(g) for g in groups])
                if len(self.heap) < self.keep:
                    heapq.heappush(self.heap, item)
                else:
                    heapq.heapreplace(self.heap, item)
            return
        met = self.met
        x = left
        while x:  # everyone left must still find enough strangers
            low = x & -x
            x ^= low
            if (left & ~met[low.bit_length() - 1] & ~low).bit_count() < self.need:
                return
        head_bit = left & -left
        head = head_bit.bit_length() - 1
        rest = left & ~head_bit
        for size, c in self.counts.items():
            if c:
                self.counts[size] = c - 1
                self._grow(rest, groups, spread, [head], rest & ~met[head], size - 1)
                self.counts[size] = c

    def _grow(
        self,
        left: int,
        groups: list[list[int]],
        spread: float,
        members: list[int],
        cand: int,
        need: int,
    ) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        if need == 0:
            total = spread + self.pts[members[0]] - min(self.pts[m] for m in members)
            if self._loses(total):
                return
            groups.append(members)
            self._table(left, groups, total)
            groups.pop()
            return
        if cand.bit_count() < need:
            return
        top = self.pts[members[0]]
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            if self._loses(spread + top - self.pts[v]):
                break  # later companions are placed lower still: no better
            self._grow(left & ~low, groups, spread, [*members, v], cand & ~self.met[v], need - 1)


def plan_groups(problem: Problem, sizes: Sequence[int], rounds_left: int) -> list[list[int]] | None:
    """Step 1: this round's repeat-free seating of least spread after which the other
    ``rounds_left - 1`` rounds can be repeat-free too (see the module); ``None`` when
    no repeat-free seating of this round was found."""
    zero = _RepeatFree(problem, sizes, PLAN_CANDIDATES, PLAN_CANDIDATE_NODES).run()
    fallback = None
    chosen: tuple[float, int, list[list[int]]] | None = None  # (spread, seat gaps, tables)
    spent = 0
    for groups in zero:
        spread = spread_sum(problem, groups)
        if spent >= PLAN_TOTAL_NODES or (chosen is not None and spread > chosen[0] + _EPS):
            break
        search = _Completion(problem.n, sizes, min(PLAN_NODES, PLAN_TOTAL_NODES - spent))
        verdict = search.run(_met_after(problem, groups), rounds_left - 1)
        spent += search.nodes
        if verdict:
            # Among the completable seatings of the least spread: the fewest players
            # who must take a seat position they have used more than another.
            gaps = sum(table_gaps(t, problem.seats) for t in groups)
            if chosen is None or gaps < chosen[1]:
                chosen = (spread, gaps, groups)
            if gaps == 0:
                break
        elif verdict is None and fallback is None:
            fallback = groups
    if chosen is not None:
        return _in_plan_order(chosen[2], sizes)
    if fallback is not None:
        return _in_plan_order(fallback, sizes)
    return None


def strict_groups(
    problem: Problem,
    sizes: Sequence[int],
    rng: random.Random,
    *,
    max_evals: int,
    window: int,
    rounds_left: int | None,
) -> list[list[int]]:
    """The tables (lists of indices, in table order) under ``strict`` repeat avoidance:
    see the module docstring."""
    if rounds_left is not None and problem.n <= PLAN_MAX_PLAYERS:
        planned = plan_groups(problem, sizes, rounds_left)
        if planned is not None:
            if rounds_left <= 1:  # nothing ahead to keep repeat-free: seats may move
                return seat_polish(problem, planned, max_evals=4 * problem.n)
            return planned
    greedy = greedy_groups(problem, sizes)
    greedy_weighted = weighted_repeats_of(problem, greedy)
    budget = spread_sum(problem, greedy)
    start = slice_groups(problem.n, sizes)
    if spread_sum(problem, start) > budget or greedy_weighted < weighted_repeats_of(problem, start):
        start = greedy
    best: tuple[tuple[int, float], list[list[int]]] | None = None
    for factor in BUDGETS:
        limit = budget * factor if math.isfinite(factor) else math.inf
        groups = _search(problem, start, limit, rng, max_evals, window)
        key = (weighted_repeats_of(problem, groups), spread_sum(problem, groups))
        if best is None or key < best[0]:
            best = (key, groups)
        if key[0] == 0:
            break
        start = groups
    assert best is not None
    groups = best[1]
    if best[0][0] > greedy_weighted or repeat_count(problem, groups) > repeat_count(
        problem, greedy
    ):
        groups = greedy
    return seat_polish(problem, groups, max_evals=4 * problem.n)


def repeat_lower_bound(problem: Problem, sizes: Sequence[int], found: int) -> int:
    """A number of repeat pairs this round cannot go below (``found``: the pairs of the
    seating made, an upper bound): 0 when ``found`` is 0; for small events the exact
    least (an iterative deepening search, when it finishes in its node budget); else
    half the sum, over the players, of the strangers each lacks to fill the smallest
    table (each repeat pair is counted by both its players)."""
    if found == 0:
        return 0
    if problem.n <= PLAN_MAX_PLAYERS:
        exact = _Next(problem.n, sizes).least(_met_after(problem, []), found)
        if exact <= found:  # found + 1: out of nodes
            return exact
    return min(_deficit_bound(problem, sizes), found)


def _deficit_bound(problem: Problem, sizes: Sequence[int]) -> int:
    need = min(sizes) - 1
    others = problem.n - 1
    deficit = 0
    for met in problem.adj:
        strangers = others - len(met)
        if strangers < need:
            deficit += need - strangers
    return (deficit + 1) // 2
