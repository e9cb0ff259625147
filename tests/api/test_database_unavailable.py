"""The database unreachable: the API and the site's pages answer 503 with Retry-After
(the score page retries a 503 with the same Idempotency-Key), not a 500. The connection
is patched to fail as an unreachable PostgreSQL does (OperationalError), which works on
SQLite too: the point is the mapping."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_an_append_with_the_database_down_is_503_with_retry_after(game, as_user, error):
    client = as_user("scorekeeper")
    client.get(f"/api/games/{game.pk}")  # the token checked once with the database up
    down = error("could not connect to server: Connection refused")
    with mock.patch.object(connection, "cursor", side_effect=down):
        response = client.post(
            f"/api/games/{game.pk}/events",
            {"event": {"type": "start"}, "sequence": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="k-1",
        )
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["code"] == "unavailable" and response.json()["detail"]


def test_a_page_with_the_database_down_is_a_plain_503(game, staff):
    client = Client(raise_request_exception=False)
    client.force_login(staff["scorekeeper"])
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("down")):
        response = client.get(f"/games/{game.pk}/score/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Service unavailable" in response.content.decode()
