"""The game socket's live regions (``?lang=``): each message of a change carries the game
page's regions as its user sees them (the public view with hidden players masked and
without the infractions nobody knocked on; the full one for the game's staff), exactly
as the page renders them, rendered once per change for everyone who sees the game
alike; without ``?lang=`` the messages stay as they were."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.live.test_consumers import _open, _receive, _record, _silent
from tests.privacy.test_game_view import SECRET_NAME, Scene, _client, _leaks, _scene
from tournaments import game_page
from tournaments.game_page import LIVE_REGIONS, forget_live_regions

pytestmark = pytest.mark.django_db(transaction=True)

PENDING = "(nobody knocked)"  # the mark of an infraction nobody has knocked on yet


@pytest.fixture(autouse=True)
def _fresh_renderings():
    forget_live_regions()
    yield
    forget_live_regions()


@pytest.fixture
def renders(monkeypatch) -> list[tuple[bool, str]]:
    """Every rendering of the regions: (whether in full, language)."""
    calls: list[tuple[bool, str]] = []
    render = game_page.render_live_regions

    def counted(*, shown, language):
        calls.append((shown.full, language))
        return render(shown=shown, language=language)

    monkeypatch.setattr(game_page, "render_live_regions", counted)
    return calls


def _page(scene: Scene, user, language: str = "en") -> str:
    response = _client(user).get(f"/games/{scene.game_id}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


async def _next_event(scene: Scene, sockets: dict) -> dict:
    """Record the scene's next event through the service: each socket's message."""
    sk = scene.users["scorekeeper"]
    await _record(scene.table, scene.log[scene.n : scene.n + 1], first=scene.n + 1, user=sk)
    scene.n += 1
    return {who: await _receive(socket) for who, socket in sockets.items()}


async def test_each_socket_gets_the_regions_its_user_sees_as_the_page_shows_them(layer, renders):
    scene = await database_sync_to_async(_scene)(back=1)
    users = scene.users
    sockets = {}
    try:
        for who in ("anonymous", "stranger", "maria", "scorekeeper"):
            sockets[who] = await _open(f"/ws/games/{scene.game_id}/?lang=en", user=users[who])
        sockets["bot"] = await _open(f"/ws/games/{scene.game_id}/")  # no ?lang=: no regions
        for socket in sockets.values():
            assert (await _receive(socket))["type"] == "hello"

        messages = await _next_event(scene, sockets)

        for who, message in messages.items():
            assert message["type"] == "event" and message["sequence"] == scene.n, who
        bot = messages.pop("bot")
        assert "regions" not in bot and "version" not in bot
        for who, message in messages.items():
            assert message["version"] == scene.n, who
            assert set(message["regions"]) == set(LIVE_REGIONS), who
            # exactly what the page shows the same user now
            page = await database_sync_to_async(_page)(scene, users[who])
            for region, html in message["regions"].items():
                assert f'id="{region}"' in html.split(">", 1)[0], (who, region)
                assert html in page, (who, region)
        public = messages["anonymous"]["regions"]
        assert messages["stranger"]["regions"] == public  # one audience
        text = "".join(public.values())
        assert not _leaks(text) and PENDING not in text
        staff = "".join(messages["scorekeeper"]["regions"].values())
        assert SECRET_NAME in staff and PENDING in staff
        own = "".join(messages["maria"]["regions"].values())  # she sees her own name only
        assert SECRET_NAME in own and PENDING not in own
        assert sorted(renders) == [(False, "en"), (False, "en"), (True, "en")]
        for socket in sockets.values():
            assert await _silent(socket, seconds=0.1)
    finally:
        for socket in sockets.values():
            await socket.disconnect()


async def test_the_regions_are_rendered_once_per_audience_and_language(layer, renders):
    scene = await database_sync_to_async(_scene)(back=1)
    anonymous, scorekeeper = None, scene.users["scorekeeper"]
    opened = [(anonymous, "en")] * 3 + [(scorekeeper, "en")] * 2 + [(anonymous, "es")] * 2
    sockets = {}
    try:
        for n, (user, language) in enumerate(opened):
            path = f"/ws/games/{scene.game_id}/?lang={language}"
            sockets[n] = await _open(path, user=user)
            assert (await _receive(sockets[n]))["type"] == "hello"
        for _ in range(2):
            renders.clear()
            messages = await _next_event(scene, sockets)
            assert all(m["version"] == scene.n for m in messages.values())
            assert sorted(renders) == [(False, "en"), (False, "es"), (True, "en")]
        spanish = messages[len(opened) - 1]["regions"]["event-log"]
        assert spanish != messages[0]["regions"]["event-log"]
        page = await database_sync_to_async(_page)(scene, None, "es")
        assert spanish in page
    finally:
        for socket in sockets.values():
            await socket.disconnect()


async def test_an_unknown_language_gets_no_regions(layer):
    scene = await database_sync_to_async(_scene)(back=1)
    socket = await _open(f"/ws/games/{scene.game_id}/?lang=xx")
    try:
        assert (await _receive(socket))["type"] == "hello"
        message = (await _next_event(scene, {"only": socket}))["only"]
        assert message["type"] == "event" and "regions" not in message
    finally:
        await socket.disconnect()


async def test_a_rendering_that_fails_leaves_the_message_without_regions(layer, monkeypatch):
    def broken(*, shown, language):
        raise RuntimeError("template broken")

    monkeypatch.setattr(game_page, "render_live_regions", broken)
    scene = await database_sync_to_async(_scene)(back=1)
    socket = await _open(f"/ws/games/{scene.game_id}/?lang=en")
    try:
        assert (await _receive(socket))["type"] == "hello"
        message = (await _next_event(scene, {"only": socket}))["only"]
        assert message["type"] == "event" and message["sequence"] == scene.n
        assert "regions" not in message  # the page fetches itself, as without ?lang=
    finally:
        await socket.disconnect()
