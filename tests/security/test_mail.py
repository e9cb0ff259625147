"""Password reset only when the site can send mail; mail from the environment."""

from __future__ import annotations

import secrets

import pytest
from django.core import mail
from django.test import Client

from tests.foundation.helpers import clean_env, python_json

from .conftest import make_user

RESET_URLS = [
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/MQ/set-password/",
    "/accounts/reset/done/",
]
MAIL_VARS = ("DJANGO_EMAIL_URL", "EMAIL_HOST", "DEFAULT_FROM_EMAIL", "DJANGO_TRUSTED_PROXIES")


@pytest.mark.django_db
def test_with_mail_the_login_page_offers_a_reset_that_sends_mail(settings):
    settings.MAIL_ENABLED = True
    make_user("sam", email="sam@example.org")
    page = Client().get("/accounts/login/")
    assert 'href="/accounts/password_reset/"' in page.content.decode()
    browser = Client()
    assert browser.get("/accounts/password_reset/").status_code == 200
    response = browser.post("/accounts/password_reset/", {"email": "sam@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "sam@example.org" in mail.outbox[0].to


@pytest.mark.django_db
def test_without_mail_there_is_no_reset_link_and_no_reset_page(settings):
    settings.MAIL_ENABLED = False
    make_user("sam", email="sam@example.org")
    page = Client().get("/accounts/login/")
    assert page.status_code == 200
    assert "password_reset" not in page.content.decode()
    browser = Client()
    for url in RESET_URLS:
        assert browser.get(url).status_code == 404, url
    assert browser.post(RESET_URLS[0], {"email": "sam@example.org"}).status_code == 404
    assert mail.outbox == []


DESCRIBE = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({"enabled": s.MAIL_ENABLED, "backend": s.EMAIL_BACKEND,
    "host": getattr(s, "EMAIL_HOST", ""), "port": s.EMAIL_PORT, "tls": s.EMAIL_USE_TLS,
    "from": s.DEFAULT_FROM_EMAIL, "proxies": s.TRUSTED_PROXIES,
    "num_proxies": s.REST_FRAMEWORK["NUM_PROXIES"]}))
"""


def env(**overrides: str) -> dict[str, str]:
    base = clean_env(**overrides)
    for name in MAIL_VARS:
        if name not in overrides:
            base.pop(name, None)
    return base


def production(**overrides: str) -> dict[str, str]:
    return env(
        DJANGO_SETTINGS_MODULE="tock_site.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
        **overrides,
    )


def test_embedded_mode_prints_mail_on_the_console():
    got = python_json(DESCRIBE, env=env())
    assert got["enabled"] is True
    assert got["backend"] == "django.core.mail.backends.console.EmailBackend"
    assert got["proxies"] == 0 and got["num_proxies"] == 0


def test_production_without_mail_turns_reset_off():
    got = python_json(DESCRIBE, env=production())
    assert got["enabled"] is False
    assert got["backend"] == "django.core.mail.backends.dummy.EmailBackend"


def test_production_mail_from_a_url_or_host():
    got = python_json(
        DESCRIBE,
        env=production(
            DJANGO_EMAIL_URL="smtp+tls://tock:secret@smtp.example.org:587",
            DEFAULT_FROM_EMAIL="TOCK <tock@example.org>",
            DJANGO_TRUSTED_PROXIES="1",
        ),
    )
    assert got["enabled"] is True
    assert got["backend"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (got["host"], got["port"], got["tls"]) == ("smtp.example.org", 587, True)
    assert got["from"] == "TOCK <tock@example.org>"
    assert got["proxies"] == 1 and got["num_proxies"] == 1
    got = python_json(DESCRIBE, env=production(EMAIL_HOST="mail.internal"))
    assert got["enabled"] is True and got["host"] == "mail.internal"
