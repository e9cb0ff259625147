"""The player page (rating chart drawn by the server, recent games with place and rating
change, tournaments) and the date a game was played (``Game.played_at``)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import games.engine as engine
from games.models import Game
from ratings.models import RatingChange
from tests.tournaments.conftest import players, tournament  # noqa: F401 (fixtures)
from tests.tournaments.factories import RoundFactory, UserFactory, seat_table
from tests.web.test_pages import MAX_QUERIES, SIGNED_IN_EXTRA
from tournaments.charts import rating_chart
from tournaments.models import Player, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import (
    game_record_event,
    game_record_log,
    game_record_placements,
    player_set_hidden,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db, demo_world):
    """The demo's league and events, fresh objects for each test (the data: ``demo_world``)."""
    return {
        "running": Tournament.objects.get(slug="spring-cup"),
        "finished": Tournament.objects.get(slug="winter-open"),
    }


def _player_page(client, handle="ada"):
    response = client.get(reverse("tournaments:player-detail", args=[handle]))
    assert response.status_code == 200
    return response, response.content.decode()


def test_the_chart_has_axes_ticks_and_a_point_per_rated_game(client, demo):
    response, html = _player_page(client)
    changes = list(
        RatingChange.objects.filter(player__handle="ada", kind="tock").order_by("game_finished_at")
    )
    assert changes
    # One chart per game kind Ada is rated in, TOCK first (the engine's order).
    captions = re.findall(r'aria-labelledby="chart-(\w+)-caption"', html)
    assert captions == ["tock", "uno", "casino"]
    svg = html.split('<svg class="rating-chart"', 1)[1].split("</svg>", 1)[0]
    assert f'data-points="{len(changes)}"' in svg
    circles = re.findall(r'<circle class="point[^"]*"[^>]*><title>([^<]+)</title></circle>', svg)
    assert len(circles) == len(changes)
    for change, title in zip(changes, circles, strict=True):
        delta = round(change.after - change.before)
        assert f"game {change.game_id}" in title
        assert title.endswith(f"({delta:+d})")
        assert change.game_finished_at.strftime("%m/%d/%Y") in title
    assert svg.count('class="axis"') >= 2  # both axes
    assert "<polyline" in svg
    # Rating ticks (round numbers) and date ticks, the first game's date among them.
    assert re.search(r'text-anchor="end" dominant-baseline="middle">\d+</text>', svg)
    assert changes[0].game_finished_at.strftime("%m/%d/%Y") in svg
    # Accessible: the svg is a group labelled by a caption (not an image: its points
    # are links, and an image's content is not announced), each point's link is named
    # by its title, the tick labels are left to the caption; the data is also a table.
    assert 'role="group" aria-labelledby="chart-tock-caption"' in svg
    links = re.findall(r'<a href="[^"]+" aria-label="([^"]+)"><circle', svg)
    assert links == circles
    assert "<text " in svg and "<text x=" not in svg  # every tick label aria-hidden
    assert 'id="chart-tock-caption"' in html
    assert f"after each of {len(changes)} rated games" in html
    assert html.count('<table class="chart-table">') == 3


def test_recent_games_show_place_and_rating_change_and_the_tournaments(client, demo):
    response, html = _player_page(client)
    page = response.context["page"]
    rated = {
        c.game_id: c.after - c.before for c in RatingChange.objects.filter(player__handle="ada")
    }
    assert page.games
    for game in page.games:
        played = game.seat.table.game
        assert game.place == (played.placements or {}).get("ada")
        assert game.change == rated.get(played.pk)
    finished = next(g for g in page.games if g.change is not None)
    assert f"#{finished.place}</span>" in html
    # Newest first: the running TOCK cup, the UNO and Casino evenings, the TOCK open.
    assert [r.tournament.slug for r in page.tournaments] == [
        "spring-cup",
        "casino-evening",
        "uno-night",
        "winter-open",
    ]
    assert "Winter Open" in html.split("<h2>Tournaments</h2>", 1)[1]


def test_the_demos_past_event_is_dated_on_its_day_not_today(client, demo):
    finished = demo["finished"]
    games = Game.objects.filter(table__round__tournament=finished)
    assert games.exists()
    for game in games:
        assert game.played_at.date() == finished.starts_on, game.pk
        assert game.finished_at.date() == finished.starts_on, game.pk
    changes = RatingChange.objects.filter(game__table__round__tournament=finished)
    assert {c.game_finished_at.date() for c in changes} == {finished.starts_on}
    _, html = _player_page(client)
    assert finished.starts_on.strftime("%m/%d/%Y") in html  # in the chart
    game = games.first()
    page = client.get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert "played on" in page and f'datetime="{game.played_at.isoformat()}"' in page


def test_the_recording_services_set_played_at_once(tournament, players):  # noqa: F811
    table = seat_table(RoundFactory(tournament=tournament, number=1), players)
    log = engine.simulate(game="tock", players=[p.handle for p in players], seed=5)
    assert Game.objects.get(pk=table.game_id).played_at is None
    game_record_event(game=table.game_id, event=log[0], expected_sequence=1, user=SYSTEM)
    first = Game.objects.get(pk=table.game_id).played_at
    assert first is not None
    game_record_log(game=table.game_id, log=log, user=SYSTEM)
    game = Game.objects.get(pk=table.game_id)
    assert game.is_over and game.played_at == first  # a later event does not move it
    other = seat_table(RoundFactory(tournament=tournament, number=2), players)
    places = {p.handle: n for n, p in enumerate(players, start=1)}
    game_record_placements(game=other.game_id, placements=places, user=SYSTEM)
    other_game = Game.objects.get(pk=other.game_id)
    assert other_game.played_at == other_game.finished_at


def test_chart_scales_and_labels():
    history = [
        {"game_id": 1, "before": 1500, "after": 1520, "date": None},
        {"game_id": 2, "before": 1520, "after": 1490, "date": None},
    ]
    chart = rating_chart(history)
    assert len(chart.points) == 2
    ys = {p.game_id: p.y for p in chart.points}
    assert ys[1] < ys[2]  # higher rating, higher on screen
    assert all(
        chart.top <= p.y <= chart.bottom and chart.left < p.x <= chart.right for p in chart.points
    )
    labels = [float(t.label) for t in chart.y_ticks]
    assert labels[0] <= 1490 and labels[-1] >= 1520 and labels == sorted(labels)
    assert chart.points[1].title.endswith("1520 → 1490 (-30)")
    assert rating_chart([]) is None


def test_every_role_sees_the_page_with_bounded_queries(
    client, demo, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    ada_user = UserFactory(username="ada-user")
    Player.objects.filter(handle="ada").update(user=ada_user)
    for user in (None, ada_user, UserFactory(username="demo")):
        client.logout()
        limit = MAX_QUERIES["player"]
        if user is not None:
            client.force_login(user)
            limit += SIGNED_IN_EXTRA
        with django_assert_max_num_queries(limit):
            _player_page(client)
    # A hidden player's page is not found for the public, shown to herself.
    with django_capture_on_commit_callbacks(execute=True):
        player_set_hidden(player="ada", hidden=True, user=ada_user)
    client.logout()
    assert client.get(reverse("tournaments:player-detail", args=["ada"])).status_code == 404
    client.force_login(ada_user)
    _player_page(client)
