"""One rule for what a visitor sees of a game (``tournaments.selectors.game_view_for``):
the game page, the game API, ``GET /api/games/<id>/state`` and the game socket agree
for the same visitor, and none of them leaks a hidden player or, while the game is in
progress, an infraction nobody has knocked on; also when the cached state is stale and
the summary is replayed from the stored log (which holds the real handles)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

import games.engine as engine
from games.models import Game
from outbox.live import live_flush
from tests.live.conftest import _close_consumer_connections, layer  # noqa: F401 (fixtures)
from tests.live.test_consumers import _open, _receive, _record
from tests.replay.conftest import cut_with_pending_infraction
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.models import Role
from tournaments.permissions import SYSTEM
from tournaments.selectors import game_view_for, hidden_handle
from tournaments.services import game_record_log

SECRET = "maria-garcia"
SECRET_NAME = "María García Bonet"
HANDLES = [SECRET, "bob", "cat", "dan"]


@dataclass
class Scene:
    game_id: int
    table: object
    log: list[dict]
    n: int
    maria_id: int
    users: dict


def _scene(*, back: int = 0) -> Scene:
    """A game in progress with an infraction nobody has knocked on (``back`` events
    before it: not yet recorded)."""
    tournament = TournamentFactory(name="Madrid Open", status="running")
    maria_user = UserFactory(username="maria")
    players = [
        PlayerFactory(handle=SECRET, display_name=SECRET_NAME, user=maria_user, hidden=True),
        *(PlayerFactory(handle=h, display_name=h.title()) for h in HANDLES[1:]),
    ]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    table = seat_table(RoundFactory(tournament=tournament, number=1), players)
    scorekeeper = TournamentRoleFactory(
        tournament=tournament, role=Role.SCOREKEEPER, user=UserFactory(username="sk")
    ).user
    log = engine.simulate(game="tock", players=HANDLES, seed=3, mistakes=0.15, knocks=0.3)
    n = cut_with_pending_infraction(log) - back
    assert n < 150  # the socket sends the backlog one event at a time
    game_record_log(game=table.game, log=log[:n], user=SYSTEM)
    return Scene(
        game_id=table.game_id,
        table=table,
        log=log,
        n=n,
        maria_id=players[0].pk,
        users={
            "anonymous": None,
            "stranger": UserFactory(username="stranger"),
            "maria": maria_user,
            "scorekeeper": scorekeeper,
        },
    )


def _client(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _reads(scene: Scene, user, at: int | None = None) -> dict:
    """The summary as the page, the game API and the state API show it to ``user``."""
    client = _client(user)
    g = scene.game_id
    page = client.get(f"/games/{g}/" + (f"?at={at}" if at else ""))
    assert page.status_code == 200
    state = client.get(f"/api/games/{g}/state" + (f"?at={at}" if at else ""))
    assert state.status_code == 200
    detail = client.get(f"/api/games/{g}")
    events = client.get(f"/api/games/{g}/events")
    return {
        "page": page.context["view"].summary,
        "page_html": page.content.decode(),
        "state": state.json(),
        "detail": detail.json()["summary"],
        "detail_text": detail.content.decode(),
        "events": [e["event"] for e in events.json()["events"]],
    }


def _leaks(text: str) -> bool:
    lower = text.lower()
    return SECRET in lower or "bonet" in lower or "garc" in lower


def _pending(summary: dict) -> list:
    return [i for i in summary["infractions"] if not i["penalized"]]


def _masked(value, maria_id: int):
    return json.loads(json.dumps(value).replace(SECRET, hidden_handle(player_id=maria_id)))


def _check_everyone(scene: Scene) -> None:
    full = engine.replay(scene.log[: scene.n]).summary()
    assert _pending(full)
    public = engine.game_class("tock").public_summary(full)
    for who, user in scene.users.items():
        reads = _reads(scene, user)
        assert reads["page"] == reads["state"] == reads["detail"], who
        if who == "scorekeeper":
            assert reads["state"] == full
            continue
        # The public (the hidden player herself included: she is not staff) sees what a
        # spectator at the table sees; only she sees her own name.
        assert not _pending(reads["state"]), who
        assert "engine_correct" not in json.dumps(reads["state"]), who
        if who == "maria":
            assert reads["state"] == public
            continue
        assert reads["state"] == _masked(public, scene.maria_id), who
        for key in ("page_html", "detail_text"):
            assert not _leaks(reads[key]), (who, key)
        assert not _leaks(json.dumps(reads["events"])), who
        # A point of the replay is replayed from the stored log: masked and redacted too.
        at = max(1, scene.n - 3)
        at_reads = _reads(scene, user, at=at)
        assert at_reads["page"] == at_reads["state"], who
        assert not _leaks(json.dumps(at_reads["state"])) and not _leaks(at_reads["page_html"])
        assert not _pending(at_reads["state"])


@pytest.mark.django_db
def test_page_api_and_state_agree_and_leak_nothing(client):
    _check_everyone(_scene())


@pytest.mark.django_db
def test_the_stale_cache_path_leaks_nothing(client):
    scene = _scene()
    # A stale cache (as after a failed cache write): the summary is replayed from the log.
    Game.objects.filter(pk=scene.game_id).update(state_sequence=0)
    assert not Game.objects.get(pk=scene.game_id).cache_is_fresh
    _check_everyone(scene)
    shown = game_view_for(user=AnonymousUser(), game_id=scene.game_id)
    assert not _leaks(json.dumps(shown.state, default=str))
    assert not _pending(shown.summary)


@pytest.mark.django_db
def test_everyone_sees_everything_once_the_game_is_over_but_hidden_names_stay_hidden():
    scene = _scene()
    game_record_log(game=scene.game_id, log=scene.log, user=SYSTEM)
    full = engine.replay(scene.log).summary()
    for who, user in scene.users.items():
        reads = _reads(scene, user)
        assert reads["page"] == reads["state"] == reads["detail"], who
        expected = full if who in ("maria", "scorekeeper") else _masked(full, scene.maria_id)
        assert reads["state"] == expected, who
        if who in ("anonymous", "stranger"):
            assert not _leaks(reads["page_html"])


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_the_events_as_the_api_shows_them(layer):  # noqa: F811
    scene = await database_sync_to_async(_scene)()
    sk = scene.users["scorekeeper"]
    for who in ("anonymous", "scorekeeper"):
        user = scene.users[who]
        socket = await _open(f"/ws/games/{scene.game_id}/?after=0", user=user)
        try:
            assert (await _receive(socket))["type"] == "hello"
            sent = [await _receive(socket) for _ in range(scene.n)]
            assert [m["sequence"] for m in sent] == list(range(1, scene.n + 1))
            reads = await database_sync_to_async(_reads)(scene, user)
            assert [m["event"] for m in sent] == reads["events"], who
            if who == "anonymous":
                assert not _leaks(json.dumps(sent))
        finally:
            await socket.disconnect()
    # A live event reaches an anonymous socket masked as well.
    socket = await _open(f"/ws/games/{scene.game_id}/")
    try:
        assert (await _receive(socket))["type"] == "hello"
        await _record(scene.table, scene.log[scene.n : scene.n + 1], first=scene.n + 1, user=sk)
        message = await _receive(socket)
        assert message["type"] == "event" and message["sequence"] == scene.n + 1
        assert message["event"] == _masked(scene.log[scene.n], scene.maria_id)
        # The rest of the game at once: the result message shows the placements as the
        # game API does to the same visitor (masked).
        await database_sync_to_async(game_record_log)(
            game=scene.game_id, log=scene.log, user=SYSTEM
        )
        await sync_to_async(live_flush)()
        messages = []
        while not messages or messages[-1]["type"] != "result":
            messages.append(await _receive(socket))
        assert not _leaks(json.dumps(messages))
        detail = await database_sync_to_async(_reads)(scene, None)
        assert messages[-1]["placements"] == json.loads(detail["detail_text"])["placements"]
        assert hidden_handle(player_id=scene.maria_id) in messages[-1]["placements"]
    finally:
        await socket.disconnect()
