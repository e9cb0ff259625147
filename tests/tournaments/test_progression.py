"""Progression services: start, progress (idempotent), formats, no-show, time-up,
reseat, finish, audit, automatic progression (outbox) and the beat sweep."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

import games.engine as engine
from games.models import Game
from outbox.models import OutboxMessage
from ratings.models import RatingChange
from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import selectors, services
from tournaments.errors import InvalidConfiguration, InvalidState, NotAllowed
from tournaments.models import NoShow, Role, Round, Seat, TournamentAudit
from tournaments.permissions import SYSTEM
from tournaments.services.progression import ROUND_PROGRESS, round_progress_from_outbox


def _event(n, *, checked_in=True, **settings):
    t = TournamentFactory(**settings)
    players = [PlayerFactory() for _ in range(n)]
    for p in players:
        RegistrationFactory(tournament=t, player=p, checked_in=checked_in)
    return t, players


def _play(rnd, order=None):
    """Record every pending table of ``rnd`` (placements in seat order, or ``order``)."""
    for table in rnd.tables.select_related("game").order_by("number"):
        game = table.game
        if game.placements is not None or game.status == "void":
            continue
        places = order(game.players) if order else game.players
        services.game_record_placements(
            game=game.pk, placements={h: i for i, h in enumerate(places, start=1)}, user=SYSTEM
        )


def _actions(t):
    return list(TournamentAudit.objects.filter(tournament=t).values_list("action", flat=True))


# -- start ------------------------------------------------------------------------------


def test_start_rules_and_refusals(db, staff, tournament):
    organizer = staff[Role.ORGANIZER]
    RegistrationFactory(tournament=tournament, player=PlayerFactory())
    RegistrationFactory(tournament=tournament, player=PlayerFactory(), checked_in=False)
    with pytest.raises(InvalidState):  # one checked-in player
        services.tournament_start(tournament=tournament, user=organizer)
    assert not Round.objects.exists() and "started" not in _actions(tournament)
    for _ in range(6):
        RegistrationFactory(tournament=tournament, player=PlayerFactory())
    with pytest.raises(NotAllowed):
        services.tournament_start(tournament=tournament, user=staff["stranger"])
    rnd = services.tournament_start(tournament=tournament, user=organizer, seed=1)
    tournament.refresh_from_db()
    assert tournament.status == "running" and rnd.number == 1 and rnd.stage == "swiss"
    assert Seat.objects.filter(table__round=rnd).count() == 7
    with pytest.raises(InvalidState):
        services.tournament_start(tournament=tournament, user=organizer)
    assert Round.objects.count() == 1
    assert _actions(tournament)[-2:] == ["started", "round_seated"]
    entries = selectors.tournament_audit(tournament=tournament, user=organizer)
    assert entries[-1].actor == organizer.username and entries[-1].round == 1
    with pytest.raises(NotAllowed):
        selectors.tournament_audit(tournament=tournament, user=staff["stranger"])


def test_settings_validation_and_legacy_names(db):
    t, _ = _event(0)
    league = t.league
    new = services.tournament_create(
        league=league,
        name="Cut",
        starts_on=dt.date(2026, 5, 1),
        format="swiss_cut",
        table_sizes=[4, 3],
        rounds=3,
        cut=8,
        advance=2,
        round_minutes=50,
        seeding="random",
        user=SYSTEM,
    )
    assert (new.table_size, new.rounds_count, new.table_sizes) == (4, 3, [4, 3])
    legacy = services.tournament_create(
        league=league, name="Old", starts_on=dt.date(2026, 5, 1), format="random", user=SYSTEM
    )
    assert (legacy.format, legacy.seeding, legacy.table_sizes[0]) == ("swiss", "random", 4)
    base = {"league": league, "name": "X", "starts_on": dt.date(2026, 5, 1), "user": SYSTEM}
    for bad in (
        {"format": "knockout"},
        {"table_sizes": []},
        {"table_sizes": [4, 4]},
        {"table_sizes": [7]},
        {"format": "elimination", "table_sizes": [4, 3], "advance": 4},
        {"cut": 1},
        {"round_minutes": 0},
        {"seeding": "alphabet"},
        {"rounds": 0},
    ):
        with pytest.raises(InvalidConfiguration):
            services.tournament_create(**{**base, **bad})
    services.tournament_start(tournament=_started(new), user=SYSTEM)
    with pytest.raises(InvalidState):
        services.tournament_update(tournament=new, table_sizes=[3], user=SYSTEM)
    services.tournament_update(tournament=new, rounds=4, auto_progress=False, user=SYSTEM)
    new.refresh_from_db()
    assert new.swiss_rounds == 4 and not new.auto_progress


def _started(t):
    for _ in range(8):
        RegistrationFactory(tournament=t, player=PlayerFactory())
    return t


# -- progress ---------------------------------------------------------------------------


def test_round_progress_is_idempotent_and_finishes_swiss(db):
    t, _ = _event(8, swiss_rounds=2)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    assert services.round_progress(round_id=r1.pk) is None  # not complete: nothing
    _play(r1)
    r2 = services.round_progress(round_id=r1.pk)
    assert r2.number == 2
    assert services.round_progress(round_id=r1.pk) == r2
    assert Round.objects.filter(tournament=t).count() == 2
    _play(r2)
    t.refresh_from_db()
    assert t.status == "finished"  # the last Swiss round finishes the tournament at once
    assert services.round_progress(round_id=r2.pk) is None
    assert Round.objects.filter(tournament=t).count() == 2
    assert _actions(t).count("finished") == 1


def test_manual_next_round_refused_until_complete(db):
    t, _ = _event(8, swiss_rounds=3)
    r1 = services.round_create_next(tournament=t, user=SYSTEM)
    with pytest.raises(InvalidState):
        services.round_create_next(tournament=t, user=SYSTEM)
    _play(r1)
    assert services.round_create_next(tournament=t, user=SYSTEM).number == 2


def test_auto_progression_through_the_outbox(db, django_capture_on_commit_callbacks):
    t, _ = _event(8, swiss_rounds=3, auto_progress=True)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    with django_capture_on_commit_callbacks(execute=True):
        _play(r1)
    assert OutboxMessage.objects.filter(topic=ROUND_PROGRESS, done_at__isnull=False).count() == 1
    assert Round.objects.filter(tournament=t, number=2).exists()
    manual, _ = _event(8, swiss_rounds=3, auto_progress=False)
    m1 = services.tournament_start(tournament=manual, user=SYSTEM)
    with django_capture_on_commit_callbacks(execute=True):
        _play(m1)
    assert not Round.objects.filter(tournament=manual, number=2).exists()
    assert OutboxMessage.objects.filter(topic=ROUND_PROGRESS).count() == 1


def test_beat_sweep_picks_up_a_missed_round(db):
    from tournaments.tasks import progression_sweep

    t, _ = _event(8, swiss_rounds=3, auto_progress=True)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    _play(r1)  # the outbox message is recorded but never published (no commit here)
    assert not Round.objects.filter(tournament=t, number=2).exists()
    assert progression_sweep.apply().get() == [r1.pk]
    assert Round.objects.filter(tournament=t, number=2).exists()
    assert progression_sweep.apply().get() == []  # round 2 is running, no deadline


# -- elimination and cut --------------------------------------------------------------------


def test_elimination_advancement_and_final_places(db):
    t, players = _event(12, format="elimination", table_sizes=[4, 3], advance=2)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    assert r1.stage == "elimination" and r1.tables.count() == 3
    # table 1: a tie for 2nd at the line, broken by the standings (tiebreaks)
    first = r1.tables.order_by("number").first().game
    a, b, c, d = first.players
    services.game_record_placements(game=first.pk, placements={a: 1, b: 2, c: 2, d: 4}, user=SYSTEM)
    _play(r1)
    r2 = services.round_progress(round_id=r1.pk)
    seated = set(Seat.objects.filter(table__round=r2).values_list("player__handle", flat=True))
    assert len(seated) == 6 and a in seated and d not in seated
    assert len({b, c} & seated) == 1
    assert sorted(len(t.game.players) for t in r2.tables.all()) == [3, 3]
    _play(r2)
    final = services.round_progress(round_id=r2.pk)
    assert final.tables.count() == 1 and len(final.tables.get().game.players) == 4
    _play(final)
    t.refresh_from_db()
    assert t.status == "finished"
    rows = selectors.tournament_standings(tournament=t)
    winners = final.tables.get().game.players
    assert [r.handle for r in rows[:4]] == winners  # the final table decides the top 4
    assert [r.reached_round for r in rows] == [3] * 4 + [2] * 2 + [1] * 6
    assert all(r.stage == "elimination" for r in rows)
    # the out-in-round-2 players are ordered by their place at their table
    out2 = [r for r in rows if r.reached_round == 2]
    assert [r.places[2] for r in out2] == sorted(r.places[2] for r in out2)


def test_swiss_cut_stages(db):
    t, _ = _event(16, format="swiss_cut", swiss_rounds=2, cut=4, table_sizes=[4, 3])
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    _play(r1)
    r2 = services.round_progress(round_id=r1.pk)
    _play(r2)
    t.refresh_from_db()
    assert t.status == "running"
    before = [r.player_id for r in selectors.tournament_standings(tournament=t)][:4]
    r3 = services.round_progress(round_id=r2.pk)
    assert r3.stage == "elimination" and r3.tables.count() == 1
    assert set(r3.tables.get().seats.values_list("player_id", flat=True)) == set(before)
    _play(r3, order=lambda players: list(reversed(players)))
    t.refresh_from_db()
    assert t.status == "finished"
    rows = selectors.tournament_standings(tournament=t)
    assert [r.stage for r in rows] == ["elimination"] * 4 + ["swiss"] * 12
    assert [r.handle for r in rows[:4]] == list(reversed(r3.tables.get().game.players))
    assert [r.rank for r in rows[:4]] == [1, 2, 3, 4]


# -- no-show, time-up, reseat, finish -----------------------------------------------------------


def test_no_show_plays_one_short_and_takes_the_last_place(db, staff, tournament):
    organizer = staff[Role.ORGANIZER]
    for _ in range(8):
        RegistrationFactory(tournament=tournament, player=PlayerFactory())
    tournament.table_sizes = [4, 3]
    tournament.save()
    rnd = services.tournament_start(tournament=tournament, user=organizer)
    table = rnd.tables.order_by("number").first()
    missing = table.seats.get(position=1).player
    reg = missing.registrations.get()
    no_show = services.registration_no_show(registration=reg, round=rnd, user=organizer)
    assert services.registration_no_show(registration=reg, round=rnd, user=organizer) == no_show
    table.game.refresh_from_db()
    assert missing.handle not in table.game.players and len(table.game.players) == 3
    assert list(table.seats.values_list("position", flat=True)) == [0, 1, 2]
    _play(rnd)
    row = next(
        r
        for r in selectors.tournament_standings(tournament=tournament)
        if r.handle == missing.handle
    )
    assert row.places == {1: 4} and row.points == 0 and row.no_shows == [1]
    assert not RatingChange.objects.filter(player=missing).exists()
    assert "no_show" in _actions(tournament)
    reg.refresh_from_db()
    assert not reg.checked_in  # not seated again until checked in


def test_no_show_refused_after_the_first_event_and_bye(db, simulated_log):
    t, players = _event(4, table_sizes=[2])
    rnd = services.tournament_start(tournament=t, user=SYSTEM)
    t1, t2 = rnd.tables.order_by("number")
    log = engine.simulate(game="tock", players=t1.game.players, seed=3)
    services.game_record_event(game=t1.game.pk, event=log[0], expected_sequence=1, user=SYSTEM)
    started = t1.seats.first().player.registrations.get()
    with pytest.raises(InvalidState):
        services.registration_no_show(registration=started, round=rnd, user=SYSTEM)
    assert not NoShow.objects.exists()
    gone = t2.seats.get(position=0).player
    stays = t2.seats.get(position=1).player
    services.registration_no_show(registration=gone.registrations.get(), round=rnd, user=SYSTEM)
    game = Game.objects.get(pk=t2.game_id)
    assert game.placements == {stays.handle: 1} and game.status == "finished"
    assert not RatingChange.objects.filter(game=game).exists()
    rows = {r.handle: r for r in selectors.tournament_standings(tournament=t)}
    assert rows[stays.handle].places == {1: 1} and rows[gone.handle].places == {1: 2}


def test_time_up_ends_games_and_voids_unstarted_ones(db, staff, tournament):
    organizer = staff[Role.ORGANIZER]
    for _ in range(8):
        RegistrationFactory(tournament=tournament, player=PlayerFactory())
    tournament.round_minutes = 30
    tournament.save()
    rnd = services.tournament_start(tournament=tournament, user=organizer)
    assert rnd.deadline is not None
    t1, t2 = rnd.tables.order_by("number")
    log = engine.simulate(game="tock", players=t1.game.players, seed=5)
    services.game_record_log(game=t1.game.pk, log=log[:12], user=SYSTEM)
    rnd = services.round_time_up(round=rnd, user=organizer)
    g1, g2 = Game.objects.get(pk=t1.game_id), Game.objects.get(pk=t2.game_id)
    assert g1.is_over and g1.placements and g1.events.last().data["reason"] == "time"
    assert g1.events.last().recorded_by is None  # by the system
    assert g2.status == "void" and g2.placements is None
    assert rnd.status == "finished"
    with pytest.raises(InvalidState):
        services.round_time_up(round=rnd, user=organizer)
    entry = TournamentAudit.objects.get(tournament=tournament, action="time_up")
    assert entry.details == {"ended": [g1.pk], "voided": [g2.pk]} and entry.actor == organizer
    assert not RatingChange.objects.filter(game=g2).exists()
    assert services.round_create_next(tournament=tournament, user=organizer).number == 2


def test_sweep_ends_a_round_past_its_deadline(db):
    t, _ = _event(8, swiss_rounds=2, auto_progress=True, round_minutes=10)
    rnd = services.tournament_start(tournament=t, user=SYSTEM)
    assert services.progression_sweep() == []
    later = timezone.now() + dt.timedelta(minutes=11)
    assert services.progression_sweep(now=later) == [rnd.pk]
    rnd.refresh_from_db()
    assert rnd.status == "finished"
    assert Round.objects.filter(tournament=t, number=2).exists()


def test_reseat_only_before_any_event(db):
    t, _ = _event(8)
    rnd = services.tournament_start(tournament=t, user=SYSTEM, seed=1)
    old_games = set(Game.objects.filter(table__round=rnd).values_list("pk", flat=True))
    services.round_reseat(round=rnd, user=SYSTEM)
    new_games = set(Game.objects.filter(table__round=rnd).values_list("pk", flat=True))
    assert not old_games & new_games and not Game.objects.filter(pk__in=old_games).exists()
    assert Seat.objects.filter(table__round=rnd).count() == 8
    game = rnd.tables.first().game
    log = engine.simulate(game="tock", players=game.players, seed=2)
    services.game_record_event(game=game.pk, event=log[0], expected_sequence=1, user=SYSTEM)
    with pytest.raises(InvalidState):
        services.round_reseat(round=rnd, user=SYSTEM)
    assert set(Game.objects.filter(table__round=rnd).values_list("pk", flat=True)) == new_games


def test_finish_early(db, staff, tournament):
    for _ in range(4):
        RegistrationFactory(tournament=tournament, player=PlayerFactory())
    services.tournament_start(tournament=tournament, user=SYSTEM)
    with pytest.raises(NotAllowed):
        services.tournament_finish(tournament=tournament, user=staff["stranger"])
    services.tournament_finish(tournament=tournament, user=staff[Role.ORGANIZER])
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    with pytest.raises(InvalidState):
        services.tournament_finish(tournament=tournament, user=SYSTEM)
    entry = TournamentAudit.objects.filter(tournament=tournament, action="finished").get()
    assert entry.details == {"early": True}


# -- PostgreSQL: two progressions at once ---------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_progress_seats_one_round(requires_postgres):
    t, _ = _event(12, swiss_rounds=3)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    _play(r1)
    barrier = threading.Barrier(3)
    results: list[object] = [None] * 3

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = services.round_progress(round_id=r1.pk)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert all(isinstance(r, Round) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Round.objects.filter(tournament=t).count() == 2


# -- mends: one audit row per failure, public void/bye services, standings once -----------------


def test_a_progression_that_keeps_failing_is_audited_once_per_distinct_failure(db):
    from tournaments.tasks import progression_sweep

    t, players = _event(8, swiss_rounds=3, auto_progress=True)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    regs = list(t.registrations.order_by("player__handle"))
    for reg in regs[1:]:  # one player left: round 2 cannot be seated
        services.registration_drop(registration=reg, user=SYSTEM)
    _play(r1)
    for _ in range(3):  # the beat, minute after minute
        assert progression_sweep.apply().get() == []
    round_progress_from_outbox(round_id=r1.pk)  # a late outbox delivery too
    assert _actions(t).count("progress_failed") == 1
    assert not Round.objects.filter(tournament=t, number=2).exists()
    # something happened since (a settings change): the next failure is written again, once
    t.refresh_from_db()
    services.tournament_update(tournament=t, user=SYSTEM, round_minutes=30)
    progression_sweep.apply().get()
    progression_sweep.apply().get()
    assert _actions(t).count("progress_failed") == 2


def test_void_and_bye_are_public_role_checked_services(db, staff, tournament):
    from games.errors import ResultConflict

    players = [PlayerFactory() for _ in range(8)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    rnd = services.tournament_start(tournament=tournament, user=staff[Role.ORGANIZER])
    first, second = (t.game for t in rnd.tables.select_related("game").order_by("number"))
    for user in (staff[Role.SCOREKEEPER], staff["stranger"]):
        with pytest.raises(NotAllowed):
            services.game_record_void(game=first.pk, user=user)
        with pytest.raises(NotAllowed):
            services.game_record_bye(game=first.pk, player=first.players[0], user=user)
    outcome = services.game_record_void(game=first.pk, user=staff[Role.REFEREE])
    assert outcome.result_changed and outcome.game.status == "void"
    winner = second.players[2]
    outcome = services.game_record_bye(game=second.pk, player=winner, user=staff[Role.ORGANIZER])
    assert outcome.game.placements == {winner: 1}
    rnd.refresh_from_db()
    assert rnd.status == "finished"  # through the choke point: the round followed
    with pytest.raises(ResultConflict):
        services.game_record_bye(game=first.pk, player=first.players[0], user=SYSTEM)


def test_seating_a_round_computes_the_standings_once(db, monkeypatch):
    import tournaments.services.draw as selectors_module  # where the seating reads them

    calls = []
    real = selectors_module.tournament_standings

    def counted(**kwargs):
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(selectors_module, "tournament_standings", counted)
    t, _ = _event(16, format="swiss_cut", swiss_rounds=2, cut=8, table_sizes=[4, 3], advance=2)
    r1 = services.tournament_start(tournament=t, user=SYSTEM)
    assert calls == []  # round 1 is seeded by rating
    _play(r1)
    calls.clear()
    r2 = services.round_progress(round_id=r1.pk)  # Swiss: the order of the standings
    assert r2.stage == "swiss" and len(calls) == 1
    _play(r2)
    calls.clear()
    r3 = services.round_progress(round_id=r2.pk)  # the cut: who, then their order
    assert r3.stage == "elimination" and len(calls) == 1
    _play(r3)
    calls.clear()
    r4 = services.round_progress(round_id=r3.pk)  # survivors, then their order
    assert r4.stage == "elimination" and len(calls) == 1


def test_a_settings_change_from_a_stale_copy_keeps_the_status(db):
    t, _ = _event(8, swiss_rounds=3)
    stale = type(t).objects.get(pk=t.pk)  # read before the start: "registration"
    services.tournament_start(tournament=t, user=SYSTEM)
    services.tournament_update(tournament=stale, user=SYSTEM, auto_progress=True)
    t.refresh_from_db()
    assert t.status == "running" and t.auto_progress is True
