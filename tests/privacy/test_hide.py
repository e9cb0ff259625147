"""Hiding a profile: who may, and what the public, the staff and the player see."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.test import TestCase
from rest_framework.test import APIClient

import games.engine as engine
from tests.privacy.conftest import SECRET_HANDLE, fetch_texts
from tournaments.errors import NotAllowed, NotFound
from tournaments.models import Player
from tournaments.selectors import tournament_standings
from tournaments.services import player_set_hidden

pytestmark = pytest.mark.django_db


def _leaks(text: str) -> bool:
    lower = text.lower()
    return SECRET_HANDLE in lower or "bonet" in lower or "garc" in lower


def _hide(world) -> None:
    """Maria hides, committed as far as the test's transaction lets (what follows a
    change, such as the cached pages moving on, runs on commit)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        player_set_hidden(player=world.maria, hidden=True, user=world.maria_user)


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _public_texts(client, world) -> dict[str, str]:
    t = world.tournament.pk
    game = world.game_ids[0]  # round 1, table 1: maria plays
    urls = [
        f"/tournaments/{t}/",
        f"/api/tournaments/{t}/standings",
        f"/api/tournaments/{t}/rounds",
        f"/api/games/{game}",
        f"/api/games/{game}/events",
        f"/api/games/{game}/log",
        f"/games/{game}/",
        f"/api/games/{world.friendly_id}",
        f"/api/games/{world.friendly_id}/log",
        f"/leagues/{world.tournament.league.slug}/",
        f"/api/leagues/{world.tournament.league.slug}",
        "/players/",
        "/players/?q=maria",
        "/api/players",
        "/api/players?q=maria",
    ]
    return fetch_texts(client, urls)


def test_the_player_an_organizer_and_superusers_may_hide(world):
    for user in (world.maria_user, world.organizer, world.superuser):
        player = player_set_hidden(player=world.maria, hidden=True, user=user)
        assert player.hidden
        player = player_set_hidden(player=world.maria.handle, hidden=False, user=user)
        assert not player.hidden


def test_others_may_not_hide(world):
    with pytest.raises(NotAllowed) as anonymous:
        player_set_hidden(player=world.maria, hidden=True, user=AnonymousUser())
    assert "signed in" in str(anonymous.value.message)
    for user in (world.stranger, world.referee):  # a referee is staff, not an organizer
        with pytest.raises(NotAllowed):
            player_set_hidden(player=world.maria, hidden=True, user=user)
    other = Player.objects.get(handle="ann")
    with pytest.raises(NotAllowed):  # a player may hide only themself
        player_set_hidden(player=other, hidden=True, user=world.maria_user)
    _hide(world)
    with pytest.raises(NotFound):  # a hidden player is not even there for a stranger
        player_set_hidden(player=world.maria, hidden=False, user=world.stranger)
    with pytest.raises(NotAllowed):  # the referee sees them, but may not decide
        player_set_hidden(player=world.maria, hidden=False, user=world.referee)
    assert Player.objects.get(pk=world.maria.pk).hidden


def test_the_public_sees_a_neutral_name_and_the_same_results(world):
    before = [
        (r.player_id, r.rank, r.points, r.places)
        for r in tournament_standings(tournament=world.tournament)
    ]
    shown = _public_texts(_client(), world)
    assert any(_leaks(text) for text in shown.values())
    _hide(world)
    label = f"Player {world.maria.pk}"
    for client in (_client(), _client(world.stranger)):
        shown = _public_texts(client, world)
        assert [url for url, text in shown.items() if _leaks(text)] == []
        assert label in shown[f"/tournaments/{world.tournament.pk}/"]
        assert f"Player-{world.maria.pk}" in shown[f"/api/games/{world.game_ids[0]}"]
        replayed = engine.replay(engine.parse_log(shown[f"/api/games/{world.game_ids[0]}/log"]))
        assert f"Player-{world.maria.pk}" in replayed.players
        assert client.get(f"/players/{SECRET_HANDLE}/").status_code == 404
        assert client.get(f"/api/players/{SECRET_HANDLE}").status_code == 404
    rows = tournament_standings(tournament=world.tournament)
    assert [(r.player_id, r.rank, r.points, r.places) for r in rows] == before
    masked = next(r for r in rows if r.player_id == world.maria.pk)
    assert masked.masked and masked.display_name == label


@pytest.mark.parametrize("who", ["organizer", "referee", "superuser", "maria_user"])
def test_staff_and_the_player_still_see_the_real_name(world, who):
    _hide(world)
    client = _client(getattr(world, who))
    page = client.get(f"/tournaments/{world.tournament.pk}/").content.decode()
    assert "Bonet" in page
    standings = client.get(f"/api/tournaments/{world.tournament.pk}/standings").json()
    assert SECRET_HANDLE in [row["handle"] for row in standings]
    game = client.get(f"/api/games/{world.game_ids[0]}").json()
    assert SECRET_HANDLE in game["players"]
    assert client.get(f"/players/{SECRET_HANDLE}/").status_code == 200
    assert client.get(f"/api/players/{SECRET_HANDLE}").status_code == 200


def test_the_player_finds_themself_in_the_list(world):
    _hide(world)
    listed = _client(world.maria_user).get("/api/players?q=maria").json()
    assert [p["handle"] for p in listed["results"]] == [SECRET_HANDLE]


def test_hide_player_command(world, capsys):
    call_command("hide_player", SECRET_HANDLE)
    assert Player.objects.get(pk=world.maria.pk).hidden
    call_command("hide_player", SECRET_HANDLE, "--show")
    assert not Player.objects.get(pk=world.maria.pk).hidden
