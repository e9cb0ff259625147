"""Pages in Spanish and German: from the browser's Accept-Language, then from the
language switcher's cookie (which wins once the user has picked)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

#: A few strings of the layout and the home page, per language.
KEY_STRINGS = {
    "en": ["TOCK tournaments", ">Leagues<", ">Rules<", "Change language"],
    "es": ["Torneos de TOCK", ">Ligas<", ">Reglas<", "Cambiar idioma", "Saltar al contenido"],
    "de": ["TOCK-Turniere", ">Ligen<", ">Regeln<", "Sprache wechseln", "Zum Inhalt springen"],
}


def selected_language(html: str) -> str:
    match = re.search(r'<option value="(\w+)"[^>]*\bselected\b', html)
    assert match, "the switcher marks the current language"
    return match.group(1)


@pytest.mark.parametrize("language", ["en", "es", "de"])
def test_the_browser_language_is_followed(client, language):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in html
    for text in KEY_STRINGS[language]:
        assert text in html, (language, text)
    assert selected_language(html) == language


def test_a_regional_browser_language_falls_back_to_the_base_language(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es-AR,es;q=0.9").content.decode()
    assert '<html lang="es">' in html
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr,de;q=0.5").content.decode()
    assert '<html lang="de">' in html
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="en">' in html


def test_the_switcher_is_a_plain_form(client):
    html = client.get(reverse("tournaments:rules")).content.decode()
    form = re.search(rf'<form[^>]*action="{reverse("set_language")}"[^>]*>(.*?)</form>', html, re.S)
    assert form, "a POST form to set_language"
    body = form.group(1)
    assert 'method="post"' in form.group(0)
    # No CSRF token: the same page for every anonymous visitor (the page cache keeps it).
    assert "csrfmiddlewaretoken" not in body
    rules_url = reverse("tournaments:rules")
    assert f'<input type="hidden" name="next" value="{rules_url}">' in body
    assert {code for code in re.findall(r'<option value="(\w+)"', body)} == {"en", "es", "de"}
    assert re.search(r'<button type="submit"', body)
    assert "<script" not in html


def test_the_switcher_works_without_a_csrf_token():
    """A browser that never got a CSRF cookie (every public page is token-free) can
    still switch: the view is exempt; ``next`` keeps the visitor on the site."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("set_language"), {"language": "es", "next": reverse("home")})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    assert "csrftoken" not in client.cookies


def test_the_users_choice_wins_over_the_browser(client):
    response = client.post(
        reverse("set_language"),
        {"language": "de", "next": reverse("home")},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="de">' in html
    for text in KEY_STRINGS["de"]:
        assert text in html
    # And back to Spanish.
    client.post(reverse("set_language"), {"language": "es", "next": reverse("home")})
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="es">' in html and "Torneos de TOCK" in html


def test_the_cookie_alone_chooses_the_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = client.get(reverse("tournaments:league-list")).content.decode()
    assert '<html lang="es">' in html and selected_language(html) == "es"


def test_an_unknown_language_is_refused_and_next_stays_on_the_site(client):
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    response = client.post(
        reverse("set_language"), {"language": "de", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and not response["Location"].startswith("https://evil")


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("es", ["Iniciar sesión", "Nombre de usuario", "Contraseña"]),
        ("de", ["Anmelden", "Benutzername", "Passwort"]),
    ],
)
def test_the_login_page_is_translated(client, language, texts):
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for text in texts:
        assert text in html


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "No existe ese punto de acceso de la API."),
        ("de", "Diesen API-Endpunkt gibt es nicht."),
    ],
)
def test_api_messages_are_translated(client, language, message):
    response = client.get("/api/no-such-endpoint/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert message in response.content.decode()


def test_german_game_pages_name_the_seat_and_the_place_apart(client):
    """The players table heads the seat "Sitz" and the final place "Rang": "Platz" for
    the seat beside "Rang" read as two words for one thing."""
    from tests.tournaments.factories import PlayerFactory
    from tournaments.permissions import SYSTEM
    from tournaments.services import friendly_game_create

    handles = [PlayerFactory().handle for _ in range(4)]
    start = {"type": "start", "game": "tock", "players": handles}
    game = friendly_game_create(kind="tock", log=[start], user=SYSTEM).game
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<th class="num">Sitz</th>' in html and '<th class="num">Rang</th>' in html
    assert ">Platz<" not in html
