"""Seasons through the API (issue 24): an organizer creates seasons (overlaps refused
with 409 invalid_state), tournaments are played through the API, and the season table
equals a computation in the test from each tournament's final standings; it follows a
correction at once and masks hidden players."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.models import Game
from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import Player
from tournaments.services.rulings import result_correction_record

pytestmark = pytest.mark.django_db

POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
HANDLES = [f"p{i}" for i in range(8)]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _play(org, league, commit, *, name: str, starts_on: str, seed: int, handles=HANDLES) -> int:
    """A two-round Swiss tournament of 8 played through the API: placements at random."""
    response = org.post(
        _url("league-tournaments", league.slug),
        {"name": name, "starts_on": starts_on, "rounds": 2, "table_sizes": [4]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    assert (
        org.post(
            _url("tournament-players", tid), {"handles": handles, "create": True}, format="json"
        ).status_code
        == 201
    )
    for handle in handles:
        org.post(_url("tournament-player-check-in", tid, handle))
    assert org.post(_url("tournament-start", tid)).status_code == 201
    rng = random.Random(seed)
    for _ in range(4):
        if org.get(_url("tournament-detail", tid)).json()["status"] == "finished":
            break
        newest = org.get(_url("tournament-rounds", tid)).json()[0]
        for table in newest["tables"]:
            seats = [s["handle"] for s in table["seats"]]
            places = list(range(1, len(seats) + 1))
            rng.shuffle(places)
            with commit(execute=True):  # progression runs on commit
                answer = org.post(
                    _url("game-placements", table["game"]["id"]),
                    {"placements": dict(zip(seats, places, strict=True))},
                    format="json",
                )
            assert answer.status_code in (200, 201), answer.json()
    assert org.get(_url("tournament-detail", tid)).json()["status"] == "finished"
    return tid


def _expected(org, tids: list[int], best_of: int | None = None) -> dict[str, float]:
    """The season points of each player computed here from the standings API."""
    results: dict[str, list[float]] = {}
    for tid in tids:
        for row in org.get(_url("tournament-standings", tid)).json():
            rank = row["rank"]
            results.setdefault(row["handle"], []).append(
                POINTS[rank - 1] if rank <= len(POINTS) else 0
            )
    return {h: sum(sorted(v, reverse=True)[:best_of] if best_of else v) for h, v in results.items()}


@pytest.fixture
def setup(django_capture_on_commit_callbacks):
    league = LeagueFactory(slug="club", kind="tock")
    organizer = UserFactory(username="club-organizer")
    league.organizers.add(organizer)
    return league, token_client(organizer), django_capture_on_commit_callbacks


def test_a_season_table_from_tournaments_played_through_the_api(setup):
    from rest_framework.test import APIClient

    anon = APIClient()
    league, org, commit = setup
    made = org.post(
        _url("league-seasons", league.slug),
        {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-05-31", "best_of": 2},
        format="json",
    )
    assert made.status_code == 201, made.json()
    season = made.json()
    assert season["season_points"] == POINTS and season["best_of"] == 2 and season["id"]
    clash = org.post(
        _url("league-seasons", league.slug),
        {"name": "Overlap", "starts_on": "2026-05-01", "ends_on": "2026-06-30"},
        format="json",
    )
    assert clash.status_code == 409 and clash.json()["code"] == "invalid_state"
    assert anon.post(
        _url("league-seasons", league.slug),
        {"name": "X", "starts_on": "2027-01-01", "ends_on": "2027-02-01"},
        format="json",
    ).status_code in (401, 403)
    bad = org.post(
        _url("league-seasons", league.slug),
        {"name": "Bad", "starts_on": "2027-02-01", "ends_on": "2027-01-01"},
        format="json",
    )
    assert bad.status_code == 400

    tids = [
        _play(org, league, commit, name=f"Month {m}", starts_on=f"2026-0{m}-10", seed=m)
        for m in (3, 4, 5)
    ]
    _play(org, league, commit, name="Summer", starts_on="2026-07-10", seed=9)  # another season
    table = org.get(_url("league-standings", league.slug), {"season": season["id"]}).json()
    assert table["season"]["name"] == "Spring"
    expected = _expected(org, tids, best_of=2)
    assert {r["handle"]: r["points"] for r in table["rows"]} == expected
    assert all(r["played"] == 3 and r["events"] == 2 for r in table["rows"])
    assert [r["points"] for r in table["rows"]] == sorted(expected.values(), reverse=True)
    first = table["rows"][0]
    assert {c["tournament"] for c in first["results"]} == set(tids)

    # a correction of a result shows at once
    game = Game.objects.filter(table__round__tournament_id=tids[0]).order_by("id").first()
    flipped = {h: len(game.placements) + 1 - p for h, p in game.placements.items()}
    result_correction_record(
        game=game.pk,
        placements=flipped,
        note="wrong way round",
        expected_sequence=game.last_sequence + 1,
        user=league.organizers.first(),
    )
    again = org.get(_url("league-standings", league.slug), {"season": season["id"]}).json()
    assert {r["handle"]: r["points"] for r in again["rows"]} == _expected(org, tids, best_of=2)

    # a hidden player is "Player N" for the public, themselves for the organizer
    Player.objects.filter(handle="p0").update(hidden=True)
    public = anon.get(_url("league-standings", league.slug), {"season": season["id"]}).json()
    assert "p0" not in {r["handle"] for r in public["rows"]}
    assert any(r["name"].startswith("Player ") for r in public["rows"])
    assert "p0" in {r["handle"] for r in again["rows"]}

    # the season's page and its CSV (the public: p0 masked)
    from django.test import Client

    page = Client().get(reverse("tournaments:league-season", args=[league.slug, season["id"]]))
    assert page.status_code == 200 and "Spring" in page.content.decode()
    csv_text = (
        Client()
        .get(reverse("tournaments:league-season-csv", args=[league.slug, season["id"]]))
        .content.decode()
    )
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("rank,handle,name,points,events,played,t")
    assert len(lines) == 1 + len(HANDLES) and ",p0," not in csv_text

    listed = anon.get(_url("league-seasons", league.slug)).json()
    assert [s["name"] for s in listed] == ["Spring"]
    assert anon.get(_url("league-standings", league.slug), {"season": 999999}).status_code == 404


def test_the_league_page_shows_the_current_season_and_organizers_add_one(client):
    import datetime as dt

    from django.test import Client

    league = LeagueFactory(slug="club2", kind="tock")
    organizer = UserFactory(username="org2")
    league.organizers.add(organizer)
    staff = Client()
    staff.force_login(organizer)
    today = dt.date.today()
    answer = staff.post(
        reverse("tournaments:league-season-new", args=[league.slug]),
        {
            "name": "This season",
            "starts_on": (today - dt.timedelta(days=10)).isoformat(),
            "ends_on": (today + dt.timedelta(days=10)).isoformat(),
            "season_points": "10, 6, 3",
            "best_of": "",
        },
    )
    assert answer.status_code == 303
    page = client.get(reverse("tournaments:league-detail", args=[league.slug])).content.decode()
    assert "This season" in page and "No tournament of this season has finished yet." in page
    assert "Add a season" not in page  # the public does not manage
    refused = staff.post(
        reverse("tournaments:league-season-new", args=[league.slug]),
        {"name": "Clash", "starts_on": today.isoformat(), "ends_on": today.isoformat()},
        follow=True,
    )
    assert "overlaps" in refused.content.decode()
    stranger = Client()
    stranger.force_login(UserFactory(username="nobody"))
    assert (
        stranger.post(
            reverse("tournaments:league-season-new", args=[league.slug]),
            {"name": "X", "starts_on": "2030-01-01", "ends_on": "2030-02-01"},
        ).status_code
        == 403
    )


def test_a_season_table_reads_its_tournaments_standings_at_once(setup):
    """The season table of several finished tournaments costs the same queries as of one
    once their standings are cached (read in one cache round trip for them all, kept
    whatever the events' size: finished ones change only with a correction), and the
    same table as computed afresh."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Season
    from tournaments.selectors.seasons import season_standings

    league, org, commit = setup
    season = Season.objects.create(
        league=league, name="All year", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    counts = []
    for n, month in enumerate(("03", "04", "05")):
        _play(org, league, commit, name=f"M{month}", starts_on=f"2026-{month}-06", seed=n)
        cache.clear()
        fresh = season_standings(season=season)  # computed, then kept
        with CaptureQueriesContext(connection) as warm:
            again = season_standings(season=season)
        assert [(r.player, r.points) for r in again.rows] == [
            (r.player, r.points) for r in fresh.rows
        ]
        counts.append(len(warm.captured_queries))
    assert len(fresh.tournaments) == 3
    assert counts[0] == counts[1] == counts[2] <= 4, counts
