"""Linking an account to its player (issue 23): the organizer prints a slip of codes
(one per registered player not linked yet, with its QR), a person enters their code
(single use, expiring, wrong codes rate-limited), the player can unlink; audited."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.api.conftest import token_client
from tests.tournaments.factories import UserFactory
from tournaments.models import Player, PlayerLinkCode, TournamentAudit
from tournaments.services.links import MAX_FAILURES, link_code_issue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def test_the_organizer_prints_codes_and_a_player_links(tournament, players, staff):
    organizer = Client()
    organizer.force_login(staff["organizer"])
    sheet = organizer.get(reverse("tournaments:print-codes", args=[tournament.pk]))
    assert sheet.status_code == 200
    text = sheet.content.decode()
    assert text.count("data-code-slip=") == 4 and text.count("<svg") == 4
    code = PlayerLinkCode.objects.get(player__handle="ann").code
    assert code in text
    # printing again gives the same codes
    organizer.get(reverse("tournaments:print-codes", args=[tournament.pk]))
    assert PlayerLinkCode.objects.count() == 4
    person = UserFactory(username="anna")
    answer = token_client(person).post("/api/players/link", {"code": code.lower()}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json() == {"handle": "ann", "display_name": "Ann", "linked": True}
    assert Player.objects.get(handle="ann").user == person
    # single use
    other = UserFactory(username="someone")
    assert (
        token_client(other).post("/api/players/link", {"code": code}, format="json").status_code
        == 404
    )
    assert TournamentAudit.objects.filter(action="player_linked").count() == 1
    # a scorekeeper does not print codes
    keeper = Client()
    keeper.force_login(staff["scorekeeper"])
    assert keeper.get(reverse("tournaments:print-codes", args=[tournament.pk])).status_code == 403
    # the player unlinks themself
    assert token_client(person).post("/api/players/ann/unlink").status_code == 200
    assert Player.objects.get(handle="ann").user is None


def test_an_expired_code_is_refused(tournament, players, staff):
    made = link_code_issue(player=players[1], tournament=tournament, user=staff["organizer"])
    PlayerLinkCode.objects.filter(pk=made.pk).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1)
    )
    person = token_client(UserFactory(username="late"))
    assert person.post("/api/players/link", {"code": made.code}, format="json").status_code == 404


def test_wrong_codes_are_rate_limited(tournament, players, staff):
    made = link_code_issue(player=players[2], tournament=tournament, user=staff["organizer"])
    person = token_client(UserFactory(username="guesser"))
    for _ in range(MAX_FAILURES):
        assert (
            person.post("/api/players/link", {"code": "WRONG123"}, format="json").status_code == 404
        )
    limited = person.post("/api/players/link", {"code": made.code}, format="json")
    assert limited.status_code == 429 and limited.json()["code"] == "too_many_attempts"
    assert Player.objects.get(pk=players[2].pk).user is None


def test_the_link_page(tournament, players, staff):
    made = link_code_issue(player=players[3], tournament=tournament, user=staff["organizer"])
    person = UserFactory(username="dana")
    browser = Client()
    browser.force_login(person)
    page = browser.get(reverse("tournaments:link-code", args=[made.code])).content.decode()
    assert made.code in page and "data-link" in page
    done = browser.post(reverse("tournaments:link"), {"code": made.code})
    assert done.status_code == 303
    assert 'data-linked="dan"' in browser.get(reverse("tournaments:link")).content.decode()
    assert Client().get(reverse("tournaments:link")).status_code == 302  # sign in first


def test_an_organizer_links_a_player_to_an_account(tournament, players, staff, as_user):
    UserFactory(username="bobby")
    url = f"/api/tournaments/{tournament.pk}/players/bob/link"
    assert as_user("scorekeeper").post(url, {"username": "bobby"}, format="json").status_code == 403
    answer = as_user("organizer").post(url, {"username": "bobby"}, format="json")
    assert answer.status_code == 200 and answer.json()["linked"] is True
    assert Player.objects.get(handle="bob").user.username == "bobby"
    unknown = as_user("organizer").post(url, {"username": "nobody-here"}, format="json")
    assert unknown.status_code == 400
