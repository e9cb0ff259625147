"""Corrections of a finished game's result, and rulings that change placements (issue 12):
the ``correction`` event through the API and the referee page, who may record it, two
referees at once, refused in progress, its ruling record, and what follows: standings,
Elo ratings (compared with a recomputation), a round already seated keeps its seating."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

import games.engine as engine
from games.errors import GameFinished, MalformedInput, ResultConflict
from games.models import Game
from ratings.elo import compute_ratings
from ratings.models import Rating, RatingChange
from ratings.services import rated_games, ratings_update_for_game
from tests.rulings import logs
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments import services
from tournaments.models import Player, Role, Round, Ruling, Seat, Table
from tournaments.permissions import SYSTEM
from tournaments.selectors import standings_cache
from tournaments.selectors.standings import tournament_standings
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.services import game_record_log
from tournaments.services.progression import round_progress
from tournaments.services.rulings import knock_ruling_record, result_correction_record

pytestmark = pytest.mark.django_db

HANDLES = logs.HANDLES


def record(game, events, capture=None):
    game_record_log(game=game, log=events, user=SYSTEM)
    game.refresh_from_db()


def finished(game, simulated_log, capture):
    """``game`` played to its end from a simulated log, rated (on-commit work run)."""
    log = simulated_log(seed=7)
    with capture(execute=True):
        record(game, log)
    assert game.is_over and game.placements == engine.replay(log).placements()
    return log


def reversed_places(places: dict[str, int]) -> dict[str, int]:
    """The result upside down, as competition ranks (a tie stays a tie)."""
    n = len(places)
    flipped = {p: n + 1 - v for p, v in places.items()}
    return {p: 1 + sum(1 for w in flipped.values() if w < v) for p, v in flipped.items()}


def correction(places, note="bob's last play was miscounted", referee="t-referee"):
    return {"type": "correction", "referee": referee, "placements": places, "note": note}


def post_event(client, game, event, sequence):
    url = reverse("api:game-events", args=[game.pk])
    return client.post(url, {"event": event, "sequence": sequence}, format="json")


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def referee_page(game):
    return reverse("tournaments:game-referee", args=[game.pk])


def ratings_now(kind="tock") -> dict[str, float]:
    return {
        r.player.handle: r.value for r in Rating.objects.filter(kind=kind).select_related("player")
    }


def recomputed(kind="tock") -> dict[str, float]:
    """The ratings a recomputation from scratch gives for the stored results."""
    ids = {p.pk: p.handle for p in PlayerFactory._meta.model.objects.all()}
    result = compute_ratings(list(rated_games(kind=kind)))
    return {ids[p]: v for p, v in result.ratings.items()}


def elo_of(game: Game, placements: dict[str, int]) -> dict[str, float]:
    """The ratings one game with ``placements`` gives four new players (pure Elo)."""
    (rated,) = list(rated_games(kind=game.kind))
    ids = {p.handle: p.pk for p in PlayerFactory._meta.model.objects.all()}
    rated = type(rated)(
        game_id=rated.game_id,
        finished_at=rated.finished_at,
        result_version=rated.result_version,
        k=rated.k,
        placements={ids[h]: placements[h] for h in game.players},
    )
    names = {v: k for k, v in ids.items()}
    return {names[p]: v for p, v in compute_ratings([rated]).ratings.items()}


def standings_places(tournament) -> dict[str, tuple[int, float]]:
    """handle -> (place in round 1, points) from the standings."""
    return {
        r.handle: (r.places.get(1), r.points) for r in tournament_standings(tournament=tournament)
    }


# --------------------------------------------------------------------------- API and page
def test_a_correction_through_the_api_replaces_the_result_and_is_listed(
    game, as_user, tournament, simulated_log, django_capture_on_commit_callbacks
):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    new = reversed_places(played)
    assert new != played
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(as_user("referee"), game, correction(new), len(log) + 1)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["result_changed"] is True and body["game"]["placements"] == new
    game.refresh_from_db()
    assert game.placements == new and game.status == "finished" and game.result_version == 2
    assert game.summary["corrections"][0]["note"] == "bob's last play was miscounted"
    ruling = Ruling.objects.get()
    assert (ruling.ruling, ruling.applied, ruling.sequence) == (
        "correction",
        "correction",
        len(log) + 1,
    )
    assert ruling.placements == new and ruling.previous_placements == played
    assert ruling.referee.username == "t-referee" and not ruling.is_override
    # listed on the rulings page, its CSV and the API
    html = browser().get(reverse("tournaments:rulings", args=[tournament.pk])).content.decode()
    assert "Result corrected after the end" in html and "miscounted" in html
    best = min(new, key=new.get)
    assert f"1. {Player.objects.get(handle=best).display_name}" in html  # by name
    csv = browser().get(reverse("tournaments:rulings-csv", args=[tournament.pk])).content.decode()
    row = csv.splitlines()[1]
    assert ",correction,correction," in row and f"{best}=1" in row
    rows = as_user("stranger").get(reverse("api:tournament-rulings", args=[tournament.pk])).json()
    assert rows[0]["correction"] is True and rows[0]["placements"] == new
    assert rows[0]["previous_placements"] == played and rows[0]["override"] is False
    # the game page marks it: the log sentence and the corrections section
    page = browser().get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert "Result corrected by the referee t-referee" in page
    assert f"result corrected by t-referee: 1. {best.title()}" in page
    # the ratings followed: a recomputation of the kind, not a second count
    assert set(RatingChange.objects.filter(game=game).values_list("result_version", flat=True)) == {
        2
    }
    assert ratings_now() == pytest.approx(recomputed())
    assert ratings_update_for_game(game_id=game.pk) == "skipped"  # idempotent


def test_the_last_correction_wins(game, as_user, simulated_log, django_capture_on_commit_callbacks):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    client = as_user("organizer")
    assert (
        post_event(client, game, correction(reversed_places(played)), len(log) + 1).status_code
        == 201
    )
    tied = {h: 1 for h in HANDLES}
    assert (
        post_event(client, game, correction(tied, note="all equal"), len(log) + 2).status_code
        == 201
    )
    game.refresh_from_db()
    assert game.placements == tied and game.result_version == 3
    second = Ruling.objects.get(sequence=len(log) + 2)
    assert second.previous_placements == reversed_places(played) and second.placements == tied


def test_the_referee_page_corrects_a_finished_game(
    game, staff, simulated_log, django_capture_on_commit_callbacks
):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    client = browser(staff["referee"])
    html = client.get(referee_page(game)).content.decode()
    assert "Correct the result" in html and "Who knocks?" not in html  # no knock after the end
    for i, handle in enumerate(HANDLES, start=1):  # prefilled with the current places
        assert f'name="place-{i}" value="{played[handle]}"' in html
    new = reversed_places(played)
    body = {"action": "correct-result", "sequence": len(log) + 1, "note": ""}
    body.update({f"place-{i}": new[h] for i, h in enumerate(HANDLES, start=1)})
    response = client.post(referee_page(game), body)  # no note
    assert response.status_code == 400 and "A note is required" in response.content.decode()
    bad = {**body, "note": "x", "place-1": 9}
    response = client.post(referee_page(game), bad)
    assert (
        response.status_code == 400
        and "must be an integer from 1 to 4" in response.content.decode()
    )
    assert not Ruling.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(referee_page(game), {**body, "note": "bob cheated"})
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.placements == new
    assert Ruling.objects.get().note == "bob cheated"
    assert "Result corrected." in client.get(referee_page(game)).content.decode()
    # the same form again, from the stale page: a clear message, nothing stored
    response = browser(staff["organizer"]).post(referee_page(game), {**body, "note": "again"})
    assert response.status_code == 409
    assert "Someone else recorded" in response.content.decode()
    assert Ruling.objects.count() == 1


@pytest.mark.parametrize("place", ["²", "9" * 5_000, "٣", "1_0", "-1", "1.0", "9" * 10])
def test_the_referee_page_refuses_a_place_that_is_no_small_whole_number(
    game, staff, simulated_log, django_capture_on_commit_callbacks, place
):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    body = {"action": "correct-result", "sequence": len(log) + 1, "note": "miscounted"}
    body.update({f"place-{i}": played[h] for i, h in enumerate(HANDLES, start=1)})
    response = browser(staff["referee"]).post(referee_page(game), {**body, "place-1": place})
    assert response.status_code == 400
    assert "must be an integer from 1 to 4" in response.content.decode()
    for sequence in ("²", "9" * 5_000):
        response = browser(staff["referee"]).post(
            referee_page(game), {**body, "sequence": sequence}
        )
        assert response.status_code == 400
        assert "must be a positive integer" in response.content.decode()
    game.refresh_from_db()
    assert game.placements == played and not Ruling.objects.exists()


def test_refused_while_the_game_is_in_progress(game, staff, as_user):
    record(game, logs.CLEAN)
    places = {h: i for i, h in enumerate(HANDLES, start=1)}
    response = post_event(as_user("referee"), game, correction(places), game.last_sequence + 1)
    assert response.status_code == 422
    assert "no correction while the game is in progress" in response.json()["detail"]
    html = browser(staff["referee"]).get(referee_page(game)).content.decode()
    assert "Correct the result" not in html  # no form while it runs
    body = {"action": "correct-result", "sequence": game.last_sequence + 1, "note": "x"}
    body.update({f"place-{i}": i for i in range(1, 5)})
    response = browser(staff["referee"]).post(referee_page(game), body)
    assert response.status_code == 422
    assert "The game is still in progress" in response.content.decode()
    game.refresh_from_db()
    assert game.last_sequence == len(logs.CLEAN) and not Ruling.objects.exists()


def test_a_placements_result_changes_only_by_a_referees_correction(
    game, as_user, staff, django_capture_on_commit_callbacks
):
    """A result without a log: the same placements again change nothing, other
    placements from the scorekeeper (or anyone) answer 409 pointing to the referee, and
    the referee's correction (placements and a note) replaces them, recorded as a
    ruling of kind correction, on the rulings page."""
    first = {h: i for i, h in enumerate(HANDLES, start=1)}
    other = {h: len(HANDLES) + 1 - i for i, h in enumerate(HANDLES, start=1)}
    services.game_record_placements(game=game, placements=first, user=SYSTEM)
    again = services.game_record_placements(game=game, placements=first, user=staff["scorekeeper"])
    assert not again.result_changed
    with pytest.raises(ResultConflict, match="referee"):
        services.game_record_placements(game=game, placements=other, user=staff["scorekeeper"])
    # No log to append a correction event to: the API's correction event is refused.
    response = post_event(as_user("referee"), game, correction(other), 1)
    assert response.status_code == 409 and response.json()["code"] == "game_finished"
    html = browser(staff["referee"]).get(referee_page(game)).content.decode()
    assert "Correct the result" in html and "Who knocks?" not in html
    with pytest.raises(MalformedInput):  # a note is required
        result_correction_record(
            game=game, placements=other, note=" ", expected_sequence=1, user=staff["referee"]
        )
    with django_capture_on_commit_callbacks(execute=True):
        ruling = result_correction_record(
            game=game,
            placements=other,
            note="places swapped on the slip",
            expected_sequence=1,
            user=staff["referee"],
        )
    game.refresh_from_db()
    assert game.placements == other and game.result_version == 2
    assert (ruling.ruling, ruling.note) == ("correction", "places swapped on the slip")
    assert (ruling.previous_placements, ruling.placements) == (first, other)
    page = browser(staff["referee"]).get(
        reverse("tournaments:rulings", args=[ruling.tournament_id])
    )
    assert "places swapped on the slip" in page.content.decode()


def test_a_bye_has_nothing_to_correct(game, staff):
    services.game_record_bye(game=game, player=HANDLES[0], user=SYSTEM)
    with pytest.raises(GameFinished, match="nothing to correct|no result"):
        result_correction_record(
            game=game, placements={HANDLES[0]: 1}, note="n", expected_sequence=1,
            user=staff["referee"],
        )  # fmt: skip
    assert not Ruling.objects.exists()


# --------------------------------------------------------------------------- permissions
@pytest.mark.parametrize(
    "who, status",
    [
        ("referee", 201),
        ("organizer", 201),
        ("scorekeeper", 403),
        ("stranger", 403),
        ("other_scorekeeper", 403),
    ],
)
def test_permission_matrix(
    game, as_user, staff, who, status, simulated_log, django_capture_on_commit_callbacks
):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    new = reversed_places(game.placements)
    response = post_event(as_user(who), game, correction(new), len(log) + 1)
    assert response.status_code == status, response.json()
    body = {"action": "correct-result", "sequence": len(log) + 1 + (status == 201), "note": "n"}
    body.update({f"place-{i}": new[h] for i, h in enumerate(HANDLES, start=1)})
    page = browser(staff[who]).post(referee_page(game), body)
    assert page.status_code == (303 if status == 201 else 403)
    game.refresh_from_db()
    assert Ruling.objects.count() == (2 if status == 201 else 0)
    assert (game.placements == new) is (status == 201)


def test_anonymous_401_and_hidden_404(
    game, anon, as_user, staff, tournament, simulated_log, django_capture_on_commit_callbacks
):
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    new = reversed_places(game.placements)
    assert post_event(anon, game, correction(new), len(log) + 1).status_code == 401
    assert browser().post(referee_page(game), {"action": "correct-result"}).status_code == 302
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert post_event(as_user("stranger"), game, correction(new), len(log) + 1).status_code == 404
    assert (
        browser(staff["stranger"])
        .post(referee_page(game), {"action": "correct-result"})
        .status_code
        == 404
    )
    game.refresh_from_db()
    assert game.result_version == 1 and not Ruling.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_referees_correcting_at_once_one_gets_409(
    game, as_user, simulated_log, django_capture_on_commit_callbacks
):
    if connection.vendor == "sqlite":
        pytest.skip("concurrent writers need PostgreSQL")
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    wanted = [reversed_places(played), {h: 1 for h in HANDLES}]
    clients = [as_user("referee"), as_user("organizer")]
    codes = []
    barrier = threading.Barrier(2)

    def go(client, places):
        barrier.wait()
        codes.append(post_event(client, game, correction(places), len(log) + 1).status_code)
        connection.close()

    threads = [threading.Thread(target=go, args=pair) for pair in zip(clients, wanted, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409]
    game.refresh_from_db()
    assert game.last_sequence == len(log) + 1 and game.placements in wanted
    assert Ruling.objects.count() == 1


# --------------------------------------------------------------------------- what follows
def _ruling_changes_places():
    """A simulated log cut where a correct knock, confirmed, changes the time-up places:
    (prefix, knocker, places with the ruling, places without)."""
    for seed in range(1, 20):
        log = engine.simulate("tock", players=HANDLES, seed=seed, mistakes=0.1)
        for k in range(5, len(log) - 1):
            g = engine.replay(log[:k])
            if g.is_over:
                break
            for by in HANDLES:
                if engine.knock_preview(log[:k], by, game=g)["verdict"] != "correct":
                    continue
                without, with_ = g.copy(), g.copy()
                without.push({"type": "end", "reason": "time"})
                with_.push({"type": "tock", "player": by, "ruling": "correct", "referee": "r"})
                if with_.is_over:
                    continue
                with_.push({"type": "end", "reason": "time"})
                if with_.placements() != without.placements():
                    return log[:k], by, with_.placements(), without.placements()
    raise AssertionError("no knock that changes the places")


def test_a_ruling_that_changes_the_placements_changes_standings_and_ratings(
    game, staff, tournament, django_capture_on_commit_callbacks
):
    prefix, by, with_ruling, without = _ruling_changes_places()
    record(game, prefix)
    with django_capture_on_commit_callbacks(execute=True):
        knock_ruling_record(
            game=game, by=by, ruling="confirm", expected_sequence=len(prefix) + 1,
            user=staff["referee"],
        )  # fmt: skip
        services.game_record_event(
            game=game.pk, event={"type": "end", "reason": "time"},
            expected_sequence=len(prefix) + 2, user=staff["scorekeeper"],
        )  # fmt: skip
    game.refresh_from_db()
    assert game.placements == with_ruling != without
    standings = standings_places(tournament)
    assert {h: place for h, (place, _) in standings.items()} == with_ruling
    # the points follow the places: the player the penalty moved down lost points
    moved = [h for h in HANDLES if with_ruling[h] != without[h]]
    worse = [h for h in moved if with_ruling[h] > without[h]]
    better = [h for h in moved if with_ruling[h] < without[h]]
    for h in worse:
        for other in better:
            assert standings[h][1] <= standings[other][1] or with_ruling[h] == with_ruling[other]
    # Elo: what a recomputation gives, and the ruled places, not the unruled ones
    assert ratings_now() == pytest.approx(recomputed())
    assert ratings_now() == pytest.approx(elo_of(game, with_ruling))
    assert ratings_now() != pytest.approx(elo_of(game, without))


def test_a_correction_changes_standings_and_ratings(
    game, staff, tournament, simulated_log, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(standings_cache, "CACHE_MIN_ROWS", 0)  # the cached path, small event
    log = finished(game, simulated_log, django_capture_on_commit_callbacks)
    played = dict(game.placements)
    before_rows = {
        r.handle: (r.places.get(1), r.points)
        for r in tournament_standings_cached(tournament=tournament)
    }
    before_ratings = ratings_now()
    assert before_ratings == pytest.approx(elo_of(game, played))
    new = reversed_places(played)
    with django_capture_on_commit_callbacks(execute=True):
        result_correction_record(
            game=game, placements=new, note="scores swapped", expected_sequence=len(log) + 1,
            user=staff["organizer"],
        )  # fmt: skip
    after_rows = {
        r.handle: (r.places.get(1), r.points)
        for r in tournament_standings_cached(tournament=tournament)
    }
    assert after_rows != before_rows
    assert {h: place for h, (place, _) in after_rows.items()} == new
    assert after_rows == standings_places(tournament)  # the cache was invalidated
    after = ratings_now()
    assert after == pytest.approx(recomputed()) and after == pytest.approx(elo_of(game, new))
    assert after != pytest.approx(before_ratings)
    best = min(new, key=new.get)
    assert after[best] > 1500 > after[max(new, key=new.get)]


def test_a_round_already_seated_keeps_its_seating(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(swiss_rounds=3, auto_progress=True)
    for _ in range(8):
        RegistrationFactory(tournament=tournament, player=PlayerFactory())
    referee = TournamentRoleFactory(
        tournament=tournament, role=Role.REFEREE, user=UserFactory(username="ref")
    ).user
    r1 = services.tournament_start(tournament=tournament, user=SYSTEM, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        for n, table in enumerate(r1.tables.select_related("game").order_by("number")):
            log = engine.simulate("tock", players=list(table.game.players), seed=20 + n)
            game_record_log(game=table.game, log=log, user=SYSTEM)
    r2 = Round.objects.get(tournament=tournament, number=2)
    seating = sorted(
        Seat.objects.filter(table__round=r2).values_list("table_id", "player_id", "position")
    )
    tables = sorted(Table.objects.filter(round=r2).values_list("id", "game_id"))
    game = r1.tables.order_by("number").first().game
    new = reversed_places(game.placements)
    with django_capture_on_commit_callbacks(execute=True):
        result_correction_record(
            game=game, placements=new, note="wrong scores",
            expected_sequence=game.last_sequence + 1, user=referee,
        )  # fmt: skip
    game.refresh_from_db()
    r1.refresh_from_db()
    assert game.placements == new and r1.status == "finished"
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert (
        sorted(
            Seat.objects.filter(table__round=r2).values_list("table_id", "player_id", "position")
        )
        == seating
    )
    assert sorted(Table.objects.filter(round=r2).values_list("id", "game_id")) == tables
    # asking progression again answers the round already seated, without seating anew
    assert round_progress(round_id=r1.pk).pk == r2.pk
    assert (
        sorted(
            Seat.objects.filter(table__round=r2).values_list("table_id", "player_id", "position")
        )
        == seating
    )


def test_an_uno_game_is_corrected_the_same_way(django_capture_on_commit_callbacks):
    """Every kind takes the correction: a friendly UNO game, corrected by its creator
    (who may referee a friendly game); the page reads it from the base presenter."""
    from tests.api.conftest import token_client

    user = UserFactory(username="host")
    log = engine.simulate(game="uno", players=["ann", "bob", "cat"], seed=4)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.friendly_game_create(
            kind="uno", user=user, log=log, create_players=True
        ).game
    new = reversed_places(game.placements)
    event = correction(new, referee="host", note="the last hand was scored twice")
    before = ratings_now("uno")
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(token_client(user), game, event, len(log) + 1)
    assert response.status_code == 201, response.json()
    game.refresh_from_db()
    assert game.placements == new and game.summary["corrections"][0]["referee"] == "host"
    assert Ruling.objects.get().tournament is None
    html = browser().get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert "Result corrected by the referee host" in html
    assert "the last hand was scored twice" in html
    assert ratings_now("uno") == pytest.approx(recomputed("uno"))
    assert ratings_now("uno") != pytest.approx(before)
