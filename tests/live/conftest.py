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
