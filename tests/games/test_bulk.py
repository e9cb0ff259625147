"""games.bulk.insert_rows: the same rows as bulk_create, ids in row order, on
PostgreSQL (one INSERT from unnest) and through the portable fallback (any database)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.forms.models import model_to_dict

from games import bulk, services
from games.errors import MalformedInput
from games.models import Game
from tests.games.factories import UserFactory
from tests.tournaments.factories import PlayerFactory, TournamentFactory
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db

SEATINGS = [["a", "b", "c", "d"], ["e", "f"], ["g", "h", "i"]]

INSERTERS = [pytest.param(bulk._insert_portable, id="portable")]
if connection.vendor == "postgresql":
    INSERTERS.append(pytest.param(None, id="unnest"))


def _insert(inserter, model, *, same, columns, returning=True):
    if inserter is None:  # the PostgreSQL path
        count = len(next(iter(columns.values())))
        return bulk._insert_unnest(
            model, same=same, columns=columns, count=count, returning=returning
        )
    return inserter(model, same=same, columns=columns, returning=returning)


def _fields(game: Game) -> dict:
    data = model_to_dict(game)
    data.pop("id")
    return data


@pytest.mark.parametrize("inserter", INSERTERS)
def test_the_rows_are_those_of_bulk_create(inserter):
    user = UserFactory()
    made = Game.objects.bulk_create(
        [Game(kind="tock", players=names, created_by=user) for names in SEATINGS]
    )
    ids = _insert(
        inserter, Game, same={"kind": "tock", "created_by": user}, columns={"players": SEATINGS}
    )
    assert len(ids) == len(SEATINGS) and len(set(ids)) == len(ids)
    got = {g.pk: g for g in Game.objects.filter(pk__in=ids)}
    for old, new_id in zip(made, ids, strict=True):  # ids in row order
        new = got[new_id]
        assert _fields(new) == _fields(Game.objects.get(pk=old.pk))
        assert new.created_at is not None and new.updated_at is not None


@pytest.mark.parametrize("inserter", INSERTERS)
def test_foreign_keys_by_attname_and_no_returning(inserter):
    tournament = TournamentFactory()
    rnd = Round.objects.create(tournament=tournament, number=1)
    game_ids = services.game_create_batch_ids(kind="tock", seatings=SEATINGS, user=None)
    table_ids = _insert(
        inserter, Table, same={"round": rnd}, columns={"number": [3, 1, 2], "game_id": game_ids}
    )
    tables = {t.pk: t for t in Table.objects.filter(pk__in=table_ids)}
    assert [tables[t].number for t in table_ids] == [3, 1, 2]
    assert [tables[t].game_id for t in table_ids] == game_ids
    players = [PlayerFactory() for _ in range(2)]
    assert (
        _insert(
            inserter,
            Seat,
            same={"table_id": table_ids[0]},
            columns={"position": [0, 1], "player_id": [p.pk for p in players]},
            returning=False,
        )
        == []
    )
    assert list(
        Seat.objects.filter(table_id=table_ids[0]).values_list("position", "player_id")
    ) == [(0, players[0].pk), (1, players[1].pk)]


def test_insert_rows_checks_its_columns():
    assert bulk.insert_rows(Game, same={"kind": "tock"}, columns={"players": []}) == []
    with pytest.raises(ValueError):
        bulk.insert_rows(Game, same={}, columns={"players": [["a"]], "kind": []})


def test_game_create_batch_ids_checks_as_game_create_batch():
    ids = services.game_create_batch_ids(kind="tock", seatings=[["a", "b"]], user=None)
    game = Game.objects.get(pk=ids[0])
    assert game.players == ["a", "b"] and game.status == "pending" and game.result_version == 0
    with pytest.raises(MalformedInput):
        services.game_create_batch_ids(kind="chess", seatings=[["a", "b"]], user=None)
    with pytest.raises(MalformedInput):
        services.game_create_batch_ids(kind="tock", seatings=[["a", "a"]], user=None)
