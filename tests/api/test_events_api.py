"""Running an event through the API (docs/api.md, "Running an event"): a club's script
creates the tournament, registers and checks in players, starts it, records every game
as a log, and progression (Celery, eager in tests) carries it to ``finished``. Then the
refusals: each answers a JSON 4xx and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

import games.engine as engine
from tests.api.conftest import token_client
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Player, Registration, Role, Round, Tournament

pytestmark = pytest.mark.django_db

HANDLES = [f"p{i:02d}" for i in range(1, 13)]


@pytest.fixture
def league():
    return LeagueFactory(name="Club", slug="club")


@pytest.fixture
def organizer(league):
    user = UserFactory(username="club-organizer")
    league.organizers.add(user)
    return user


@pytest.fixture
def org(organizer):
    return token_client(organizer)


@pytest.fixture
def stranger():
    return token_client(UserFactory(username="passer-by"))


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _create(client, league, **body):
    return client.post(
        _url("league-tournaments", league.slug), {"name": "Club Night", **body}, format="json"
    )


def _event_with(client, league, handles, *, check_in=True, **settings) -> int:
    response = _create(client, league, **settings)
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    if handles:
        response = client.post(
            _url("tournament-players", tid), {"handles": handles, "create": True}, format="json"
        )
        assert response.status_code == 201, response.json()
    if check_in:
        for handle in handles:
            response = client.post(_url("tournament-player-check-in", tid, handle))
            assert response.status_code == 200, response.json()
    return tid


def _play_open_tables(client, rnd: dict, seed: int) -> int:
    """Record every unfinished table of ``rnd`` as an engine-simulated log; how many."""
    played = 0
    for table in rnd["tables"]:
        if table["game"]["placements"] is not None:
            continue
        seats = [s["handle"] for s in sorted(table["seats"], key=lambda s: s["position"])]
        log = engine.simulate(game="tock", players=seats, seed=seed + table["number"])
        response = client.post(_url("game-log", table["game"]["id"]), {"log": log}, format="json")
        assert response.status_code == 201, response.json()
        played += 1
    return played


def test_a_script_runs_a_whole_event(league, org, django_capture_on_commit_callbacks):
    # Given a league organizer's script: a tournament with the defaults and 3 rounds
    response = _create(org, league, rounds=3)
    assert response.status_code == 201, response.json()
    created = response.json()
    tid = created["id"]
    assert created["format"] == "swiss" and created["seeding"] == "rating"
    assert created["table_sizes"][0] == 4 and created["table_size"] == 4
    assert created["rounds"] == 3 and created["rounds_count"] == 3
    assert created["auto_progress"] is True and created["status"] == "registration"
    assert "organizer" in created["your_roles"]
    # ...edited before it starts
    response = org.patch(
        _url("tournament-detail", tid), {"table_sizes": [4, 3], "round_minutes": 50}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["table_sizes"] == [4, 3] and response.json()["round_minutes"] == 50

    # When it registers 12 new players, checks them in and starts
    response = org.post(
        _url("tournament-players", tid), {"handles": HANDLES, "create": True}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["created"] == HANDLES
    for handle in HANDLES:
        response = org.post(_url("tournament-player-check-in", tid, handle))
        assert response.status_code == 200 and response.json()["checked_in"] is True
    response = org.post(_url("tournament-start", tid))
    assert response.status_code == 201, response.json()
    first = response.json()
    assert first["number"] == 1 and len(first["tables"]) == 3 and first["deadline"]
    assert sorted(s["handle"] for t in first["tables"] for s in t["seats"]) == HANDLES

    # ...and records every table's log as the rounds come (progression runs on commit)
    for step in range(10):
        detail = org.get(_url("tournament-detail", tid)).json()
        if detail["status"] == "finished":
            break
        newest = org.get(_url("tournament-rounds", tid)).json()[0]
        with django_capture_on_commit_callbacks(execute=True):
            assert _play_open_tables(org, newest, seed=100 * step) > 0

    # Then the tournament finished after its 3 rounds, every game with a result
    assert detail["status"] == "finished"
    rounds = org.get(_url("tournament-rounds", tid)).json()
    assert [r["number"] for r in rounds] == [3, 2, 1]
    assert all(r["status"] == "finished" for r in rounds)
    assert all(t["game"]["placements"] for r in rounds for t in r["tables"])
    standings = org.get(_url("tournament-standings", tid)).json()
    assert sorted(row["handle"] for row in standings) == HANDLES
    assert all(row["games"] == 3 for row in standings)
    # ...and the audit log tells the story
    audit = org.get(_url("tournament-audit", tid))
    assert audit.status_code == 200
    actions = [entry["action"] for entry in audit.json()]
    assert actions.count("round_seated") == 3 and actions.count("checked_in") == 12
    assert actions[0] == "created" and actions[-1] == "finished"


def test_anonymous_writes_are_401_and_change_nothing(league, org, anon):
    tid = _event_with(org, league, HANDLES[:4])
    before = Tournament.objects.count()
    assert _create(anon, league).status_code == 401
    for name in ("tournament-start", "tournament-finish", "tournament-players"):
        response = anon.post(_url(name, tid), {"handles": ["x"]}, format="json")
        assert response.status_code == 401 and response.json()["detail"]
    assert (
        anon.patch(_url("tournament-detail", tid), {"name": "x"}, format="json").status_code == 401
    )
    assert anon.post(_url("tournament-player-check-in", tid, "p01")).status_code == 401
    assert anon.get(_url("tournament-audit", tid)).status_code == 401
    assert Tournament.objects.count() == before
    assert Tournament.objects.get(pk=tid).status == "registration"
    assert not Round.objects.filter(tournament_id=tid).exists()


def test_strangers_get_403_or_404_when_hidden_and_change_nothing(league, org, stranger):
    tid = _event_with(org, league, HANDLES[:4])
    # a public tournament: 403 with the reason
    assert _create(stranger, league).status_code == 403
    for name in ("tournament-start", "tournament-finish"):
        response = stranger.post(_url(name, tid))
        assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    response = stranger.post(
        _url("tournament-players", tid), {"handles": ["newbie"], "create": True}, format="json"
    )
    assert response.status_code == 403
    assert not Player.objects.filter(handle="newbie").exists()  # created, then rolled back
    assert stranger.post(_url("tournament-player-drop", tid, "p01")).status_code == 403
    assert stranger.get(_url("tournament-audit", tid)).status_code == 403
    response = stranger.patch(_url("tournament-detail", tid), {"name": "Mine"}, format="json")
    assert response.status_code == 403
    # a private tournament: 404, as if it did not exist
    Tournament.objects.filter(pk=tid).update(is_public=False)
    for name in ("tournament-start", "tournament-finish"):
        response = stranger.post(_url(name, tid))
        assert response.status_code == 404 and response.json()["detail"]
    assert stranger.get(_url("tournament-audit", tid)).status_code == 404
    t = Tournament.objects.get(pk=tid)
    assert t.name == "Club Night" and t.status == "registration"
    assert not Round.objects.filter(tournament=t).exists()
    assert not Registration.objects.filter(tournament=t, dropped=True).exists()


def test_start_refusals_are_409_and_change_nothing(league, org):
    # too few checked-in players: one of four
    tid = _event_with(org, league, HANDLES[:4], check_in=False)
    org.post(_url("tournament-player-check-in", tid, "p01"))
    response = org.post(_url("tournament-start", tid))
    assert response.status_code == 409 and response.json()["code"] == "invalid_state"
    assert "checked-in" in response.json()["detail"]
    assert Tournament.objects.get(pk=tid).status == "registration"
    assert not Round.objects.filter(tournament_id=tid).exists()
    # a second start
    for handle in HANDLES[1:4]:
        org.post(_url("tournament-player-check-in", tid, handle))
    assert org.post(_url("tournament-start", tid)).status_code == 201
    response = org.post(_url("tournament-start", tid))
    assert response.status_code == 409 and response.json()["detail"]
    assert Round.objects.filter(tournament_id=tid).count() == 1
    # a PATCH after the start
    response = org.patch(
        _url("tournament-detail", tid), {"rounds": 7, "table_sizes": [3]}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "invalid_state"
    t = Tournament.objects.get(pk=tid)
    assert t.swiss_rounds == 5 and t.table_sizes[0] == 4
    # the next round while this one runs
    response = org.post(_url("tournament-next-round", tid))
    assert response.status_code == 409
    assert Round.objects.filter(tournament_id=tid).count() == 1


def test_registration_is_all_or_nothing(league, org):
    tid = _event_with(org, league, [])
    PlayerFactory(handle="known")
    # unknown handles without create: 400 naming them, nobody registered
    response = org.post(
        _url("tournament-players", tid), {"handles": ["known", "ghost", "phantom"]}, format="json"
    )
    assert response.status_code == 400
    assert "ghost" in response.json()["detail"] and "phantom" in response.json()["detail"]
    assert response.json()["detail"].endswith(": ghost, phantom.")
    assert not Registration.objects.filter(tournament_id=tid).exists()
    # a handle the services refuse: 400, no player created, nobody registered
    response = org.post(
        _url("tournament-players", tid),
        {"handles": ["fresh", "Bad-Case"], "create": True},
        format="json",
    )
    assert response.status_code == 400 and response.json()["detail"]
    assert not Player.objects.filter(handle="fresh").exists()
    assert not Registration.objects.filter(tournament_id=tid).exists()
    # malformed bodies
    for body in ({}, {"handles": []}, {"handles": "known"}, {"handles": ["a b"]}):
        response = org.post(_url("tournament-players", tid), body, format="json")
        assert response.status_code == 400 and response.json()["detail"]
    # known handles, twice in the list: registered once
    response = org.post(
        _url("tournament-players", tid), {"handles": ["known", "known"]}, format="json"
    )
    assert response.status_code == 201
    assert [r["handle"] for r in response.json()["registered"]] == ["known"]
    assert response.json()["created"] == []
    # an unregistered handle for check-in: 404
    assert org.post(_url("tournament-player-check-in", tid, "ghost")).status_code == 404


def test_create_validation_is_400_and_creates_nothing(league, org):
    before = Tournament.objects.count()
    for body in (
        {"table_sizes": [9]},
        {"format": "knockout"},
        {"rounds": 0},
        {"format": "elimination", "advance": 4},
        {"seeding": "alphabetical"},
        {"round_minutes": 0},
    ):
        response = _create(org, league, **body)
        assert response.status_code == 400, body
        assert response.json()["detail"]
    assert org.post(_url("league-tournaments", league.slug), {}, format="json").status_code == 400
    assert Tournament.objects.count() == before
    assert _create(org, LeagueFactory(slug="elsewhere", is_public=False)).status_code == 404


def test_manual_progression_and_organizer_controls(league, org):
    tid = _event_with(org, league, HANDLES[:8], auto_progress=False, rounds=2)
    assert org.post(_url("tournament-player-no-show", tid, "p01")).status_code == 409
    first = org.post(_url("tournament-start", tid)).json()
    # re-seat before any event: new games
    response = org.post(_url("round-reseat", first["id"]))
    assert response.status_code == 200, response.json()
    reseated = response.json()
    assert {t["game"]["id"] for t in reseated["tables"]}.isdisjoint(
        {t["game"]["id"] for t in first["tables"]}
    )
    # a no-show: the table plays one short
    response = org.post(_url("tournament-player-no-show", tid, "p01"))
    assert response.status_code == 200 and response.json()["round"] == 1
    seated = [
        s["handle"]
        for t in org.get(_url("tournament-rounds", tid)).json()[0]["tables"]
        for s in t["seats"]
    ]
    assert "p01" not in seated and len(seated) == 7
    # a drop
    response = org.post(_url("tournament-player-drop", tid, "p02"))
    assert response.status_code == 200 and response.json()["dropped"] is True
    # time up: no game has an event, so every table is closed without a result
    response = org.post(_url("round-time-up", first["id"]))
    assert response.status_code == 200 and response.json()["status"] == "finished"
    assert org.post(_url("round-time-up", first["id"])).status_code == 409
    # manual progression: the next round by hand, without the dropped and the no-show
    response = org.post(_url("tournament-next-round", tid))
    assert response.status_code == 201, response.json()
    second = response.json()
    assert second["number"] == 2
    seated = {s["handle"] for t in second["tables"] for s in t["seats"]}
    assert seated == set(HANDLES[2:8])
    # end early; again is 409
    response = org.post(_url("tournament-finish", tid))
    assert response.status_code == 200 and response.json()["status"] == "finished"
    assert org.post(_url("tournament-finish", tid)).status_code == 409
    assert org.post(_url("round-reseat", second["id"])).status_code == 409
    assert org.post(_url("round-reseat", 10**9)).status_code == 404


def test_tournament_staff_who_are_not_organizers_are_refused(league, org):
    tid = _event_with(org, league, HANDLES[:4])
    scorekeeper = UserFactory(username="sk")
    TournamentRoleFactory(tournament_id=tid, user=scorekeeper, role=Role.SCOREKEEPER)
    client = token_client(scorekeeper)
    assert client.post(_url("tournament-start", tid)).status_code == 403
    assert client.get(_url("tournament-audit", tid)).status_code == 403
    assert not Round.objects.filter(tournament_id=tid).exists()


def test_legacy_output_keys_of_an_existing_tournament(org):
    t = TournamentFactory(status="registration")
    RegistrationFactory(tournament=t, player=PlayerFactory(handle="solo"))
    data = org.get(_url("tournament-detail", t.pk)).json()
    assert data["table_size"] == data["table_sizes"][0]
    assert data["rounds_count"] == data["rounds"]


def test_the_former_random_format_is_swiss_seeded_at_random(league, org):
    response = _create(org, league, format="random")
    assert response.status_code == 201
    assert response.json()["format"] == "swiss" and response.json()["seeding"] == "random"


def test_a_drop_is_undone_by_the_organizer_and_the_player_is_seated_again(league, org, stranger):
    tid = _event_with(org, league, HANDLES[:8], auto_progress=False)
    assert org.post(_url("tournament-player-drop", tid, "p08")).json()["dropped"] is True
    # only organizers may undo it (the player's own drop is not undone by the player)
    assert stranger.post(_url("tournament-player-reinstate", tid, "p08")).status_code == 403
    response = org.post(_url("tournament-player-reinstate", tid, "p08"))
    assert response.status_code == 200
    assert response.json()["dropped"] is False and response.json()["checked_in"] is True
    assert org.post(_url("tournament-player-reinstate", tid, "p08")).status_code == 200  # again
    actions = [e["action"] for e in org.get(_url("tournament-audit", tid)).json()]
    assert actions.count("reinstated") == 1
    first = org.post(_url("tournament-start", tid)).json()
    seated = {s["handle"] for t in first["tables"] for s in t["seats"]}
    assert seated == set(HANDLES[:8])
    assert org.post(_url("tournament-finish", tid)).status_code == 200
    org.post(_url("tournament-player-drop", tid, "p07"))
    response = org.post(_url("tournament-player-reinstate", tid, "p07"))
    assert response.status_code == 409, response.json()
