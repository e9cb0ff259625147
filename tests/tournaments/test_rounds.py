"""Seating rounds, finishing them, and tournament settings."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import set_result
from tournaments import selectors, services
from tournaments.errors import InvalidConfiguration, InvalidState
from tournaments.models import Registration, Role, Seat
from tournaments.permissions import SYSTEM
from tournaments.seating import split_sizes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("n", "size", "sizes"),
    [
        (8, 4, [4, 4]),
        (9, 4, [3, 3, 3]),
        (10, 4, [4, 3, 3]),
        (5, 4, [3, 2]),
        (3, 2, [3]),
        (2, 4, [2]),
        (1, 4, []),
        (24, 4, [4] * 6),
    ],
)
def test_split_sizes(n, size, sizes):
    assert split_sizes(n, size) == sizes


def _finish_round(rnd):
    for table in rnd.tables.select_related("game"):
        set_result(table.game, {h: i for i, h in enumerate(table.game.players, start=1)})
        services.round_refresh_status(round_id=rnd.pk)


def test_round_lifecycle(tournament, staff):
    organizer = staff[Role.ORGANIZER]
    tournament.rounds_count = 2
    tournament.save()
    players = [PlayerFactory() for _ in range(10)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    Registration.objects.filter(player=players[0]).update(dropped=True)
    Registration.objects.filter(player=players[1]).update(checked_in=False)
    r1 = services.round_create_next(tournament=tournament, user=organizer, seed=1)
    seated = list(Seat.objects.filter(table__round=r1).values_list("player_id", flat=True))
    assert len(seated) == 8 and players[0].pk not in seated and players[1].pk not in seated
    for table in r1.tables.all():
        handles = list(table.seats.order_by("position").values_list("player__handle", flat=True))
        assert table.game.players == handles and table.game.kind == "tock"
    tournament.refresh_from_db()
    assert tournament.status == "running"
    with pytest.raises(InvalidState):
        services.round_create_next(tournament=tournament, user=organizer)
    _finish_round(r1)
    r1.refresh_from_db()
    assert r1.status == "finished"
    r2 = services.round_create_next(tournament=tournament, user=organizer)
    # swiss: the two round-1 winners sit at the same table
    winners = {t.game.players[0] for t in r1.tables.all()}
    assert any(winners <= set(t.game.players) for t in r2.tables.all())
    _finish_round(r2)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    with pytest.raises(InvalidState):
        services.round_create_next(tournament=tournament, user=organizer)


def test_tournament_create_and_validation(tournament):
    league = tournament.league
    t = services.tournament_create(
        league=league, name="Summer", starts_on=dt.date(2026, 7, 1), table_size=3, user=SYSTEM
    )
    assert t.slug == "summer" and t.points_per_place == [] and t.tiebreaks[0] == "buchholz"
    assert selectors.tournament_points(t) == [2, 1, 0]
    bad = [
        {"table_size": 1},
        {"table_size": 9},
        {"points_per_place": [1, 2, 3, 4]},
        {"points_per_place": [3, 2, 1]},
        {"tiebreaks": ["luck"]},
        {"tiebreaks": ["firsts", "firsts"]},
        {"rounds_count": 0},
        {"ends_on": dt.date(2020, 1, 1)},
        {"slug": "summer"},
    ]
    for extra in bad:
        kwargs = {"league": league, "name": "X", "starts_on": dt.date(2026, 7, 1), "user": SYSTEM}
        with pytest.raises(InvalidConfiguration):
            services.tournament_create(**{**kwargs, **extra})
    services.tournament_update(
        tournament=t, points_per_place=[3, 1, 0], tiebreaks=["firsts"], user=SYSTEM
    )
    t.refresh_from_db()
    assert t.points_per_place == [3, 1, 0] and t.tiebreaks == ["firsts"]
    with pytest.raises(InvalidConfiguration):
        services.tournament_update(tournament=t, secret=1, user=SYSTEM)


def test_registration_and_players(tournament, staff):
    organizer = staff[Role.ORGANIZER]
    p = services.player_create(handle="zoe", display_name="Zoe", user=organizer)
    with pytest.raises(InvalidConfiguration):
        services.player_create(handle="zoe", user=organizer)
    with pytest.raises(InvalidConfiguration):
        services.player_create(handle="Not A Slug", user=organizer)
    reg = services.registration_create(tournament=tournament, player=p, user=organizer)
    assert services.registration_create(tournament=tournament, player=p, user=organizer) == reg
    services.registration_check_in(registration=reg, user=organizer)
    services.registration_drop(registration=reg, user=organizer)
    reg.refresh_from_db()
    assert reg.checked_in and reg.dropped
    with pytest.raises(InvalidState):
        services.registration_check_in(registration=reg, user=organizer)
