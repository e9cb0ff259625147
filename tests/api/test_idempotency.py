"""``Idempotency-Key`` on ``POST /api/games/<id>/events``: phones at a venue lose
answers, so a retry of a stored event answers 200 with that event and stores nothing.

Without the key a stale sequence stays 409; the same key with another body is 422;
a malformed key is 400. Two requests with one key at the same moment store one event
(PostgreSQL, real row locks: ``requires_postgres``)."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.urls import reverse

from games.errors import IdempotencyKeyReused, MalformedInput
from games.models import Game, GameEvent
from tournaments.services import game_record_event

pytestmark = pytest.mark.django_db


def post_event(client, game_id, event, sequence, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        reverse("api:game-events", args=[game_id]),
        {"event": event, "sequence": sequence},
        format="json",
        **headers,
    )


def stored(game: Game) -> int:
    return GameEvent.objects.filter(game=game).count()


def test_first_request_with_a_key_stores_the_event_and_the_key(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    response = post_event(client, game.pk, log[0], 1, key="k-1")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["replayed"] is False
    assert body["events_added"] == 1
    assert body["event"]["sequence"] == 1
    assert body["event"]["event"] == log[0]
    assert GameEvent.objects.get(game=game, sequence=1).idempotency_key == "k-1"


def test_retry_with_the_same_key_answers_200_with_the_stored_event(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    first = post_event(client, game.pk, log[0], 1, key="start-7f3a")
    assert first.status_code == 201
    second = post_event(client, game.pk, log[1], 2, key="e2-7f3a")
    assert second.status_code == 201
    retry = post_event(client, game.pk, log[1], 2, key="e2-7f3a")
    assert retry.status_code == 200, retry.json()
    body = retry.json()
    # The same shape as the 201, describing the stored event; nothing new stored.
    assert set(body) == set(second.json())
    assert body["replayed"] is True
    assert body["events_added"] == 0
    assert body["result_changed"] is False
    assert body["event"] == second.json()["event"]
    assert body["game"]["sequence"] == 2
    assert stored(game) == 2
    assert Game.objects.get(pk=game.pk).last_sequence == 2


def test_retry_after_others_recorded_more_still_answers_200(game, as_user, simulated_log):
    """The answer was lost, another scorekeeper went on: the retry is no duplicate and
    no stale-sequence error; it gets its own event back and the game as it is now."""
    log = simulated_log()
    mine, other = as_user("scorekeeper"), as_user("referee")
    assert post_event(mine, game.pk, log[0], 1, key="mine-1").status_code == 201
    assert post_event(other, game.pk, log[1], 2).status_code == 201
    retry = post_event(mine, game.pk, log[0], 1, key="mine-1")
    assert retry.status_code == 200
    assert retry.json()["event"]["sequence"] == 1
    assert retry.json()["game"]["sequence"] == 2
    assert stored(game) == 2


def test_retry_of_the_last_event_of_a_finished_game_answers_200(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    # All but the last event as a partial log; the last one is the tap that ends the game.
    text = "".join(json.dumps(e) + "\n" for e in log[:-1])
    logged = client.post(reverse("api:game-log", args=[game.pk]), {"log": text}, format="json")
    assert logged.status_code in (200, 201), logged.content
    last = len(log)
    assert post_event(client, game.pk, log[-1], last, key="final").status_code == 201
    assert Game.objects.get(pk=game.pk).is_over
    retry = post_event(client, game.pk, log[-1], last, key="final")
    assert retry.status_code == 200
    assert retry.json()["game"]["status"] == "finished"
    assert stored(game) == last


def test_same_key_with_another_body_is_refused(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    assert post_event(client, game.pk, log[0], 1, key="k").status_code == 201
    other_event = post_event(client, game.pk, log[1], 2, key="k")
    assert other_event.status_code == 422
    assert other_event.json()["code"] == "idempotency_key_reused"
    assert "already used" in other_event.json()["detail"]
    assert other_event.json()["sequence"] == 1
    other_sequence = post_event(client, game.pk, log[0], 2, key="k")
    assert other_sequence.status_code == 422
    assert stored(game) == 1


def test_without_a_key_a_stale_sequence_stays_409(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    assert post_event(client, game.pk, log[0], 1).status_code == 201
    again = post_event(client, game.pk, log[0], 1)
    assert again.status_code == 409
    assert again.json()["code"] == "stale_sequence"
    assert again.json()["current_sequence"] == 1
    # A new key on a stale sequence is no retry either: 409.
    fresh_key = post_event(client, game.pk, log[0], 1, key="never-seen")
    assert fresh_key.status_code == 409
    assert stored(game) == 1


@pytest.mark.parametrize("key", ["", " ", "a b", "x" * 101, "café", "tab\there"])
def test_a_malformed_key_is_400_and_stores_nothing(game, as_user, simulated_log, key):
    response = post_event(as_user("scorekeeper"), game.pk, simulated_log()[0], 1, key=key)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "malformed"
    assert "Idempotency-Key" in response.json()["detail"]
    assert stored(game) == 0


def test_the_longest_key_is_accepted(game, as_user, simulated_log):
    key = "K" * 100
    response = post_event(as_user("scorekeeper"), game.pk, simulated_log()[0], 1, key=key)
    assert response.status_code == 201


def test_keys_are_per_game(tournament, players, as_user, simulated_log):
    from tests.tournaments.factories import RoundFactory, seat_table

    rnd = RoundFactory(tournament=tournament, number=1)
    one, two = seat_table(rnd, players, 1).game, seat_table(rnd, players, 2).game
    client = as_user("scorekeeper")
    log = simulated_log()
    assert post_event(client, one.pk, log[0], 1, key="same").status_code == 201
    assert post_event(client, two.pk, log[0], 1, key="same").status_code == 201


def test_a_retry_is_still_checked_for_the_role(game, as_user, simulated_log, staff):
    log = simulated_log()
    assert post_event(as_user("scorekeeper"), game.pk, log[0], 1, key="k").status_code == 201
    assert post_event(as_user("stranger"), game.pk, log[0], 1, key="k").status_code == 403


def test_the_schema_documents_the_header(client):
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    text = schema.content.decode()
    assert "Idempotency-Key" in text
    assert "idempotency_key_reused" in text


def test_service_refuses_a_bad_key_and_a_reused_one(game, staff, simulated_log):
    log = simulated_log()
    user = staff["scorekeeper"]
    with pytest.raises(MalformedInput):
        game_record_event(
            game=game, event=log[0], expected_sequence=1, user=user, idempotency_key=7
        )
    outcome = game_record_event(
        game=game, event=log[0], expected_sequence=1, user=user, idempotency_key="a"
    )
    assert outcome.events_added == 1 and not outcome.replayed
    assert outcome.event.sequence == 1
    again = game_record_event(
        game=game, event=log[0], expected_sequence=1, user=user, idempotency_key="a"
    )
    assert again.replayed and again.events_added == 0 and again.event.pk == outcome.event.pk
    with pytest.raises(IdempotencyKeyReused):
        game_record_event(
            game=game, event=log[1], expected_sequence=2, user=user, idempotency_key="a"
        )


# --------------------------------------------------------------------------- PostgreSQL

WRITERS = 4


def _race_one_key(*, game_id: int, event: dict, sequence: int, user) -> list[object]:
    """``WRITERS`` threads append ``event`` with one key at the same moment."""
    barrier = threading.Barrier(WRITERS)
    results: list[object] = [None] * WRITERS

    def writer(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcome = game_record_event(
                game=game_id,
                event=event,
                expected_sequence=sequence,
                user=user,
                idempotency_key=f"key-{sequence}",
            )
            results[i] = "replayed" if outcome.replayed else "stored"
        except Exception as exc:  # pragma: no cover - reported by the assertion
            results[i] = repr(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_store_one_event(requires_postgres, simulated_log):
    """Four threads send the same event with the same key at once (a phone retrying
    while its first request is still in flight): one event is stored, every request
    succeeds (one as the write, the others as retries of it), no 409."""
    from tests.tournaments.factories import (
        PlayerFactory,
        RoundFactory,
        TournamentFactory,
        TournamentRoleFactory,
        UserFactory,
        seat_table,
    )

    assert connection.vendor == "postgresql"
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h) for h in ("ann", "bob", "cat", "dan")]
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    user = TournamentRoleFactory(tournament=tournament, role="scorekeeper", user=UserFactory()).user
    log = simulated_log()
    for sequence in range(1, 6):
        results = _race_one_key(
            game_id=game.pk, event=log[sequence - 1], sequence=sequence, user=user
        )
        assert sorted(results) == ["replayed"] * (WRITERS - 1) + ["stored"], results
    keys = list(
        GameEvent.objects.filter(game=game)
        .order_by("sequence")
        .values_list("sequence", "idempotency_key")
    )
    assert keys == [(n, f"key-{n}") for n in range(1, 6)]


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_duplicate_key_per_game(requires_postgres, simulated_log):
    """The unique constraint is the last line of defence (a writer bypassing the lock)."""
    from django.db import IntegrityError, transaction

    game = Game.objects.create(kind="tock", players=["ann", "bob", "cat", "dan"])
    log = simulated_log()
    GameEvent.objects.create(game=game, sequence=1, data=log[0], idempotency_key="dup")
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.create(game=game, sequence=2, data=log[1], idempotency_key="dup")
    GameEvent.objects.create(game=game, sequence=2, data=log[1])  # NULL keys never clash
    GameEvent.objects.create(game=game, sequence=3, data=log[2])
