"""What follows a change, decided once (tournaments.effects): the last result of an
event finishes its round and the tournament in the transaction of the result, and
after commit moves each cache version on once and sends each live message once."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction

from outbox import changes
from outbox.live import game_group, tournament_group
from outbox.models import OutboxMessage
from ratings.services import RATE_GAME
from tests.tournaments.factories import RoundFactory, TournamentFactory, seat_table
from tests.tournaments.test_follow import _listen
from tests.tournaments.test_follow import memory_layer as memory_layer  # the fixture
from tock_site.page_cache import VERSION_KEY, page_version
from tournaments import effects, services
from tournaments.models import RoundStatus, TournamentStatus
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_table(players):
    """The one table of the last round of a one-round Swiss event, still to be played."""
    tournament = TournamentFactory(status="running", swiss_rounds=1)
    rnd = RoundFactory(tournament=tournament, number=1, status="running")
    return seat_table(rnd, players)


def _standings_version(tournament_id: int) -> int:
    return cache.get(f"tock:standings-version:{tournament_id}", 0)


def test_the_last_result_is_followed_once_each(
    last_table, memory_layer, django_capture_on_commit_callbacks
):
    tournament_id = last_table.round.tournament_id
    listen = _listen(game_group(last_table.game_id), tournament_group(tournament_id))
    pages, standings = page_version(), _standings_version(tournament_id)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_record_placements(
            game=last_table.game_id,
            placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4},
            user=SYSTEM,
        )
        # In the transaction: the round and the event are finished, the rating recorded.
        last_table.round.refresh_from_db()
        assert last_table.round.status == RoundStatus.FINISHED
        assert last_table.round.tournament.status == TournamentStatus.FINISHED
        assert OutboxMessage.objects.filter(topic=RATE_GAME).count() == 1
        # Nothing of what waits for the commit has happened.
        assert page_version() == pages and _standings_version(tournament_id) == standings
        assert listen() == []
    for callback in callbacks:
        callback()
    assert cache.get(VERSION_KEY) == pages + 1  # once, for result, round and event
    assert _standings_version(tournament_id) == standings + 1
    messages = listen()
    games = [m for m in messages if m["type"] == "game.changed"]
    tournaments = [m for m in messages if m["type"] == "tournament.changed"]
    assert len(games) == 2  # the game's page and the tournament's, once each
    assert [sorted(m["changed"]) for m in tournaments] == [["rounds", "status"]]


def test_a_change_rolled_back_is_followed_by_nothing(
    last_table, django_capture_on_commit_callbacks
):
    pages = page_version()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.game_record_placements(
            game=last_table.game_id,
            placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4},
            user=SYSTEM,
            within=True,
        )
        raise RuntimeError("the caller's transaction fails")
    assert callbacks == [] and page_version() == pages
    assert not OutboxMessage.objects.exists()


def test_every_kind_of_change_has_its_handler():
    kinds = {
        cls
        for cls in vars(changes).values()
        if isinstance(cls, type) and issubclass(cls, changes.Change) and cls is not changes.Change
    }
    assert kinds == set(effects.HANDLERS)


def test_a_top_level_recording_refuses_to_run_inside_another_transaction(last_table):
    """Entry points are durable: what follows them is published when they commit, never
    from inside a caller's transaction (which could still roll back)."""
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        services.game_record_placements(
            game=last_table.game_id,
            placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4},
            user=SYSTEM,
        )
