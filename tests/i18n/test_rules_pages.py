"""The players' rules pages: one per game kind and language, chosen by the active
language, English as the fallback, with a table of contents."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.kinds import rules_kinds
from tournaments import views

from .extract import BASE_DIR

RULES = BASE_DIR / "docs" / "rules"
LANGUAGES = [code for code, _ in settings.LANGUAGES]


def headings(text: str, level: str = "##") -> list[str]:
    return re.findall(rf"^{level} (.+)$", text, flags=re.M)


@pytest.mark.parametrize("kind", sorted(rules_kinds()))
def test_every_kind_has_a_page_in_every_language(kind):
    pages = {lang: (RULES / f"{kind}.{lang}.md").read_text(encoding="utf-8") for lang in LANGUAGES}
    # The translations follow the same outline (same sections and subsections).
    counts = {lang: (len(headings(t)), len(headings(t, "###"))) for lang, t in pages.items()}
    assert len(set(counts.values())) == 1, counts
    for text in pages.values():
        assert "<" not in text  # no raw HTML (it would be shown escaped)
        assert "`" not in text  # no engine vocabulary (event fields) on a players' page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["Where a card can go", "El Travieso", "When the table runs out", "Stalemate"]),
        ("es", ["Dónde jugar una carta", "TOCK correcto", "Cuando se acaba la mesa", "Bloqueo"]),
        ("de", ["Wohin darf eine Karte?", "Richtiges Klopfen", "Spielende", "Patt"]),
    ],
)
def test_the_rules_page_follows_the_language(client, language, texts):
    html = client.get(reverse("tournaments:rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<article class="rules" lang="{language}">' in html
    for text in texts:
        assert text in html
    toc = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', html, re.S)
    assert toc, "a table of contents"
    targets = re.findall(r'<a href="#([\w-]+)">', toc.group(1))
    assert len(targets) >= 6
    for target in targets:
        assert f'id="{target}"' in html
    assert "not written in your language" not in html


@pytest.mark.django_db
def test_the_cookie_chooses_the_rules_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("tournaments:rules"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<article class="rules" lang="de">' in html


@pytest.mark.django_db
def test_english_is_the_fallback(client, tmp_path, monkeypatch):
    (tmp_path / "tock.en.md").write_text("# TOCK\n\n## Setup\n\nShuffle.\n")
    monkeypatch.setattr(views, "RULES_DIR", tmp_path)
    html = client.get(reverse("tournaments:rules"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in html
    assert '<article class="rules" lang="en">' in html and "Shuffle." in html
    assert "hier auf Englisch" in html


@pytest.mark.django_db
def test_the_navigation_links_the_rules(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    nav = re.search(r'<nav class="site-nav".*?</nav>', html, re.S).group(0)
    assert f'<a href="{reverse("tournaments:rules")}">Reglas</a>' in nav
