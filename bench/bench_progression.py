#!/usr/bin/env python
"""Benchmark: the progression task's own time (issue 26), beside the code before issue 26.

A Swiss tournament of ``--players`` checked-in players at tables of 4 is started, every
table's placements are recorded through the recording service, and the time of
``round_progress`` (what the progression task runs: finish the round, standings,
seating, the next round's games, tables and seats) is measured, round after round:
CPU time of this process, wall time (the database's share included) and queries.

The same is run on the tree of ``--baseline`` (default: the commit before issue 25 and
26's changes, ``ed4c0fb``), checked out in a temporary git worktree and run with this
virtualenv on a database of its own, the two trees alternated ``--repeat`` times in one
run: the ratio is what counts on a shared machine. ``--baseline none`` measures this
tree only. SQLite by default; PostgreSQL (a throw-away database per run) when
``DATABASE_URL`` names one.

Goal (issue 26): half the baseline's time.

``--collect-first`` runs Python's garbage collector before each timed round (both trees):
without it a full collection (70-90 ms at 1,000 players, the garbage of the result
recordings before the step included) lands in whichever step the process's allocations
put it, the same round run after run, and decides that round's ratio.

``--warm-up`` progresses an untimed event of the same size first, in the same process
and database session (both trees): a Celery worker is long-lived, and without it round 2
is the process's first progression, paying first-use costs (the database session's
catalogue caches, Django's lookups, the first statement of each kind) that a worker pays
once; the cold figures stay available without the flag.

    python bench/bench_progression.py [--players 1000] [--rounds 4] [--repeat 2]
        [--collect-first] [--warm-up]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent

#: Runs in the tree under test (its directory first on ``sys.path``): one JSON line per
#: progressed round.
CHILD = r"""
import datetime, gc, json, random, sys, time
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from tournaments.models import League, Player, Registration
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_placements, tournament_create
from tournaments.services.progression import round_progress, tournament_start

players, rounds, collect = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
warm_up = sys.argv[4] == "1"
organizer = get_user_model().objects.create_user("bench", password="x" * 16)


def event(tag, report):
    # A whole event of ``players`` at tables of 4, every round progressed; each
    # progression timed and printed when ``report``.
    league = League.objects.create(slug=f"bench{tag}", name=f"Bench {tag}", kind="tock")
    league.organizers.add(organizer)
    tournament = tournament_create(
        league=league, name="Bench", starts_on=datetime.date(2026, 1, 1), table_sizes=[4],
        rounds=rounds, auto_progress=False, user=organizer,
    )
    made = Player.objects.bulk_create(
        [Player(handle=f"b{tag}{i:05d}", display_name=f"Bench {i}") for i in range(players)]
    )
    Registration.objects.bulk_create(
        [Registration(tournament=tournament, player=p, checked_in=True) for p in made]
    )
    rnd = tournament_start(tournament=tournament, user=organizer, seed=1)
    rng = random.Random(26)
    for number in range(1, rounds):
        for table in rnd.tables.select_related("game").order_by("number"):
            game = table.game
            places = rng.sample(range(1, len(game.players) + 1), len(game.players))
            game_record_placements(
                game=game.pk, placements=dict(zip(game.players, places)), user=SYSTEM
            )
        if collect:  # the recordings' garbage collected first: the task's own time only
            gc.collect()
        cpu, wall = time.process_time(), time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            rnd = round_progress(round_id=rnd.pk, seed=number)
        if report:
            print(json.dumps({
                "round": number + 1,
                "cpu": time.process_time() - cpu,
                "wall": time.perf_counter() - wall,
                "queries": len(queries.captured_queries),
            }))


if warm_up:  # a worker that has progressed an event before: warm caches, both sides
    event("w", report=False)
event("", report=True)
"""


@contextlib.contextmanager
def database(workdir: Path) -> Iterator[str]:
    """A fresh database's URL: a SQLite file, or a PostgreSQL database dropped after."""
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{workdir / f'{uuid.uuid4().hex}.sqlite3'}"
        return
    import psycopg

    name = f"tock_bench_progress_{uuid.uuid4().hex[:8]}"
    parts = urlsplit(base)
    admin = urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def tree(commit: str, workdir: Path) -> Iterator[Path]:
    """``commit`` checked out in a temporary git worktree (removed after)."""
    path = workdir / f"tree-{commit[:12]}"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(path), commit],
        cwd=BASE_DIR,
        check=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(path)], cwd=BASE_DIR, check=False
        )


def backend() -> str:
    """The database the children run on, as the benches print it."""
    return "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"


def run_child(code_dir: Path, child: str, args: list[str], workdir: Path) -> str:
    """The standard output of the script ``child`` run with ``args`` in the tree
    ``code_dir`` (its directory first on ``sys.path``), in the embedded mode (eager
    tasks, local cache) on a fresh database of its own (:func:`database`). Shared by the
    benchmarks that compare two trees (this one, ``bench_append.py``)."""
    with database(workdir) as url:
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": "",  # the embedded mode: eager tasks, local cache
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "DJANGO_SETTINGS_MODULE": "tock_site.settings",
            "DJANGO_DEBUG": "false",
            "PYTHONPATH": str(code_dir),
        }
        return subprocess.run(
            [sys.executable, "-c", child, *args],
            cwd=code_dir,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout


def run(
    code_dir: Path,
    players: int,
    rounds: int,
    workdir: Path,
    collect: bool = False,
    warm_up: bool = False,
) -> list[dict]:
    """The progressed rounds' figures of one run of :data:`CHILD` in ``code_dir``."""
    flags = ["1" if collect else "0", "1" if warm_up else "0"]
    out = run_child(code_dir, CHILD, [str(players), str(rounds), *flags], workdir)
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--baseline", default="ed4c0fb")
    parser.add_argument(
        "--collect-first",
        action="store_true",
        help="run the garbage collector before each timed round (both trees): a full"
        " collection of the garbage the recordings left (70-90 ms at 1,000 players) then"
        " never lands in the timed step, wherever the process's allocations put it",
    )
    parser.add_argument(
        "--warm-up",
        action="store_true",
        help="progress a whole untimed event of the same size first, in the same process"
        " and on the same connection (both trees): the timed rounds are then those of a"
        " worker that has run a progression before, as a long-lived worker has; without"
        " it round 2 pays the process's and the database session's first-use costs",
    )
    args = parser.parse_args()
    print(
        f"Progression (round_progress), {args.players} players at tables of 4, {backend()},"
        f" load {os.getloadavg()[0]:.1f}; median of {args.repeat} runs a tree, alternated"
        + ("; garbage collected before each timed round" if args.collect_first else "")
        + ("; after an untimed warm-up event" if args.warm_up else "")
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        with contextlib.ExitStack() as stack:
            trees = {"this tree": BASE_DIR}
            if args.baseline != "none":
                trees[args.baseline] = stack.enter_context(tree(args.baseline, workdir))
            figures: dict[str, list[list[dict]]] = {name: [] for name in trees}
            for _ in range(args.repeat):
                for name, path in trees.items():
                    figures[name].append(
                        run(
                            path,
                            args.players,
                            args.rounds,
                            workdir,
                            args.collect_first,
                            args.warm_up,
                        )
                    )
    print(f"  {'round':>5}  {'tree':<12} {'CPU s':>7} {'wall s':>7} {'queries':>8}")
    ratios = []
    for index in range(args.rounds - 1):
        row = {}
        for name, runs in figures.items():
            cpu = statistics.median(r[index]["cpu"] for r in runs)
            wall = statistics.median(r[index]["wall"] for r in runs)
            queries = runs[0][index]["queries"]
            row[name] = wall
            print(f"  {index + 2:>5}  {name:<12} {cpu:>7.3f} {wall:>7.3f} {queries:>8}")
        if len(row) == 2:
            ratios.append(row["this tree"] / row[args.baseline])
    if ratios:
        worst = max(ratios)
        print(
            f"  this tree's wall time / the baseline's: "
            f"{', '.join(f'{r:.2f}' for r in ratios)}"
            f" (goal: at most 0.50: {'MET' if worst <= 0.5 else 'MISSED'})"
        )


if __name__ == "__main__":
    main()
