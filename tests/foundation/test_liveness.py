"""``/healthz/live``: liveness that touches nothing (no SQL query, no cache or Redis
call), so it answers even while the database is down."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse


@pytest.mark.django_db
def test_liveness_answers_ok_without_any_query(client):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("healthz-live"))
    assert response.status_code == 200
    assert response.content == b"ok"
    assert "no-cache" in response.headers.get("Cache-Control", "") or "max-age=0" in (
        response.headers.get("Cache-Control", "")
    )
    assert ctx.captured_queries == []


def test_liveness_needs_no_database(client, django_db_blocker):
    # Outside any database access (pytest-django blocks it here): still 200.
    response = client.get("/healthz/live")
    assert response.status_code == 200
    assert client.post("/healthz/live").status_code == 405
