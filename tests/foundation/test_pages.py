"""The base layout, home and login pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from .helpers import BASE_DIR

pytestmark = pytest.mark.django_db


def test_home_page_uses_the_mobile_first_layout(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "css/site.css" in html
    assert reverse("api-docs") in html  # the schema, browsable (Swagger UI)
    assert reverse("login") in html
    assert '<html lang="en">' in html


def test_logged_in_user_logs_out_with_a_post_form(client):
    user = get_user_model().objects.create_user("ada", password="a-long-password-1")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    form = re.search(r'<form[^>]*method="post"[^>]*action="([^"]+)"', html)
    assert form and form.group(1) == reverse("logout")
    assert "csrfmiddlewaretoken" in html
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_page_and_login(client):
    get_user_model().objects.create_user("ada", password="a-long-password-1")
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    response = client.post(
        reverse("login"), {"username": "ada", "password": "a-long-password-1", "next": "/"}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_templates_mark_their_text_for_translation():
    """No bare text between tags in the site templates: everything goes through i18n."""
    paths = sorted((BASE_DIR / "templates").rglob("*.html"))
    assert len(paths) > 5
    for path in paths:
        text = path.read_text()
        assert "{% load i18n" in text
        text = re.sub(r"{% blocktranslate.*?{% endblocktranslate %}", "", text, flags=re.S)
        text = re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
        without_tags = re.sub(r"{%.*?%}|{{.*?}}|<[^>]+>", "\n", text, flags=re.S)
        bare = [line.strip() for line in without_tags.splitlines() if line.strip()]
        # Punctuation and symbols need no translation; words do.
        bare = [line for line in bare if re.search(r"\w", line)]
        assert bare == [], (path.relative_to(BASE_DIR), bare)


def test_static_css_exists():
    assert (BASE_DIR / "static" / "css" / "site.css").stat().st_size > 0
