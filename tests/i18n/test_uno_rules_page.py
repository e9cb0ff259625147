"""The UNO rules page in every language (docs/rules/uno.<language>.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Challenging a Wild Draw Four"),
        ("es", "El desafío del Roba Cuatro"),
        ("de", "Eine Zieh Vier anfechten"),
    ],
)
def test_the_uno_rules_page_follows_the_language(client, language, text):
    url = reverse("tournaments:rules-kind", args=["uno"])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<article class="rules" lang="{language}">' in html
    assert text in html and "<table>" in html
