"""The site's own error pages with DEBUG off, JSON errors under /api/, the favicon and
the browsable API schema (Swagger UI from our own static files)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory
from tock_site import urls as site_urls
from tock_site.error_views import server_error

NO_DEBUG = override_settings(DEBUG=False)
CRASHING = override_settings(DEBUG=False, ROOT_URLCONF="tests.web.error_urls")


def test_the_site_names_its_500_handler():
    assert site_urls.handler500 == "tock_site.error_views.server_error"


@pytest.mark.django_db
@NO_DEBUG
def test_404_is_our_page_without_the_url_patterns(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and 'class="site-header"' in html
    assert "URLconf" not in html and "tournaments/&lt;int:pk&gt;" not in html
    assert "tournaments/<int:pk>" not in html


@pytest.mark.django_db
@NO_DEBUG
def test_a_hidden_tournament_answers_our_404(client):
    tournament = TournamentFactory(is_public=False)
    response = client.get(reverse("tournaments:tournament-detail", args=[tournament.pk]))
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@pytest.mark.django_db
@NO_DEBUG
def test_unknown_api_paths_answer_json_404_whatever_the_method(client):
    for method in ("get", "post", "delete"):
        response = getattr(client, method)("/api/no-such-thing")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "not_found"


@pytest.mark.django_db
@NO_DEBUG
@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/api/players/a%0A"),
        ("get", "/api/leagues/x%0A"),
        ("get", "/api/games/1%0A"),
        ("get", "/api/%0A"),
        ("get", "/api/games/1/events%0D%0A"),
        ("post", "/api/tournaments/5/players/%0A/no-show"),
    ],
)
def test_api_paths_with_a_newline_answer_json_404(client, method, path):
    response = getattr(client, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
@CRASHING
def test_500_is_our_page_without_the_traceback():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Server error" in html and "favicon.svg" in html
    assert "secret detail" not in html and "Traceback" not in html


@pytest.mark.django_db
@CRASHING
def test_500_under_api_is_json():
    client = Client(raise_request_exception=False)
    for path in ("/api/boom", "/api/boom-plain"):
        response = client.get(path)
        assert response.status_code == 500, path
        assert response["Content-Type"] == "application/json", path
        assert response.json() == {"detail": "Server error.", "code": "server_error"}


def test_500_page_needs_no_request_context_nor_database():
    """No database access is allowed in this test (no django_db mark)."""
    response = server_error(RequestFactory().get("/anything/"))
    assert response.status_code == 500
    assert "Server error" in response.content.decode()
    response = server_error(RequestFactory().get("/api/games/1"))
    assert response["Content-Type"] == "application/json"


@pytest.mark.django_db
def test_favicon(client):
    assert finders.find("favicon.svg")
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<link rel="icon" href="/static/favicon\.svg" type="image/svg\+xml">', html)
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"


@pytest.mark.django_db
def test_api_docs_are_served_from_our_own_static_files(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    assert reverse("api-schema") in html
    refs = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', html)
    assert refs
    for ref in refs:
        assert ref.startswith("/static/"), ref
        assert finders.find(ref.removeprefix("/static/")), ref
    assert not re.search(r"https?://", html), "no file from another site"
    # Linked from the navigation.
    assert reverse("api-docs") in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
@NO_DEBUG
def test_403_is_our_page(client):
    tournament = TournamentFactory()
    client.force_login(UserFactory())
    response = client.get(reverse("tournaments:organize-staff", args=[tournament.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert "Not allowed" in html and 'class="site-header"' in html
