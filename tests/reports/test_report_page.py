"""The table's report page (``/games/<id>/report/``, where the slip's QR code leads):
players report and confirm from their phones without JavaScript; a dispute and the
staff's early acceptance; who may open it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import UserFactory
from tournaments.models import Player, TournamentAudit

pytestmark = pytest.mark.django_db

PLACES = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}


@pytest.fixture
def phones(players) -> dict[str, Client]:
    result = {}
    for player in players:
        player.user = UserFactory(username=f"u-{player.handle}")
        player.save(update_fields=["user"])
        client = Client()
        client.force_login(player.user)
        result[player.handle] = client
    return result


def page(game) -> str:
    return reverse("tournaments:game-report", args=[game.pk])


def by_seat(game, places) -> dict[str, str]:
    return {f"place-{i}": str(places[h]) for i, h in enumerate(game.players)}


def test_players_report_and_confirm_on_the_page(game, phones, tournament):
    first = phones["ann"].get(page(game))
    assert first.status_code == 200
    html = first.content.decode()
    assert "Report the result" in html and 'name="place-3"' in html
    sent = phones["ann"].post(page(game), {"action": "report", **by_seat(game, PLACES)})
    assert sent.status_code == 303
    html = phones["bob"].get(page(game)).content.decode()
    assert "Waiting for: Bob, Cat, Dan" in html and "data-report-confirm" in html
    for handle in ("bob", "cat", "dan"):
        assert phones[handle].post(page(game), {"action": "confirm"}).status_code == 303
    game.refresh_from_db()
    assert game.placements == PLACES and game.players_confirmed
    html = phones["ann"].get(page(game)).content.decode()
    assert "confirmed by the players" in html
    # the audit log says who said what, in words
    dashboard = TournamentAudit.objects.filter(tournament=tournament, action="report_made").get()
    assert dashboard.details["player"] == "ann"


def test_a_dispute_shows_both_versions(game, phones):
    phones["ann"].post(page(game), {"action": "report", **by_seat(game, PLACES)})
    other = {"ann": 2, "bob": 1, "cat": 3, "dan": 4}
    phones["bob"].post(page(game), {"action": "report", **by_seat(game, other)})
    html = phones["cat"].get(page(game)).content.decode()
    assert "The players disagree" in html
    assert "Said by Ann" in html and "Said by Bob" in html


def test_a_refused_report_says_why_and_stores_nothing(game, phones):
    answer = phones["ann"].post(page(game), {"action": "report", "place-0": "1"})
    assert answer.status_code == 400
    assert "Give a place to every player." in answer.content.decode()
    bad = {**by_seat(game, PLACES), "place-1": "9"}
    answer = phones["ann"].post(page(game), {"action": "report", **bad})
    assert answer.status_code == 400
    game.refresh_from_db()
    assert game.placements is None


def test_staff_accept_early_on_the_page(game, phones, staff):
    phones["ann"].post(page(game), {"action": "report", **by_seat(game, PLACES)})
    keeper = Client()
    keeper.force_login(staff["scorekeeper"])
    html = keeper.get(page(game)).content.decode()
    assert "data-report-accept" in html and "Report the result" not in html
    assert keeper.post(page(game), {"action": "accept"}).status_code == 303
    game.refresh_from_db()
    assert game.placements == PLACES and not game.players_confirmed


def test_who_may_open_the_page(game, phones, staff, tournament):
    anonymous = Client().get(page(game))
    assert anonymous.status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(staff["stranger"])
    assert stranger.get(page(game)).status_code == 403
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert stranger.get(page(game)).status_code == 404


def test_a_hidden_tablemate_stays_player_n_on_the_page(game, phones):
    Player.objects.filter(handle="dan").update(hidden=True)
    html = phones["ann"].get(page(game)).content.decode()
    assert "Dan" not in html
    mine = phones["dan"].get(page(game)).content.decode()
    assert "Dan" in mine
