"""Calling a referee (issue 23): a player (or the table's staff) calls with a reason;
the referee list shows the open calls oldest first; a referee claims (the table sees
someone is on the way) and closes the call; one open call per table; the median time to
answer per round. Through the API and the pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import UserFactory
from tournaments.models import RefereeCall, TournamentAudit
from tournaments.selectors.calls import calls_answer_times

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(players):
    player = next(p for p in players if p.handle == "ann")
    player.user = UserFactory(username="u-ann")
    player.save(update_fields=["user"])
    return player.user


def test_a_player_calls_a_referee_claims_and_closes(game, ann, as_user, tournament):
    phone = token_client(ann)
    made = phone.post(f"/api/games/{game.pk}/calls", {"reason": "a knock"}, format="json")
    assert made.status_code == 201, made.json()
    call = made.json()
    assert call["status"] == "open" and call["reason"] == "a knock" and call["table"] == 1
    again = phone.post(f"/api/games/{game.pk}/calls", {}, format="json")
    assert again.json()["id"] == call["id"]  # one open call per table
    listed = as_user("referee").get(f"/api/tournaments/{tournament.pk}/calls").json()
    assert [c["id"] for c in listed] == [call["id"]]
    assert as_user("scorekeeper").get(f"/api/tournaments/{tournament.pk}/calls").status_code == 403
    assert as_user("scorekeeper").post(f"/api/calls/{call['id']}/claim").status_code == 403
    claimed = as_user("referee").post(f"/api/calls/{call['id']}/claim")
    assert claimed.status_code == 200 and claimed.json()["status"] == "claimed"
    assert claimed.json()["claimed_by"] == "t-referee"
    closed = as_user("referee").post(f"/api/calls/{call['id']}/close", {}, format="json")
    assert closed.json()["status"] == "closed"
    assert as_user("referee").post(f"/api/calls/{call['id']}/close").status_code == 409
    assert as_user("referee").get(f"/api/tournaments/{tournament.pk}/calls").json() == []
    actions = list(
        TournamentAudit.objects.filter(action__startswith="referee_")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["referee_called", "referee_call_claimed", "referee_call_closed"]


def test_who_may_call(game, as_user, anon, tournament):
    assert anon.post(f"/api/games/{game.pk}/calls").status_code == 401
    assert as_user("stranger").post(f"/api/games/{game.pk}/calls").status_code == 403
    assert as_user("scorekeeper").post(f"/api/games/{game.pk}/calls").status_code == 201
    long = as_user("scorekeeper").post(
        f"/api/games/{game.pk}/calls", {"reason": "x" * 201}, format="json"
    )
    assert long.status_code == 400


def test_the_median_time_to_answer_per_round(game, ann, staff, tournament):
    phone = token_client(ann)
    call_id = phone.post(f"/api/games/{game.pk}/calls").json()["id"]
    start = RefereeCall.objects.get(pk=call_id).created_at
    RefereeCall.objects.filter(pk=call_id).update(claimed_at=start + dt.timedelta(seconds=90))
    assert calls_answer_times(tournament=tournament) == [
        {"round": 1, "calls": 1, "median_seconds": 90}
    ]


def test_the_pages(game, ann, staff, tournament):
    player = Client()
    player.force_login(ann)
    page = reverse("tournaments:game-detail", args=[game.pk])
    assert "data-call-referee" in player.get(page).content.decode()
    sent = player.post(
        reverse("tournaments:game-call", args=[game.pk]), {"reason": "dispute", "next": page}
    )
    assert sent.status_code == 303 and sent["Location"] == page
    assert 'data-call-status="open"' in player.get(page).content.decode()
    referee = Client()
    referee.force_login(staff["referee"])
    home = reverse("tournaments:referee", args=[tournament.pk])
    html = referee.get(home).content.decode()
    call = RefereeCall.objects.get()
    assert f'data-call-claim="{call.pk}"' in html and "dispute" in html
    referee.post(reverse("tournaments:call-claim", args=[call.pk]), {"next": home})
    assert 'data-call-status="claimed"' in player.get(page).content.decode()
    referee.post(reverse("tournaments:call-close", args=[call.pk]), {"next": home})
    assert RefereeCall.objects.get().status == "closed"
    assert "Median time to answer a call" in referee.get(home).content.decode()
