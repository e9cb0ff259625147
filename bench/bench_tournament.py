#!/usr/bin/env python
"""Benchmark: standings of a big tournament and a from-scratch rating recompute.

* Standings: 1,000 players, 250 tables of 4 per round, 5 rounds (1,250 games with
  results), computed by ``tournaments.selectors.tournament_standings``; reports the
  time and the number of SQL queries.
* Live scoring: one simulated 4-player TOCK game appended event by event through
  ``tournaments.services.game_record_event`` (the API's path); reports ms and SQL
  queries per event (the cached engine state means no replay per append).
* Pages: the demo data (``manage.py demo``), every public page fetched once; reports
  the SQL queries and milliseconds of each.
* Ratings: 100,000 rated games among 1,000 players (2 to 4 per game), first through
  the pure function (``compute_ratings``) on in-memory input, then end to end through
  ``ratings_recompute`` (read games, compute, bulk-write ~300,000 rating changes).

Runs in a throw-away test database of the configured backend (SQLite in memory by
default; PostgreSQL with ``DATABASE_URL``), never in the real one.

    python bench/bench_tournament.py [--games 100000] [--players 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")


def _places(rng: random.Random, handles: list[str]) -> dict[str, int]:
    scores = {h: rng.randint(0, len(handles) - 1) for h in handles}
    return {h: 1 + sum(1 for o in handles if scores[o] > scores[h]) for h in handles}


def seed_tournament(players: int, rounds: int, rng: random.Random):
    from games.models import Game
    from tournaments.models import (
        League,
        Player,
        Registration,
        Round,
        Seat,
        Table,
        Tournament,
    )

    league = League.objects.create(name="Bench", slug="bench", kind="tock")
    tournament = Tournament.objects.create(
        league=league, name="Bench Open", slug="bench-open", starts_on=dt.date(2026, 1, 1)
    )
    people = Player.objects.bulk_create(
        Player(handle=f"b{i:05d}", display_name=f"Bench {i}") for i in range(players)
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in=True) for p in people
    )
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(tournament=tournament, number=number, status="finished")
        order = people[:]
        rng.shuffle(order)
        groups = [order[i : i + 4] for i in range(0, len(order), 4)]
        games = Game.objects.bulk_create(
            Game(
                kind="tock",
                players=[p.handle for p in g],
                placements=_places(rng, [p.handle for p in g]),
                result_source="placements",
                result_version=1,
                status="finished",
                finished_at=t0 + dt.timedelta(hours=number, seconds=i),
            )
            for i, g in enumerate(groups)
        )
        tables = Table.objects.bulk_create(
            Table(round=rnd, number=i, game=game) for i, game in enumerate(games, start=1)
        )
        Seat.objects.bulk_create(
            Seat(table=t, position=pos, player=p)
            for t, g in zip(tables, groups, strict=True)
            for pos, p in enumerate(g)
        )
    return tournament


def bench_standings(tournament) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Tournament
    from tournaments.selectors import tournament_standings

    tournament = Tournament.objects.select_related("league").get(pk=tournament.pk)
    tournament_standings(tournament=tournament)  # warm up
    runs = []
    for _ in range(3):
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            rows = tournament_standings(tournament=tournament)
            runs.append(time.perf_counter() - start)
    print(
        f"standings: {len(rows)} players, {tournament.rounds.count()} rounds: "
        f"best {min(runs) * 1000:.0f} ms, {len(ctx.captured_queries)} queries"
    )


def bench_live_scoring() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import games.engine as engine
    from games.services import game_create
    from tournaments.models import Player
    from tournaments.permissions import SYSTEM
    from tournaments.services import game_record_event

    handles = list(Player.objects.values_list("handle", flat=True)[:4])
    log = engine.simulate(game="tock", players=handles, seed=11, mistakes=0.02, knocks=0.2)
    game = game_create(kind="tock", players=handles, user=None)
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as ctx:
        for sequence, event in enumerate(log, start=1):
            game_record_event(game=game, event=event, expected_sequence=sequence, user=SYSTEM)
    total = time.perf_counter() - start
    print(
        f"live scoring: {len(log)} events appended one by one: "
        f"{total / len(log) * 1000:.1f} ms/event, "
        f"{len(ctx.captured_queries) / len(log):.1f} queries/event"
    )


def bench_pages() -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Game
    from tournaments.models import League, Player, Tournament

    call_command("demo", verbosity=0)
    from tournaments.management.commands.demo import LEAGUE_SLUG

    league = League.objects.get(slug=LEAGUE_SLUG)
    tournament = Tournament.objects.filter(league=league, status="running").first()
    player = Player.objects.filter(seats__isnull=False).first()
    game = Game.objects.filter(table__round__tournament=tournament, last_sequence__gt=1).first()
    pages = {
        "home": "/",
        "leagues": "/leagues/",
        "league": f"/leagues/{league.slug}/",
        "tournament (24 players)": f"/tournaments/{tournament.pk}/",
        "players": "/players/",
        "player": f"/players/{player.handle}/",
        "game": f"/games/{game.pk}/",
        "rules": "/rules/",
        "API standings": f"/api/tournaments/{tournament.pk}/standings",
        "API game": f"/api/games/{game.pk}",
    }
    client = Client()
    for name, url in pages.items():
        client.get(url)  # warm up templates and caches
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            ms = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, (url, response.status_code)
        print(f"page {name:<24} {len(ctx.captured_queries):>3} queries {ms:>6.1f} ms")


def bench_ratings(n_games: int, rng: random.Random) -> None:
    from games.models import Game
    from ratings.elo import RatedGame, compute_ratings
    from ratings.models import RatingChange
    from ratings.services import ratings_recompute
    from tournaments.models import Player

    ids = list(Player.objects.values_list("id", flat=True))
    t0 = dt.datetime(2026, 2, 1, tzinfo=dt.UTC)
    rated = []
    for i in range(n_games):
        seated = rng.sample(ids, rng.choice((2, 3, 4)))
        places = _places(rng, seated)
        rated.append(RatedGame(i + 1, t0 + dt.timedelta(seconds=i), 1, 32.0, places))
    start = time.perf_counter()
    result = compute_ratings(rated)
    pure = time.perf_counter() - start
    print(
        f"ratings, pure compute: {n_games} games, {len(result.changes)} changes "
        f"in {pure:.2f} s ({n_games / pure:,.0f} games/s)"
    )

    handle = dict(Player.objects.values_list("id", "handle"))
    start = time.perf_counter()
    for chunk in range(0, n_games, 5000):
        Game.objects.bulk_create(
            Game(
                kind="uno",
                players=[handle[p] for p in g.placements],
                placements={handle[p]: v for p, v in g.placements.items()},
                result_source="placements",
                result_version=1,
                status="finished",
                finished_at=g.finished_at,
            )
            for g in rated[chunk : chunk + 5000]
        )
    print(f"  (seeding {n_games} games took {time.perf_counter() - start:.1f} s)")
    start = time.perf_counter()
    done = ratings_recompute(kind="uno")
    total = time.perf_counter() - start
    changes = RatingChange.objects.filter(kind="uno").count()
    print(
        f"ratings, recompute from the database: {done['uno']} games, {changes} changes "
        f"in {total:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(f"database: {connection.vendor}")
        rng = random.Random(2026)
        start = time.perf_counter()
        tournament = seed_tournament(args.players, args.rounds, rng)
        print(f"  (seeding the tournament took {time.perf_counter() - start:.1f} s)")
        bench_standings(tournament)
        bench_live_scoring()
        bench_pages()
        bench_ratings(args.games, rng)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
