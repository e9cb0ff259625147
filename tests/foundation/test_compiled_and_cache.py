"""The hot paths' helpers: a query compiled once per process (``tock_site.compiled``)
answers what the queryset answers, for any values, and refuses what Django refuses; the
shared Redis cache client (``tock_site.cache``) behaves as Django's."""

from __future__ import annotations

import contextvars

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.db.transaction import TransactionManagementError

from tests.tournaments.factories import (
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    seat_table,
)
from tock_site.compiled import CompiledQuery
from tournaments.models import Seat, Table


def _tables(*, game_id: int):
    return Table.objects.filter(game_id=game_id).select_related("round__tournament", "game")[:1]


def _seats(*, table_id: int, position: int):
    return Seat.objects.filter(table_id=table_id, position__gte=position).select_related("player")


def _by_handle(*, handle: str):
    return Seat.objects.filter(player__handle=handle).annotate(where=F("table__number"))


@pytest.mark.django_db
def test_a_compiled_query_answers_as_the_queryset_for_every_value():
    rnd = RoundFactory(tournament=TournamentFactory(status="running"), number=1)
    tables = [seat_table(rnd, [PlayerFactory() for _ in range(4)], number=n) for n in (1, 2)]
    by_game = CompiledQuery(_tables, "game_id")
    seats = CompiledQuery(_seats, "table_id", "position")
    handles = CompiledQuery(_by_handle, "handle", text=("handle",))
    for table in tables:
        (got,) = by_game.run(game_id=table.game_id)
        (want,) = _tables(game_id=table.game_id)
        assert (got.pk, got.round.tournament.pk, got.game.players) == (
            want.pk,
            want.round.tournament.pk,
            want.game.players,
        )
        for position in (1, 3, 5):
            got_seats = seats.run(table_id=table.pk, position=position)
            want_seats = list(_seats(table_id=table.pk, position=position))
            assert [(s.pk, s.player.handle) for s in got_seats] == [
                (s.pk, s.player.handle) for s in want_seats
            ]
        handle = table.seats.first().player.handle
        (seat,) = handles.run(handle=handle)
        assert (seat.player_id, seat.where) == (table.seats.first().player_id, table.number)
    assert by_game.run(game_id=10**9) == []
    assert handles.run(handle="nobody") == []
    sql, params = seats.sql_with_params(table_id=tables[1].pk, position=2)
    assert (tables[1].pk in params) and (2 in params)


@pytest.mark.django_db
def test_a_value_of_another_type_is_compiled_as_usual():
    rnd = RoundFactory(tournament=TournamentFactory(status="running"), number=1)
    table = seat_table(rnd, [PlayerFactory() for _ in range(3)])
    by_game = CompiledQuery(_tables, "game_id")
    (got,) = by_game.run(game_id=str(table.game_id))  # not an int: Django's own way
    assert got.pk == table.pk


def _locked(*, game_id: int):
    return Table.objects.filter(game_id=game_id).select_for_update()


@pytest.mark.django_db(transaction=True)
def test_a_locking_query_outside_a_transaction_is_refused_where_django_refuses_it():
    """PostgreSQL: refused (the lock would end with the statement); SQLite, which has no
    row locks, runs it as Django does."""
    rnd = RoundFactory(tournament=TournamentFactory(status="running"), number=1)
    table = seat_table(rnd, [PlayerFactory() for _ in range(3)])
    locked = CompiledQuery(_locked, "game_id")
    with transaction.atomic():
        assert [t.pk for t in locked.run(game_id=table.game_id)] == [table.pk]

    def outcome(run):
        try:
            return [t.pk for t in run()]
        except TransactionManagementError:
            return "refused"

    django = outcome(lambda: list(_locked(game_id=table.game_id)))
    assert django == ("refused" if connection.vendor == "postgresql" else [table.pk])
    assert outcome(lambda: locked.run(game_id=table.game_id)) == django


@pytest.mark.services
def test_the_shared_redis_cache_behaves_as_djangos_and_keeps_one_client(redis_url):
    from django.core.cache.backends.redis import RedisCache

    from tock_site.cache import SharedRedisCache

    params = {"KEY_PREFIX": "shared-cache-test", "TIMEOUT": 300}
    ours, django = SharedRedisCache(redis_url, params), RedisCache(redis_url, params)
    ours.delete_many(["n", "big", "gone"])
    with pytest.raises(ValueError):
        ours.incr("gone")
    with pytest.raises(ValueError):
        django.incr("gone")
    ours.set("n", 5, timeout=100)
    assert ours.incr("n") == 6
    assert ours.incr("n", 10) == 16 == django.get("n")
    assert ours._cache.get_client(write=True).ttl(ours.make_and_validate_key("n")) > 90
    ours.set("big", 2**62)  # past a Lua number's exact integers
    assert ours.incr("big", 3) == 2**62 + 3 == django.get("big")
    # Every request runs in a fresh context (a2wsgi): the client, with its connection
    # pool, is the process's, not the context's.
    other = contextvars.copy_context().run(lambda: SharedRedisCache(redis_url, dict(params))._cache)
    assert other is ours._cache
    assert other.get_client() is ours._cache.get_client()
    ours.delete_many(["n", "big"])
