"""Replay throughput of the game engine (a benchmark, not a test).

Simulates N seeded 4-player TOCK games (default 1,000, with a few mistakes and knocks
so that every rule is on the path), serialises them to JSON Lines text, then times
replaying all of them *including JSON parsing*, in one process on one core, and
prints games/s and events/s (best of ``--repeat`` runs, CPU time of the process), for
both ways of applying a log, side by side:

* ``push_many`` -- what ``replay``/``replay_text`` use (the figure the README quotes);
* ``push`` -- the same logs applied one ``push()`` per event (what live scoring does).

    .venv/bin/python bench/bench_engine.py [--games 1000] [--repeat 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import jsonio, parse_log, replay_text, simulate, start  # noqa: E402


def make_logs(games: int, mistakes: float, knocks: float) -> list[bytes]:
    logs = []
    for seed in range(games):
        events = simulate(game="tock", players=4, seed=seed, mistakes=mistakes, knocks=knocks)
        logs.append("".join(jsonio.dumps(e) + "\n" for e in events).encode())
    return logs


def run(logs: list[bytes]) -> int:
    """Parse and replay every log with ``push_many`` (``replay_text``)."""
    events = 0
    for text in logs:
        events += replay_text(text).event_count
    return events


def run_push(logs: list[bytes]) -> int:
    """Parse every log and apply it one ``push()`` per event."""
    events = 0
    for text in logs:
        log = parse_log(text)
        game = start(log[0])
        push = game.push
        for event in log[1:]:
            push(event)
        events += game.event_count
    return events


def best_of(repeat: int, func, logs: list[bytes]) -> tuple[float, int]:
    best = float("inf")
    events = 0
    for _ in range(repeat):
        t0 = time.process_time()
        events = func(logs)
        best = min(best, time.process_time() - t0)
    return best, events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mistakes", type=float, default=0.02)
    ap.add_argument("--knocks", type=float, default=0.2)
    ap.add_argument("--profile", action="store_true", help="cProfile one replay run")
    args = ap.parse_args()

    t0 = time.process_time()
    logs = make_logs(args.games, args.mistakes, args.knocks)
    sim = time.process_time() - t0
    size = sum(map(len, logs))
    print(f"simulated {len(logs)} 4-player games in {sim:.1f}s ({size / 1e6:.1f} MB JSON Lines)")
    print(f"JSON parser: {jsonio.BACKEND}")

    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(logs)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)

    for label, func in (("push_many", run), ("push", run_push)):
        best, events = best_of(args.repeat, func, logs)
        print(
            f"replay (parse + apply), {label:>9}: {len(logs) / best:,.0f} games/s, "
            f"{events / best:,.0f} events/s "
            f"({events / len(logs):.0f} events/game, best of {args.repeat}: {best:.3f}s)"
        )


if __name__ == "__main__":
    main()
