"""Registration as events really go (issue 24): players sign up themselves (a player is
made from their account when they have none), a maximum counting every registration
(organizers' too), the waitlist in order, a drop before the start promoting the first
waiting player (told on their page), withdrawing; through the API and the page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Player, Registration, TournamentAudit

pytestmark = pytest.mark.django_db


def url(tournament) -> str:
    return f"/api/tournaments/{tournament.pk}/signup"


@pytest.fixture
def tournament(db):
    t = TournamentFactory(status="registration", max_players=3)
    organizer = UserFactory(username="reg-org")
    t.league.organizers.add(organizer)
    t.organizer = organizer
    return t


def test_sign_up_makes_a_player_from_the_account_and_marks_it(tournament):
    person = UserFactory(username="Zoe.Smith", first_name="Zoe", last_name="Smith")
    answer = token_client(person).post(url(tournament))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["self_signup"] and not body["waitlisted"] and body["handle"] == "zoesmith"
    assert Player.objects.get(handle="zoesmith").user == person
    assert body["display_name"] == "Zoe Smith"
    # again: the same registration
    again = token_client(person).post(url(tournament)).json()
    assert again == body
    assert TournamentAudit.objects.filter(action="signed_up").count() == 1


def test_a_linked_player_signs_up_as_themselves(tournament):
    person = UserFactory(username="bea")
    PlayerFactory(handle="bea-t", user=person)
    assert token_client(person).post(url(tournament)).json()["handle"] == "bea-t"


def test_the_maximum_counts_every_registration_and_the_waitlist_moves_up_in_order(tournament):
    org = token_client(tournament.organizer)
    answer = org.post(
        f"/api/tournaments/{tournament.pk}/players",
        {"handles": ["o1", "o2"], "create": True},
        format="json",
    )
    assert answer.status_code == 201
    people = [UserFactory(username=f"p{i}") for i in range(3)]
    states = [token_client(p).post(url(tournament)).json()["waitlisted"] for p in people]
    assert states == [False, True, True]  # 2 by the organizer + 1 = the maximum of 3
    # the organizer registering past the maximum: the waitlist too
    late = org.post(
        f"/api/tournaments/{tournament.pk}/players",
        {"handles": ["o3"], "create": True},
        format="json",
    )
    assert late.json()["registered"][0]["waitlisted"] is True
    # a waiting player cannot be checked in (no place yet)
    refused = org.post(f"/api/tournaments/{tournament.pk}/players/p1/check-in")
    assert refused.status_code == 409
    # p0 withdraws before the start: p1 (the first waiting) moves up, not p2
    assert token_client(people[0]).delete(url(tournament)).status_code == 200
    waiting = dict(
        Registration.objects.filter(tournament=tournament).values_list(
            "player__handle", "waitlisted"
        )
    )
    assert waiting == {"o1": False, "o2": False, "p0": False, "p1": False, "p2": True, "o3": True}
    assert Registration.objects.get(tournament=tournament, player__handle="p1").promoted_at
    assert TournamentAudit.objects.filter(action="waitlist_promoted").count() == 1
    # p1's page tells them
    page = Client()
    page.force_login(people[1])
    html = page.get(reverse("tournaments:tournament-detail", args=[tournament.pk])).content
    assert b"moved up from the waitlist" in html
    # a larger maximum lets the next ones in
    patched = org.patch(f"/api/tournaments/{tournament.pk}", {"max_players": 10}, format="json")
    assert patched.status_code == 200, patched.json()
    assert patched.json()["max_players"] == 10
    assert not Registration.objects.filter(tournament=tournament, waitlisted=True).exists()


def test_sign_up_only_while_registration_is_open(tournament):
    tournament.status = "running"
    tournament.save(update_fields=["status"])
    answer = token_client(UserFactory(username="late")).post(url(tournament))
    assert answer.status_code == 409
    assert answer.json()["code"] == "invalid_state"


def test_anonymous_sign_up_is_refused(tournament):
    from rest_framework.test import APIClient

    assert APIClient().post(url(tournament)).status_code == 401


def test_the_page_signs_up_and_shows_the_waitlist_place(tournament):
    for i in range(3):
        token_client(UserFactory(username=f"q{i}")).post(url(tournament))
    person = UserFactory(username="viv")
    page = Client()
    page.force_login(person)
    detail = reverse("tournaments:tournament-detail", args=[tournament.pk])
    assert b"Join the waitlist" in page.get(detail).content
    done = page.post(
        reverse("tournaments:tournament-signup", args=[tournament.pk]), {"action": "signup"}
    )
    assert done.status_code == 303
    html = page.get(detail).content.decode()
    assert "you are number 1 on the waitlist" in html
