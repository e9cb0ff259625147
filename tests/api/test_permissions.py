"""Who may write: roles checked on the server for every request; tokens and CSRF."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import GameEvent
from tests.api.conftest import token_client
from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db

PLACES = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}


def write_requests(game, log):
    """(url, json body) of every recording endpoint."""
    return [
        (reverse("api:game-events", args=[game.pk]), {"event": log[0], "sequence": 1}),
        (reverse("api:game-log", args=[game.pk]), {"log": log}),
        (reverse("api:game-placements", args=[game.pk]), {"placements": PLACES}),
    ]


def test_anonymous_writes_are_401_and_store_nothing(game, anon, simulated_log):
    for url, body in write_requests(game, simulated_log()):
        response = anon.post(url, body, format="json")
        assert response.status_code == 401
        assert response["WWW-Authenticate"].startswith("Token")
        assert response.json()["detail"]
    game.refresh_from_db()
    assert game.last_sequence == 0 and game.placements is None


@pytest.mark.parametrize("who", ["stranger", "other_scorekeeper"])
def test_users_without_a_role_in_this_tournament_get_403(game, as_user, who, simulated_log):
    client = as_user(who)
    for url, body in write_requests(game, simulated_log()):
        response = client.post(url, body, format="json")
        assert response.status_code == 403, (who, url)
        assert response.json()["code"] == "not_allowed"
    game.refresh_from_db()
    assert game.last_sequence == 0 and game.placements is None


@pytest.mark.parametrize("role", ["organizer", "scorekeeper", "referee"])
def test_staff_of_the_tournament_may_record(game, as_user, role, simulated_log):
    log = simulated_log()
    client = as_user(role)
    response = client.post(
        reverse("api:game-events", args=[game.pk]), {"event": log[0], "sequence": 1}, format="json"
    )
    assert response.status_code == 201
    response = client.post(reverse("api:game-log", args=[game.pk]), {"log": log}, format="json")
    assert response.status_code == 201


def test_league_organizers_and_superusers_may_record(game, tournament):
    boss = UserFactory(username="league-boss")
    tournament.league.organizers.add(boss)
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    other = {"ann": 2, "bob": 1, "cat": 3, "dan": 4}
    for user in (boss, admin):  # both may record; the same result again is a no-op
        response = token_client(user).post(
            reverse("api:game-placements", args=[game.pk]), {"placements": PLACES}, format="json"
        )
        assert response.status_code == 200
    # Once the result is in, other placements are refused, whoever sends them: a result
    # changes only by a referee's correction (with a note).
    response = token_client(admin).post(
        reverse("api:game-placements", args=[game.pk]), {"placements": other}, format="json"
    )
    assert response.status_code == 409 and "referee" in response.json()["detail"]


def test_only_referees_and_organizers_adjudicate(game, as_user, simulated_log):
    log = simulated_log()
    as_user("scorekeeper").post(
        reverse("api:game-events", args=[game.pk]), {"event": log[0], "sequence": 1}, format="json"
    )
    adjudication = {"type": "end", "reason": "adjudicated", "placements": PLACES}
    url = reverse("api:game-events", args=[game.pk])
    response = as_user("scorekeeper").post(
        url, {"event": adjudication, "sequence": 2}, format="json"
    )
    assert response.status_code == 403
    assert "referee" in response.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == 1
    # A referee passes the role check (the engine then judges the event itself).
    response = as_user("referee").post(url, {"event": adjudication, "sequence": 2}, format="json")
    assert response.status_code in (201, 422)


def test_a_log_with_an_adjudication_needs_a_referee_too(game, as_user, simulated_log):
    # Given a log cut short and closed by an adjudicated end
    log = simulated_log()[:5] + [{"type": "end", "reason": "adjudicated", "referee": "rita"}]
    url = reverse("api:game-log", args=[game.pk])
    # when a scorekeeper uploads it, the role check refuses it and nothing is stored
    response = as_user("scorekeeper").post(url, {"log": log}, format="json")
    assert response.status_code == 403
    assert "referee" in response.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == 0
    # while the referee's upload of the same log is stored and finishes the game
    response = as_user("referee").post(url, {"log": log}, format="json")
    assert response.status_code == 201, response.json()
    assert GameEvent.objects.filter(game=game).count() == 6


def test_obtain_a_token_and_use_it(game, staff, simulated_log):
    user = staff["scorekeeper"]
    user.set_password("a-long-password-1")
    user.save()
    device = APIClient(enforce_csrf_checks=True)
    response = device.post(
        reverse("api:auth-token"),
        {"username": user.username, "password": "a-long-password-1"},
        format="json",
    )
    assert response.status_code == 200
    token = response.json()["token"]
    device.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = device.post(
        reverse("api:game-events", args=[game.pk]),
        {"event": simulated_log()[0], "sequence": 1},
        format="json",
    )
    assert response.status_code == 201  # no CSRF token needed with a token


def test_password_guessing_for_tokens_is_throttled(staff):
    # Given someone guessing passwords from one address, for ever new usernames (one
    # username is locked after 5 failures: tests/security/test_login_lock.py)
    device = APIClient(enforce_csrf_checks=True)
    url = reverse("api:auth-token")
    answers = [
        device.post(url, {"username": f"u{n}", "password": "nope"}, format="json").status_code
        for n in range(10)
    ]
    assert answers == [400] * 10
    # when they keep going within the minute, then they are told to wait
    response = device.post(url, {"username": "t-scorekeeper", "password": "nope"}, format="json")
    assert response.status_code == 429
    assert response.json()["detail"]
    assert int(response["Retry-After"]) > 0


def test_wrong_password_or_token_is_refused(game, staff):
    device = APIClient(enforce_csrf_checks=True)
    response = device.post(
        reverse("api:auth-token"), {"username": "t-scorekeeper", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert "token" not in response.json()
    device.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = device.post(
        reverse("api:game-placements", args=[game.pk]), {"placements": PLACES}, format="json"
    )
    assert response.status_code == 401


def test_session_writes_need_the_csrf_token(game, staff, simulated_log):
    user = staff["organizer"]
    user.set_password("a-long-password-1")
    user.save()
    browser = APIClient(enforce_csrf_checks=True)
    assert browser.login(username=user.username, password="a-long-password-1")
    url = reverse("api:game-events", args=[game.pk])
    body = {"event": simulated_log()[0], "sequence": 1}
    response = browser.post(url, body, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == 0
    # With the token from a page (as the browser sends it), the write goes through.
    browser.get(reverse("login"))
    csrf = browser.cookies["csrftoken"].value
    response = browser.post(url, body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 201
    # Reads need no CSRF token.
    assert browser.get(url).status_code == 200


def test_writing_to_a_hidden_game_answers_like_a_missing_one(
    game, tournament, as_user, simulated_log
):
    """A stranger learns nothing from writing: a private tournament's game answers 404,
    exactly like an id that does not exist, to reads and to every write."""
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    client = as_user("stranger")
    assert client.get(reverse("api:game-detail", args=[game.pk])).status_code == 404
    for url, body in write_requests(game, simulated_log()):
        response = client.post(url, body, format="json")
        assert response.status_code == 404, url
        missing = client.post(url.replace(f"/{game.pk}/", "/987654/"), body, format="json")
        assert response.json() == missing.json()
    # Someone with a role in the tournament still gets the real answer.
    assert as_user("scorekeeper").get(reverse("api:game-detail", args=[game.pk])).status_code == 200
    game.refresh_from_db()
    assert game.last_sequence == 0 and game.placements is None
