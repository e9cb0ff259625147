"""Results reported by the table (issue 23): a player reports placements from their
phone, the others confirm or dispute; the result is stored when the players who must
agree have (every linked player still in the event, or the reporter and one other);
staff accept early; disputes and time-up go to the referee list. Through the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.api.conftest import token_client
from tests.tournaments.factories import UserFactory
from tournaments.models import (
    NoShow,
    Player,
    ProposalStatus,
    Registration,
    ResultProposal,
    Round,
    TournamentAudit,
)
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_event
from tournaments.services.progression import round_time_up

pytestmark = pytest.mark.django_db

PLACES = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
OTHER = {"ann": 2, "bob": 1, "cat": 3, "dan": 4}


@pytest.fixture
def phones(players) -> dict[str, APIClient]:
    """Every player of the table linked to an account of their own: their phones."""
    result = {}
    for player in players:
        player.user = UserFactory(username=f"u-{player.handle}")
        player.save(update_fields=["user"])
        result[player.handle] = token_client(player.user)
    return result


def url(game, tail: str = "") -> str:
    return f"/api/games/{game.pk}/reports{tail}"


def report(client, game, places=PLACES):
    return client.post(url(game), {"placements": places}, format="json")


def audit_actions(tournament) -> list[str]:
    return list(
        TournamentAudit.objects.filter(tournament=tournament, action__startswith="report")
        .order_by("id")
        .values_list("action", flat=True)
    )


def test_a_report_confirmed_by_every_player_becomes_the_result(game, phones, tournament):
    first = report(phones["ann"], game)
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "pending"
    assert first.json()["agreed"] == ["ann"]
    assert first.json()["waiting"] == ["bob", "cat", "dan"]
    assert first.json()["reporter"] == "ann" and first.json()["needed"] == "all"
    for handle in ("bob", "cat"):
        assert report(phones[handle], game).json()["status"] == "pending"
    game.refresh_from_db()
    assert game.placements is None  # dan has not answered yet
    assert phones["dan"].get(url(game)).json()["waiting"] == ["dan"]
    last = report(phones["dan"], game)
    assert last.status_code == 201
    assert last.json()["status"] == "accepted" and last.json()["waiting"] == []
    game.refresh_from_db()
    assert game.placements == PLACES and game.result_source == "placements"
    assert game.players_confirmed is True and game.status == "finished"
    # the state stays readable once accepted; the result is on the game's API
    assert phones["bob"].get(url(game)).json()["status"] == "accepted"
    assert phones["bob"].get(f"/api/games/{game.pk}").json()["players_confirmed"] is True
    assert audit_actions(tournament) == [
        "report_made",
        "report_confirmed",
        "report_confirmed",
        "report_confirmed",
        "report_accepted",
    ]
    # a new report on a game with a result: 409
    assert report(phones["ann"], game).status_code == 409


def test_different_placements_dispute_the_report_for_a_referee(game, phones, as_user):
    report(phones["ann"], game)
    disputed = report(phones["bob"], game, OTHER)
    assert disputed.status_code == 201
    body = disputed.json()
    assert body["status"] == "disputed"
    assert body["placements"] == PLACES and body["disputed_by"] == {"bob": OTHER}
    game.refresh_from_db()
    assert game.placements is None
    # staff cannot accept a disputed report: a referee decides on the referee list
    assert as_user("scorekeeper").post(url(game, "/accept")).status_code == 409
    listed = as_user("referee").get(f"/api/games/{game.pk}/proposal").json()
    assert listed["status"] == "disputed"
    # the referee decides with the proposal's confirm (the reporter's version)
    assert as_user("referee").post(f"/api/games/{game.pk}/proposal/confirm").status_code == 200
    game.refresh_from_db()
    assert game.placements == PLACES and game.players_confirmed is False
    assert phones["cat"].get(url(game)).json()["status"] == "accepted"


def test_a_disputing_player_who_comes_round_makes_it_pending_again(game, phones):
    report(phones["ann"], game)
    assert report(phones["bob"], game, OTHER).json()["status"] == "disputed"
    again = report(phones["bob"], game, PLACES).json()
    assert again["status"] == "pending" and again["agreed"] == ["ann", "bob"]


def test_the_reporter_replaces_a_pending_report_and_confirmations_start_over(game, phones):
    report(phones["ann"], game)
    report(phones["bob"], game)
    replaced = report(phones["ann"], game, OTHER).json()
    assert replaced["placements"] == OTHER and replaced["agreed"] == ["ann"]
    assert replaced["waiting"] == ["bob", "cat", "dan"]
    assert ResultProposal.objects.filter(game=game).count() == 1


def test_unlinked_dropped_and_absent_players_are_not_waited_for(game, phones, players):
    dan = Player.objects.get(handle="dan")
    dan.user = None
    dan.save(update_fields=["user"])
    Registration.objects.filter(player__handle="cat").update(dropped=True)
    report(phones["ann"], game)
    state = report(phones["bob"], game).json()
    assert state["status"] == "accepted"
    game.refresh_from_db()
    assert game.placements == PLACES


def test_a_no_show_is_not_waited_for(game, phones, table):
    NoShow.objects.create(round=table.round, table=table, player=Player.objects.get(handle="dan"))
    for handle in ("ann", "bob"):
        report(phones[handle], game)
    assert report(phones["cat"], game).json()["status"] == "accepted"


def test_the_reporter_and_one_other_when_the_tournament_says_so(game, phones, tournament):
    tournament.report_agreement = "two"
    tournament.save(update_fields=["report_agreement"])
    assert report(phones["ann"], game).json()["needed"] == "two"
    assert report(phones["cat"], game).json()["status"] == "accepted"


def test_staff_accept_a_pending_report_early(game, phones, as_user, staff, tournament):
    report(phones["ann"], game)
    assert as_user("stranger").post(url(game, "/accept")).status_code in (403, 404)
    accepted = as_user("scorekeeper").post(url(game, "/accept"))
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    game.refresh_from_db()
    assert game.placements == PLACES and game.players_confirmed is False
    assert audit_actions(tournament)[-1] == "report_accepted_by_staff"
    # nothing waiting any more
    assert as_user("referee").post(url(game, "/accept")).status_code == 404


def test_a_player_of_the_game_cannot_accept_it_as_staff(game, phones, staff, tournament):
    ann = Player.objects.get(handle="ann")
    ann.user = staff["referee"]
    ann.save(update_fields=["user"])
    report(phones["bob"], game)
    refused = token_client(staff["referee"]).post(url(game, "/accept"))
    assert refused.status_code == 403


def test_who_may_not_report(game, phones, as_user, anon):
    assert anon.post(url(game), {"placements": PLACES}, format="json").status_code == 401
    # staff are not players of the game: they enter placements or accept, not report
    assert report(as_user("scorekeeper"), game).status_code == 403
    assert report(as_user("stranger"), game).status_code == 403
    assert as_user("stranger").get(url(game)).status_code == 403
    assert phones["ann"].get(url(game)).status_code == 404  # nothing reported yet


def test_a_private_tournaments_game_is_not_found_for_strangers(game, phones, tournament, as_user):
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert report(as_user("stranger"), game).status_code == 404
    assert as_user("stranger").get(url(game)).status_code == 404


def test_bad_placements_are_refused_with_the_placements_check(game, phones):
    bad = report(phones["ann"], game, {"ann": 1, "bob": 2})
    assert bad.status_code == 400
    assert "detail" in bad.json()
    assert not ResultProposal.objects.filter(game=game).exists()


def test_a_game_recorded_live_takes_no_report(game, phones, simulated_log):
    game_record_event(game=game, event=simulated_log(seed=7)[0], expected_sequence=1, user=SYSTEM)
    assert report(phones["ann"], game).status_code == 409
    assert not ResultProposal.objects.filter(game=game).exists()


def test_time_up_leaves_a_reported_game_to_the_referee(game, phones, tournament, table):
    report(phones["ann"], game)
    report(phones["bob"], game, OTHER)  # disputed
    rnd = Round.objects.get(pk=table.round_id)
    round_time_up(round=rnd, user=SYSTEM)
    game.refresh_from_db()
    assert game.status != "void" and game.placements is None
    proposal = ResultProposal.objects.get(game=game)
    assert proposal.status == ProposalStatus.DISPUTED
    assert Game.objects.get(pk=game.pk).result_source == "none"
