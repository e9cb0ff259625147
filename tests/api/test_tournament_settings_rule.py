"""PATCH /api/tournaments/<id> applies the service's rule (tournament_update), no other:
before the start anything; once a round is seated the seating settings are fixed and
the others may still change; once the tournament is over nothing changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def test_patch_follows_the_service_rule_before_during_and_after():
    league = LeagueFactory(slug="rule-club")
    organizer = UserFactory(username="rule-organizer")
    league.organizers.add(organizer)
    org = token_client(organizer)
    response = org.post(
        reverse("api:league-tournaments", args=[league.slug]), {"name": "Rule"}, format="json"
    )
    tid = response.json()["id"]
    url = reverse("api:tournament-detail", args=[tid])
    handles = [f"r{i}" for i in range(8)]
    org.post(
        reverse("api:tournament-players", args=[tid]),
        {"handles": handles, "create": True},
        format="json",
    )
    for handle in handles:
        org.post(reverse("api:tournament-player-check-in", args=[tid, handle]))
    assert org.patch(url, {"table_sizes": [4, 3]}, format="json").status_code == 200
    assert org.post(reverse("api:tournament-start", args=[tid])).status_code == 201

    # running: what the service allows, the API allows (automatic progression off, the clock)
    response = org.patch(url, {"auto_progress": False, "round_minutes": 40}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["auto_progress"] is False and response.json()["round_minutes"] == 40
    # ...and what it refuses, the API refuses, with nothing changed
    response = org.patch(url, {"rounds": 7, "table_sizes": [3]}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "invalid_state"
    t = Tournament.objects.get(pk=tid)
    assert t.table_sizes[0] == 4 and t.swiss_rounds != 7

    services.tournament_finish(tournament=t, user=SYSTEM)
    response = org.patch(url, {"name": "Renamed"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "invalid_state"
    with pytest.raises(Exception) as refused:
        services.tournament_update(tournament=Tournament.objects.get(pk=tid), name="x", user=SYSTEM)
    assert refused.value.http_status == 409  # the same rule, from the service
    assert Tournament.objects.get(pk=tid).name == "Rule"
