"""Server-rendered pages: render with demo data, bounded queries, privacy, i18n."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Game
from tests.tournaments.factories import (
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments import rules_markdown, views
from tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: Most queries each page may run (anonymous), whatever the amount of data.
MAX_QUERIES = {
    "home": 4,
    "leagues": 3,
    "league": 6,  # the seasons (a season's table: ~5 more per finished tournament)
    "tournament": 10,
    "players": 4,
    "player": 6,
    "game": 9,  # signed in: the call box (whether they play here, may record, the call)
    "rules": 1,
}
#: A signed-in visitor adds the session and user lookups and role checks.
SIGNED_IN_EXTRA = 6


@pytest.fixture
def demo(db, demo_world):
    """The demo's league and events, fresh objects for each test (the data: ``demo_world``)."""
    league = League.objects.get(slug="demo-tock")
    running = Tournament.objects.get(slug="spring-cup")
    finished = Tournament.objects.get(slug="winter-open")
    return {"league": league, "running": running, "finished": finished}


def demo_pages(demo):
    running = demo["running"]
    live = Game.objects.filter(table__round__tournament=running, status="in_progress").first()
    unverified = Game.objects.filter(result_source="placements").first()
    verified = Game.objects.filter(result_source="log").first()
    return [
        ("home", reverse("home")),
        ("leagues", reverse("tournaments:league-list")),
        ("league", reverse("tournaments:league-detail", args=[demo["league"].slug])),
        ("tournament", reverse("tournaments:tournament-detail", args=[running.pk])),
        ("tournament", reverse("tournaments:tournament-detail", args=[demo["finished"].pk])),
        ("players", reverse("tournaments:player-list")),
        ("players", reverse("tournaments:player-list") + "?q=ad"),
        ("player", reverse("tournaments:player-detail", args=["ada"])),
        ("game", reverse("tournaments:game-detail", args=[live.pk])),
        ("game", reverse("tournaments:game-detail", args=[unverified.pk])),
        ("game", reverse("tournaments:game-detail", args=[verified.pk])),
        ("rules", reverse("tournaments:rules")),
    ]


def test_every_page_renders_with_bounded_queries(client, demo, django_assert_max_num_queries):
    for name, url in demo_pages(demo):
        with django_assert_max_num_queries(MAX_QUERIES[name]):
            response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "css/tournaments.css" in html
        assert '<meta name="viewport"' in html


def test_every_page_renders_for_a_signed_in_organizer(client, demo, django_assert_max_num_queries):
    client.force_login(UserFactory(username="demo"))
    for name, url in demo_pages(demo):
        with django_assert_max_num_queries(MAX_QUERIES[name] + SIGNED_IN_EXTRA):
            response = client.get(url)
        assert response.status_code == 200, url


def test_pages_show_what_matters(client, demo):
    running = demo["running"]
    home = client.get(reverse("home")).content.decode()
    assert "Spring Cup" in home and "Winter Open" in home and "Demo TOCK League" in home

    page = client.get(reverse("tournaments:tournament-detail", args=[running.pk]))
    html = page.content.decode()
    assert "Where do I sit?" in html
    assert re.search(r"Table \d+ · seat \d", html)
    standings = page.context["standings"]
    assert standings and standings[0].rank == 1
    assert f">{standings[0].display_name}<" in html
    assert "verified" in html and "unverified" in html

    player = client.get(reverse("tournaments:player-detail", args=["ada"])).content.decode()
    assert "<svg" in player and "<polyline" in player
    assert "provisional" in player

    unverified = Game.objects.filter(result_source="placements").first()
    game = client.get(reverse("tournaments:game-detail", args=[unverified.pk])).content.decode()
    assert "unverified" in game
    live = Game.objects.filter(table__round__tournament=running, status="in_progress").first()
    game = client.get(reverse("tournaments:game-detail", args=[live.pk])).content.decode()
    assert "to move" in game and "Center" in game and '<ol class="events">' in game
    assert '<th class="num">Pile</th>' in game and '<th class="num">Stock</th>' in game


def test_private_pages_are_404_for_the_public_and_200_for_staff(client, db):
    tournament = TournamentFactory(name="Secret Cup", is_public=False)
    seated = [PlayerFactory(handle=h) for h in ("pia", "quin")]
    game = seat_table(RoundFactory(tournament=tournament, number=1), seated).game
    organizer = TournamentRoleFactory(tournament=tournament, user=UserFactory()).user
    private_league = TournamentFactory(league__is_public=False).league
    urls = [
        reverse("tournaments:tournament-detail", args=[tournament.pk]),
        reverse("tournaments:game-detail", args=[game.pk]),
    ]
    for url in [*urls, reverse("tournaments:league-detail", args=[private_league.slug])]:
        assert client.get(url).status_code == 404, url
    assert "Secret Cup" not in client.get(reverse("home")).content.decode()
    player_page = client.get(reverse("tournaments:player-detail", args=["pia"])).content.decode()
    assert "Secret Cup" not in player_page
    client.force_login(organizer)
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert "Secret Cup" in client.get(reverse("home")).content.decode()


def test_unknown_things_are_404(client, db):
    for url in (
        reverse("tournaments:tournament-detail", args=[424242]),
        reverse("tournaments:game-detail", args=[424242]),
        reverse("tournaments:league-detail", args=["nope"]),
        reverse("tournaments:player-detail", args=["nobody"]),
        reverse("tournaments:rules-kind", args=["chess"]),
    ):
        assert client.get(url).status_code == 404, url


def test_pages_are_get_only(client, db):
    assert client.post(reverse("home")).status_code == 405


def test_rules_page_renders_markdown_or_says_it_is_missing(client, tmp_path, monkeypatch):
    (tmp_path / "tock.en.md").write_text("# TOCK\n\n## Setup\n\n- one **bold**\n- two `code`\n")
    (tmp_path / "tock.md").write_text("# The engine's contract, not for players\n")
    monkeypatch.setattr(views, "RULES_DIR", tmp_path)
    html = client.get(reverse("tournaments:rules")).content.decode()
    assert '<h3 id="setup">Setup</h3>' in html
    assert '<a href="#setup">Setup</a>' in html  # the table of contents
    assert "<li>one <strong>bold</strong></li>" in html
    assert "<code>code</code>" in html
    assert "contract" not in html
    (tmp_path / "tock.en.md").unlink()
    html = client.get(reverse("tournaments:rules-kind", args=["tock"])).content.decode()
    assert "not written yet" in html
    # Rules pages exist for the kinds the engine plays, and for nothing else.
    assert client.get(reverse("tournaments:rules-kind", args=["bridge"])).status_code == 404


def test_the_game_page_shows_what_the_kind_presenter_gives():
    from games.presenters import game_view

    state = {
        "kind": "tock",
        "players": ["ann", "bob"],
        "placements": None,
        "summary": {"turn": "bob", "piles": {"ann": [3, 9]}, "stocks": {"bob": [1, 2, 4]}},
    }
    view = game_view(state=state)
    assert [str(c) for c in view.columns] == ["Pile", "Top", "Stock"]
    assert [(r.handle, r.to_move, r.cells) for r in view.rows] == [
        ("ann", False, [2, 9, 0]),
        ("bob", True, [0, None, 3]),
    ]
    assert view.detail_template == "games/kinds/tock.html"
    # A kind without a presenter, or a game without a log, gets the generic page.
    for other in ({**state, "kind": "bridge"}, {**state, "summary": None}):
        view = game_view(state=other)
        assert view.columns == [] and view.detail_template is None
        assert [r.cells for r in view.rows] == [[], []]


def test_rules_markdown_escapes_html():
    html = rules_markdown.render(
        "Hi <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://a.example/)\n\n"
        "```\n<b>raw</b>\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>block</div>\n"
    ).body
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    assert '<a href="https://a.example/">ok</a>' in html
    assert "&lt;b&gt;raw&lt;/b&gt;" in html
    assert "<th>a</th>" in html and "<td>1</td>" in html
    assert "<div>" not in html and "&lt;div&gt;" in html


def test_templates_mark_their_text_for_translation():
    """No bare text between tags: everything goes through i18n (as tests/foundation)."""
    paths = sorted((TEMPLATES / "tournaments").glob("*.html"))
    paths += sorted((TEMPLATES / "games").glob("*.html"))
    assert len(paths) >= 9
    for path in paths:
        text = path.read_text()
        assert "{% load i18n" in text, path.name
        text = re.sub(r"{% blocktranslate.*?{% endblocktranslate %}", "", text, flags=re.S)
        text = re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
        without_tags = re.sub(r"{%.*?%}|{{.*?}}|<[^>]+>", "\n", text, flags=re.S)
        bare = [line.strip() for line in without_tags.splitlines() if line.strip()]
        assert all(re.fullmatch(r"[·–,/()?\s]*", b) for b in bare), (path.name, bare)
