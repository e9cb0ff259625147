"""Elo ratings: incremental updates equal a recompute from scratch."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command

from games.models import Game
from ratings import selectors
from ratings.models import Rating, RatingChange
from ratings.services import (
    ratings_recompute,
    ratings_update_for_game,
    ratings_update_for_games,
)
from tests.tournaments.factories import LeagueFactory, PlayerFactory, TournamentFactory
from tests.tournaments.helpers import play_round
from tournaments import services
from tournaments.permissions import SYSTEM
from tournaments.services.recording import game_correct_placements

pytestmark = pytest.mark.django_db


def _snapshot():
    changes = list(
        RatingChange.objects.order_by("game_finished_at", "game_id", "player_id").values_list(
            "player_id", "game_id", "before", "after", "result_version"
        )
    )
    ratings = sorted(Rating.objects.values_list("player_id", "kind", "value", "games"))
    return changes, ratings


def _places(handles, rng):
    """Random competition ranking (with ties) for ``handles``."""
    scores = {h: rng.randint(0, len(handles) - 1) for h in handles}
    return {h: 1 + sum(1 for o in handles if scores[o] > scores[h]) for h in handles}


def test_incremental_equals_recompute(django_capture_on_commit_callbacks):
    rng = random.Random(5)
    players = [PlayerFactory(handle=f"h{i}") for i in range(9)]
    handles = [p.handle for p in players]
    for _ in range(40):
        size = rng.choice([2, 3, 4])
        seated = rng.sample(handles, size)
        with django_capture_on_commit_callbacks(execute=True):
            services.friendly_game_create(kind="tock", placements=_places(seated, rng), user=SYSTEM)
    incremental = _snapshot()
    assert len(incremental[0]) > 100
    assert ratings_recompute(kind="tock") == {"tock": 40}
    assert _snapshot() == incremental
    # and the management command gives the same numbers again
    call_command("recompute_ratings")
    assert _snapshot() == incremental


def test_hand_computed_game_through_services(django_capture_on_commit_callbacks):
    for h in "abc":
        PlayerFactory(handle=h)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.friendly_game_create(
            kind="tock", placements={"a": 1, "b": 2, "c": 2}, user=SYSTEM
        ).game
    values = {r.player.handle: r.value for r in Rating.objects.select_related("player")}
    assert values == {"a": 1516, "b": 1492, "c": 1492}
    history = selectors.player_rating_history(
        player=PlayerFactory._meta.model.objects.get(handle="b"), kind="tock"
    )
    assert [(h["game_id"], h["before"], h["after"]) for h in history] == [(game.pk, 1500, 1492)]


def test_league_k_and_unverified_setting(players):
    league = LeagueFactory(k_factor=16, rate_unverified=False)
    tournament = TournamentFactory(league=league)
    a, b, c, d = players
    rnd = play_round(tournament, 1, [[(a, 1), (b, 2), (c, 3), (d, 4)]])
    game = rnd.tables.get().game
    assert ratings_update_for_game(game_id=game.pk) == "skipped"  # unverified, not rated
    assert not RatingChange.objects.exists()
    league.rate_unverified = True
    league.save()
    assert ratings_update_for_game(game_id=game.pk) == "incremental"
    assert ratings_update_for_game(game_id=game.pk) == "skipped"  # idempotent
    # K = 16: a beats three 1500s: 1500 + 16/3 * 1.5
    assert Rating.objects.get(player=a).value == pytest.approx(1508)


def test_out_of_order_and_changed_results_recompute(players):
    a, b, c, d = players
    g1 = services.friendly_game_create(
        kind="tock", placements={"ann": 1, "bob": 2}, user=SYSTEM
    ).game
    g2 = services.friendly_game_create(
        kind="tock", placements={"ann": 2, "cat": 1}, user=SYSTEM
    ).game
    assert ratings_update_for_game(game_id=g2.pk) == "incremental"
    assert ratings_update_for_game(game_id=g1.pk) == "recomputed"  # g1 finished first
    order = list(RatingChange.objects.filter(player=a).values_list("game_id", flat=True))
    assert order == [g1.pk, g2.pk]
    game_correct_placements(game=g1, placements={"ann": 2, "bob": 1}, note="swapped", user=SYSTEM)
    assert ratings_update_for_game(game_id=g1.pk) == "recomputed"
    snap = _snapshot()
    ratings_recompute(kind="tock")
    assert _snapshot() == snap
    assert Rating.objects.get(player=b).value > 1500


def test_provisional_and_leaderboard(players):
    a, b, *_ = players
    for _ in range(10):
        game = services.friendly_game_create(
            kind="tock", placements={"ann": 1, "bob": 2}, user=SYSTEM
        ).game
        ratings_update_for_game(game_id=game.pk)
    info = selectors.player_rating(player=a, kind="tock")
    assert info["games"] == 10 and not info["provisional"]
    assert selectors.player_rating(player=a, kind="uno") == {
        "kind": "uno",
        "rating": 1500.0,
        "games": 0,
        "provisional": True,
    }
    board = list(selectors.rating_leaderboard(kind="tock"))
    assert [r.player.handle for r in board] == ["ann", "bob"]
    assert Game.objects.filter(finished_at__lt=dt.datetime.now(dt.UTC)).count() == 10


def test_a_bulk_recompute_rebuilds_the_indexes_and_gives_the_same_numbers(
    requires_postgres, monkeypatch, django_capture_on_commit_callbacks
):
    """The explicit recompute of a large kind drops the rating changes' indexes and
    unique constraint, copies, and builds them again (PostgreSQL): same numbers as the
    incremental path, and the same indexes and constraint afterwards, still enforced."""
    from django.db import IntegrityError, connection, transaction

    import ratings.services as rating_services

    def schema():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s ORDER BY 1",
                [RatingChange._meta.db_table],
            )
            return cursor.fetchall()

    rng = random.Random(7)
    handles = [PlayerFactory(handle=f"b{i}").handle for i in range(8)]
    for _ in range(25):
        seated = rng.sample(handles, rng.choice([2, 3, 4]))
        with django_capture_on_commit_callbacks(execute=True):
            services.friendly_game_create(kind="uno", placements=_places(seated, rng), user=SYSTEM)
    incremental, before = _snapshot(), schema()
    monkeypatch.setattr(rating_services, "INDEX_REBUILD_ROWS", 0)  # every recompute is bulk
    assert ratings_recompute(kind="uno") == {"uno": 25}
    assert _snapshot() == incremental
    assert schema() == before
    change = RatingChange.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            player_id=change.player_id,
            game_id=change.game_id,
            kind="uno",
            before=1500,
            after=1500,
            game_finished_at=change.game_finished_at,
            result_version=1,
        )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_out_of_order_deliveries_recompute_from_the_game_on(seed):
    """Results delivered one by one in any order or in batches, finish times tied or out
    of order, results corrected and withdrawn from rating: after each batch of
    deliveries the ratings and every rating change are exactly what a recompute from
    scratch gives (the update recomputes only from the earliest game it affects)."""
    rng = random.Random(seed)
    league = LeagueFactory(k_factor=24)
    tournament = TournamentFactory(league=league)
    people = [PlayerFactory(handle=f"p{i}") for i in range(8)]
    handles = [p.handle for p in people]
    base = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    games: list[int] = []
    outcomes: set[str] = set()
    for batch in range(6):
        touched = []
        for _ in range(rng.randint(2, 6)):
            seated = rng.sample(handles, rng.choice([2, 3, 4]))
            game = services.friendly_game_create(
                kind="tock", placements=_places(seated, rng), user=SYSTEM
            ).game
            # finish times collide and run backwards now and then
            minute = rng.randint(0, 10 * (batch + 1))
            Game.objects.filter(pk=game.pk).update(finished_at=base + dt.timedelta(minutes=minute))
            games.append(game.pk)
            touched.append(game.pk)
        for pk in rng.sample(games, min(2, len(games))):  # corrections of earlier results
            game = Game.objects.get(pk=pk)
            game_correct_placements(
                game=game, placements=_places(list(game.placements), rng), note="n", user=SYSTEM
            )
            touched.append(pk)
        if batch == 3:  # a tournament game whose league stops rating unverified results
            rnd = play_round(tournament, 1, [[(people[0], 1), (people[1], 2), (people[2], 3)]])
            tgame = rnd.tables.get().game.pk
            assert ratings_update_for_game(game_id=tgame) in ("incremental", "recomputed")
            league.rate_unverified = False
            league.save()
            touched.append(tgame)
        if batch % 2:  # one by one, in any order
            for pk in rng.sample(touched, len(touched)):
                outcomes.add(ratings_update_for_game(game_id=pk))
        else:  # the outbox's batched delivery
            counts = ratings_update_for_games(payloads=[{"game_id": pk} for pk in touched])
            outcomes |= set(counts)
        snap = _snapshot()
        ratings_recompute(kind="tock")
        assert _snapshot() == snap, batch
    assert {"incremental", "recomputed"} <= outcomes
