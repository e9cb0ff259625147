"""The three recording paths over HTTP: success, 422 illegal, 409 stale, all or nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import games.engine as engine
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def events_url(game_id: int) -> str:
    return reverse("api:game-events", args=[game_id])


def log_url(game_id: int) -> str:
    return reverse("api:game-log", args=[game_id])


def placements_url(game_id: int) -> str:
    return reverse("api:game-placements", args=[game_id])


def post_event(client, game_id, event, sequence):
    return client.post(events_url(game_id), {"event": event, "sequence": sequence}, format="json")


def jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def assert_untouched(game: Game, events: int = 0) -> None:
    fresh = Game.objects.get(pk=game.pk)
    assert GameEvent.objects.filter(game=game).count() == events
    assert fresh.last_sequence == events
    if events == 0:
        assert fresh.placements is None
        assert fresh.result_source == "none"


# --------------------------------------------------------------------------- one event


def test_append_events_then_read_state(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    for n, event in enumerate(log[:5], start=1):
        response = post_event(client, game.pk, event, n)
        assert response.status_code == 201, response.json()
    body = response.json()
    assert body["events_added"] == 1
    assert body["game"]["sequence"] == 5
    assert body["game"]["next_sequence"] == 6
    assert body["game"]["status"] == "in_progress"
    assert body["game"]["table"]["round"] == 1
    assert body["game"]["summary"]["events"] == 5

    listed = client.get(events_url(game.pk)).json()
    assert [e["sequence"] for e in listed["events"]] == [1, 2, 3, 4, 5]
    assert listed["events"][0]["event"] == log[0]
    later = client.get(events_url(game.pk), {"after": 3}).json()
    assert [e["sequence"] for e in later["events"]] == [4, 5]


def test_live_scoring_to_the_end_gives_a_verified_result(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log(seed=3)
    # Most of the game as a partial log (the same rules replay it), the last 40 events
    # one by one as a scorekeeper taps them: the end comes through the events API.
    head = len(log) - 40
    response = client.post(log_url(game.pk), {"log": jsonl(log[:head])}, format="json")
    assert response.status_code in (200, 201), response.content
    assert client.get(reverse("api:game-detail", args=[game.pk])).json()["status"] == "in_progress"
    for n, event in enumerate(log[head:], start=head + 1):
        response = post_event(client, game.pk, event, n)
        assert response.status_code == 201
    state = client.get(reverse("api:game-detail", args=[game.pk])).json()
    assert state["status"] in ("finished", "stalemate")
    assert state["placements"] == engine.replay(log).placements()
    assert state["verified"] is True
    # The game is over: no more events.
    response = post_event(client, game.pk, log[-1], len(log) + 1)
    assert response.status_code == 409
    assert response.json()["code"] == "game_finished"
    assert GameEvent.objects.filter(game=game).count() == len(log)


def test_illegal_event_is_422_with_the_engines_reason_and_nothing_stored(
    game, as_user, simulated_log
):
    client = as_user("scorekeeper")
    log = simulated_log()
    assert post_event(client, game.pk, log[0], 1).status_code == 201
    out_of_turn = {"type": "draw", "player": "bob", "card": 3, "to": "bob"}
    response = post_event(client, game.pk, out_of_turn, 2)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "event_rejected"
    assert body["detail"] == "bob acted out of turn (it is ann's turn)"
    assert body["reason"] == body["detail"]
    assert "\n" not in body["detail"]
    assert_untouched(game, events=1)


def test_unknown_event_type_is_422(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    post_event(client, game.pk, simulated_log()[0], 1)
    response = post_event(client, game.pk, {"type": "bogus"}, 2)
    assert response.status_code == 422
    assert "bogus" in response.json()["detail"]
    assert_untouched(game, events=1)


def test_stale_sequence_is_409_with_the_current_sequence(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    for n, event in enumerate(log[:3], start=1):
        assert post_event(client, game.pk, event, n).status_code == 201
    # Another device already wrote event 3; this one still thinks it writes 3.
    response = post_event(client, game.pk, log[3], 3)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_sequence"
    assert body["current_sequence"] == 3
    assert "sequence" in body["detail"]
    assert_untouched(game, events=3)
    # Too far ahead is stale as well.
    response = post_event(client, game.pk, log[3], 9)
    assert response.status_code == 409
    assert response.json()["current_sequence"] == 3


def test_start_event_with_other_players_than_the_seats_is_400(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    start = simulated_log(players=["ann", "bob", "cat", "eve"])[0]
    response = post_event(client, game.pk, start, 1)
    assert response.status_code == 400
    assert response.json()["code"] == "result_mismatch"
    assert_untouched(game)


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"event": {"type": "start"}}, "sequence"),
        ({"sequence": 1}, "event"),
        ({"event": [1, 2], "sequence": 1}, "event"),
        ({"event": {"type": "start"}, "sequence": 0}, "sequence"),
        ({"event": {"type": "start"}, "sequence": "one"}, "sequence"),
    ],
)
def test_invalid_input_is_400_naming_the_field(game, as_user, payload, field):
    response = as_user("scorekeeper").post(events_url(game.pk), payload, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith(field)
    assert field in body["errors"]
    assert_untouched(game)


@pytest.mark.parametrize("url_name", ["api:game-events", "api:game-placements", "api:game-log"])
def test_malformed_json_is_400_not_500(game, as_user, url_name):
    client = as_user("organizer")
    response = client.post(
        reverse(url_name, args=[game.pk]), data='{"event": {', content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]
    assert_untouched(game)


def test_unknown_game_is_404(db, staff, as_user, simulated_log):
    client = as_user("organizer")
    for response in (
        post_event(client, 987654, simulated_log()[0], 1),
        client.post(placements_url(987654), {"placements": {"a": 1}}, format="json"),
        client.post(log_url(987654), {"log": jsonl(simulated_log())}, format="json"),
        client.get(reverse("api:game-detail", args=[987654])),
        client.get(events_url(987654)),
        client.get(log_url(987654)),
        client.get(reverse("api:game-detail", args=[2**70])),
    ):
        assert response.status_code == 404
        assert response.json()["detail"]


# --------------------------------------------------------------------------- whole log


@pytest.mark.parametrize("how", ["text/plain", "ndjson", "multipart", "json-text", "json-list"])
def test_upload_a_whole_log(game, as_user, simulated_log, how):
    client = as_user("scorekeeper")
    log = simulated_log(seed=11)
    text = jsonl(log)
    url = log_url(game.pk)
    if how == "text/plain":
        response = client.post(url, data=text, content_type="text/plain")
    elif how == "ndjson":
        response = client.post(url, data=text, content_type="application/x-ndjson")
    elif how == "multipart":
        upload = SimpleUploadedFile("game.jsonl", text.encode(), "application/x-ndjson")
        response = client.post(url, {"file": upload}, format="multipart")
    elif how == "json-text":
        response = client.post(url, {"log": text}, format="json")
    else:
        response = client.post(url, {"log": log}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["events_added"] == len(log)
    assert body["result_changed"] is True
    assert body["game"]["placements"] == engine.replay(log).placements()
    assert body["game"]["verified"] is True
    assert GameEvent.objects.filter(game=game).count() == len(log)
    # The stored log reads back identically (JSON Lines).
    download = client.get(url)
    assert download.status_code == 200
    assert download["Content-Type"].startswith("application/x-ndjson")
    assert [json.loads(line) for line in download.content.decode().splitlines()] == log
    # Uploading the same log again is a no-op.
    again = client.post(url, data=text, content_type="text/plain")
    assert again.status_code == 200
    assert again.json()["events_added"] == 0


def test_log_with_a_bad_line_is_rejected_naming_the_line_and_nothing_stored(
    game, as_user, simulated_log
):
    client = as_user("scorekeeper")
    log = simulated_log(seed=5)
    lines = [json.dumps(e) for e in log]
    lines[41] = json.dumps({"type": "draw", "player": "nobody", "card": 1, "to": "center"})
    response = client.post(log_url(game.pk), data="\n".join(lines), content_type="text/plain")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "log_rejected"
    assert body["line"] == 42
    assert "line 42" in body["detail"]
    assert_untouched(game)


def test_log_that_is_not_json_names_the_line(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    lines = [json.dumps(e) for e in simulated_log()]
    lines[2] = "{not json"
    response = client.post(
        log_url(game.pk), data="\n".join(lines), content_type="application/x-ndjson"
    )
    assert response.status_code == 422
    assert response.json()["line"] == 3
    assert_untouched(game)


def test_log_of_other_players_than_the_seats_is_400(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log(players=["bob", "ann", "cat", "dan"])  # seat order differs
    response = client.post(log_url(game.pk), {"log": jsonl(log)}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "result_mismatch"
    assert_untouched(game)


def test_log_contradicting_recorded_events_is_409(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    first = simulated_log(seed=1)
    for n, event in enumerate(first[:3], start=1):
        post_event(client, game.pk, event, n)
    other = simulated_log(seed=2)
    response = client.post(log_url(game.pk), {"log": jsonl(other)}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "result_conflict"
    assert_untouched(game, events=3)


@pytest.mark.parametrize("body", [{"log": 5}, {"log": {"a": 1}}, {}, {"log": ""}])
def test_log_of_the_wrong_shape_is_4xx(game, as_user, body):
    response = as_user("scorekeeper").post(log_url(game.pk), body, format="json")
    assert response.status_code in (400, 422)
    assert response.json()["detail"]
    assert_untouched(game)


# --------------------------------------------------------------------------- placements only


def test_placements_only_is_an_unverified_result(game, as_user):
    client = as_user("scorekeeper")
    places = {"ann": 2, "bob": 1, "cat": 4, "dan": 3}
    response = client.post(placements_url(game.pk), {"placements": places}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["result_changed"] is True
    assert body["game"]["placements"] == places
    assert body["game"]["verified"] is False
    assert body["game"]["result_source"] == "placements"
    assert GameEvent.objects.filter(game=game).count() == 0


@pytest.mark.parametrize(
    "places",
    [
        {"ann": 1, "bob": 2, "cat": 3},  # a seated player missing
        {"ann": 1, "bob": 2, "cat": 3, "dan": 4, "eve": 5},  # not seated
        {"ann": 1, "bob": 1, "cat": 2, "dan": 4},  # not competition ranks
        {"ann": 1, "bob": 2, "cat": 3, "dan": 9},  # out of range
    ],
)
def test_placements_not_matching_the_seats_are_400(game, as_user, places):
    response = as_user("scorekeeper").post(
        placements_url(game.pk), {"placements": places}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"]
    assert Game.objects.get(pk=game.pk).placements is None


def test_placements_of_the_wrong_type_are_400(game, as_user):
    client = as_user("scorekeeper")
    for body in ({"placements": [1, 2]}, {"placements": {"ann": "first"}}, {}):
        response = client.post(placements_url(game.pk), body, format="json")
        assert response.status_code == 400
        assert response.json()["detail"].startswith("placements")


def test_placements_for_a_game_with_a_log_are_409(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    client.post(log_url(game.pk), {"log": simulated_log()}, format="json")
    response = client.post(
        placements_url(game.pk),
        {"placements": {"ann": 1, "bob": 2, "cat": 3, "dan": 4}},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "result_conflict"


def test_absurdly_nested_json_is_400_not_500(game, as_user):
    client = as_user("scorekeeper")
    for url in (events_url(game.pk), log_url(game.pk), placements_url(game.pk)):
        response = client.post(url, data="[" * 100_000, content_type="application/json")
        assert response.status_code == 400
        assert "JSON" in response.json()["detail"]
    assert_untouched(game)


def test_unsupported_body_type_is_415_and_non_utf8_log_is_400(game, as_user):
    client = as_user("scorekeeper")
    response = client.post(events_url(game.pk), data="hello", content_type="text/plain")
    assert response.status_code == 415
    response = client.post(log_url(game.pk), data=b"\xff\xfe", content_type="text/plain")
    assert response.status_code == 400
    assert "UTF-8" in response.json()["detail"]
    assert_untouched(game)
