"""Moving the rating models to the ``ratings`` app keeps their rows (and the tables keep
working: ids continue, constraints hold), forwards and backwards."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from ratings.models import Rating, RatingChange, RatingPool

BEFORE = [("tournaments", "0001_initial")]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_ratings_survive_the_move_to_their_app():
    executor = _executor()
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)  # back to the state before the move

    old = _executor().loader.project_state(BEFORE).apps
    Player = old.get_model("tournaments", "Player")
    Game = old.get_model("games", "Game")
    OldRating = old.get_model("tournaments", "Rating")
    OldChange = old.get_model("tournaments", "RatingChange")
    OldPool = old.get_model("tournaments", "RatingPool")
    finished = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
    ann = Player.objects.create(handle="ann", display_name="Ann")
    game = Game.objects.create(
        kind="tock",
        players=["ann", "bob"],
        placements={"ann": 1, "bob": 2},
        result_source="placements",
        result_version=1,
        status="finished",
        finished_at=finished,
    )
    rating = OldRating.objects.create(player=ann, kind="tock", value=1516.0, games=1)
    change = OldChange.objects.create(
        player=ann,
        game=game,
        kind="tock",
        before=1500.0,
        after=1516.0,
        game_finished_at=finished,
        result_version=1,
    )
    OldPool.objects.create(kind="tock", recomputed_at=finished)

    _executor().migrate(latest)  # the move

    moved = Rating.objects.select_related("player").get()
    assert (moved.pk, moved.player.handle, moved.kind, moved.value, moved.games) == (
        rating.pk,
        "ann",
        "tock",
        1516.0,
        1,
    )
    moved_change = RatingChange.objects.get()
    assert (moved_change.pk, moved_change.game_id, moved_change.before, moved_change.after) == (
        change.pk,
        game.pk,
        1500.0,
        1516.0,
    )
    assert moved_change.game_finished_at == finished
    assert RatingPool.objects.get().recomputed_at == finished
    assert ann.pk in {p.pk for p in [moved.player]}
    assert list(moved.player.ratings.all()) == [moved]  # the reverse accessors follow

    # The tables keep working: new ids follow the old ones (sequences), the constraints
    # still hold.
    bob = type(moved.player).objects.create(handle="bob", display_name="Bob")
    newer = Rating.objects.create(player=bob, kind="tock", value=1484.0, games=1)
    assert newer.pk > rating.pk
    newer_change = RatingChange.objects.create(
        player=bob,
        game_id=game.pk,
        kind="tock",
        before=1500.0,
        after=1484.0,
        game_finished_at=finished,
        result_version=1,
    )
    assert newer_change.pk > change.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Rating.objects.create(player=bob, kind="tock")
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingPool.objects.create(kind="tock")

    # And back again, rows included.
    _executor().migrate(BEFORE)
    old = _executor().loader.project_state(BEFORE).apps
    assert sorted(
        old.get_model("tournaments", "Rating").objects.values_list("value", flat=True)
    ) == [
        1484.0,
        1516.0,
    ]
    assert old.get_model("tournaments", "RatingChange").objects.count() == 2
    _executor().migrate(latest)
    assert Rating.objects.count() == 2 and RatingChange.objects.count() == 2
