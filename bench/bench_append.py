#!/usr/bin/env python
"""Benchmark: one live event appended late in a long game, beside a baseline tree.

A scorekeeper's append (``games.services.game_append_event``: the row lock, the engine
restored from the cached state, the event checked and stored, the state cached again)
is timed at events ``--from`` to ``--to`` of seeded 4-player UNO games whose earlier
events were attached as a log: wall time of each call, the database's share included,
in one process, on a database of its own. The cached state no longer carries the log
lines (``Game.cache_state``), so an append at event 300 costs what one at event 30 does;
the baseline (default ``e2ae17c``: the UNO engine as here, the cached state with its
lines) cached them, so its row grew with every event.

The two trees run alternately ``--repeat`` times (a git worktree for the baseline, this
virtualenv for both); each prints the median and the mean of its appends, and the
ratio of the medians is what counts on a shared machine. PostgreSQL when
``DATABASE_URL`` names it (a throw-away database per run), else SQLite.

    python bench/bench_append.py [--games 3] [--from 300] [--to 360] [--repeat 3]
        [--baseline e2ae17c]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_progression import BASE_DIR, backend, run_child, tree  # noqa: E402

#: Runs in the tree under test (its directory first on ``sys.path``): one JSON line,
#: the appends' wall times in seconds.
CHILD = r"""
import json, sys, time
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from games import engine
from games import services

games, first, last = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
times = []
for seed in range(games):
    log = engine.simulate("uno", players=4, seed=seed)
    game = services.game_create(kind="uno", players=list(log[0]["players"]), user=None)
    services.game_attach_log(game=game, log=log[:first], user=None)
    for i in range(first, min(len(log), last)):
        t0 = time.perf_counter()
        services.game_append_event(game=game.pk, event=log[i], expected_sequence=i + 1, user=None)
        times.append(time.perf_counter() - t0)
print(json.dumps(times))
"""


def run(code_dir: Path, games: int, first: int, last: int, workdir: Path) -> list[float]:
    """The append times of one run of :data:`CHILD` in ``code_dir``."""
    out = run_child(code_dir, CHILD, [str(games), str(first), str(last)], workdir)
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--from", dest="first", type=int, default=300)
    parser.add_argument("--to", dest="last", type=int, default=360)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="e2ae17c")
    args = parser.parse_args()
    print(
        f"Appends at events {args.first + 1}-{args.last} of {args.games} 4-player UNO games,"
        f" {backend()}, load {os.getloadavg()[0]:.1f}; {args.repeat} runs a tree, alternated"
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        with contextlib.ExitStack() as stack:
            trees = {"this tree": BASE_DIR}
            if args.baseline != "none":
                trees[args.baseline] = stack.enter_context(tree(args.baseline, workdir))
            medians: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(args.repeat):
                for name, path in trees.items():
                    times = run(path, args.games, args.first, args.last, workdir)
                    medians[name].append(statistics.median(times))
                    print(
                        f"  {name:<12} median {statistics.median(times) * 1e3:.2f} ms,"
                        f" mean {statistics.mean(times) * 1e3:.2f} ms ({len(times)} appends)"
                    )
    if len(medians) == 2:
        ratios = [a / b for a, b in zip(*medians.values(), strict=True)]
        print(
            "  this tree's median / the baseline's, run by run: "
            + ", ".join(f"{r:.2f}" for r in ratios)
        )


if __name__ == "__main__":
    main()
