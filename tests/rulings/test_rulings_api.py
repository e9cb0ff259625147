"""The referees' API: knock preview, rulings, the tournament's rulings (issue 12)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

import games.engine as engine
from games.explanations import explain
from games.models import Game
from tests.rulings import logs
from tests.tournaments.factories import UserFactory
from tournaments.models import Ruling
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log

pytestmark = pytest.mark.django_db


def record(game, events):
    game_record_log(game=game, log=events, user=SYSTEM)
    game.refresh_from_db()


def preview(client, game, by, **headers):
    url = reverse("api:game-knock-preview", args=[game.pk])
    return client.get(url, {"by": by}, **headers)


def rule(client, game, by, ruling, sequence, note=""):
    url = reverse("api:game-rulings", args=[game.pk])
    body = {"by": by, "ruling": ruling, "sequence": sequence, "note": note}
    return client.post(url, body, format="json")


def stored_piles(game):
    game.refresh_from_db()
    return game.summary["piles"]


CASES = [
    (logs.FORGOT_DISCARD, "bob", "correct", "ann", "forgot_discard"),
    (logs.FORGOT_CENTER, "cat", "correct", "bob", "forgot_center"),
    (logs.WRONG_DISCARD, "cat", "correct", "dan", "wrong_discard"),
    (logs.CLEAN, "bob", "incorrect", "ann", "clean_turn"),
]


@pytest.mark.parametrize("events, by, verdict, against, code", CASES)
def test_preview_then_confirm_applies_exactly_the_preview(
    game, as_user, events, by, verdict, against, code
):
    record(game, events)
    client = as_user("referee")
    response = preview(client, game, by)
    assert response.status_code == 200, response.json()
    pv = response.json()
    assert (pv["verdict"], pv["against"], pv["code"]) == (verdict, against, code)
    engine_pv = engine.knock_preview(events, by)
    assert pv["explanation"] == engine_pv["sentence"]  # English: the engine's sentence
    assert pv["penalty"] == engine_pv["penalty"] and pv["penalty"]
    before = stored_piles(game)
    response = rule(client, game, by, "confirm", pv["sequence"] + 1)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["engine_verdict"], body["applied"], body["ruling"]) == (
        verdict,
        verdict,
        "confirm",
    )
    assert body["referee"] == "t-referee" and body["table"] == 1
    after = stored_piles(game)
    # the preview's moves, applied to the piles before, give the piles stored after
    for move in pv["penalty"]:
        assert before[move["from"]][0] == move["card"]
        before[move["from"]].pop(0)
        before[move["to"]].insert(0, move["card"])
    assert before == after
    event = game.events.order_by("-sequence").first().data
    assert event == {"type": "tock", "player": by, "ruling": verdict, "referee": "t-referee"}
    assert Ruling.objects.get().sequence == game.last_sequence


def test_explanations_are_translated(game, as_user):
    record(game, logs.FORGOT_DISCARD)
    client = as_user("referee")
    english = preview(client, game, "bob").json()["explanation"]
    for lang in ("es", "de"):
        response = preview(client, game, "bob", HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200
        with translation.override(lang):
            expected = explain(engine.knock_preview(logs.FORGOT_DISCARD, "bob"))
        assert response.json()["explanation"] == expected  # whatever the catalogue holds
    assert "forgot their own discard" in english


def test_override_needs_a_note(game, as_user):
    record(game, logs.CLEAN)
    client = as_user("referee")
    response = rule(client, game, "bob", "correct", game.last_sequence + 1)
    assert response.status_code == 400 and "note" in response.json()["detail"]
    assert Ruling.objects.count() == 0 and Game.objects.get().last_sequence == 2
    response = rule(client, game, "bob", "correct", 3, note="ann peeked at the deck")
    assert response.status_code == 201
    body = response.json()
    assert (body["engine_verdict"], body["applied"], body["note"]) == (
        "incorrect",
        "correct",
        "ann peeked at the deck",
    )
    knock = Game.objects.get().summary["knocks"][-1]
    assert knock["correct"] is True and knock["engine_correct"] is False
    # a ruling equal to the engine's verdict is no override: no note needed
    record_game = Game.objects.get()
    assert record_game.last_sequence == 3


def test_ruling_with_the_engines_verdict_needs_no_note(game, as_user):
    record(game, logs.WRONG_DISCARD)
    response = rule(as_user("organizer"), game, "cat", "correct", game.last_sequence + 1)
    assert response.status_code == 201 and response.json()["applied"] == "correct"


@pytest.mark.parametrize(
    "events, by, code",
    [(logs.BEFORE_FIRST_TURN, "bob", "before_first_turn"), (None, None, "target_out")],
)
def test_invalid_knocks(game, as_user, events, by, code):
    if events is None:
        events = logs.went_out_prefix()
        by = engine.replay(events).turn
    record(game, events)
    client = as_user("referee")
    pv = preview(client, game, by).json()
    assert (pv["verdict"], pv["against"], pv["code"], pv["penalty"]) == ("invalid", None, code, [])
    assert pv["explanation"]
    response = rule(client, game, by, "confirm", game.last_sequence + 1)
    assert response.status_code == 422
    response = rule(client, game, by, "correct", game.last_sequence + 1, note="x")
    assert response.status_code == 422
    assert Ruling.objects.count() == 0


def test_a_stale_sequence_is_409_and_never_a_double_ruling(game, as_user):
    record(game, logs.FORGOT_DISCARD)
    seq = game.last_sequence + 1
    assert rule(as_user("referee"), game, "bob", "confirm", seq).status_code == 201
    response = rule(as_user("organizer"), game, "cat", "confirm", seq)
    assert response.status_code == 409
    assert response.json()["current_sequence"] == seq
    assert Ruling.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_referees_at_once_one_wins(game, as_user, tournament):
    if connection.vendor == "sqlite":
        pytest.skip("concurrent writers need PostgreSQL")
    record(game, logs.FORGOT_DISCARD)
    seq = game.last_sequence + 1
    clients = [as_user("referee"), as_user("organizer")]
    codes = []
    barrier = threading.Barrier(2)

    def go(client, by):
        barrier.wait()
        codes.append(rule(client, game, by, "confirm", seq).status_code)
        connection.close()

    threads = [
        threading.Thread(target=go, args=(c, b))
        for c, b in zip(clients, ["bob", "cat"], strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409]
    assert Ruling.objects.count() == 1


@pytest.mark.parametrize(
    "who, status",
    [
        ("referee", 200),
        ("organizer", 200),
        ("scorekeeper", 403),
        ("stranger", 403),
        ("other_scorekeeper", 403),
    ],
)
def test_permission_matrix(game, as_user, who, status):
    record(game, logs.CLEAN)
    client = as_user(who)
    assert preview(client, game, "bob").status_code == status
    response = rule(client, game, "bob", "confirm", game.last_sequence + 1)
    assert response.status_code == (201 if status == 200 else status)


def test_anonymous_401_superuser_ok_hidden_404(game, anon, as_user, tournament):
    from tests.api.conftest import token_client

    record(game, logs.CLEAN)
    assert preview(anon, game, "bob").status_code == 401
    assert rule(anon, game, "bob", "confirm", 3).status_code == 401
    root = token_client(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert preview(root, game, "bob").status_code == 200
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert preview(as_user("stranger"), game, "bob").status_code == 404
    assert rule(as_user("stranger"), game, "bob", "confirm", 3).status_code == 404
    assert preview(as_user("scorekeeper"), game, "bob").status_code == 403
    assert preview(as_user("referee"), game, "bob").status_code == 200
    url = reverse("api:tournament-rulings", args=[tournament.pk])
    assert as_user("stranger").get(url).status_code == 404
    assert anon.get(url).status_code == 404


def test_tournament_rulings_list_hides_the_engine_verdict_while_the_game_runs(
    game, as_user, anon, tournament
):
    record(game, logs.CLEAN)
    rule(as_user("referee"), game, "bob", "correct", 3, note="seen it")
    url = reverse("api:tournament-rulings", args=[tournament.pk])
    staff_rows = as_user("organizer").get(url).json()
    assert [r["engine_verdict"] for r in staff_rows] == ["incorrect"]
    public = anon.get(url).json()
    assert public[0]["engine_verdict"] is None and public[0]["note"] == "seen it"
    assert public[0]["applied"] == "correct" and public[0]["referee"] == "t-referee"


def test_a_ruling_that_changes_placements_changes_standings(game, as_user, tournament):
    """Time is called right after a knock: the penalty cards change who has fewest
    cards, so the placements and standings follow the ruling."""
    from tournaments.selectors import tournament_standings
    from tournaments.services import game_record_event

    events = logs.CLEAN  # ann 1 card; everybody else none
    record(game, events)
    # engine: wrong knock, bob takes ann's 5; the referee overrules: ann takes nothing
    # (nobody else has a card), her turn ends
    response = rule(as_user("referee"), game, "bob", "correct", 3, note="ann hid a card")
    assert response.status_code == 201
    game_record_event(
        game=game,
        event={"type": "end", "reason": "time"},
        expected_sequence=4,
        user=SYSTEM,
    )
    game.refresh_from_db()
    without = engine.replay([*events, {"type": "end", "reason": "time"}]).placements()
    confirmed = engine.replay(
        [*events, {"type": "tock", "player": "bob"}, {"type": "end", "reason": "time"}]
    ).placements()
    assert game.placements == without  # ann keeps her card: last
    assert confirmed != game.placements  # had the engine's verdict stood, bob would be last
    rows = {r.handle: r for r in tournament_standings(tournament=tournament)}
    assert rows["ann"].points < rows["bob"].points


def test_a_ruling_sent_as_an_event_stores_its_ruling_record(game, as_user):
    """The API's events endpoint accepts a knock carrying a ruling (the engine applies
    it): the choke point stores its Ruling as the referee endpoint does, confirmed
    when it applies the engine's verdict, an override otherwise; a whole log too."""
    record(game, logs.FORGOT_DISCARD)
    client = as_user("referee")
    url = reverse("api:game-events", args=[game.pk])
    event = {"type": "tock", "player": "bob", "ruling": "incorrect", "referee": "t-referee"}
    response = client.post(url, {"event": event, "sequence": game.last_sequence + 1}, format="json")
    assert response.status_code == 201, response.json()
    ruling = Ruling.objects.get(game=game)
    assert (ruling.knocker, ruling.against, ruling.engine_verdict) == ("bob", "ann", "correct")
    assert (ruling.ruling, ruling.applied, ruling.note) == ("incorrect", "incorrect", "")
    assert ruling.sequence == game.last_sequence + 1 and ruling.referee.username == "t-referee"
    listed = client.get(reverse("api:tournament-rulings", args=[ruling.tournament_id]))
    assert [r["sequence"] for r in listed.json()] == [ruling.sequence]

    other = Game.objects.create(kind="tock", players=list(game.players))
    confirmed = {**event, "ruling": "correct"}
    game_record_log(game=other, log=[*logs.FORGOT_DISCARD, confirmed], user=SYSTEM)
    stored = Ruling.objects.get(game=other)
    assert (stored.ruling, stored.applied, stored.engine_verdict) == (
        "confirm",
        "correct",
        "correct",
    )
    assert stored.sequence == len(logs.FORGOT_DISCARD) + 1


@pytest.mark.parametrize("kind", ["casino", "uno"])
def test_knock_preview_of_a_kind_without_knocks_is_404(game, as_user, kind):
    Game.objects.filter(pk=game.pk).update(kind=kind)
    response = preview(as_user("referee"), game, "bob")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"
    assert "for TOCK games" in response.json()["detail"]
    schema = as_user("referee").get("/api/schema/", {"format": "json"}).json()
    path = next(p for p in schema["paths"] if p.endswith("/knock-preview"))
    assert "404" in schema["paths"][path]["get"]["responses"]
    assert "422" not in schema["paths"][path]["get"]["responses"]


def test_a_ruling_withdrawn_by_an_undo_says_so_and_a_new_one_does_not(game, as_user, tournament):
    """The log is append-only: an ``undo`` line withdraws the ruling's event, and the
    ruling's record stays; the list, the page and the CSV say which line withdrew it,
    and a ruling made again afterwards is in force."""
    record(game, logs.CLEAN)
    referee = as_user("referee")
    assert rule(referee, game, "bob", "correct", 3, note="ann hid a card").status_code == 201
    events = reverse("api:game-events", args=[game.pk])
    undone = referee.post(events, {"event": {"type": "undo"}, "sequence": 4}, format="json")
    assert undone.status_code == 201, undone.json()
    assert rule(referee, game, "bob", "confirm", 5).status_code == 201
    listed = referee.get(reverse("api:tournament-rulings", args=[tournament.pk])).json()
    assert [(r["sequence"], r["withdrawn_by"]) for r in listed] == [(3, 4), (5, None)]
    page = referee.get(reverse("tournaments:rulings", args=[tournament.pk])).content.decode()
    assert page.count('class="badge withdrawn"') == 1 and "withdrawn by event 4" in page
    csv = referee.get(reverse("tournaments:rulings-csv", args=[tournament.pk])).content.decode()
    header, first, second = csv.splitlines()[:3]
    assert header.endswith(",withdrawn_by") and first.endswith(",4") and second.endswith(",")
