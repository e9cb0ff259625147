"""The league's audit log (issue 24): creating, changing and removing a season and the
league's staff are recorded with who and when, read by the league's organizers through
the API and on the league page, and by nobody else."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import LeagueAudit, Season
from tournaments.services.seasons import season_delete, season_update

pytestmark = pytest.mark.django_db


def test_seasons_and_league_staff_are_in_the_league_log():
    league = LeagueFactory(slug="logged", kind="tock")
    organizer = UserFactory(username="log-org")
    league.organizers.add(organizer)
    UserFactory(username="log-ref")
    org = token_client(organizer)
    made = org.post(
        "/api/leagues/logged/seasons",
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30", "best_of": 3},
        format="json",
    )
    assert made.status_code == 201
    clash = org.post(
        "/api/leagues/logged/seasons",
        {"name": "Clash", "starts_on": "2026-10-01", "ends_on": "2026-12-31"},
        format="json",
    )
    assert clash.status_code == 409  # refused: nothing recorded
    season = Season.objects.get(pk=made.json()["id"])
    season_update(season=season, user=organizer, name="Autumn 2026", best_of=None)
    season_update(season=season, user=organizer, name="Autumn 2026")  # no change: no row
    added = org.post(
        "/api/leagues/logged/staff", {"username": "log-ref", "role": "referee"}, format="json"
    )
    assert org.delete(f"/api/leagues/logged/staff/{added.json()['id']}").status_code == 204
    season_delete(season=Season.objects.get(pk=season.pk), user=organizer)

    log = org.get("/api/leagues/logged/audit")
    assert log.status_code == 200
    entries = log.json()
    assert [e["action"] for e in entries] == [
        "season_created",
        "season_changed",
        "league_staff_added",
        "league_staff_removed",
        "season_deleted",
    ]
    assert {e["actor"] for e in entries} == {"log-org"}
    assert entries[0]["details"]["best_of"] == 3 and entries[0]["details"]["name"] == "Autumn"
    assert entries[1]["details"]["fields"] == ["best_of", "name"]
    assert entries[2]["details"] == {"member": "log-ref", "role": "referee"}

    # The league page shows the organizers the latest steps in words, newest first.
    page = Client()
    page.force_login(organizer)
    html = page.get(reverse("tournaments:league-detail", args=["logged"])).content.decode()
    assert "League log" in html
    assert html.index("Season removed") < html.index("Season created")
    assert "Autumn, 2026-09-01 to 2026-11-30." in html

    # Nobody else reads it.
    stranger = UserFactory(username="log-stranger")
    assert token_client(stranger).get("/api/leagues/logged/audit").status_code == 403
    assert APIClient().get("/api/leagues/logged/audit").status_code == 401
    public = Client().get(reverse("tournaments:league-detail", args=["logged"])).content.decode()
    assert "League log" not in public and "Season created" not in public
    assert LeagueAudit.objects.filter(league=league).count() == 5
