"""Late entry (issue 24): a tournament says until which round players may still join; a
late player joins the next round seated and scores, for each round missed, the points
of last place at a full table (or nothing), shown as such in the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

EIGHT = [f"p{i}" for i in range(8)]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _finish_round(client, tid, commit) -> None:
    newest = client.get(_url("tournament-rounds", tid)).json()[0]
    for table in newest["tables"]:
        if table["game"]["placements"] is not None:
            continue
        seats = [s["handle"] for s in table["seats"]]
        with commit(execute=True):
            client.post(
                _url("game-placements", table["game"]["id"]),
                {"placements": {h: i + 1 for i, h in enumerate(seats)}},
                format="json",
            )


@pytest.mark.parametrize(("rule", "missed_points"), [("last", 1.0), ("none", 0.0)])
def test_a_late_player_joins_the_next_round_with_the_missed_rounds_points(
    rule, missed_points, django_capture_on_commit_callbacks
):
    league = LeagueFactory(slug=f"late-{rule}", kind="tock")
    organizer = UserFactory(username=f"late-org-{rule}")
    league.organizers.add(organizer)
    client = token_client(organizer)
    made = client.post(
        _url("league-tournaments", league.slug),
        {
            "name": "Late",
            "rounds": 3,
            "table_sizes": [4, 3, 5],
            "points_per_place": [5, 3, 2, 1],
            "late_entry_until": 2,
            "late_entry_points": rule,
        },
        format="json",
    )
    tid = made.json()["id"]
    client.post(_url("tournament-players", tid), {"handles": EIGHT, "create": True}, format="json")
    for h in EIGHT:
        client.post(_url("tournament-player-check-in", tid, h))
    assert client.post(_url("tournament-start", tid)).status_code == 201
    # during round 1 a player signs up themselves (late entry is open until round 2)
    late = UserFactory(username="latecomer")
    joined = token_client(late).post(f"/api/tournaments/{tid}/signup")
    assert joined.status_code == 201, joined.json()
    reg = Registration.objects.get(tournament_id=tid, player__handle="latecomer")
    assert reg.joined_round == 2 and reg.checked_in
    _finish_round(client, tid, django_capture_on_commit_callbacks)
    second = client.get(_url("tournament-rounds", tid)).json()[0]
    assert second["number"] == 2
    seated = {s["handle"] for t in second["tables"] for s in t["seats"]}
    assert "latecomer" in seated and len(seated) == 9
    # after round 2 is seated, late entry has closed
    refused = token_client(UserFactory(username="toolate")).post(f"/api/tournaments/{tid}/signup")
    assert refused.status_code == 409
    _finish_round(client, tid, django_capture_on_commit_callbacks)
    standings = {r["handle"]: r for r in client.get(_url("tournament-standings", tid)).json()}
    row = standings["latecomer"]
    assert row["late"] == [1] and row["games"] == 1
    table = next(t for t in second["tables"] if "latecomer" in {s["handle"] for s in t["seats"]})
    placements = next(
        t["game"]["placements"]
        for r in client.get(_url("tournament-rounds", tid)).json()
        for t in r["tables"]
        if t["game"]["id"] == table["game"]["id"]
    )
    from tournaments.scoring import table_points

    earned = table_points([5, 3, 2, 1], placements)["latecomer"]
    assert row["points"] == pytest.approx(earned + missed_points)
    page = client.get(reverse("tournaments:tournament-detail", args=[tid]))
    assert page.status_code == 200
