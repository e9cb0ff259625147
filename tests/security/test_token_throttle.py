"""The API token endpoint's throttle: keyed on the client's real address, and open
(logged) while the cache is unreachable."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from tock_site.accounts.client import client_ip

from .conftest import PASSWORD

URL = "/api/auth/token"


def test_the_url_is_the_token_endpoint():
    assert reverse("api:auth-token") == URL


def guess(client: APIClient, username: str, password: str = "nope", **headers):
    return client.post(URL, {"username": username, "password": password}, format="json", **headers)


@pytest.mark.django_db
def test_changing_x_forwarded_for_does_not_escape_the_throttle():
    # Given someone guessing from one connection, with a new X-Forwarded-For (and a new
    # username, so that no login lock plays a part) on every try
    client = APIClient()
    answers = [guess(client, f"user{n}", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}") for n in range(30)]
    # Then after the rate (10/min) every answer is a 429 in the API's error shape
    statuses = [response.status_code for response in answers]
    assert statuses[:10] == [400] * 10
    assert statuses[10:] == [429] * 20
    last = answers[-1]
    assert last.json()["detail"]
    assert int(last["Retry-After"]) > 0


@pytest.mark.django_db
def test_behind_one_trusted_proxy_the_client_is_the_address_it_appended(settings):
    settings.TRUSTED_PROXIES = 1
    client = APIClient()
    # The client writes whatever it likes on the left; our proxy appends the real one.
    spoofed = [
        guess(client, f"a{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 203.0.113.7").status_code
        for n in range(11)
    ]
    assert spoofed[-1] == 429
    # Another real client behind the same proxy has its own budget
    assert guess(client, "b", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 400


def test_client_ip_trusts_only_the_configured_proxies(settings):
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 2.2.2.2")
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "192.0.2.1"
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request) == "2.2.2.2"
    settings.TRUSTED_PROXIES = 2
    assert client_ip(request) == "1.1.1.1"
    settings.TRUSTED_PROXIES = 5  # fewer entries than proxies: the leftmost
    assert client_ip(request) == "1.1.1.1"
    settings.TRUSTED_PROXIES = 1
    junk = factory.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="x, not-an-ip")
    assert client_ip(junk) == "192.0.2.1"
    bare = factory.get("/", REMOTE_ADDR="192.0.2.1")
    assert client_ip(bare) == "192.0.2.1"


@pytest.fixture
def unreachable_cache(settings):
    """The default cache on a Redis port where nothing listens."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    yield
    # the cache-emptying fixture of tests/conftest.py runs after the settings are back


def test_with_the_cache_down_the_token_endpoint_still_answers(people, unreachable_cache, caplog):
    client = APIClient()
    with caplog.at_level(logging.WARNING, logger="tock_site.accounts.throttling"):
        ok = guess(client, "sam", PASSWORD)
        wrong = guess(client, "sam", "nope")
    assert ok.status_code == 200, ok.content
    assert ok.json()["token"]
    assert wrong.status_code == 400
    assert wrong.json()["detail"]
    assert "cache is unreachable" in caplog.text


def test_with_the_cache_down_the_login_lock_still_holds(people, unreachable_cache):
    client = APIClient()
    statuses = [guess(client, "sam").status_code for _ in range(6)]
    assert statuses[:4] == [400] * 4 and statuses[-1] == 429
    refused = guess(client, "sam", PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["code"] == "locked_out"
