"""The game and tournament pages carry the live script, configured for their socket;
the pages themselves stay complete without it."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_game_page_listens_on_its_socket_from_its_last_event(client, table):
    response = client.get(reverse("tournaments:game-detail", args=[table.game_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "js/live.js" in html
    assert f'data-live-socket="/ws/games/{table.game_id}/"' in html
    assert 'data-live-after="0"' in html
    assert 'data-live-label="Live"' in html


def test_the_tournament_page_listens_on_its_socket(client, tournament):
    response = client.get(reverse("tournaments:tournament-detail", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-live-socket="/ws/tournaments/{tournament.pk}/"' in html
    assert 'data-live-regions="#content"' in html
