"""Who may use the organizer pages: every page and action for each role. Anonymous
visitors are sent to the login page, users without the organizer role get 403 and
change nothing, users who may not see a hidden tournament get 404."""

from __future__ import annotations

import pytest

from tests.organize.conftest import client_for, url
from tournaments.models import Player, Registration, Round, Tournament, TournamentAudit

pytestmark = pytest.mark.django_db

NON_ORGANIZERS = ["player", "scorekeeper", "referee", "other_organizer"]


def _posts(tournament, rnd_pk=None):
    """Every POST of the dashboard with a body that would change something."""
    pk = tournament.pk
    return [
        (
            url("organize-settings", pk),
            {
                "name": "Mine",
                "starts_on": "2026-02-01",
                "format": "swiss",
                "rounds": 3,
                "cut": 8,
                "advance": 2,
                "seeding": "rating",
            },
        ),
        (url("organize-player-add", pk), {"handle": "newbie", "display_name": "New"}),
        (url("organize-players-csv", pk), {"csv_text": "newbie2,N\nnewbie3,M"}),
        (url("organize-check-in-all", pk), {}),
        (url("organize-player-action", pk, "me", "check-out"), {}),
        (url("organize-player-action", pk, "me", "drop"), {"confirm": "yes"}),
        (url("organize-player-action", pk, "me", "no-show"), {"confirm": "yes"}),
        (url("organize-start", pk), {}),
        (url("organize-next-round", pk), {}),
        (url("organize-reseat", pk), {"confirm": "yes"}),
        (url("organize-time-up", pk), {"confirm": "yes"}),
        (url("organize-finish", pk), {"confirm": "yes"}),
    ]


def _snapshot(tournament):
    t = Tournament.objects.get(pk=tournament.pk)
    return (
        t.name,
        t.status,
        Player.objects.count(),
        list(Registration.objects.filter(tournament=t).values_list("checked_in", "dropped")),
        Round.objects.filter(tournament=t).count(),
        TournamentAudit.objects.filter(tournament=t).count(),
    )


def test_anonymous_is_sent_to_login_for_every_page_and_action(users, tournament, league):
    client = client_for(None)
    before = _snapshot(tournament)
    pages = [
        url("organize", tournament.pk),
        url("organize-audit", tournament.pk),
        url("tournament-create", league.slug),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302 and "/login" in response["Location"], page
    for action, body in _posts(tournament):
        response = client.post(action, body)
        assert response.status_code == 302 and "/login" in response["Location"], action
    response = client.post(url("tournament-create", league.slug), {"name": "x"})
    assert response.status_code == 302
    assert _snapshot(tournament) == before


@pytest.mark.parametrize("role", NON_ORGANIZERS)
def test_non_organizers_get_403_and_change_nothing(users, tournament, league, role):
    client = client_for(users[role])
    before = _snapshot(tournament)
    tournaments_before = Tournament.objects.count()
    for page in (
        url("organize", tournament.pk),
        url("organize-audit", tournament.pk),
        url("organize-player-action", tournament.pk, "me", "drop"),
    ):
        assert client.get(page).status_code == 403, page
    assert client.get(url("tournament-create", league.slug)).status_code == 403
    for action, body in _posts(tournament):
        assert client.post(action, body).status_code == 403, action
    body = {
        "name": "Theirs",
        "starts_on": "2026-02-01",
        "format": "swiss",
        "rounds": 3,
        "cut": 8,
        "advance": 2,
        "seeding": "rating",
    }
    assert client.post(url("tournament-create", league.slug), body).status_code == 403
    assert _snapshot(tournament) == before
    assert Tournament.objects.count() == tournaments_before
    assert not Player.objects.filter(handle__startswith="newbie").exists()


@pytest.mark.parametrize("role", ["player", "other_organizer"])
def test_hidden_tournament_is_404_for_who_cannot_see_it(users, tournament, role):
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    client = client_for(users[role])
    assert client.get(url("organize", tournament.pk)).status_code == 404
    for action, body in _posts(tournament):
        assert client.post(action, body).status_code == 404, action


def test_hidden_tournament_staff_still_get_403(users, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert client_for(users["scorekeeper"]).get(url("organize", tournament.pk)).status_code == 403


def test_hidden_league_is_404_on_the_create_page(users, league):
    league.is_public = False
    league.save()
    assert client_for(users["player"]).get(url("tournament-create", league.slug)).status_code == 404
    assert (
        client_for(users["organizer"]).get(url("tournament-create", league.slug)).status_code == 200
    )


def test_organizer_and_superuser_see_the_pages(users, tournament, league, django_user_model):
    for user in (users["organizer"], django_user_model.objects.create_superuser("root", "", "x")):
        client = client_for(user)
        for page in (
            url("organize", tournament.pk),
            url("organize-audit", tournament.pk),
            url("tournament-create", league.slug),
        ):
            assert client.get(page).status_code == 200, page


def test_links_are_shown_to_organizers_only(users, tournament, league):
    for role, user in users.items():
        client = client_for(user)
        league_page = client.get(url("league-detail", league.slug)).content.decode()
        public_page = client.get(url("tournament-detail", tournament.pk)).content.decode()
        organizes = role == "organizer"
        assert (url("tournament-create", league.slug) in league_page) is organizes, role
        assert (url("organize", tournament.pk) in public_page) is organizes, role


def test_unknown_tournament_and_player_are_404(org, tournament):
    assert org.get(url("organize", 999999)).status_code == 404
    assert (
        org.post(url("organize-player-action", tournament.pk, "ghost", "check-in")).status_code
        == 404
    )
    assert (
        org.post(url("organize-player-action", tournament.pk, "me", "explode")).status_code == 404
    )


def test_get_on_an_action_is_405(org, users, tournament):
    assert org.get(url("organize-start", tournament.pk)).status_code == 405
    assert (
        org.get(url("organize-player-action", tournament.pk, "me", "check-in")).status_code == 405
    )
