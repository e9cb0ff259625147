"""Login locks (django-axes): a (username, address) pair, on the login page, the admin
login and the API token endpoint; lifted after 15 minutes, by an organizer or a
superuser."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from .conftest import PASSWORD

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
TOKEN = "/api/auth/token"
HOME = "10.1.1.1"
ELSEWHERE = "10.2.2.2"


def login(username: str, password: str, address: str = HOME, url: str = LOGIN):
    """A fresh browser posting the login form (CSRF on, as a user's browser)."""
    browser = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    browser.get(url)
    response = browser.post(
        url,
        {
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
        REMOTE_ADDR=address,
    )
    return browser, response


def signed_in(browser: Client) -> bool:
    return "_auth_user_id" in browser.session


def lock(username: str, address: str = HOME, tries: int = 100) -> None:
    for _ in range(tries):
        login(username, "wrong", address)


@pytest.fixture
def sam_locked(people):
    lock("sam", tries=6)
    return people


def test_100_wrong_passwords_then_the_right_one_is_still_refused(people):
    lock("sam", tries=100)
    browser, response = login("sam", PASSWORD)
    assert response.status_code == 429
    assert not signed_in(browser)
    text = response.content.decode()
    assert "Too many failed logins" in text and "15" in text
    assert int(response["Retry-After"]) <= 15 * 60


def test_a_few_failures_then_the_right_password_logs_in(people):
    lock("sam", tries=3)
    browser, response = login("sam", PASSWORD)
    assert response.status_code == 302 and signed_in(browser)
    # and a success starts the count again
    lock("sam", tries=3)
    assert signed_in(login("sam", PASSWORD)[0])


def test_the_lock_is_for_the_pair_not_the_account_nor_the_address(sam_locked):
    # the same account from another address
    assert signed_in(login("sam", PASSWORD, address=ELSEWHERE)[0])
    # another account from the same address (a venue's phones share one address)
    assert signed_in(login("pia", PASSWORD, address=HOME)[0])


def test_the_admin_login_is_locked_too(people):
    lock("root")
    browser, response = login("root", PASSWORD, url=ADMIN_LOGIN)
    assert response.status_code == 429
    assert not signed_in(browser)
    assert signed_in(login("root", PASSWORD, address=ELSEWHERE, url=ADMIN_LOGIN)[0])


def test_failures_at_the_admin_login_count_for_the_site_login(people):
    for _ in range(5):
        login("root", "wrong", url=ADMIN_LOGIN)
    assert login("root", PASSWORD)[1].status_code == 429


def test_the_token_endpoint_checks_the_same_lock(sam_locked):
    device = APIClient(REMOTE_ADDR=HOME)
    response = device.post(TOKEN, {"username": "sam", "password": PASSWORD}, format="json")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "locked_out" and body["detail"]
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    elsewhere = APIClient(REMOTE_ADDR=ELSEWHERE)
    response = elsewhere.post(TOKEN, {"username": "sam", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["token"]


def test_wrong_tokens_requests_lock_the_login_page(people):
    device = APIClient(REMOTE_ADDR=HOME)
    answers = [
        device.post(TOKEN, {"username": "sam", "password": "wrong"}, format="json").status_code
        for _ in range(5)
    ]
    assert answers == [400] * 4 + [429]
    assert login("sam", PASSWORD)[1].status_code == 429


def test_the_lock_ends_after_15_minutes(sam_locked):
    assert login("sam", PASSWORD)[1].status_code == 429
    # retrying while locked does not prolong it
    assert AccessAttempt.objects.get(username="sam").failures_since_start == 5
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert signed_in(login("sam", PASSWORD)[0])


def test_an_organizer_unlocks_a_scorekeeper_of_their_tournament(sam_locked):
    organizer = Client(REMOTE_ADDR=ELSEWHERE)
    assert signed_in(login("olga", PASSWORD, address=ELSEWHERE)[0])
    organizer.force_login(sam_locked["organizer"])
    page = organizer.get("/accounts/unlock/")
    assert page.status_code == 200
    response = organizer.post("/accounts/unlock/", {"username": "sam"}, follow=True)
    assert response.status_code == 200
    assert "sam can log in again" in response.content.decode()
    assert signed_in(login("sam", PASSWORD)[0])


def test_an_organizer_unlocks_a_player_of_their_tournament(people):
    lock("pia", tries=5)
    organizer = Client()
    organizer.force_login(people["organizer"])
    organizer.post("/accounts/unlock/", {"username": "pia", "ip_address": HOME})
    assert signed_in(login("pia", PASSWORD)[0])


def test_an_organizer_cannot_unlock_strangers_or_superusers(people):
    lock("otto", tries=5)
    lock("root", tries=5)
    organizer = Client()
    organizer.force_login(people["organizer"])
    for username in ("otto", "root", "nobody"):
        response = organizer.post("/accounts/unlock/", {"username": username})
        assert response.status_code == 200
        assert "only the staff and players" in response.content.decode()
    assert login("otto", PASSWORD)[1].status_code == 429
    assert login("root", PASSWORD)[1].status_code == 429


def test_the_unlock_page_is_for_organizers_only(people):
    anonymous = Client()
    assert anonymous.get("/accounts/unlock/").status_code == 302  # to the login page
    for key in ("scorekeeper", "player", "outsider"):
        someone = Client()
        someone.force_login(people[key])
        assert someone.get("/accounts/unlock/").status_code == 403
        assert someone.post("/accounts/unlock/", {"username": "sam"}).status_code == 403


def test_the_unlock_form_needs_the_csrf_token(people):
    organizer = Client(enforce_csrf_checks=True)
    organizer.force_login(people["organizer"])
    assert organizer.post("/accounts/unlock/", {"username": "sam"}).status_code == 403


def test_a_superuser_unlocks_in_the_admin(sam_locked):
    admin = Client()
    admin.force_login(sam_locked["admin"])
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "sam" in listing.content.decode()
    attempt = AccessAttempt.objects.get(username="sam")
    response = admin.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert signed_in(login("sam", PASSWORD)[0])
    # and a superuser unlocks anyone on the organizers' page too
    lock("otto", tries=5)
    admin.post("/accounts/unlock/", {"username": "otto"})
    assert signed_in(login("otto", PASSWORD)[0])
