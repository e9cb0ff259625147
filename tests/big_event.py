"""A synthetic big event, built fast with bulk inserts: ``players`` players, tables of
4, ``rounds`` rounds; every round but the last finished (placements-only results), the
last one running with its games pending (a running event, so the tournament page shows
its current round and "find my table"). Used by the size test of the tournament page
(tests/web/test_big_event.py) and by ``make bench-web`` (bench/bench_web.py).

No engine work and no per-row service call, so 1,000 players and 5 rounds take about a
second; the rows are what the services would have written for such an event.
"""

from __future__ import annotations

import datetime as dt
import random

#: Players per table of the synthetic event.
TABLE_SIZE = 4


def _places(rng: random.Random, handles: list[str]) -> dict[str, int]:
    order = handles[:]
    rng.shuffle(order)
    return {h: i for i, h in enumerate(order, start=1)}


def build_big_event(*, players: int = 1000, rounds: int = 5, seed: int = 7, slug: str = "big-open"):
    """Create and return a running public TOCK tournament with ``players`` checked-in
    players (handles ``big00000``...) and ``rounds`` rounds of tables of 4, the last one
    running (games pending). ``slug`` names the league and the tournament."""
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

    rng = random.Random(seed)
    league = League.objects.create(name=f"League {slug}", slug=f"{slug}-league", kind="tock")
    tournament = Tournament.objects.create(
        league=league,
        name=f"Big Open ({players} players)",
        slug=slug,
        starts_on=dt.date(2026, 1, 1),
        status="running",
        swiss_rounds=rounds,
        table_sizes=[TABLE_SIZE],
    )
    prefix = slug.replace("-", "")[:6]
    people = Player.objects.bulk_create(
        Player(handle=f"{prefix}{i:05d}", display_name=f"Player {prefix} {i}")
        for i in range(players)
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in=True) for p in people
    )
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    for number in range(1, rounds + 1):
        last = number == rounds
        rnd = Round.objects.create(
            tournament=tournament, number=number, status="running" if last else "finished"
        )
        order = people[:]
        rng.shuffle(order)
        groups = [order[i : i + TABLE_SIZE] for i in range(0, len(order), TABLE_SIZE)]
        games = Game.objects.bulk_create(
            Game(kind="tock", players=[p.handle for p in g], status="pending")
            if last
            else Game(
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
