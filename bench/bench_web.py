#!/usr/bin/env python
"""Benchmark ``make bench-web``: the site as served by ``make serve`` beside plain daphne,
pages of a small and a big event and live appends, side by side from one run.

Reuses the servers, the private database and the closed-loop load client of
``bench/bench_serving.py`` (see there: 127.0.0.1 only, keep-alive, DEBUG off; the
pages are loaded by ``wrk`` when it is installed, which ``make bench-web`` tries to do).
With ``REDIS_URL`` set the servers use Redis for the cache under a private key prefix,
as in production (Celery tasks still run in-process); without it each process would
have its own memory cache, so the page cache is off for every setup.

Setups (``--setups``): ``daphne`` (the baseline) and ``serve`` as deployed (page cache
on), and for the pages also ``daphne-nocache`` and ``serve-nocache`` (page cache off:
every request renders).
The private database holds the demo (its running 24-player tournament) and a synthetic
running 1,000-player, 5-round event (``tests/big_event.py``). Prints requests/s, p50,
p99, bytes and errors for:

* ``/healthz/live``, the home page, the tournament page (24 and 1,000 players), the API
  standings (1,000 players), a player page;
* live appends: ``POST /api/games/<id>/events`` with token authentication by 1, 8 and
  32 scorekeepers at once, each on their own games (a simulated TOCK log, one event per
  request, an Idempotency-Key each); the reference is the recording service alone
  (``game_record_event`` in one process, no HTTP) on the same database;
* the peak number of PostgreSQL connections of each setup;
* the peak resident memory of each setup's largest process (a ``make serve`` worker)
  once the pages are loaded (with the page cache off, a worker rendering uncached
  pages: ``bench/bench_page.py`` measures the same in one process).

PostgreSQL: ``DATABASE_URL`` must name one (a private ``tock_bench_<pid>`` database is
created beside it and dropped, or ``BENCH_DATABASE`` names one to use: emptied first,
kept); without it the run uses SQLite and says so (SQLite serialises writers: the
append figures then say little). Ports: free ones, or those ``BENCH_PORTS`` lists
(``18001,18002,...``, one per server setup). Bounded: about 2 minutes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tock python bench/bench_web.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_serving as serving  # noqa: E402  (the shared servers and load client)
from bench_serving import HOST, Result  # noqa: E402

BASE_DIR = serving.BASE_DIR
#: Concurrent scorekeepers measured (each on their own games).
APPEND_LEVELS = (1, 8, 32)
#: Games per scorekeeper (a simulated log has ~440 events; a fast one may need more).
GAMES_PER_KEEPER = 3
HANDLES = ["bw-ann", "bw-bob", "bw-cid", "bw-dee"]


# --- data ----------------------------------------------------------------------------------

PREPARE = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
import games.engine as engine
from games.models import Game
from tests.big_event import build_big_event
from tournaments.models import League, Player, Role, Round, Seat, Table, Tournament, TournamentRole

slots, per_keeper, handles = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
big = build_big_event(players=1000, rounds=5, slug="bench-big")
demo = Tournament.objects.filter(league__slug="demo-tock").order_by("-id").first()
player = Player.objects.filter(registrations__tournament=demo).order_by("id").first()
league = League.objects.create(name="Bench appends", slug="bench-appends", kind="tock")
event = Tournament.objects.create(league=league, name="Appends", slug="appends",
                                  starts_on="2026-01-01", status="running")
rnd = Round.objects.create(tournament=event, number=1, status="running")
people = [Player.objects.create(handle=h, display_name=h) for h in handles]
log = engine.simulate(game="tock", players=handles, seed=5, mistakes=0, knocks=0)
count = slots * per_keeper
games = Game.objects.bulk_create(Game(kind="tock", players=handles) for _ in range(count))
tables = Table.objects.bulk_create(
    Table(round=rnd, number=i, game=g) for i, g in enumerate(games, 1)
)
Seat.objects.bulk_create(
    Seat(table=t, position=p, player=pl) for t in tables for p, pl in enumerate(people)
)
User = get_user_model()
keepers = []
for i in range(slots):
    user = User.objects.create_user(username=f"bench-keeper-{i}", password=None)
    TournamentRole.objects.create(tournament=event, user=user, role=Role.SCOREKEEPER)
    token = Token.objects.create(user=user).key
    mine = [g.pk for g in games[i * per_keeper:(i + 1) * per_keeper]]
    keepers.append({"token": token, "games": mine})
print(json.dumps({"demo": demo.pk, "big": big.pk, "player": player.handle, "log": log,
                  "keepers": keepers}))
"""

SERVICE_ALONE = r"""
import json, sys, time
import django
django.setup()
import games.engine as engine
from games.models import Game
from tournaments.models import Round, Seat, Table, Player, Tournament
from django.contrib.auth import get_user_model
from tournaments.services import game_record_event

seconds, handles = float(sys.argv[1]), sys.argv[2].split(",")
log = engine.simulate(game="tock", players=handles, seed=5, mistakes=0, knocks=0)
rnd = Round.objects.get(tournament__slug="appends", number=1)
user = get_user_model().objects.get(username="bench-keeper-0")
people = list(Player.objects.filter(handle__in=handles))
people.sort(key=lambda p: handles.index(p.handle))
done, until = 0, time.perf_counter() + seconds
start = time.perf_counter()
number = 10_000
while time.perf_counter() < until:
    number += 1
    game = Game.objects.create(kind="tock", players=handles)
    table = Table.objects.create(round=rnd, number=number, game=game)
    Seat.objects.bulk_create(Seat(table=table, position=i, player=p) for i, p in enumerate(people))
    for sequence, event in enumerate(log, start=1):
        game_record_event(game=game.pk, event=event, expected_sequence=sequence, user=user,
                          idempotency_key=f"s-{game.pk}-{sequence}")
        done += 1
        if time.perf_counter() >= until:
            break
print(json.dumps({"events": done, "seconds": time.perf_counter() - start}))
"""


def run_django(code: str, database_url: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=BASE_DIR,
        env=serving.server_env(database_url, 0),
        check=True,
        capture_output=True,
    )
    return json.loads(out.stdout.decode().strip().splitlines()[-1])


# --- the append client ---------------------------------------------------------------------


async def _keeper(
    port: int, keeper: dict, log: list, until: float, start: float, result: Result
) -> None:
    """One scorekeeper: appends the log's events one by one to its games, in turn."""
    reader = writer = None
    for game in keeper["games"]:
        for sequence, event in enumerate(log, start=1):
            if time.perf_counter() >= until:
                break
            body = json.dumps({"event": event, "sequence": sequence}).encode()
            request = (
                f"POST /api/games/{game}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                f"Authorization: Token {keeper['token']}\r\nIdempotency-Key: {game}-{sequence}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            began = time.perf_counter()
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(HOST, port)
                writer.write(request)
                status, size, close = await asyncio.wait_for(serving._read_response(reader), 30)
            except (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError):
                close, status, size = True, 0, 0
            result.requests += 1
            if began >= start:
                if status in (200, 201):
                    result.latencies.append(time.perf_counter() - began)
                    result.bytes = size
                else:
                    result.errors += 1
            if close and writer is not None:
                writer.close()
                reader = writer = None
            if status not in (200, 201):
                break  # this game is out of step: on to the next one
    if writer is not None:
        writer.close()


def appends(port: int, pgid: int, keepers: list[dict], log: list, seconds: float) -> Result:
    async def run() -> Result:
        result = Result()
        now = time.perf_counter()
        start, until = now + 0.5, now + 0.5 + seconds
        await asyncio.gather(*(_keeper(port, k, log, until, start, result) for k in keepers))
        result.seconds = seconds
        return result

    before = serving.group_cpu_seconds(pgid)
    result = asyncio.run(run())
    result.cpu_seconds = serving.group_cpu_seconds(pgid) - before
    return result


# --- main ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per row")
    parser.add_argument("--connections", type=int, default=16, help="for the pages")
    parser.add_argument("--setups", default="daphne,serve,daphne-nocache,serve-nocache")
    args = parser.parse_args()
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    writers = [name for name in setups if not name.endswith(serving.NOCACHE)]
    redis_url = os.environ.get("REDIS_URL", "")
    began = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="tock-bench-web-"))
    try:
        with serving.private_database(workdir) as database_url:
            backend = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
            if backend == "SQLite":
                print("Note: no PostgreSQL DATABASE_URL; SQLite serialises writers.")
            serving.prepare(database_url)
            slots = len(writers) * sum(APPEND_LEVELS)
            data = run_django(
                PREPARE, database_url, str(slots), str(GAMES_PER_KEEPER), ",".join(HANDLES)
            )
            keepers = iter(data["keepers"])
            paths = {
                "liveness": "/healthz/live",
                "home": "/",
                "tournament (24 players)": f"/tournaments/{data['demo']}/",
                "tournament (1,000 players)": f"/tournaments/{data['big']}/",
                "API standings (1,000)": f"/api/tournaments/{data['big']}/standings",
                "player page": f"/players/{data['player']}/",
            }
            results: dict[str, dict[str, Result]] = {name: {} for name in setups}
            with contextlib.ExitStack() as stack:
                stack.callback(serving.redis_forget, redis_url)
                servers = {
                    name: stack.enter_context(
                        serving.running_server(name, database_url, workdir, redis_url)
                    )
                    for name in setups
                }
                watches = {
                    name: stack.enter_context(
                        serving.ConnectionWatch(database_url, serving.tagged(name))
                    )
                    for name in setups
                }
                for label, path in paths.items():
                    for name, (port, pgid) in servers.items():
                        results[name][label] = serving.page_load(
                            port, pgid, path, args.connections, args.seconds
                        )
                # After the pages, before the appends: what rendering them took.
                memory = {
                    name: serving.group_peak_memory_mb(pgid)
                    for name, (_port, pgid) in servers.items()
                }
                for level in APPEND_LEVELS:
                    label = f"appends, {level} scorekeeper{'s' if level > 1 else ''}"
                    paths[label] = "POST /api/games/<id>/events"
                    for name in writers:
                        port, pgid = servers[name]
                        mine = [next(keepers) for _ in range(level)]
                        results[name][label] = appends(port, pgid, mine, data["log"], args.seconds)
                peaks = {name: watch.peak for name, watch in watches.items()}
            serving.report(results, peaks, paths, backend, args)
            print(
                "peak resident memory of the largest process (a worker) after the pages: "
                + ", ".join(f"{name} {mb:.0f} MB" for name, mb in memory.items())
            )
            if writers:
                alone = run_django(
                    SERVICE_ALONE, database_url, str(args.seconds), ",".join(HANDLES)
                )
                print(
                    f"appends, the recording service alone (1 process, no HTTP): "
                    f"{alone['events'] / alone['seconds']:.0f} events/s"
                )
            print(f"total time {time.monotonic() - began:.0f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
