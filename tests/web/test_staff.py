"""Staff without the admin: the organizers' staff page, its services, the one-time
set-password link of a created account, and the staff API."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import (
    LeagueFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.errors import InvalidConfiguration, InvalidState, NotAllowed, NotFound, UnknownUser
from tournaments.models import Role, TournamentAudit, TournamentRole
from tournaments.staff.services import staff_account_create, staff_add, staff_remove

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def setup():
    """A tournament with one user per role, an organizer of another league, a player."""
    league = LeagueFactory()
    tournament = TournamentFactory(league=league)
    league_organizer = UserFactory(username="lea")
    league.organizers.add(league_organizer)
    users = {
        "league_organizer": league_organizer,
        "organizer": TournamentRoleFactory(
            tournament=tournament, user=UserFactory(username="otto"), role=Role.ORGANIZER
        ).user,
        "scorekeeper": TournamentRoleFactory(
            tournament=tournament, user=UserFactory(username="sam"), role=Role.SCOREKEEPER
        ).user,
        "referee": TournamentRoleFactory(
            tournament=tournament, user=UserFactory(username="ria"), role=Role.REFEREE
        ).user,
        "player": UserFactory(username="pia"),
    }
    other = LeagueFactory()
    users["other_organizer"] = UserFactory(username="oscar")
    other.organizers.add(users["other_organizer"])
    return tournament, users


def staff_url(tournament):
    return reverse("tournaments:organize-staff", args=[tournament.pk])


# --------------------------------------------------------------------------- the page


def test_anonymous_is_sent_to_log_in(client, setup):
    tournament, _users = setup
    response = client.get(staff_url(tournament))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    response = client.post(staff_url(tournament), {"action": "add", "username": "pia"})
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(user__username="pia").exists()


@pytest.mark.parametrize("who", ["player", "scorekeeper", "referee", "other_organizer"])
def test_users_without_the_organizer_role_get_403(client, setup, who):
    tournament, users = setup
    client.force_login(users[who])
    assert client.get(staff_url(tournament)).status_code == 403
    response = client.post(
        staff_url(tournament), {"action": "add", "username": "pia", "role": "scorekeeper"}
    )
    assert response.status_code == 403
    assert not TournamentRole.objects.filter(user__username="pia").exists()


@pytest.mark.parametrize("who", ["organizer", "league_organizer"])
def test_organizers_see_the_staff_with_their_roles(client, setup, who):
    tournament, users = setup
    client.force_login(users[who])
    response = client.get(staff_url(tournament))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("lea", "otto", "sam", "ria"):
        assert name in html
    assert "Scorekeeper" in html and "Referee" in html
    # Only the league's organizers may create accounts.
    assert ('name="display_name"' in html) == (who == "league_organizer")


def test_hidden_tournament_is_404_for_users_without_a_role(client, setup):
    tournament, users = setup
    tournament.is_public = False
    tournament.save()
    client.force_login(users["player"])
    assert client.get(staff_url(tournament)).status_code == 404
    client.force_login(users["other_organizer"])
    assert client.get(staff_url(tournament)).status_code == 404
    client.force_login(users["organizer"])
    assert client.get(staff_url(tournament)).status_code == 200


def test_organizer_adds_and_removes_a_scorekeeper_by_username(client, setup):
    tournament, users = setup
    client.force_login(users["organizer"])
    response = client.post(
        staff_url(tournament), {"action": "add", "username": "pia", "role": "scorekeeper"}
    )
    assert response.status_code == 302
    assert TournamentRole.objects.filter(
        tournament=tournament, user=users["player"], role=Role.SCOREKEEPER
    ).exists()
    page = client.get(response["Location"]).content.decode()
    assert "pia" in page
    response = client.post(
        staff_url(tournament), {"action": "remove", "username": "pia", "role": "scorekeeper"}
    )
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(tournament=tournament, user=users["player"]).exists()
    actions = list(
        TournamentAudit.objects.filter(tournament=tournament).values_list("action", flat=True)
    )
    assert actions == ["staff_added", "staff_removed"]


def test_unknown_username_and_bad_role_answer_400_with_a_reason(client, setup):
    tournament, users = setup
    client.force_login(users["organizer"])
    response = client.post(
        staff_url(tournament), {"action": "add", "username": "nobody", "role": "scorekeeper"}
    )
    assert response.status_code == 400
    assert "nobody" in response.content.decode()
    response = client.post(
        staff_url(tournament), {"action": "add", "username": "pia", "role": "organizer"}
    )
    assert response.status_code == 400
    assert not TournamentRole.objects.filter(user=users["player"]).exists()
    response = client.post(staff_url(tournament), {"action": "explode"})
    assert response.status_code == 400


def test_organizer_roles_are_not_removed_from_the_staff_page(client, setup):
    tournament, users = setup
    client.force_login(users["organizer"])
    response = client.post(
        staff_url(tournament), {"action": "remove", "username": "otto", "role": "organizer"}
    )
    assert response.status_code == 400
    assert TournamentRole.objects.filter(user=users["organizer"], role=Role.ORGANIZER).exists()


def _link(html: str) -> str:
    match = re.search(r'value="(http://testserver/accounts/set-password/[^"]+)"', html)
    assert match, html
    return match.group(1).removeprefix("http://testserver")


def test_league_organizer_creates_an_account_whose_link_sets_the_password_once(client, setup):
    tournament, users = setup
    client.force_login(users["league_organizer"])
    response = client.post(
        staff_url(tournament),
        {"action": "create", "username": "newref", "display_name": "Nina Ref", "role": "referee"},
    )
    assert response.status_code == 200
    link = _link(response.content.decode())
    member = User.objects.get(username="newref")
    assert member.first_name == "Nina Ref"
    assert not member.has_usable_password()
    assert TournamentRole.objects.filter(
        tournament=tournament, user=member, role=Role.REFEREE
    ).exists()

    # The new member, in another browser, follows the link and chooses a password.
    client.logout()
    response = client.get(link)
    assert response.status_code == 302  # the token moves into the session
    form_url = response["Location"]
    assert "set-password/" in form_url and form_url.endswith("/set-password/")
    response = client.get(form_url)
    assert response.status_code == 200
    assert "newref" in response.content.decode()
    password = "tables-and-marbles-42"
    response = client.post(form_url, {"new_password1": password, "new_password2": password})
    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    member.refresh_from_db()
    assert member.check_password(password)
    assert client.login(username="newref", password=password)
    client.logout()

    # Twice: the link no longer works, and a post to the form changes nothing.
    response = client.get(link)
    assert response.status_code == 200
    assert "This link does not work" in response.content.decode()
    response = client.post(
        form_url, {"new_password1": "x-other-9876", "new_password2": "x-other-9876"}
    )
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.check_password(password)


def test_a_tampered_link_does_not_work(client, setup):
    tournament, users = setup
    account = staff_account_create(
        tournament=tournament, username="kim", role="scorekeeper", user=users["league_organizer"]
    )
    response = client.get(account.set_password_path[:-3] + "xyz/")
    assert response.status_code == 200
    assert "This link does not work" in response.content.decode()


def test_tournament_organizer_may_not_create_accounts(client, setup):
    tournament, users = setup
    client.force_login(users["organizer"])
    response = client.post(
        staff_url(tournament), {"action": "create", "username": "newbie", "role": "scorekeeper"}
    )
    assert response.status_code == 403
    assert not User.objects.filter(username="newbie").exists()


def test_creating_a_taken_username_changes_nothing(client, setup):
    tournament, users = setup
    client.force_login(users["league_organizer"])
    response = client.post(
        staff_url(tournament), {"action": "create", "username": "PIA", "role": "scorekeeper"}
    )
    assert response.status_code == 409
    assert User.objects.filter(username__iexact="pia").count() == 1
    assert not TournamentRole.objects.filter(user=users["player"]).exists()
    response = client.post(
        staff_url(tournament), {"action": "create", "username": "bad name!", "role": "scorekeeper"}
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="bad name!").exists()


# --------------------------------------------------------------------------- the services


def test_services_check_roles(setup):
    tournament, users = setup
    for who in ("player", "scorekeeper", "referee", "other_organizer"):
        with pytest.raises(NotAllowed):
            staff_add(tournament=tournament, username="pia", role="referee", user=users[who])
        with pytest.raises(NotAllowed):
            staff_remove(tournament=tournament, username="sam", user=users[who])
    for who in ("player", "scorekeeper", "referee", "other_organizer", "organizer"):
        with pytest.raises(NotAllowed):
            staff_account_create(
                tournament=tournament, username="new", role="referee", user=users[who]
            )
    assert not User.objects.filter(username="new").exists()
    superuser = UserFactory(username="root", is_superuser=True)
    account = staff_account_create(
        tournament=tournament, username="new", role="referee", user=superuser
    )
    assert account.user.username == "new"
    assert account.set_password_path.startswith("/accounts/set-password/")


def test_service_errors(setup):
    tournament, users = setup
    organizer = users["organizer"]
    with pytest.raises(UnknownUser):
        staff_add(tournament=tournament, username="ghost", role="referee", user=organizer)
    with pytest.raises(InvalidConfiguration):
        staff_add(tournament=tournament, username="pia", role="judge", user=organizer)
    with pytest.raises(NotFound):
        staff_remove(tournament=tournament, username="pia", user=organizer)
    with pytest.raises(InvalidState):
        staff_account_create(
            tournament=tournament, username="sam", role="referee", user=users["league_organizer"]
        )
    # Adding twice is idempotent (one role, one audit row); removing takes every staff role.
    staff_add(tournament=tournament, username="pia", role="referee", user=organizer)
    staff_add(tournament=tournament, username="pia", role="referee", user=organizer)
    staff_add(tournament=tournament, username="pia", role="scorekeeper", user=organizer)
    assert TournamentRole.objects.filter(user=users["player"]).count() == 2
    assert staff_remove(tournament=tournament, username="pia", user=organizer) == [
        "referee",
        "scorekeeper",
    ]
    assert not TournamentRole.objects.filter(user=users["player"]).exists()


# --------------------------------------------------------------------------- the API


def api_url(tournament, username=None):
    if username is None:
        return reverse("api:tournament-staff", args=[tournament.pk])
    return reverse("api:tournament-staff-member", args=[tournament.pk, username])


def test_api_lists_adds_creates_and_removes_staff(setup):
    tournament, users = setup
    api = APIClient()
    assert api.get(api_url(tournament)).status_code == 401
    api.force_authenticate(users["scorekeeper"])
    assert api.get(api_url(tournament)).status_code == 403
    assert (
        api.post(
            api_url(tournament), {"username": "pia", "role": "referee"}, format="json"
        ).status_code
        == 403
    )

    api.force_authenticate(users["organizer"])
    response = api.get(api_url(tournament))
    assert response.status_code == 200
    assert {
        "username": "sam",
        "name": "",
        "role": "scorekeeper",
        "via_league": False,
    } in response.json()
    response = api.post(api_url(tournament), {"username": "pia", "role": "referee"}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["username"] == "pia"
    response = api.post(
        api_url(tournament), {"username": "ghost", "role": "referee"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_user"
    response = api.post(
        api_url(tournament),
        {"username": "newbie", "role": "referee", "create": True},
        format="json",
    )
    assert response.status_code == 403  # creating accounts: league organizers
    assert response.json()["code"] == "not_allowed"

    api.force_authenticate(users["league_organizer"])
    response = api.post(
        api_url(tournament),
        {"username": "newbie", "name": "New Bie", "role": "scorekeeper", "create": True},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["username"] == "newbie"
    assert body["set_password_url"].startswith("http://testserver/accounts/set-password/")

    response = api.delete(api_url(tournament, "pia"))
    assert response.status_code == 204
    assert api.delete(api_url(tournament, "pia")).status_code == 404
    assert not TournamentRole.objects.filter(user=users["player"]).exists()


def test_api_hidden_tournament_is_404(setup):
    tournament, users = setup
    tournament.is_public = False
    tournament.save()
    api = APIClient()
    api.force_authenticate(users["other_organizer"])
    assert api.get(api_url(tournament)).status_code == 404
    assert api.delete(api_url(tournament, "sam")).status_code == 404
    assert TournamentRole.objects.filter(user=users["scorekeeper"]).exists()


def test_a_new_link_while_the_password_is_not_set(client, setup):
    tournament, users = setup
    account = staff_account_create(
        tournament=tournament, username="kim", role="scorekeeper", user=users["league_organizer"]
    )
    client.force_login(users["organizer"])  # a tournament organizer may not
    response = client.post(staff_url(tournament), {"action": "link", "username": "kim"})
    assert response.status_code == 403
    client.force_login(users["league_organizer"])
    page = client.get(staff_url(tournament)).content.decode()
    assert 'value="link"' in page
    response = client.post(staff_url(tournament), {"action": "link", "username": "kim"})
    assert response.status_code == 200
    link = _link(response.content.decode())
    assert link.startswith("/accounts/set-password/")
    assert (
        client.post(staff_url(tournament), {"action": "link", "username": "pia"}).status_code == 404
    )
    # Once the password is set, no new link.
    member = account.user
    member.set_password("tables-and-marbles-42")
    member.save()
    response = client.post(staff_url(tournament), {"action": "link", "username": "kim"})
    assert response.status_code == 409
    assert client.get(link).status_code == 200  # the old link no longer works either
    assert "This link does not work" in client.get(link).content.decode()
