"""The public tournament page: podium of a finished event, the current round and "find
my table" of a running one (server answer without JavaScript), provisional standings,
the stage of each row for swiss_cut, phone-first standings, per role."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services as game_services
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tests.web.test_pages import MAX_QUERIES, SIGNED_IN_EXTRA
from tournaments.models import Player, Role, Tournament
from tournaments.selectors.tournament_page import fold

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db, demo_world):
    """The demo's league and events, fresh objects for each test (the data: ``demo_world``)."""
    return {
        "running": Tournament.objects.get(slug="spring-cup"),
        "finished": Tournament.objects.get(slug="winter-open"),
    }


def _page(client, tournament, **params):
    response = client.get(reverse("tournaments:tournament-detail", args=[tournament.pk]), params)
    assert response.status_code == 200
    return response, response.content.decode()


def _shown_rows(html: str) -> list[str]:
    """The find-my-table rows the page shows (not ``hidden``), as their text."""
    block = html.split('id="find-table-results"', 1)[1].split("</ul>", 1)[0]
    rows = re.findall(r"<li data-search=\"[^\"]*\"( hidden)?>(.*?)</li>", block, re.S)
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip() for hid, text in rows if not hid
    ]


def test_a_finished_event_opens_with_the_winner_and_the_podium(client, demo):
    response, html = _page(client, demo["finished"])
    standings = response.context["standings"]
    podium = response.context["podium"]
    assert podium is not None
    assert podium.rows == [r for r in standings if r.rank <= 3]
    assert podium.winners[0] == standings[0]
    # The podium comes before the standings, with names and points.
    assert html.index('id="podium"') < html.index('id="standings"')
    for row in podium.rows:
        assert row.display_name in html.split('id="standings"')[0]
    points = f"{standings[0].points:g} pts"
    assert points in html
    assert 'id="find-table"' not in html  # nobody looks for a table at a finished event
    assert response.context["provisional"] is None
    assert "provisional" not in html.split('id="standings"', 1)[1].split("</h2>", 1)[0]


def test_a_running_event_opens_with_the_current_round_and_the_find_box(client, demo):
    running = demo["running"]
    response, html = _page(client, running)
    assert response.context["podium"] is None
    current = response.context["current_round"]
    assert current.number == 2
    assert html.index('id="seats"') < html.index('id="standings"')
    assert "Current round: 2" in html
    assert re.search(r'<label for="find-table">[^<]+</label>', html)
    assert re.search(r'<input id="find-table" name="find" type="search"', html)
    assert 'id="find-table-results"' in html
    assert "js/find-table.js" in html
    # No search: every seated player of the current round is listed.
    seated = sum(t.seats.count() for t in current.tables.all())
    assert len(_shown_rows(html)) == seated


def test_find_my_table_without_javascript_by_part_of_a_name(client, demo):
    response, html = _page(client, demo["running"], find="  ADA  ")
    rows = _shown_rows(html)
    assert len(rows) == 1 and rows[0].startswith("Ada Berg")
    ada = next(r for r in response.context["seat_finder"] if r.handle == "ada")
    assert f"Table {ada.table} · seat {ada.position}" in rows[0]
    assert "Player matching “ADA”: 1" in html
    # Every other row is still in the page (the script filters them), hidden.
    assert html.count("<li data-search=") == len(response.context["seat_finder"])
    # By handle, and accents or case do not matter.
    _, html = _page(client, demo["running"], find="zoe")
    assert [r.split(" Table")[0] for r in _shown_rows(html)] == ["Zoe Zorn"]
    assert fold("Zoë  ZORN") == "zoe zorn"


def test_find_my_table_without_a_match_says_so(client, demo):
    response, html = _page(client, demo["running"], find="nobody-here")
    assert _shown_rows(html) == []
    assert "No player matches “nobody-here”." in html
    assert response.context["seat_search"].matches == 0


def test_a_hidden_player_is_found_only_under_the_neutral_name(client, demo):
    Player.objects.filter(handle="ada").update(hidden=True)
    ada = Player.objects.get(handle="ada")
    _, html = _page(client, demo["running"], find="ada berg")
    assert _shown_rows(html) == []
    assert "Ada Berg" not in html
    _, html = _page(client, demo["running"], find=f"player {ada.pk}")
    assert len(_shown_rows(html)) == 1
    # The organizer finds her by name.
    client.force_login(UserFactory(username="demo"))
    _, html = _page(client, demo["running"], find="ada berg")
    assert len(_shown_rows(html)) == 1


def test_standings_say_when_they_are_provisional(client, demo):
    response, html = _page(client, demo["running"])
    provisional = response.context["provisional"]
    assert provisional is not None and provisional.round_number == 2
    assert provisional.unfinished >= 2  # the demo's live table and the one just started
    head = html.split('id="standings"', 1)[1]
    assert '<span class="badge provisional">provisional</span>' in head.split("</h2>", 1)[0]
    assert re.search(r"Provisional: \d+ tables of round 2 are still playing\.", head)


def test_standings_are_phone_first(client, demo):
    _, html = _page(client, demo["running"])
    section = html.split('id="standings"', 1)[1].split("</section>", 1)[0]
    assert 'class="scroll standings-scroll"' in section and "swipe the table sideways" in section
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", section.split("</thead>")[0])
    assert headers[:3] == ["#", "Player", "Points"]
    assert "css/public-pages.css" in html


def test_each_row_shows_its_stage_for_swiss_cut(client):
    tournament = TournamentFactory(format="swiss_cut", status="running", rounds_count=2)
    players = [
        PlayerFactory(handle=h, display_name=h.title()) for h in ("ann", "bob", "cat", "dan")
    ]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    first = seat_table(RoundFactory(tournament=tournament, number=1), players)
    game_services.game_set_placements(
        game=first.game, placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4}, user=None
    )
    seat_table(RoundFactory(tournament=tournament, number=2, stage="elimination"), players[:2])
    response, html = _page(client, tournament)
    stages = {r.handle: r.stage for r in response.context["standings"]}
    assert stages == {"ann": "elimination", "bob": "elimination", "cat": "swiss", "dan": "swiss"}
    assert ">Stage</th>" in html
    cells = re.findall(r'<td class="stage stage-(\w+)">(\w+)</td>', html)
    assert cells == [("elimination", "cut")] * 2 + [("swiss", "Swiss")] * 2
    # Not for plain Swiss.
    _, plain = _page(client, TournamentFactory(status="running"))
    assert ">Stage</th>" not in plain


def test_every_role_gets_the_page_with_bounded_queries(client, demo, django_assert_max_num_queries):
    running = demo["running"]
    ada_user = UserFactory(username="ada-user")
    Player.objects.filter(handle="ada").update(user=ada_user)
    scorekeeper = UserFactory(username="sk-user")
    TournamentRoleFactory(tournament=running, role=Role.SCOREKEEPER, user=scorekeeper)
    organizer = UserFactory(username="demo")
    for user in (None, ada_user, scorekeeper, organizer):
        client.logout()
        limit = MAX_QUERIES["tournament"]
        if user is not None:
            client.force_login(user)
            limit += SIGNED_IN_EXTRA
        for tournament, params in ((running, {"find": "a"}), (running, {}), (demo["finished"], {})):
            with django_assert_max_num_queries(limit):
                _page(client, tournament, **params)


def _running_event(n_players: int) -> Tournament:
    """A running event with one round seated at tables of 4, half of them finished."""
    tournament = TournamentFactory(status="running", rounds_count=3)
    players = [PlayerFactory() for _ in range(n_players)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    rnd = RoundFactory(tournament=tournament, number=1)
    for number, start in enumerate(range(0, n_players, 4), start=1):
        seated = players[start : start + 4]
        table = seat_table(rnd, seated, number=number)
        if number % 2:
            game_services.game_set_placements(
                game=table.game,
                placements={p.handle: place for place, p in enumerate(seated, start=1)},
                user=None,
            )
    return tournament


def test_the_query_count_does_not_grow_with_the_players(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (8, 40):
        tournament = _running_event(n)
        with CaptureQueriesContext(connection) as queries:
            _, html = _page(client, tournament, find="p")
        assert html.count("<li data-search=") == n
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
