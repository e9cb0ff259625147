"""Fixtures of the live-socket tests: a seated table, users by role, a channel layer."""

from __future__ import annotations

import pytest

from outbox.live import live_flush
from tests.tournaments.conftest import (  # noqa: F401  (shared fixtures)
    players,
    simulated_log,
    staff,
    tournament,
)
from tests.tournaments.factories import RoundFactory, seat_table


@pytest.fixture
def table(tournament, players):  # noqa: F811  (the shared fixtures)
    return seat_table(RoundFactory(tournament=tournament, number=1), players)


@pytest.fixture(
    params=["memory", pytest.param("redis", marks=pytest.mark.services)],
)
def layer(request, settings):
    """Each test once on the in-memory channel layer and once on Redis."""
    live_flush()  # what earlier tests queued must not reach this test's groups
    if request.param == "redis":
        request.getfixturevalue("redis_channel_layer")
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param


@pytest.fixture(autouse=True)
async def _close_consumer_connections():
    """The consumers' database work runs in asgiref's one thread for sync code; its
    connections (kept open with ``CONN_MAX_AGE``) would keep the PostgreSQL test
    database from being dropped."""
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    await sync_to_async(connections.close_all)()
