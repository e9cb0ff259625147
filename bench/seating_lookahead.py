#!/usr/bin/env python
"""Research, not a benchmark of shipped code: can seating with the rest of the event in
view meet issue 9's small-event goal (at most a quarter of the greedy's repeats at no
more than its spread)? The figures in ``tournaments/seating/optimise.py`` ("The spread
rule") and in the README come from this script.

The events are ``bench_seating.py``'s (4-player tables, random results, round 1 random
tables, rounds 2..R measured). Each policy seats its own events (the same seeds); on
every request the greedy baseline is computed too, so the greedy's figures follow each
policy's own history.

Policies (all but the first two use :class:`Exact`, a branch and bound over every seating
of the round, and all keep the greedy's tables as the fallback start):

* ``steps 1-5``: the package's local search alone (``seat_round(..., method=
  "optimise")`` without ``rounds_left``), spread bounded per round by the greedy's.
* ``step 6``: the package's optimiser with ``rounds_left`` (the next round in view,
  :mod:`tournaments.seating.lookahead`), same bound.
* ``exact``: the exact per-round optimum (least weighted repeats, then least spread)
  under the same per-round bound.
* ``lookahead``: as ``exact``, but a seating is charged, besides its repeats, one per
  remaining round that the unmet pairs can no longer seat without a repeat
  (:class:`Future`: the most edge-disjoint repeat-free rounds, a depth-first search over
  table completions on bitmasks). Needs the number of rounds left.
* ``credit``: ``lookahead`` with an event-level bound that is still guaranteed: a round
  may exceed the greedy's spread by what the event saved in earlier rounds, never more.
* ``price M``: ``lookahead`` with no bound; the spread is priced instead (cost =
  repeats + M x the sum of the tables' spreads). No guarantee: the event's spread is
  compared with the greedy's only afterwards.
* ``plane``: ``lookahead`` with no spread bound at all: at 16 players it finds the
  affine plane AG(2, 4) (five repeat-free rounds) whenever round 2 is a transversal.
* ``oracle`` (only with ``--policy oracle``; minutes): a policy no real seating can
  be, that *knows every result in advance*. Each round it tries the ``--keep`` best
  seatings within the greedy's spread (:func:`tournaments.seating.lookahead.candidates`,
  up to 5 weighted repeats above the least), plays each on a copy of the event (the
  random results included, so they fall as they will), and so on up to three rounds
  ahead, each round within the greedy's spread on its own request; it takes the one
  with the fewest repeats over those rounds. What it reaches bounds what any policy
  under the per-round bound can reach on these events (up to the ``keep`` cut).

    .venv/bin/python bench/seating_lookahead.py [--players 16] [--rounds 5] [--seeds 5]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_seating import Event  # noqa: E402

from tournaments.seating import measure, seat_round  # noqa: E402
from tournaments.seating.api import problem_of  # noqa: E402
from tournaments.seating.lookahead import candidates  # noqa: E402
from tournaments.seating.optimise import (  # noqa: E402
    Problem,
    greedy_groups,
    optimise_groups,
    seat_order,
    spread_sum,
)

_EPS = 1e-9


class _OutOfNodes(Exception):
    pass


def _members(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Future:
    """The most rounds (up to ``k``) that can still be seated without a repeat.

    ``free[i]``: bitmask of the players ``i`` has not met. A repeat-free round is a
    partition of everyone into tables of the plan's sizes whose players are pairwise
    free (a *factor*); :meth:`rounds` searches for ``k`` factors with no pair in common
    (the factors are unordered: player 0's first companion increases from one to the
    next). Bounded by ``max_nodes`` (then the answer is a lower bound)."""

    def __init__(self, n: int, sizes: Sequence[int], max_nodes: int) -> None:
        self.full = (1 << n) - 1
        self.counts: dict[int, int] = {}
        for s in sizes:
            self.counts[s] = self.counts.get(s, 0) + 1
        self.nodes = 0
        self.max_nodes = max_nodes
        self.best = 0
        self.k = 0

    def rounds(self, free: list[int], k: int) -> int:
        self.best, self.k = 0, k
        if k > 0:
            with contextlib.suppress(_OutOfNodes):
                self._level(list(free), 0, -1)
        return self.best

    def _level(self, free: list[int], level: int, last: int) -> bool:
        self.best = max(self.best, level)
        if level == self.k:
            return True
        return self._table(free, self.full, dict(self.counts), [], level, last)

    def _table(self, free, left, counts, tables, level, last) -> bool:
        if not left:
            nxt = list(free)
            for t in tables:
                for a in _members(t):
                    nxt[a] &= ~t
            first = _members(tables[0])
            return self._level(nxt, level + 1, first[1] if len(first) > 1 else -1)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        head = (left & -left).bit_length() - 1
        cand = free[head] & left
        if head == 0:
            cand &= ~((1 << (last + 1)) - 1)
        for size, c in counts.items():
            if not c:
                continue
            counts[size] = c - 1
            if self._clique(free, left, counts, tables, level, last, 1 << head, cand, size - 1):
                return True
            counts[size] = c
        return False

    def _clique(self, free, left, counts, tables, level, last, table, cand, need) -> bool:
        if need == 0:
            tables.append(table)
            done = self._table(free, left & ~table, counts, tables, level, last)
            tables.pop()
            return done
        if cand.bit_count() < need:
            return False
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            nxt = cand & free[v]
            if self._clique(free, left, counts, tables, level, last, table | low, nxt, need - 1):
                return True
        return False


class Exact:
    """Branch and bound over every seating of one round (players as bits): least
    ``weighted repeats + pen x (future rounds with no repeat-free seating left) +
    mu x spread sum``, then least spread, with the spread sum at most ``budget``.
    Tables are filled head first (the lowest player left), companions in index order;
    a partial seating is cut as soon as its cost or its spread cannot win. Bounded by
    ``max_nodes`` (deterministic: a count, not a clock)."""

    def __init__(
        self,
        problem: Problem,
        sizes: Sequence[int],
        budget: float,
        future_rounds: int,
        *,
        mu: float = 0.0,
        pen: float = 1.0,
        max_nodes: int = 200_000,
        future_nodes: int = 2_000,
    ) -> None:
        self.n = problem.n
        self.pts = problem.points
        self.adj = problem.adj
        self.sizes = list(sizes)
        self.budget = budget + _EPS
        self.k = future_rounds
        self.mu, self.pen = mu, pen
        self.max_nodes, self.future_nodes = max_nodes, future_nodes
        self.nodes = 0
        self.free = [((1 << self.n) - 1) & ~(1 << i) for i in range(self.n)]
        for i, met in enumerate(self.adj):
            for j in met:
                self.free[i] &= ~(1 << j)
        self.best_key = (math.inf, math.inf)
        self.best_groups: list[list[int]] = []

    def future_penalty(self, tables: Sequence[int]) -> float:
        if self.k <= 0:
            return 0.0
        free = list(self.free)
        for t in tables:
            for a in _members(t):
                free[a] &= ~t
        got = Future(self.n, self.sizes, self.future_nodes).rounds(free, self.k)
        return (self.k - got) * self.pen

    def run(self, start: Sequence[Sequence[int]]) -> list[list[int]]:
        w, s, masks = 0, 0.0, []
        for t in start:
            vals = [self.pts[x] for x in t]
            s += max(vals) - min(vals)
            masks.append(sum(1 << x for x in t))
            w += sum(self.adj[a].get(b, 0) for i, a in enumerate(t) for b in t[i + 1 :])
        self.best_key = (w + self.mu * s + self.future_penalty(masks), s)
        self.best_groups = [list(t) for t in start]
        counts: dict[int, int] = {}
        for size in self.sizes:
            counts[size] = counts.get(size, 0) + 1
        with contextlib.suppress(_OutOfNodes):
            self._table((1 << self.n) - 1, counts, [], [], 0, 0.0)
        return self.best_groups

    def _loses(self, cost: float, spread: float) -> bool:
        best, best_spread = self.best_key
        return cost > best + _EPS or (abs(cost - best) <= _EPS and spread >= best_spread - _EPS)

    def _table(self, left, counts, tables, groups, w, s) -> None:
        if not left:
            cost = w + self.mu * s
            if self._loses(cost, s):
                return
            cost += self.future_penalty(tables)
            if not self._loses(cost, s):
                self.best_key = (cost, s)
                self.best_groups = [list(g) for g in groups]
            return
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        head = (left & -left).bit_length() - 1
        above = left & ~((1 << (head + 1)) - 1)
        for size, c in counts.items():
            if not c:
                continue
            counts[size] = c - 1
            p = self.pts[head]
            self._grow(
                left & ~(1 << head), counts, tables, groups, w, s,
                [head], 1 << head, p, p, above, size - 1, 0,
            )  # fmt: skip
            counts[size] = c

    def _grow(self, left, counts, tables, groups, w, s, members, mask, hi, lo, cand, need, tw):
        if need == 0:
            nw, ns = w + tw, s + hi - lo
            if self._loses(nw + self.mu * ns, ns):
                return
            tables.append(mask)
            groups.append(members)
            self._table(left, counts, tables, groups, nw, ns)
            tables.pop()
            groups.pop()
            return
        room = self.budget - s
        best = self.best_key[0]
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            pv = self.pts[v]
            nhi, nlo = max(hi, pv), min(lo, pv)
            if nhi - nlo > room:
                continue
            av = self.adj[v]
            add = sum(av.get(x, 0) for x in members)
            if w + tw + add + self.mu * (s + nhi - nlo) > best + _EPS:
                continue
            self._grow(
                left & ~low, counts, tables, groups, w, s, [*members, v], mask | low,
                nhi, nlo, cand, need - 1, tw + add,
            )  # fmt: skip


#: name -> (look ahead, bound: "round" | "credit" | None, mu)
POLICIES: dict[str, tuple[bool, str | None, float]] = {
    "steps 1-5": (False, "round", 0.0),
    "step 6": (True, "round", 0.0),
    "exact": (False, "round", 0.0),
    "lookahead": (True, "round", 0.0),
    "credit": (True, "credit", 0.0),
    "price 1.00": (True, None, 1.00),
    "price 0.90": (True, None, 0.90),
    "price 0.85": (True, None, 0.85),
    "price 0.80": (True, None, 0.80),
    "plane": (True, None, 0.0),
}


def _oracle(event: Event, depth: int, keep: int) -> tuple[int, float, list[list[str]]]:
    """``(repeats, spread sum, tables)``: of the ``keep`` best seatings of the event's
    next round within the greedy's spread, the one whose next ``depth`` rounds (this one
    included), played on copies of the event, have the fewest repeats."""
    request = event.request()
    players = list(request.players)
    problem = problem_of(players, request.met)
    sizes = request.sizes()
    greedy = greedy_groups(problem, sizes)
    found = candidates(
        problem, sizes, spread_sum(problem, greedy), greedy,
        keep=keep if depth > 1 else 1, slack=5,
    )  # fmt: skip
    rng = random.Random(request.seed)
    best: tuple[int, float, list[list[str]]] | None = None
    for _w, spread, groups in found:
        tables = [[players[i].id for i in seat_order(t, problem.seats, rng)] for t in groups]
        repeats = measure(tables, request).repeats
        if depth > 1:
            ahead = copy.deepcopy(event)
            ahead.play(tables)
            later, later_spread, _ = _oracle(ahead, depth - 1, keep)
            repeats, spread = repeats + later, spread + later_spread
        if best is None or (repeats, spread) < best[:2]:
            best = (repeats, spread, tables)
    assert best is not None  # the greedy's own tables are always within its spread
    return best


def run_policy(name: str, n: int, rounds: int, seeds: int, keep: int = 8) -> dict:
    if name == "oracle":
        look, bound, mu = True, "round", 0.0
    else:
        look, bound, mu = POLICIES[name]
    out = {"rep": 0, "grep": 0, "spr": 0.0, "gspr": 0.0, "max": 0.0, "over": 0}
    for seed in range(seeds):
        event = Event(n, seed)
        event.play(seat_round(event.request()))  # round 1: random tables
        credit = 0.0
        ev_spr = ev_gspr = 0.0
        for number in range(2, rounds + 1):
            request = event.request()
            start = time.perf_counter()
            if name == "oracle":
                _, _, tables = _oracle(event, min(3, rounds - number + 1), keep)
            elif name.startswith("step"):
                if name == "steps 1-5":
                    request = dataclasses.replace(request, rounds_left=None)
                tables = seat_round(request, method="optimise")
            else:
                players = list(request.players)
                problem = problem_of(players, request.met)
                sizes = request.sizes()
                rng = random.Random(request.seed)
                greedy = spread_sum(problem, greedy_groups(problem, sizes))
                budget = {"round": greedy, "credit": greedy + credit, None: math.inf}[bound]
                exact = Exact(problem, sizes, budget, rounds - number if look else 0, mu=mu)
                groups = exact.run(optimise_groups(problem, sizes, rng))
                credit += greedy - spread_sum(problem, groups)
                tables = [
                    [players[i].id for i in seat_order(t, problem.seats, rng)] for t in groups
                ]
            out["max"] = max(out["max"], time.perf_counter() - start)
            ours = measure(tables, request)
            theirs = measure(seat_round(request, method="greedy"), request)
            out["rep"] += ours.repeats
            out["grep"] += theirs.repeats
            ev_spr += ours.mean_spread
            ev_gspr += theirs.mean_spread
            event.play(tables)
        out["spr"] += ev_spr
        out["gspr"] += ev_gspr
        out["over"] += ev_spr > ev_gspr + _EPS
    measured = (rounds - 1) * seeds
    out["spr"] /= measured
    out["gspr"] /= measured
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--policy", action="append", choices=[*POLICIES, "oracle"])
    parser.add_argument("--keep", type=int, default=8, help="the oracle's seatings a round")
    args = parser.parse_args()
    print(
        f"{args.players} players, rounds 2-{args.rounds}, {args.seeds} events; each policy"
        " its own events, the greedy on the same requests"
    )
    print(
        f"  {'policy':<11} {'repeats':>7} {'greedy':>6} {'ratio':>6} {'spread':>7}"
        f" {'greedy':>7} {'events over':>11} {'max s':>6}"
    )
    for name in args.policy or list(POLICIES):
        r = run_policy(name, args.players, args.rounds, args.seeds, args.keep)
        ratio = r["rep"] / r["grep"] if r["grep"] else 0.0
        print(
            f"  {name:<11} {r['rep']:7d} {r['grep']:6d} {ratio:6.0%} {r['spr']:7.3f}"
            f" {r['gspr']:7.3f} {r['over']:11d} {r['max']:6.2f}"
        )


if __name__ == "__main__":
    main()
