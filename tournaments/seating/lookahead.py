"""Small events: this round's tables chosen with the next round in view.

Step 6 of :func:`tournaments.seating.optimise.optimise_groups`, used when the request
says how many rounds are left in the stage (``rounds_left``, this round included) and the
event is small (``n <= LOOKAHEAD_MAX_PLAYERS``); everything works on player indices and
bitmasks.

1. **Candidates** (:func:`candidates`): a branch and bound over every seating of the
   round (each table filled from the lowest player left, companions in index order)
   keeps the ``CANDIDATES`` best seatings by (weighted repeats, then spread sum) among
   those within the spread budget (the greedy's spread sum: the per-round rule of
   :mod:`.optimise`) and at most ``SLACK`` weighted repeats above the best. The local
   search's tables are always among them unless that many better ones were found.
2. With ``rounds_left == 1`` (the last round) the best candidate is the answer: the
   exact per-round optimum when the node budget sufficed.
3. **Next round** (:func:`next_round_repeats`), with 2 or more rounds left: for each
   candidate, in that order, the fewest repeat pairs the round after it can have (the
   pairs met so far plus the candidate's; no spread bound, since the points will
   change): an iterative deepening search on bitmasks (0 repeats allowed, then 1, ...),
   cut at the count that can no longer beat the best candidate so far. (Bounding that
   next round's spread by the greedy's on the current points, times 1.0 to 1.6,
   measured 41-55% of the greedy's repeats over 12 events against 45% without: noise
   at best, not adopted.)
4. **Choice**: least (weighted repeats now + repeats of the next round), then fewer
   repeats now (they are certain, the next round's an estimate), then least spread.

So a round may take a repeat or two more than the least possible when that leaves the
next round with fewer (at 16 players at tables of 4, five repeat-free rounds exist only
when the rounds form the parallel classes of the affine plane AG(2, 4); a round-by-round
optimiser walks into dead ends). Looking further than one round ahead (how many
repeat-free rounds the unmet pairs still allow) changed nothing under the per-round
spread bound: measured in ``bench/seating_lookahead.py``. The caller keeps its own
tables unless these have no more repeat pairs than the greedy baseline and no more
spread.

The work is bounded by counts (``MAX_NODES`` for the candidates, ``NEXT_NODES`` for each
next-round search), not by a clock: deterministic on every machine. Measured on the
bench's events (5 rounds, tables of 4, rounds 2-5 of 5 events, a machine loaded 4 on
its 2 cores): 16 players 0.35 s a round at most, repeats 51% of the greedy's -> 37%;
20 players 0.48 s, 45% -> 39%; 24 players 0.73 s, 40% -> 37%; 28 players 3.1 s and no
gain, hence the size limit. Larger budgets (100,000 and 10,000 nodes) found nothing
more on 12 events and took up to 2.2 s.
"""

from __future__ import annotations

import contextlib
import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .optimise import Problem

#: Largest event the lookahead is used for (the candidates' branch and bound grows fast).
LOOKAHEAD_MAX_PLAYERS = 24
#: Seatings of this round compared on their next round.
CANDIDATES = 20
#: A candidate may have up to this many weighted repeats more than the best one.
SLACK = 2
#: Node budget of the candidates' branch and bound.
MAX_NODES = 50_000
#: Node budget of the next-round searches, for one call in all.
NEXT_NODES = 5_000
_EPS = 1e-9


class _OutOfNodes(Exception):
    pass


class _Candidates:
    """The ``keep`` best seatings by (weighted repeats, spread sum) within ``budget``."""

    def __init__(
        self,
        problem: Problem,
        sizes: Sequence[int],
        budget: float,
        keep: int,
        slack: int,
        max_nodes: int = MAX_NODES,
    ) -> None:
        self.max_nodes = max_nodes
        self.n = problem.n
        self.pts = problem.points
        self.adj = problem.adj
        self.budget = budget + _EPS
        self.keep = keep
        self.slack = slack
        self.counts: dict[int, int] = {}
        for size in sizes:
            self.counts[size] = self.counts.get(size, 0) + 1
        self.heap: list[tuple[int, float, int, list[list[int]]]] = []  # (-w, -s, tick, groups)
        self.best_w: int | None = None
        self.tick = 0
        self.nodes = 0

    def add(self, w: int, s: float, groups: list[list[int]]) -> None:
        self.tick += 1
        item = (-w, -s, -self.tick, [list(g) for g in groups])
        if len(self.heap) < self.keep:
            heapq.heappush(self.heap, item)
        else:
            heapq.heapreplace(self.heap, item)
        if self.best_w is None or w < self.best_w:
            self.best_w = w

    def loses(self, w: int, s: float) -> bool:
        """Whether a seating of ``w`` repeats and ``s`` spread (or a partial one: both
        only grow) can no longer enter the kept set."""
        if self.best_w is not None and w > self.best_w + self.slack:
            return True
        if len(self.heap) < self.keep:
            return False
        worst_w, worst_s = -self.heap[0][0], -self.heap[0][1]
        return w > worst_w or (w == worst_w and s >= worst_s - _EPS)

    def run(self) -> None:
        with contextlib.suppress(_OutOfNodes):
            self._table((1 << self.n) - 1, [], 0, 0.0)

    def _table(self, left: int, groups: list[list[int]], w: int, s: float) -> None:
        if not left:
            if not self.loses(w, s):
                self.add(w, s, groups)
            return
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        head = (left & -left).bit_length() - 1
        above = left & ~((1 << (head + 1)) - 1)
        p = self.pts[head]
        for size, c in self.counts.items():
            if c:
                self.counts[size] = c - 1
                self._grow(left & ~(1 << head), groups, w, s, [head], p, p, above, size - 1, 0)
                self.counts[size] = c

    def _grow(self, left, groups, w, s, members, hi, lo, cand, need, tw) -> None:
        if need == 0:
            nw, ns = w + tw, s + hi - lo
            if self.loses(nw, ns):
                return
            groups.append(members)
            self._table(left, groups, nw, ns)
            groups.pop()
            return
        room = self.budget - s
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            pv = self.pts[v]
            nhi = pv if pv > hi else hi
            nlo = pv if pv < lo else lo
            if nhi - nlo > room:
                continue
            av = self.adj[v]
            add = tw
            for x in members:
                add += av.get(x, 0)
            if self.loses(w + add, s):
                continue
            nxt = left & ~low
            self._grow(nxt, groups, w, s, [*members, v], nhi, nlo, cand, need - 1, add)


def candidates(
    problem: Problem,
    sizes: Sequence[int],
    budget: float,
    start: Sequence[Sequence[int]],
    *,
    keep: int = CANDIDATES,
    slack: int = SLACK,
) -> list[tuple[int, float, list[list[int]]]]:
    """Step 1: ``(weighted repeats, spread sum, groups)``, best first: the ``keep`` best
    within ``budget`` and ``slack`` weighted repeats of the best; ``start`` (within the
    budget) is always kept unless ``keep`` better seatings were found."""
    search = _Candidates(problem, sizes, budget, keep, slack)
    w = sum(problem.adj[a].get(b, 0) for t in start for i, a in enumerate(t) for b in t[i + 1 :])
    s = sum(max(problem.points[x] for x in t) - min(problem.points[x] for x in t) for t in start)
    if s <= budget + _EPS:
        search.add(w, s, [list(t) for t in start])
    search.run()
    found = sorted(search.heap, key=lambda item: (-item[0], -item[1], -item[2]))
    return [(-nw, -ns, groups) for nw, ns, _, groups in found]


class _Next:
    """Step 3's searches (``NEXT_NODES`` nodes each)."""

    def __init__(self, n: int, sizes: Sequence[int]) -> None:
        self.full = (1 << n) - 1
        self.counts: dict[int, int] = {}
        for size in sizes:
            self.counts[size] = self.counts.get(size, 0) + 1
        self.nodes = 0

    def least(self, met: list[int], limit: int) -> int:
        """Fewest repeat pairs of one round (``met[i]``: bitmask of the players ``i`` has
        met), if at most ``limit``; else ``limit + 1`` (also when out of nodes)."""
        self.met = met
        self.nodes = 0
        try:
            for allowed in range(limit + 1):
                if self._table(self.full, allowed):
                    return allowed
        except _OutOfNodes:
            pass
        return limit + 1

    def _table(self, left: int, allowed: int) -> bool:
        if not left:
            return True
        self.nodes += 1
        if self.nodes > NEXT_NODES:
            raise _OutOfNodes
        head = (left & -left).bit_length() - 1
        above = left & ~((1 << (head + 1)) - 1)
        for size, c in self.counts.items():
            if c:
                self.counts[size] = c - 1
                done = self._grow(left & ~(1 << head), allowed, 1 << head, above, size - 1)
                self.counts[size] = c
                if done:
                    return True
        return False

    def _grow(self, left: int, allowed: int, table: int, cand: int, need: int) -> bool:
        if need == 0:
            return self._table(left, allowed)
        if cand.bit_count() < need:
            return False
        met = self.met
        while cand:
            low = cand & -cand
            cand ^= low
            add = (met[low.bit_length() - 1] & table).bit_count()
            if add <= allowed and self._grow(
                left & ~low, allowed - add, table | low, cand, need - 1
            ):
                return True
        return False


def next_round_repeats(
    problem: Problem, sizes: Sequence[int], groups: Sequence[Sequence[int]], limit: int
) -> int:
    """Step 2 for one candidate (a fresh node budget): the fewest repeat pairs of the
    round after ``groups``, or ``limit + 1`` if more (or not found in budget)."""
    return _Next(problem.n, sizes).least(_met_after(problem, groups), limit)


def _met_after(problem: Problem, groups: Sequence[Sequence[int]]) -> list[int]:
    met = [0] * problem.n
    for i, others in enumerate(problem.adj):
        for j in others:
            met[i] |= 1 << j
    for t in groups:
        mask = 0
        for x in t:
            mask |= 1 << x
        for x in t:
            met[x] |= mask & ~(1 << x)
    return met


def lookahead_groups(
    problem: Problem,
    sizes: Sequence[int],
    budget: float,
    start: Sequence[Sequence[int]],
    rounds_left: int = 2,
    max_pairs: int | None = None,
) -> list[list[int]]:
    """This round's tables (steps 1-4 of the module docstring), with ``rounds_left``
    rounds left in the stage (this one included): the spread sum within ``budget``;
    ``start`` (the local search's tables) when no candidate is found."""
    found = candidates(problem, sizes, budget, start)
    if max_pairs is not None:
        found = [c for c in found if _pairs(problem, c[2]) <= max_pairs]
    if not found:
        return [list(t) for t in start]
    if rounds_left < 2:
        return _in_plan_order(found[0][2], sizes)
    nxt = _Next(problem.n, sizes)
    best: tuple[int, int, float] | None = None
    chosen = found[0][2]
    for w, s, groups in found:
        if best is not None and w >= best[0]:
            break  # the next round adds 0 at best
        limit = (best[0] - w - 1) if best is not None else problem.n * problem.n
        total = w + nxt.least(_met_after(problem, groups), limit)
        key = (total, w, s)
        if best is None or key < best:
            best = key
            chosen = groups
    return _in_plan_order(chosen, sizes)


def _pairs(problem: Problem, groups: Sequence[Sequence[int]]) -> int:
    """Repeat pairs (each pair who met once or more counts once)."""
    adj = problem.adj
    return sum(1 for t in groups for i, a in enumerate(t) for b in t[i + 1 :] if b in adj[a])


def _in_plan_order(groups: Sequence[Sequence[int]], sizes: Sequence[int]) -> list[list[int]]:
    """``groups`` (found head first, so in standings order) reordered to the plan's
    table sizes: the first table of each size goes to that size's first place."""
    queues: dict[int, list[list[int]]] = {}
    for g in groups:
        queues.setdefault(len(g), []).append(list(g))
    return [queues[size].pop(0) for size in sizes]
