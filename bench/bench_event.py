#!/usr/bin/env python
"""Benchmark: a whole Swiss event through the API with a real Celery worker (issue 26).

``make serve`` (gunicorn, 2 uvicorn workers) and a Celery worker (prefork, 2
processes) run against a private PostgreSQL database and Redis; a tournament of
``--players`` (1,000 by default) checked-in players at tables of 4 is set up, then
started and played round after round through the API: 8 clients post every table's
placements (``POST /api/games/<id>/placements``, token authentication, random places),
and the progression (an outbox message handled by the worker) seats the next round.
Printed per round:

* results/s: the placements posted through the API, beside the recording service alone
  (``game_record_placements`` in one process, no HTTP, on the same database, measured
  once before the event: the baseline of the same run);
* wait: from the last result's answer to the next round existing (committed: what
  ``GET /api/tournaments/<id>/rounds`` shows);
* task: the progression's own time in the worker (its outbox message's delivery start
  to done) and the queue wait (the message's creation, in the last result's
  transaction, to the delivery start).

Goals (issue 26): wait at most 1 s at 1,000 players and 3 s at 5,000, and never more
than the task plus 1 s; results through the API at least half the service's rate.

Needs ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``; the broker is Redis database 15
of that server unless ``BENCH_BROKER_URL`` names one (its queues are emptied first);
``BENCH_DATABASE`` and ``BENCH_PORTS`` as for ``bench_serving.py``.

    DATABASE_URL=postgres://... REDIS_URL=redis://... make bench-event [PLAYERS=5000]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_serving as serving  # noqa: E402  (the shared database, servers and env)
from bench_serving import BASE_DIR, BIN, HOST  # noqa: E402

CLIENTS = 8

SETUP = r"""
import json, sys, time
import django
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from games.models import Game
from tournaments.models import League, Player, Registration, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_placements, tournament_create

players = int(sys.argv[1])
organizer = get_user_model().objects.create_user("bench-organizer", password="x" * 16)
league = League.objects.create(slug="bench-event", name="Bench event", kind="tock")
league.organizers.add(organizer)
tournament = tournament_create(
    league=league, name="Bench event", starts_on=__import__("datetime").date.today(),
    table_sizes=[4], rounds=int(sys.argv[2]), user=organizer,
)
made = Player.objects.bulk_create(
    [Player(handle=f"b{i:05d}", display_name=f"Bench {i}") for i in range(players)]
)
Registration.objects.bulk_create(
    [Registration(tournament=tournament, player=p, checked_in=True) for p in made]
)
# The baseline: the recording service alone, no HTTP, on friendly games of the same size.
games = [
    Game.objects.create(kind="tock", players=[p.handle for p in made[i:i + 4]])
    for i in range(0, min(players, 1000), 4)
]
start = time.perf_counter()
for game in games:
    game_record_placements(
        game=game.pk, placements={h: n + 1 for n, h in enumerate(game.players)}, user=SYSTEM
    )
service_rate = len(games) / (time.perf_counter() - start)
print(json.dumps({
    "token": Token.objects.create(user=organizer).key,
    "tournament": tournament.pk,
    "service_rate": service_rate,
}))
"""


def broker_url(redis_url: str) -> str:
    given = os.environ.get("BENCH_BROKER_URL", "")
    if given:
        return given
    parts = urlsplit(redis_url)
    return urlunsplit(parts._replace(path="/15"))


def worker_env(database_url: str, redis_url: str, broker: str) -> dict[str, str]:
    """The servers' and the worker's environment: as ``make serve`` in production, with
    the tasks sent to the real broker (not run in-process)."""
    env = serving.server_env(database_url, 0, "event", redis_url)
    env.update(
        CELERY_BROKER_URL=broker,
        CELERY_RESULT_BACKEND=broker,
        CELERY_TASK_ALWAYS_EAGER="false",
    )
    return env


@contextlib.contextmanager
def celery_worker(env: dict[str, str], workdir: Path) -> Iterator[int]:
    """A Celery worker (prefork, 2 processes), yielded (its process group id) once it
    says it is ready."""
    path = workdir / "worker.log"
    log = open(path, "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "tock_site",
            "worker",
            "-c",
            "2",
            "--loglevel=INFO",
            "-n",
            f"bench-{os.getpid()}@%h",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + serving.STARTUP_SECONDS
        while b"ready." not in path.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the Celery worker did not start; see {path}")
            time.sleep(0.2)
        yield proc.pid
    finally:
        serving.stop_group(proc, timeout=20)
        log.close()


_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(*, group: int | None = None, database: str | None = None) -> float:
    """CPU time (user + system) of the live processes of process group ``group``, or of
    the PostgreSQL backends serving ``database`` (named in their command line)."""
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            if database is not None:
                title = (proc / "cmdline").read_bytes()
                if not title.startswith(b"postgres: ") or f" {database} ".encode() not in title:
                    continue
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if group is not None and int(fields[2]) != group:  # pgrp
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


class CpuSplit:
    """CPU seconds spent by the web server, the worker, the database's backends and this
    client between :meth:`start` and :meth:`stop`."""

    def __init__(self, *, server: int, worker: int, database: str) -> None:
        self.server, self.worker, self.database = server, worker, database

    def _now(self) -> tuple[float, float, float, float]:
        return (
            cpu_seconds(group=self.server),
            cpu_seconds(group=self.worker),
            cpu_seconds(database=self.database),
            time.process_time(),
        )

    def start(self) -> None:
        self.began = self._now()

    def stop(self) -> tuple[float, ...]:
        return tuple(b - a for a, b in zip(self.began, self._now(), strict=True))


class Api:
    """A keep-alive HTTP connection with the organizer's token (one per thread)."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body)
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=self.headers)
                response = self.conn.getresponse()
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None)
            except (http.client.RemoteDisconnected, ConnectionError):
                # The server closed an idle keep-alive connection: open a new one.
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def post_results(port: int, token: str, tables: list[dict], rng: random.Random) -> float:
    """Every table's placements posted by :data:`CLIENTS` threads; the time of the last
    answer (``time.monotonic``)."""
    todo: queue.Queue = queue.Queue()
    for table in tables:
        if table["game"]["placements"] is None:
            seats = [s["handle"] for s in table["seats"]]
            places = rng.sample(range(1, len(seats) + 1), len(seats))
            todo.put((table["game"]["id"], dict(zip(seats, places, strict=True))))
    last = [0.0]
    errors: list[str] = []

    def client() -> None:
        api = Api(port, token)
        while True:
            try:
                game, places = todo.get_nowait()
            except queue.Empty:
                return
            status, body = api.call("POST", f"/api/games/{game}/placements", {"placements": places})
            if status not in (200, 201):
                errors.append(f"{status} {body}")
            last[0] = max(last[0], time.monotonic())

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"{len(errors)} results refused, e.g. {errors[0]}")
    return last[0]


def wait_for_round(db, tournament: int, number: int, rounds: int, limit: float = 300.0) -> float:
    """Poll the database (every 10 ms) until round ``number`` exists, or the tournament
    is finished after the last round; the moment it was seen."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        row = db.execute(
            "SELECT (SELECT max(number) FROM tournaments_round WHERE tournament_id = %s),"
            " (SELECT status FROM tournaments_tournament WHERE id = %s)",
            [tournament, tournament],
        ).fetchone()
        if (row[0] or 0) >= number or (number > rounds and row[1] == "finished"):
            return time.monotonic()
        time.sleep(0.01)
    raise SystemExit(f"round {number} did not come within {limit:.0f} s")


def progression_timing(db) -> tuple[float, float]:
    """(queue wait, task seconds) of the latest progression message."""
    row = db.execute(
        "SELECT extract(epoch FROM started_at - created_at),"
        " extract(epoch FROM done_at - started_at) FROM outbox_outboxmessage"
        " WHERE topic = 'tournaments.round_progress' AND done_at IS NOT NULL"
        " ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return (float(row[0]), float(row[1])) if row else (float("nan"), float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=int(os.environ.get("PLAYERS", 1000)))
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    database, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database.startswith(("postgres://", "postgresql://")) or not redis_url:
        print("bench_event: skipped (it needs DATABASE_URL on PostgreSQL and REDIS_URL)")
        return
    import psycopg
    import redis

    broker = broker_url(redis_url)
    client = redis.Redis.from_url(broker)
    client.delete("celery", "urgent", "unacked", "unacked_index")  # an earlier run's tasks
    client.close()
    rng = random.Random(26)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, serving.private_database(Path(tmp)) as url:
        workdir = Path(tmp)
        env = worker_env(url, redis_url, broker)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=BASE_DIR,
            env=env,
            check=True,
        )
        out = subprocess.run(
            [sys.executable, "-c", SETUP, str(args.players), str(args.rounds)],
            cwd=BASE_DIR,
            env=env,
            check=True,
            capture_output=True,
        )
        setup = json.loads(out.stdout.decode().strip().splitlines()[-1])
        token, tournament = setup["token"], setup["tournament"]
        print(
            f"Event through the API: {args.players} players, tables of 4, {args.rounds} rounds,"
            f" make serve (2 workers) + Celery worker (2 processes), {CLIENTS} clients;"
            f" load {load:.1f} at the start"
        )
        print(f"  recording service alone (no HTTP): {setup['service_rate']:.0f} results/s")
        print(
            f"  {'round':>5} {'results/s':>10} {'wait s':>8} {'task s':>7} {'queue s':>8}"
            "   CPU ms a result: web / worker / database / clients"
        )
        with (
            serving.running_server("serve", url, workdir, redis_url, env_extra=env) as (
                port,
                server,
            ),
            celery_worker(env, workdir) as worker,
            psycopg.connect(url, autocommit=True) as db,
        ):
            split = CpuSplit(server=server, worker=worker, database=urlsplit(url).path[1:])
            api = Api(port, token)
            status, body = api.call("POST", f"/api/tournaments/{tournament}/start")
            if status != 201:
                raise SystemExit(f"start refused: {status} {body}")
            worst: list[tuple[float, float]] = []
            rates: list[float] = []
            for number in range(1, args.rounds + 1):
                _status, rounds = api.call("GET", f"/api/tournaments/{tournament}/rounds")
                tables = rounds[0]["tables"]
                began = time.monotonic()
                split.start()
                last = post_results(port, token, tables, rng)
                cpu = " / ".join(f"{1000 * c / len(tables):.1f}" for c in split.stop())
                rate = len(tables) / (last - began)
                rates.append(rate)
                if number == args.rounds:  # the last result finishes the tournament itself
                    print(f"  {number:>5} {rate:>10.0f} {'(the event is over)':>25}   {cpu}")
                    break
                seen = wait_for_round(db, tournament, number + 1, args.rounds)
                waited, task = progression_timing(db)
                worst.append((seen - last, task))
                print(
                    f"  {number:>5} {rate:>10.0f} {seen - last:>8.2f} {task:>7.2f} {waited:>8.2f}"
                    f"   {cpu}"
                )
        goal = 1.0 if args.players <= 1000 else 3.0
        met = all(w <= goal and w <= t + 1.0 for w, t in worst)
        print(
            f"  goal (wait <= {goal:.0f} s and <= the task + 1 s in every round):"
            f" {'MET' if met else 'MISSED'}"
        )
        share = min(rates) / setup["service_rate"]
        print(
            f"  goal (results through the API >= half the service's rate): {share:.0%}"
            f" at the slowest round: {'MET' if share >= 0.5 else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
