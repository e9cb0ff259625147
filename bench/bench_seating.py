#!/usr/bin/env python
"""Benchmark: issue 9's seating optimiser against the two baselines.

Simulated Swiss events at 4-player tables with random results (3/2/1/0 points by a
random finishing order). Round 1 is random tables; every later round is seated by the
optimiser (``seat_round(..., method="optimise")``), and on the *same* input (standings,
points, met pairs, seat history) the two baselines are computed in the same run:
``slice`` (today's seating: the standings cut into tables) and ``greedy`` (each table
takes the best player left, then the next ones in standings order that player has not
met). Measured: time of the call, repeat pairs (pairs at a table who met before), mean
spread (mean over tables of highest - lowest points), seat cost (sum of the times each
player already sat in the position given).

* 1,000 players: 5 rounds simulated, round 6 measured. Goal: 0 repeat pairs, spread no
  more than the greedy's, under 0.5 s.
* 16, 40 and 100 players: 5 rounds, rounds 2-5 summed (round 1 has no history), over
  several seeds. Goal: at most a quarter of the greedy's repeats, spread no more than
  the greedy's. Then, for information, the same events with each method seating its
  own rounds (so the baselines carry their own history of repeats).

    python bench/bench_seating.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    SeatingPlayer,
    SeatingRequest,
    measure,
    seat_imbalance,
    seat_round,
)

SIZE = 4
METHODS = ("optimise", "greedy", "slice")


class Event:
    """A simulated event of ``rounds`` rounds; each request says how many are left
    (``rounds_left``, this one included), as the round services do."""

    def __init__(self, n: int, seed: int, rounds: int = 5) -> None:
        self.rounds = rounds
        self.rng = random.Random(seed)
        self.ids = [f"p{i:04d}" for i in range(n)]
        self.points = dict.fromkeys(self.ids, 0.0)
        self.seats = {p: [0] * SIZE for p in self.ids}
        self.met: dict[frozenset, int] = {}
        self.round = 0
        self.seed = seed

    def request(self) -> SeatingRequest:
        order = sorted(self.ids, key=lambda p: (-self.points[p], p))
        return SeatingRequest(
            players=tuple(SeatingPlayer(p, self.points[p], tuple(self.seats[p])) for p in order),
            table_sizes=(SIZE, 3),
            met=dict(self.met),
            seed=f"{self.seed}:{self.round + 1}",
            shuffle=self.round == 0,
            rounds_left=max(1, self.rounds - self.round),
        )

    def play(self, tables: list[list[str]]) -> None:
        self.round += 1
        for table in tables:
            for pos, p in enumerate(table):
                self.seats[p][pos] += 1
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    pair = frozenset((a, b))
                    self.met[pair] = self.met.get(pair, 0) + 1
            finish = self.rng.sample(table, len(table))
            for place, p in enumerate(finish):
                self.points[p] += len(table) - 1 - place


def run_round(event: Event, totals: dict) -> None:
    """Seat the next round with every method on the same request; play the optimiser's."""
    request = event.request()
    chosen = None
    for method in METHODS:
        start = time.perf_counter()
        tables = seat_round(request, method=method)
        elapsed = time.perf_counter() - start
        m = measure(tables, request)
        row = totals.setdefault(method, {"time": 0.0, "max": 0.0, "rep": 0, "spr": 0.0, "seat": 0})
        row["time"] += elapsed
        row["max"] = max(row["max"], elapsed)
        row["rep"] += m.repeats
        row["spr"] += m.mean_spread
        row["seat"] += m.seat_cost
        if method == "optimise":
            chosen = tables
    event.play(chosen)


def report(title: str, totals: dict, rounds: int) -> None:
    print(f"  {title}")
    print(
        f"    {'method':<9} {'time s':>8} {'max s':>7} {'repeats':>8} {'spread':>7} {'seatcost':>8}"
    )
    for method in METHODS:
        r = totals[method]
        print(
            f"    {method:<9} {r['time']:8.3f} {r['max']:7.3f} {r['rep']:8d}"
            f" {r['spr'] / rounds:7.3f} {r['seat']:8d}"
        )


def bench_big(n: int = 1000, rounds: int = 6, seed: int = 1) -> bool:
    event = Event(n, seed, rounds)
    event.play(seat_round(event.request()))  # round 1: random tables
    for _ in range(2, rounds):
        event.play(seat_round(event.request(), method="optimise"))
    totals: dict = {}
    run_round(event, totals)
    report(f"{n} players, round {rounds} (5 rounds by the optimiser first)", totals, 1)
    opt, greedy = totals["optimise"], totals["greedy"]
    ok = opt["rep"] == 0 and opt["spr"] <= greedy["spr"] + 1e-9 and opt["time"] < 0.5
    print(f"    goal (0 repeats, spread <= greedy, < 0.5 s): {'MET' if ok else 'MISSED'}")
    return ok


def bench_small(n: int, rounds: int, seeds: int) -> bool:
    totals: dict = {}
    seating_worst = first_worst = 0
    for seed in range(seeds):
        event = Event(n, seed, rounds)
        event.play(seat_round(event.request()))  # round 1: random tables
        for _ in range(2, rounds + 1):
            run_round(event, totals)
        seating_worst = max(seating_worst, seat_imbalance(event.seats, SIZE))
        first_worst = max(first_worst, max(s[0] for s in event.seats.values()))
    measured = (rounds - 1) * seeds
    report(
        f"{n} players, rounds 2-{rounds}, {seeds} events (sums; spread is the mean)",
        totals,
        measured,
    )
    opt, greedy = totals["optimise"], totals["greedy"]
    ok = opt["rep"] * 4 <= greedy["rep"] and opt["spr"] <= greedy["spr"] + 1e-9
    ratio = opt["rep"] / greedy["rep"] if greedy["rep"] else 0.0
    bound = math.ceil(rounds / SIZE) + 1
    print(
        f"    repeats {ratio:.0%} of the greedy's; seats over {rounds} rounds: most starts by"
        f" one player {first_worst} (bound {bound}), worst imbalance {seating_worst}"
    )
    print(f"    goal (repeats <= greedy / 4, spread <= greedy): {'MET' if ok else 'MISSED'}")
    return ok


def bench_own_events(n: int, rounds: int, seeds: int) -> None:
    """Each method seats its own events (same seeds), so its history is its own."""
    cells = []
    for method in METHODS:
        rep, spr = 0, 0.0
        for seed in range(seeds):
            event = Event(n, seed, rounds)
            event.play(seat_round(event.request()))
            for _ in range(2, rounds + 1):
                request = event.request()
                tables = seat_round(request, method=method)
                m = measure(tables, request)
                rep, spr = rep + m.repeats, spr + m.mean_spread
                event.play(tables)
        cells.append(f"{method} {rep} repeats, spread {spr / ((rounds - 1) * seeds):.3f}")
    print(f"    own events, {n} players: " + "; ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="events per small size")
    args = parser.parse_args()
    print("Seating (issue 9): optimiser vs the slice and greedy baselines, 4-player tables")
    start = time.perf_counter()
    results = [bench_big()]
    for n in (16, 40, 100):
        results.append(bench_small(n, 5, args.seeds))
    print("  the same events, each method seating its own (its own history):")
    for n in (16, 40, 100):
        bench_own_events(n, 5, args.seeds)
    print(f"  all goals met: {all(results)}  ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
