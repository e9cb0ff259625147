"""Hostile input found by fuzzing the API: always a clear 4xx in JSON, nothing stored."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def events_url(game_id: int) -> str:
    return reverse("api:game-events", args=[game_id])


def assert_untouched(game: Game) -> None:
    fresh = Game.objects.get(pk=game.pk)
    assert GameEvent.objects.filter(game=game).count() == 0
    assert fresh.last_sequence == 0
    assert fresh.placements is None


def start_event_text(seed: str) -> str:
    """A TOCK start event for the seated players with ``seed`` spliced in as raw JSON."""
    return (
        '{"type": "start", "game": "tock", "players": ["ann", "bob", "cat", "dan"], '
        f'"first": "ann", "mode": "table", "seed": {seed}}}'
    )


@pytest.mark.parametrize("number", ["1e999", "-1e999"])
def test_a_number_too_large_for_a_float_is_400_not_silently_null(game, as_user, number):
    # Given a start event whose seed overflows a float (Python reads it as infinity)
    body = '{"event": ' + start_event_text(number) + ', "sequence": 1}'
    # When a scorekeeper posts it
    response = as_user("scorekeeper").post(
        events_url(game.pk), data=body, content_type="application/json"
    )
    # Then it is a 400 naming the problem, and nothing is stored (not a null seed)
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]
    assert_untouched(game)


@pytest.mark.parametrize("sequence", ['"5"', '"1"', "1.0", "true", "null"])
def test_a_sequence_that_is_no_json_integer_is_400(game, as_user, sequence):
    body = '{"event": ' + start_event_text('"s"') + ', "sequence": ' + sequence + "}"
    response = as_user("scorekeeper").post(
        events_url(game.pk), data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid" and "sequence" in response.json()["errors"]
    assert_untouched(game)
    good = body.replace('"sequence": ' + sequence, '"sequence": 1')
    response = as_user("scorekeeper").post(
        events_url(game.pk), data=good, content_type="application/json"
    )
    assert response.status_code == 201


def test_a_log_as_json_with_an_overflowing_number_is_400(game, as_user):
    body = '{"log": [' + start_event_text("1e400") + "]}"
    response = as_user("scorekeeper").post(
        reverse("api:game-log", args=[game.pk]), data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert_untouched(game)


@pytest.mark.parametrize("url_name", ["api:game-events", "api:game-log", "api:game-placements"])
def test_a_json_body_over_the_upload_limit_is_413_in_json(game, as_user, settings, url_name):
    # Given a small upload limit and a JSON body over it
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"log": "' + "x" * 2000 + '"}'
    # When it is posted
    response = as_user("organizer").post(
        reverse(url_name, args=[game.pk]), data=body, content_type="application/json"
    )
    # Then the answer is a JSON 413 with a reason (not Django's HTML 400 page)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert "too large" in response.json()["detail"]
    assert_untouched(game)


def test_a_form_with_too_many_fields_is_400_in_json(game, as_user, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5
    body = "&".join(f"f{i}=1" for i in range(10))
    response = as_user("organizer").post(
        reverse("api:game-placements", args=[game.pk]),
        data=body,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]
    assert_untouched(game)


@pytest.mark.parametrize("text", ['"seed\\u0000"', '"x", "note\\u0000": 1'])
def test_a_nul_character_in_an_event_is_400_not_a_database_error(game, as_user, text):
    # Given an event carrying a NUL character (PostgreSQL's jsonb cannot store it)
    body = '{"event": ' + start_event_text(text) + ', "sequence": 1}'
    # When it is posted
    response = as_user("scorekeeper").post(
        events_url(game.pk), data=body, content_type="application/json"
    )
    # Then it is refused with a reason, and nothing is stored
    assert response.status_code == 400
    assert response.json()["code"] == "malformed"
    assert_untouched(game)


def test_a_log_line_with_a_nul_character_is_rejected_naming_the_line(game, as_user):
    log = start_event_text('"seed\\u0000"') + "\n"
    response = as_user("scorekeeper").post(
        reverse("api:game-log", args=[game.pk]), data=log, content_type="text/plain"
    )
    assert response.status_code in (400, 422)
    assert response.json()["code"] in ("malformed", "log_rejected")
    assert_untouched(game)


@pytest.mark.parametrize(
    "query",
    ["status=nonsense", "league=not%20a%20slug", "status=%00"],
)
def test_bad_tournament_filters_are_400_naming_the_field(tournament, anon, query):
    response = anon.get(reverse("api:tournament-list") + "?" + query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize("query", ["status=", "q=", "status=running"])
def test_empty_filters_mean_no_filter(tournament, anon, query):
    url = reverse("api:player-list" if query.startswith("q") else "api:tournament-list")
    response = anon.get(url + "?" + query)
    assert response.status_code == 200


@pytest.mark.parametrize(
    "query",
    ["limit=abc", "offset=-1", "limit=-5", "limit=99999999999999999999", "offset=1" + "0" * 20],
)
def test_odd_pagination_parameters_fall_back_to_defaults(tournament, anon, query):
    response = anon.get(reverse("api:tournament-list") + "?" + query)
    assert response.status_code == 200
    assert response.json()["count"] == 1


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments/99999999999999999999",
        "/api/games/99999999999999999999",
        "/api/tournaments/99999999999999999999/standings",
    ],
)
def test_ids_too_large_for_the_database_are_404(db, anon, path):
    response = anon.get(path)
    assert response.status_code == 404
    assert response.json()["detail"]


def test_events_after_a_huge_sequence_is_an_empty_list(game, anon):
    response = anon.get(events_url(game.pk) + "?after=99999999999999999999")
    assert response.status_code == 200
    assert response.json()["events"] == []


def test_game_over_409_matches_the_documented_error_shape(game, as_user, simulated_log):
    # Given a game whose whole log is recorded (the game is over)
    client = as_user("scorekeeper")
    log = simulated_log()
    client.post(reverse("api:game-log", args=[game.pk]), {"log": log}, format="json")
    # When another event is posted
    response = client.post(
        events_url(game.pk), {"event": {"type": "pass"}, "sequence": len(log) + 1}, format="json"
    )
    # Then it is a 409 with detail and code (current_sequence only for a stale sequence)
    assert response.status_code == 409
    assert response.json()["code"] == "game_finished"


@pytest.mark.parametrize(
    "path", ["/api/games/abc", "/api/tournaments/x/standings", "/api/nothing-here", "/api/games/1/"]
)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_paths_naming_no_endpoint_answer_json_404(path, method):
    # Given a path under /api/ that matches no endpoint (a non-numeric id, a typo),
    # asked by a client without a CSRF cookie (a script, a bot)
    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)(path)
    # then the answer is a JSON 404 with a reason, never an HTML page (not the CSRF page)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize(
    ("url_name", "body"),
    [
        ("api:game-events", '{"event": {"type": "start", "seed": ' + DEEP + '}, "sequence": 1}'),
        ("api:game-log", '{"log": [{"type": "start", "players": ' + DEEP + "}]}"),
        ("api:game-placements", '{"placements": {"ann": ' + DEEP + "}}"),
    ],
)
def test_deeply_nested_json_is_400_not_a_500(game, as_user, url_name, body):
    response = as_user("scorekeeper").post(
        reverse(url_name, args=[game.pk]), data=body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:200]
    assert response.json()["detail"]
    assert_untouched(game)


def test_a_deeply_nested_log_line_is_422_naming_the_line(game, as_user):
    log = start_event_text("1") + "\n" + '{"type": "draw", "player": "ann", "card": ' + DEEP + "}\n"
    response = as_user("scorekeeper").post(
        reverse("api:game-log", args=[game.pk]), data=log, content_type="text/plain"
    )
    assert response.status_code == 422
    assert response.json()["line"] == 2 and "nested too deeply" in response.json()["reason"]
    assert_untouched(game)


@pytest.mark.parametrize(
    ("url_name", "body"),
    [
        ("api:game-placements", '{"placements": {"\\ud800": 1, "bob": 2}}'),
        ("api:game-events", '{"event": {"type": "start", "game": "\\udfff"}, "sequence": 1}'),
        ("api:game-log", '{"log": [{"type": "start", "players": ["\\ud800x"]}]}'),
    ],
)
def test_a_lone_surrogate_is_400_not_a_500(game, as_user, url_name, body):
    response = as_user("scorekeeper").post(
        reverse(url_name, args=[game.pk]), data=body, content_type="application/json"
    )
    assert response.status_code in (400, 422), response.content[:200]
    assert "Unicode" in response.json().get("detail", "") + response.json().get("reason", "")
    assert_untouched(game)
