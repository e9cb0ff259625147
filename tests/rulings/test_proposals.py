"""No dead ends (issue 22): a scorekeeper who stops recording live ends the game because
time is up (the engine places the players) or proposes placements, which a referee or
an organizer confirms in one tap from the referee list, or rejects (optionally
replacing them) with a note. Through the score page, the referee list and the API."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import games.engine as engine
from games.models import GameEvent
from tests.rulings import logs
from tournaments.models import Player, ResultProposal, Round, Ruling, TournamentAudit
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_event, game_record_log
from tournaments.services.progression import round_time_up

pytestmark = pytest.mark.django_db

PROPOSED = {"ann": 2, "bob": 1, "cat": 4, "dan": 3}


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def live(game, simulated_log, n: int = 25) -> list[dict]:
    """``game`` scored live up to its ``n`` first simulated events (still in progress)."""
    events = simulated_log(seed=7)[:n]
    game_record_log(game=game, log=events, user=SYSTEM)
    game.refresh_from_db()
    assert game.status == "in_progress" and game.result_source == "none"
    return events


def score(game):
    return reverse("tournaments:game-score", args=[game.pk])


def decide(game):
    return reverse("tournaments:game-proposal", args=[game.pk])


def api(game, tail: str = "") -> str:
    return f"/api/games/{game.pk}/proposal{tail}"


def propose_on_page(client, game, places=PROPOSED, confirm=True):
    data = {"action": "propose", **{f"place-{i}": places[h] for i, h in enumerate(game.players)}}
    if confirm:
        data["confirm"] = "yes"
    return client.post(score(game), data)


# --------------------------------------------------------------------------- time up


def test_stop_live_time_up_ends_the_game_with_the_engines_places(game, staff, simulated_log):
    events = live(game, simulated_log)
    keeper = browser(staff["scorekeeper"])
    page = keeper.get(score(game)).content.decode()
    assert "Stop live scoring" in page and 'id="stop-time-form"' in page
    assert '<details class="raw-event"' in page  # the expert's box, still folded away
    sent = {"action": "stop-time", "sequence": str(len(events) + 1), "key": "stop-1"}
    # the confirmation step: without the box ticked nothing is recorded
    refused = keeper.post(score(game), sent)
    assert refused.status_code == 400
    game.refresh_from_db()
    assert game.status == "in_progress" and game.last_sequence == len(events)
    done = keeper.post(score(game), {**sent, "confirm": "yes"})
    assert done.status_code == 303
    game.refresh_from_db()
    expected = engine.replay([*events, {"type": "end", "reason": "time"}])
    assert game.is_over and game.result_source == "log"
    assert game.placements == expected.placements()
    last = GameEvent.objects.get(game=game, sequence=game.last_sequence)
    assert last.data == {"type": "end", "reason": "time"}
    assert "Stop live scoring" not in keeper.get(score(game)).content.decode()


# --------------------------------------------------------------------------- propose, confirm


def test_proposed_placements_wait_then_a_referee_confirms_in_one_tap(
    game, staff, simulated_log, tournament, table
):
    events = live(game, simulated_log)
    keeper = browser(staff["scorekeeper"])
    assert propose_on_page(keeper, game, confirm=False).status_code == 400
    assert not ResultProposal.objects.exists()
    assert propose_on_page(keeper, game).status_code == 303
    game.refresh_from_db()
    # a proposal records nothing: the log still says in progress
    assert game.status == "in_progress" and game.placements is None
    assert 'id="proposal-pending"' in keeper.get(score(game)).content.decode()
    # the referee list shows it first, with a one-tap confirm form
    referee = browser(staff["referee"])
    home = referee.get(reverse("tournaments:referee", args=[tournament.pk])).content.decode()
    assert home.index("Proposed results") < home.index("Round 1, table")
    assert f'data-proposal-confirm="{game.pk}"' in home
    # one tap
    assert referee.post(decide(game), {"action": "confirm"}).status_code == 303
    game.refresh_from_db()
    assert game.is_over and game.placements == PROPOSED and game.result_source == "log"
    end = GameEvent.objects.get(game=game, sequence=len(events) + 1).data
    assert end == {
        "type": "end",
        "reason": "adjudicated",
        "referee": staff["referee"].username,
        "placements": PROPOSED,
    }
    proposal = ResultProposal.objects.get()
    assert proposal.status == "confirmed" and proposal.decided_by == staff["referee"]
    ruling = Ruling.objects.get(game=game)
    assert ruling.ruling == "proposal_ok" and ruling.sequence == len(events) + 1
    assert not ruling.is_override
    # the round moves on as for any result (its only table has one)
    assert Round.objects.get(pk=table.round_id).status == "finished"
    rulings = browser().get(reverse("tournaments:rulings", args=[tournament.pk])).content.decode()
    assert "Proposed result confirmed" in rulings
    actions = set(TournamentAudit.objects.values_list("action", flat=True))
    assert {"result_proposed", "result_proposal_confirmed"} <= actions
    # nothing is left waiting on the referee list
    home = referee.get(reverse("tournaments:referee", args=[tournament.pk])).content.decode()
    assert "Proposed results" not in home


def test_a_game_without_a_log_gets_the_placements_unverified(game, staff, as_user):
    assert (
        as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json").status_code
        == 201
    )
    answer = as_user("organizer").post(api(game, "/confirm"))
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"
    game.refresh_from_db()
    assert game.placements == PROPOSED and game.result_source == "placements"
    assert Ruling.objects.get(game=game).sequence == 0


# --------------------------------------------------------------------------- reject, replace


def test_rejection_records_nothing_and_a_replacement_records_the_referees_places(
    game, staff, simulated_log, as_user, tournament
):
    live(game, simulated_log)
    made = as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "pending"
    assert made.json()["placements"] == PROPOSED
    # a note is required
    assert (
        as_user("referee").post(api(game, "/reject"), {"note": " "}, format="json").status_code
        == 400
    )
    answer = as_user("referee").post(
        api(game, "/reject"), {"note": "The table miscounted."}, format="json"
    )
    assert answer.status_code == 200
    assert (
        answer.json()["status"] == "rejected" and answer.json()["note"] == "The table miscounted."
    )
    game.refresh_from_db()
    assert game.status == "in_progress" and game.placements is None
    rejected = Ruling.objects.get(game=game)
    assert rejected.ruling == "proposal_rejected" and rejected.previous_placements == PROPOSED
    # proposed again, then replaced by the referee on the referee list (with a note)
    assert (
        as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json").status_code
        == 201
    )
    mine = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
    posted = {
        "action": "reject",
        "note": "Ann won, the whole table agrees.",
        **{f"place-{i}": mine[h] for i, h in enumerate(game.players, start=1)},
    }
    assert browser(staff["organizer"]).post(decide(game), posted).status_code == 303
    game.refresh_from_db()
    assert game.is_over and game.placements == mine
    replaced = Ruling.objects.filter(game=game).latest("id")
    assert replaced.ruling == "proposal_replaced"
    assert replaced.placements == mine and replaced.previous_placements == PROPOSED
    rows = as_user("stranger").get(f"/api/tournaments/{tournament.pk}/rulings").json()
    assert [r["ruling"] for r in rows] == ["proposal_rejected", "proposal_replaced"]
    assert all(r["proposal"] and not r["override"] for r in rows)


def test_placements_the_engine_refuses_are_a_422_and_nothing_changes(
    game, staff, simulated_log, as_user
):
    """TOCK: a player who went out keeps their place; the referee then replaces."""
    log = simulated_log(seed=7)
    prefix = log[:-1]  # the last play ends the game; ann and dan are out already
    out = engine.replay(prefix).summary()["out"]
    assert out and engine.replay(prefix).status == "in_progress"
    game_record_log(game=game, log=prefix, user=SYSTEM)
    places = {h: 4 - i for i, h in enumerate(logs.HANDLES)}  # ann last: she went out first
    keeper = as_user("scorekeeper")
    assert keeper.post(api(game), {"placements": places}, format="json").status_code == 201
    answer = as_user("referee").post(api(game, "/confirm"))
    assert answer.status_code == 422
    game.refresh_from_db()
    assert not game.is_over and not Ruling.objects.exists()
    assert ResultProposal.objects.get().status == "pending"


# --------------------------------------------------------------------------- refusals


def test_who_may_decide(game, staff, simulated_log, as_user, anon, players):
    live(game, simulated_log)
    assert (
        as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json").status_code
        == 201
    )
    # a scorekeeper never decides, nor a stranger or an anonymous caller
    assert as_user("scorekeeper").post(api(game, "/confirm")).status_code == 403
    assert as_user("stranger").post(api(game, "/confirm")).status_code == 403
    assert (
        as_user("other_scorekeeper")
        .post(api(game, "/reject"), {"note": "x"}, format="json")
        .status_code
        == 403
    )
    assert anon.post(api(game, "/confirm")).status_code == 401
    assert anon.get(api(game)).status_code == 401
    page = browser().post(decide(game), {"action": "confirm"})
    assert page.status_code == 302 and "login" in page["Location"]
    assert (
        browser(staff["scorekeeper"]).post(decide(game), {"action": "confirm"}).status_code == 403
    )
    # a referee who plays in the game
    Player.objects.filter(handle="ann").update(user=staff["referee"])
    assert as_user("referee").post(api(game, "/confirm")).status_code == 403
    assert browser(staff["referee"]).post(decide(game), {"action": "confirm"}).status_code == 403
    home = browser(staff["referee"]).get(
        reverse("tournaments:referee", args=[game.table.round.tournament_id])
    )
    assert f'data-proposal-confirm="{game.pk}"' not in home.content.decode()
    game.refresh_from_db()
    assert not game.is_over and ResultProposal.objects.get().status == "pending"
    # the organizer, who does not play, may
    assert as_user("organizer").post(api(game, "/confirm")).status_code == 200


def test_a_second_proposal_while_one_waits(game, staff, simulated_log, as_user):
    live(game, simulated_log)
    assert (
        as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json").status_code
        == 201
    )
    other = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
    # someone else: 409, the pending one stays
    assert (
        as_user("organizer").post(api(game), {"placements": other}, format="json").status_code
        == 409
    )
    assert ResultProposal.objects.get().placements == PROPOSED
    # its proposer replaces it (the same proposal, still one pending)
    again = as_user("scorekeeper").post(api(game), {"placements": other}, format="json")
    assert again.status_code == 201 and again.json()["placements"] == other
    assert ResultProposal.objects.get().placements == other
    assert as_user("scorekeeper").get(api(game)).json()["status"] == "pending"


def test_no_proposal_on_a_finished_game_and_nothing_to_decide(game, staff, simulated_log, as_user):
    log = simulated_log(seed=7)
    game_record_log(game=game, log=log, user=SYSTEM)
    game.refresh_from_db()
    assert game.is_over
    assert (
        as_user("scorekeeper").post(api(game), {"placements": PROPOSED}, format="json").status_code
        == 409
    )
    assert as_user("referee").post(api(game, "/confirm")).status_code == 404
    assert as_user("referee").get(api(game)).status_code == 404
    assert (
        "Stop live scoring" not in browser(staff["scorekeeper"]).get(score(game)).content.decode()
    )


@pytest.mark.parametrize(
    "body",
    [
        {"placements": {"ann": 1}},
        {"placements": {"ann": 1, "bob": 1, "cat": 1, "zed": 1}},
        {"placements": {"ann": "x"}},
        {"placements": "nope"},
        {"placements": {"ann\u0000": 1, "bob": 2, "cat": 3, "dan": 4}},
        {"placements": {"ann": 1, "bob": 2, "cat": 3, "dan": 99}},
        {},
    ],
)
def test_hostile_proposals_are_4xx(game, simulated_log, as_user, body):
    live(game, simulated_log, n=5)
    answer = as_user("scorekeeper").post(api(game), body, format="json")
    assert 400 <= answer.status_code < 500
    assert not ResultProposal.objects.exists()


def test_time_up_holds_a_proposed_game_for_the_referee(
    game, staff, simulated_log, as_user, tournament, table
):
    """The round's time up does not end a game whose proposed result waits: the referee
    decides it (issue 23: "it goes to the referee list")."""
    events = live(game, simulated_log)
    keeper = as_user("scorekeeper")
    assert keeper.post(api(game), {"placements": PROPOSED}, format="json").status_code == 201
    round_time_up(round=table.round, user=staff["organizer"])
    game.refresh_from_db()
    assert game.status == "in_progress" and game.last_sequence == len(events)
    home = browser(staff["referee"]).get(reverse("tournaments:referee", args=[tournament.pk]))
    assert "Proposed results" in home.content.decode()
    audit = TournamentAudit.objects.filter(tournament=tournament, action="time_up").get()
    assert audit.details["held"] == [game.pk]


def test_a_proposal_whose_game_ended_otherwise_leaves_the_referee_list(
    game, staff, simulated_log, as_user, tournament, table
):
    """The game ended by another way (an organizer's time-up event on the score page):
    nothing is left to confirm."""
    events = live(game, simulated_log)
    keeper = as_user("scorekeeper")
    assert keeper.post(api(game), {"placements": PROPOSED}, format="json").status_code == 201
    game_record_event(
        game=game,
        event={"type": "end", "reason": "time"},
        expected_sequence=len(events) + 1,
        user=staff["organizer"],
    )
    home = browser(staff["referee"]).get(reverse("tournaments:referee", args=[tournament.pk]))
    assert "Proposed results" not in home.content.decode()
    assert as_user("referee").post(api(game, "/confirm")).status_code == 409
