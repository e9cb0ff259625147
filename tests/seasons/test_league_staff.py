"""League staff (issue 24): a league's scorekeeper scores a game of a tournament created
after they were added, without being added to it; removed, they get 403; a league
scorekeeper is no organizer; a league referee rules. Through the API and the pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    seat_table,
)
from tournaments.models import LeagueRole, TournamentAudit

pytestmark = pytest.mark.django_db


def test_league_staff_hold_the_role_in_a_new_tournament():
    league = LeagueFactory(slug="staffed", kind="tock")
    organizer = UserFactory(username="lg-org")
    league.organizers.add(organizer)
    keeper = UserFactory(username="lg-keeper")
    UserFactory(username="lg-ref")
    org = token_client(organizer)
    added = org.post(
        "/api/leagues/staffed/staff",
        {"username": "lg-keeper", "role": "scorekeeper"},
        format="json",
    )
    assert added.status_code == 201, added.json()
    assert (
        org.post(
            "/api/leagues/staffed/staff", {"username": "lg-ref", "role": "referee"}, format="json"
        ).status_code
        == 201
    )
    assert token_client(keeper).get("/api/leagues/staffed/staff").status_code == 403
    listed = org.get("/api/leagues/staffed/staff").json()
    assert {(r["username"], r["role"]) for r in listed} == {
        ("lg-keeper", "scorekeeper"), ("lg-ref", "referee")
    }  # fmt: skip
    # a tournament created afterwards: the league's scorekeeper scores it
    tournament = TournamentFactory(league=league, status="running")
    players = [PlayerFactory(handle=h) for h in ("aa", "bb", "cc", "dd")]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    page = Client()
    page.force_login(keeper)
    assert page.get(reverse("tournaments:game-score", args=[game.pk])).status_code == 200
    placements = {"aa": 1, "bb": 2, "cc": 3, "dd": 4}
    answer = token_client(keeper).post(
        f"/api/games/{game.pk}/placements", {"placements": placements}, format="json"
    )
    assert answer.status_code in (200, 201), answer.json()
    # a league scorekeeper is no organizer
    assert page.get(reverse("tournaments:organize", args=[tournament.pk])).status_code == 403
    # the league referee may open the referee page
    referee = Client()
    referee.force_login(UserFactory._meta.model.objects.get(username="lg-ref"))
    assert referee.get(reverse("tournaments:referee", args=[tournament.pk])).status_code == 200
    # removed: 403
    role = LeagueRole.objects.get(user=keeper)
    assert org.delete(f"/api/leagues/staffed/staff/{role.pk}").status_code == 204
    assert page.get(reverse("tournaments:game-score", args=[game.pk])).status_code == 403
    assert TournamentAudit.objects.filter(action="league_staff_removed").exists()


def test_the_league_page_changes_the_staff():
    league = LeagueFactory(slug="staffed2", kind="tock")
    organizer = UserFactory(username="lg2-org")
    league.organizers.add(organizer)
    UserFactory(username="lg2-keeper")
    page = Client()
    page.force_login(organizer)
    detail = reverse("tournaments:league-detail", args=["staffed2"])
    assert "League staff" in page.get(detail).content.decode()
    page.post(
        reverse("tournaments:league-staff", args=["staffed2"]),
        {"username": "lg2-keeper", "role": "scorekeeper"},
    )
    role = LeagueRole.objects.get()
    assert f'data-league-role="{role.pk}"' in page.get(detail).content.decode()
    assert "League staff" not in Client().get(detail).content.decode()
    page.post(reverse("tournaments:league-staff", args=["staffed2"]), {"remove": str(role.pk)})
    assert not LeagueRole.objects.exists()
