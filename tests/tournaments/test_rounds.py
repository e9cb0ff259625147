"""Seating rounds, finishing them, and tournament settings."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import translation

import games.engine as engine
from tests.tournaments.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import set_result
from tournaments import selectors, services
from tournaments.errors import InvalidConfiguration, InvalidState
from tournaments.models import League, Registration, Role, Round, Seat
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


# -- table sizes come from the league's game class -----------------------------------------


def _new(league, **extra):
    kwargs = {"league": league, "name": "X", "starts_on": dt.date(2026, 7, 1), "user": SYSTEM}
    return services.tournament_create(**{**kwargs, **extra})


def test_table_size_limits_are_the_game_classs(tournament, monkeypatch):
    tock = engine.game_class("tock")
    assert services.table_size_limits(kind="tock") == (tock.min_players, tock.max_players)
    league = tournament.league
    with pytest.raises(InvalidConfiguration) as exc:
        _new(league, table_size=tock.max_players + 1)
    assert exc.value.http_status == 400 and exc.value.code == "invalid_configuration"
    assert str(exc.value.message) == "The table size must be from 2 to 6 for TOCK."
    assert _new(league, slug="six", table_size=tock.max_players).table_size == 6
    # the limit moves with the game class, no constant of our own
    monkeypatch.setattr(tock, "max_players", 4)
    with pytest.raises(InvalidConfiguration) as exc:
        _new(league, slug="five", table_size=5)
    assert "from 2 to 4 for TOCK" in str(exc.value.message)
    t = _new(league, slug="four", table_size=4)
    with pytest.raises(InvalidConfiguration):
        services.tournament_update(tournament=t, table_size=5, user=SYSTEM)
    monkeypatch.setattr(tock, "min_players", 3)
    with pytest.raises(InvalidConfiguration):
        _new(league, slug="two", table_size=2)
    with pytest.raises(InvalidConfiguration):
        services.validate_table_size(kind="tock", table_size=True)


def _register(tournament, n):
    players = [PlayerFactory() for _ in range(n)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    return players


def test_a_refused_seating_says_which_table_sizes_would_seat_the_players(tournament, staff):
    """5 players at tables of 4 (TOCK: 2 to 6 players): the refusal names settings
    that work, computed from the game's limits and the player count."""
    tournament.table_sizes = [4]
    tournament.save()
    _register(tournament, 5)
    with pytest.raises(InvalidState) as exc:
        services.round_create_next(tournament=tournament, user=staff[Role.ORGANIZER])
    assert str(exc.value.message) == (
        "5 players cannot be seated at tables of 4. Settings that would seat them: "
        "tables of 4 to 5 (table sizes “4, 5”), or tables of 2 to 4 (table sizes “4, 3, 2”)."
    )
    assert not Round.objects.exists()
    with translation.override("es"), pytest.raises(InvalidState) as exc:
        services.round_create_next(tournament=tournament, user=staff[Role.ORGANIZER])
    assert str(exc.value.message).startswith(
        "No se puede sentar a 5 jugadores en mesas de 4. Ajustes con los que se podría "
        "sentarlos: mesas de 4 a 5 (tamaños de mesa «4, 5»)"
    )
    # Either suggestion seats them.
    for sizes, tables in (([4, 5], [5]), ([4, 3, 2], [3, 2])):
        tournament.table_sizes = sizes
        tournament.save()
        rnd = services.round_create_next(tournament=tournament, user=staff[Role.ORGANIZER])
        assert sorted((len(t.game.players) for t in rnd.tables.all()), reverse=True) == tables
        rnd.delete()


def test_seating_keeps_to_the_game_classs_limits(tournament, staff, monkeypatch):
    organizer = staff[Role.ORGANIZER]
    tock = engine.game_class("tock")
    tournament.table_size = 2
    tournament.save()
    _register(tournament, 3)  # one table of three is the only way to seat them
    monkeypatch.setattr(tock, "max_players", 2)
    with pytest.raises(InvalidState) as exc:
        services.round_create_next(tournament=tournament, user=organizer)
    assert exc.value.http_status == 409
    assert str(exc.value.message) == (
        "3 players cannot be seated at tables of 2. "
        "No table sizes of this game (2 to 2 players) would seat them."
    )
    assert not Round.objects.exists()
    monkeypatch.setattr(tock, "max_players", 6)
    rnd = services.round_create_next(tournament=tournament, user=organizer)
    assert [len(t.game.players) for t in rnd.tables.all()] == [3]


def test_seating_needs_the_game_classs_minimum(tournament, staff, monkeypatch):
    monkeypatch.setattr(engine.game_class("tock"), "min_players", 3)
    _register(tournament, 2)
    with pytest.raises(InvalidState) as exc:
        services.round_create_next(tournament=tournament, user=staff[Role.ORGANIZER])
    assert "At least 3 checked-in players" in str(exc.value.message)
    assert not Round.objects.exists()


def test_a_league_needs_a_kind_the_engine_can_start():
    assert "bridge" not in engine.game_kinds()
    with pytest.raises(InvalidConfiguration) as exc:
        services.league_create(name="Bridge Nights", kind="bridge", user=SYSTEM)
    assert exc.value.http_status == 400 and "bridge" in str(exc.value.message)
    assert not League.objects.exists()
    for kind in engine.game_kinds():
        assert services.league_create(name=f"{kind} league", kind=kind, user=SYSTEM).kind == kind


# -- progression: idempotent, safe for tasks -------------------------------------------------


def test_progression_is_idempotent(tournament, staff):
    organizer = staff[Role.ORGANIZER]
    tournament.rounds_count = 1
    tournament.save()
    _register(tournament, 8)
    r1 = services.round_create_next(tournament=tournament, user=organizer, number=1)
    again = services.round_create_next(tournament=tournament, user=organizer, number=1)
    assert again == r1 and Round.objects.count() == 1
    with pytest.raises(InvalidState):
        services.round_create_next(tournament=tournament, user=organizer, number=2)
    for table in r1.tables.select_related("game"):
        set_result(table.game, {h: i for i, h in enumerate(table.game.players, start=1)})
    for _ in range(2):
        rnd = services.round_refresh_status(round_id=r1.pk)
        assert rnd.status == "finished"
        tournament.refresh_from_db()
        assert tournament.status == "finished"
    # a retry after the round was seated and finished still answers the same round
    assert services.round_create_next(tournament=tournament, user=organizer, number=1) == r1


def test_refresh_leaves_a_round_with_pending_tables_running(tournament, staff):
    _register(tournament, 8)
    rnd = services.round_create_next(tournament=tournament, user=staff[Role.ORGANIZER])
    first = rnd.tables.select_related("game").first()
    set_result(first.game, {h: i for i, h in enumerate(first.game.players, start=1)})
    assert services.round_refresh_status(round_id=rnd.pk).status == "running"
    tournament.refresh_from_db()
    assert tournament.status == "running"


def _together(calls):
    """Run ``calls`` in threads released at once; their results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_last_results_finish_the_round(requires_postgres, tournament, monkeypatch):
    """The last results of a round, recorded at the same moment on different tables: the
    round finishes (each write locks the tournament before looking for pending tables;
    without the lock each would see the others' results uncommitted and none would)."""
    from tournaments import effects  # where a result finishes its round

    tournament.rounds_count = 2
    tournament.save()
    _register(tournament, 16)
    for number in (1, 2):
        rnd = services.round_create_next(tournament=tournament, user=SYSTEM)
        games = [t.game for t in rnd.tables.select_related("game")]
        assert len(games) == 4
        # every writer has stored its result (uncommitted) before any looks at the round
        barrier = threading.Barrier(len(games), timeout=20)
        refresh = services.round_refresh_status

        def refresh_together(*, round_id, tournament_id=None, barrier=barrier, refresh=refresh):
            barrier.wait()
            return refresh(round_id=round_id, tournament_id=tournament_id)

        monkeypatch.setattr(effects, "round_refresh_status", refresh_together)
        results = _together(
            [
                lambda g=g: services.game_record_placements(
                    game=g.pk,
                    placements={h: i for i, h in enumerate(g.players, start=1)},
                    user=SYSTEM,
                )
                for g in games
            ]
        )
        assert not [r for r in results if isinstance(r, Exception)], results
        rnd.refresh_from_db()
        assert rnd.status == "finished", number
    tournament.refresh_from_db()
    assert tournament.status == "finished"


@pytest.mark.django_db(transaction=True)
def test_concurrent_seatings_seat_one_round(requires_postgres, tournament):
    _register(tournament, 12)
    results = _together(
        [
            lambda: services.round_create_next(tournament=tournament, user=SYSTEM, number=1)
            for _ in range(4)
        ]
    )
    assert all(isinstance(r, Round) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Round.objects.filter(tournament=tournament).count() == 1
    results = _together(
        [lambda: services.round_create_next(tournament=tournament, user=SYSTEM) for _ in range(3)]
    )
    assert sum(isinstance(r, InvalidState) for r in results) == 3  # round 1 is not finished


def test_the_table_kept_after_the_last_result_shows_the_round_finished(tournament, players, staff):
    """The recording service keeps the table it read for the answer; the round's and
    tournament's statuses, which the last result changes, are read again when asked."""
    from tests.tournaments.factories import RoundFactory, seat_table
    from tournaments.selectors import table_for_game

    tournament.status = "running"
    tournament.save()
    table = seat_table(RoundFactory(tournament=tournament, number=1), players)
    outcome = services.game_record_placements(
        game=table.game_id,
        placements={p.handle: i for i, p in enumerate(players, start=1)},
        user=staff[Role.SCOREKEEPER],
    )
    kept = table_for_game(game=outcome.game)
    assert kept.pk == table.pk and kept.round.status == "finished"
    assert kept.round.tournament.status == type(tournament).objects.get(pk=tournament.pk).status
