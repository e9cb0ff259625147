"""The live sockets (tournaments.consumers) through the whole ASGI stack, on the
in-memory channel layer and on Redis: a change recorded through the services reaches
the sockets allowed to see it, after commit, and nothing else does."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from games.models import Game
from outbox.live import live_flush, tournament_group
from tock_site.asgi import application
from tournaments import services
from tournaments.consumers import (
    CLOSE_BAD_REQUEST,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    MAX_BACKLOG,
    TOURNAMENT_INTERVAL,
)
from tournaments.models import Role, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


def _session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def _open(path: str, *, user=None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(_session_cookie)(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def _receive(communicator: WebsocketCommunicator, timeout: float = 5) -> dict:
    # Poll (a communicator's receive that times out cancels the application): the
    # sender thread of outbox.live puts messages on the in-memory layer from its own
    # event loop, which does not wake this one, and short sleeps do.
    deadline = time.monotonic() + timeout
    while await communicator.receive_nothing(timeout=0.05, interval=0.01):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no message within {timeout} s")
    return await communicator.receive_json_from(timeout=1)


async def _silent(communicator: WebsocketCommunicator, seconds: float = 0.3) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not await communicator.receive_nothing(timeout=0.05):
            return False
    return True


async def _closed_with(communicator: WebsocketCommunicator) -> int:
    output = await communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    return output["code"]


async def _record(table, events, *, first: int, user) -> None:
    for n, event in enumerate(events, start=first):
        await database_sync_to_async(services.game_record_event)(
            game=table.game_id, event=event, expected_sequence=n, user=user
        )
    await sync_to_async(live_flush)()


async def _make_private(tournament) -> None:
    await database_sync_to_async(Tournament.objects.filter(pk=tournament.pk).update)(
        is_public=False
    )


# --------------------------------------------------------------------------- game sockets


async def test_an_anonymous_socket_on_a_public_game_gets_each_event_and_the_result(
    layer, table, staff, simulated_log
):
    log = simulated_log(seed=7)
    scorekeeper = staff[Role.SCOREKEEPER]
    head = len(log) - 3
    await database_sync_to_async(services.game_record_log)(
        game=table.game_id, log=log[:head], user=scorekeeper
    )
    await sync_to_async(live_flush)()
    socket = await _open(f"/ws/games/{table.game_id}/")
    try:
        hello = await _receive(socket)
        assert hello == {
            "type": "hello",
            "game": table.game_id,
            "sequence": head,
            "status": "in_progress",
            "result_version": 0,
        }
        assert await _silent(socket)  # default: from the current sequence on

        await _record(table, log[head : head + 2], first=head + 1, user=scorekeeper)
        for n in (head + 1, head + 2):
            assert await _receive(socket) == {
                "type": "event",
                "game": table.game_id,
                "sequence": n,
                "event": log[n - 1],
            }

        await _record(table, log[head + 2 :], first=head + 3, user=scorekeeper)
        assert (await _receive(socket))["sequence"] == len(log)
        result = await _receive(socket)
        game = await database_sync_to_async(Game.objects.get)(pk=table.game_id)
        assert result == {
            "type": "result",
            "game": table.game_id,
            "status": game.status,
            "result_version": 1,
            "placements": game.placements,
            "result_source": "log",
            "sequence": len(log),
        }
        assert game.is_over
        assert await _silent(socket)
    finally:
        await socket.disconnect()


async def test_after_resends_the_missed_events(layer, table, staff, simulated_log):
    log = simulated_log(seed=8)
    await _record(table, log[:5], first=1, user=staff[Role.SCOREKEEPER])
    socket = await _open(f"/ws/games/{table.game_id}/?after=2")
    try:
        assert (await _receive(socket))["sequence"] == 5  # hello: where the game is
        missed = [await _receive(socket) for _ in range(3)]
        assert [(m["type"], m["sequence"], m["event"]) for m in missed] == [
            ("event", n, log[n - 1]) for n in (3, 4, 5)
        ]
        assert await _silent(socket)
    finally:
        await socket.disconnect()


async def test_a_client_far_behind_is_told_to_resync(layer, table, staff, simulated_log):
    log = simulated_log(seed=8)
    await database_sync_to_async(services.game_record_log)(
        game=table.game_id, log=log[: MAX_BACKLOG + 10], user=staff[Role.SCOREKEEPER]
    )
    socket = await _open(f"/ws/games/{table.game_id}/?after=0")
    try:
        assert (await _receive(socket))["type"] == "hello"
        assert await _receive(socket) == {
            "type": "resync",
            "game": table.game_id,
            "after": 0,
            "sequence": MAX_BACKLOG + 10,
        }
        assert await _silent(socket)
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("after", ["x", "-1"])
async def test_a_malformed_after_is_refused(layer, table, after):
    socket = await _open(f"/ws/games/{table.game_id}/?after={after}")
    assert await _closed_with(socket) == CLOSE_BAD_REQUEST
    await socket.disconnect()


async def test_an_unknown_game_is_refused(layer, db):
    socket = await _open("/ws/games/987654/")
    assert await _closed_with(socket) == CLOSE_NOT_FOUND
    await socket.disconnect()


# --------------------------------------------------------------------------- private tournaments


@pytest.mark.parametrize("kind", ["game", "tournament"])
async def test_a_private_tournament_refuses_anonymous_and_strangers_and_admits_its_staff(
    layer, table, staff, tournament, kind
):
    await _make_private(tournament)
    path = f"/ws/games/{table.game_id}/" if kind == "game" else f"/ws/tournaments/{tournament.pk}/"
    referee = staff[Role.REFEREE]
    token = await database_sync_to_async(Token.objects.create)(user=staff[Role.ORGANIZER])

    for user, query, code in [
        (None, "", CLOSE_NOT_FOUND),  # answers like a missing one
        (staff["stranger"], "", CLOSE_NOT_FOUND),
        (None, "?token=not-a-token", CLOSE_FORBIDDEN),
        (referee, "?token=not-a-token", CLOSE_FORBIDDEN),  # a given token decides
    ]:
        socket = await _open(path + query, user=user)
        assert await _closed_with(socket) == code, (user, query)
        await socket.disconnect()

    for user, query in [(referee, ""), (None, f"?token={token.key}")]:
        socket = await _open(path + query, user=user)
        try:
            assert (await _receive(socket))["type"] == "hello", (user, query)
        finally:
            await socket.disconnect()


async def test_a_tournament_made_private_stops_reaching_anonymous_sockets(
    layer, table, staff, tournament, simulated_log
):
    log = simulated_log(seed=9)
    socket = await _open(f"/ws/games/{table.game_id}/")
    try:
        assert (await _receive(socket))["type"] == "hello"
        await _make_private(tournament)
        await _record(table, log[:1], first=1, user=staff[Role.SCOREKEEPER])
        assert await _closed_with(socket) == CLOSE_NOT_FOUND
    finally:
        await socket.disconnect()


# --------------------------------------------------------------------------- tournament sockets


async def test_the_tournament_socket_hears_results_not_every_event(
    layer, table, staff, tournament, simulated_log
):
    log = simulated_log(seed=10)
    socket = await _open(f"/ws/tournaments/{tournament.pk}/")
    try:
        assert await _receive(socket) == {"type": "hello", "tournament": tournament.pk}
        await _record(table, log[:5], first=1, user=staff[Role.SCOREKEEPER])
        assert await _silent(socket)  # events without a result: nothing
        await database_sync_to_async(services.game_record_log)(
            game=table.game_id, log=log, user=staff[Role.SCOREKEEPER]
        )
        await sync_to_async(live_flush)()
        # The result, and the round it completed (audited progression steps notify too);
        # at most one message a second, so they may come as one or two messages.
        messages = [await _receive(socket)]
        if not await _silent(socket, seconds=1.5):
            messages.append(await _receive(socket))
        assert all(m["type"] == "tournament" for m in messages)
        changed = {c for m in messages for c in m["changed"]}
        assert {"results", "rounds"} <= changed
        assert table.game_id in [g for m in messages for g in m.get("games", [])]
        assert await _silent(socket)
    finally:
        await socket.disconnect()


async def test_the_tournament_socket_coalesces_a_burst_to_one_message_a_second(
    layer, table, tournament
):
    socket = await _open(f"/ws/tournaments/{tournament.pk}/")
    channel_layer = get_channel_layer()
    group = tournament_group(tournament.pk)
    try:
        assert (await _receive(socket))["type"] == "hello"
        received: list[tuple[float, dict]] = []

        async def collect() -> None:
            while True:
                message = await _receive(socket, timeout=10)
                received.append((time.monotonic(), message))

        collector = asyncio.ensure_future(collect())
        started = time.monotonic()
        for n in range(30):  # a burst: a round seated, results, the round finished
            if n % 3 == 0:
                message = {"type": "game.changed", "game": 1000 + n, "sequence": 1}
            else:
                changed = ["seating"] if n % 3 == 1 else ["rounds", "nonsense"]
                message = {"type": "tournament.changed", "changed": changed}
            await channel_layer.group_send(group, message)
            await asyncio.sleep(0.02)
        burst = time.monotonic() - started  # ~0.6 s; longer on a busy machine

        def games_seen() -> list[int]:
            return sorted(g for _, m in received for g in m.get("games", []))

        everything = [1000 + n for n in range(0, 30, 3)]
        deadline = time.monotonic() + 60  # a hang, not slowness
        while games_seen() != everything or len(received) < 2:
            assert time.monotonic() < deadline, received
            await asyncio.sleep(0.05)
        collector.cancel()
        # Then the socket falls silent. (A last message may still carry the burst's tail:
        # on a busy machine the burst outlasts a tick, and what came after it waits for
        # the next one; the count below still bounds the messages by the burst's length.)
        while not await _silent(socket, seconds=TOURNAMENT_INTERVAL + 0.3):
            assert time.monotonic() < deadline, received
            received.append((time.monotonic(), await socket.receive_json_from(timeout=1)))
        # The first message at once, then at most one per interval while the burst
        # lasts (two when it took under a second, as it does on an idle machine).
        assert 2 <= len(received) <= 2 + int(burst // TOURNAMENT_INTERVAL), (burst, received)
        for (earlier, _), (later, _) in zip(received, received[1:], strict=False):
            assert later - earlier >= 0.5 * TOURNAMENT_INTERVAL  # sent a second apart
        changed = set().union(*(m["changed"] for _, m in received))
        assert changed == {"results", "seating", "rounds"}  # unknown kinds dropped
        assert games_seen() == everything
        assert all(m["type"] == "tournament" for _, m in received)
    finally:
        await socket.disconnect()


# --------------------------------------------------------------------------- my tables


async def test_my_tables_socket_refuses_anonymous_listeners(layer, db):
    socket = await _open("/ws/me/")
    assert await _closed_with(socket) == CLOSE_FORBIDDEN


async def test_my_tables_socket_hears_the_seating_of_the_players_tournaments_only(
    layer, tournament, players
):
    """A player's socket follows the tournaments they are registered in: a round seated
    or moved on there reaches it (one message, which tournament and what), while results,
    other kinds of change and other tournaments do not."""
    from tests.tournaments.factories import TournamentFactory, UserFactory
    from tournaments.services.core import audit_write

    def setup():
        Tournament.objects.filter(pk=tournament.pk).update(status="running")
        user = UserFactory(username="ann-phone")
        players[0].user = user
        players[0].save(update_fields=["user"])
        return user, TournamentFactory(status="running")

    user, elsewhere = await database_sync_to_async(setup)()
    socket = await _open("/ws/me/", user=user)
    channel_layer = get_channel_layer()
    try:
        assert await _receive(socket) == {"type": "hello", "tournaments": [tournament.pk]}
        await database_sync_to_async(audit_write)(
            tournament=tournament, user=None, action="round_seated"
        )
        await sync_to_async(live_flush)()
        assert await _receive(socket) == {
            "type": "me",
            "tournaments": [tournament.pk],
            "changed": ["seating", "rounds"],
        }
        await channel_layer.group_send(
            tournament_group(tournament.pk), {"type": "game.changed", "game": 1, "sequence": 9}
        )
        await channel_layer.group_send(
            tournament_group(tournament.pk),
            {"type": "tournament.changed", "tournament": tournament.pk, "changed": ["results"]},
        )
        await database_sync_to_async(audit_write)(
            tournament=elsewhere, user=None, action="round_seated"
        )
        await sync_to_async(live_flush)()
        assert await _silent(socket, seconds=TOURNAMENT_INTERVAL + 0.3)
    finally:
        await socket.disconnect()


async def test_my_tables_socket_follows_a_tournament_the_player_signs_up_for_later(layer, staff):
    """Registered at the desk while their home page is open, a player's socket follows
    that tournament from then on (one ``registrations`` message, then its seating);
    dropped, it says so once and stops following it. Another player's registration says
    nothing."""
    from tests.tournaments.factories import (
        PlayerFactory,
        TournamentFactory,
        TournamentRoleFactory,
        UserFactory,
    )
    from tournaments.services.core import audit_write

    organizer = staff[Role.ORGANIZER]

    def setup():
        user = UserFactory(username="late-ann")
        later = TournamentFactory(status="running")
        TournamentRoleFactory(tournament=later, role=Role.ORGANIZER, user=organizer)
        return user, PlayerFactory(handle="late-ann", user=user), PlayerFactory(), later

    user, mine, other, later = await database_sync_to_async(setup)()

    async def step(service, **kwargs):  # a service call, its live messages sent
        done = await database_sync_to_async(service)(**kwargs)
        await sync_to_async(live_flush)()
        return done

    def me(*changed):
        return {"type": "me", "tournaments": [later.pk], "changed": list(changed)}

    socket = await _open("/ws/me/", user=user)
    try:
        assert await _receive(socket) == {"type": "hello", "tournaments": []}
        await step(services.registration_create, tournament=later, player=other, user=organizer)
        assert await _silent(socket)
        registration = await step(
            services.registration_create, tournament=later, player=mine, user=organizer
        )
        assert await _receive(socket) == me("registrations")
        await step(audit_write, tournament=later, user=None, action="round_seated")
        assert await _receive(socket, timeout=TOURNAMENT_INTERVAL + 5) == me("seating", "rounds")
        await step(services.registration_drop, registration=registration, user=user)
        assert await _receive(socket, timeout=TOURNAMENT_INTERVAL + 5) == me("registrations")
        await step(audit_write, tournament=later, user=None, action="round_seated")
        assert await _silent(socket, seconds=TOURNAMENT_INTERVAL + 0.3)
    finally:
        await socket.disconnect()


def test_the_home_page_listens_for_a_signed_in_players_tables_only(client, players, tournament):
    from tests.tournaments.factories import UserFactory

    anonymous = client.get("/").content.decode()
    assert 'id="my-tables"' in anonymous and "/ws/me/" not in anonymous
    user = UserFactory(username="ann-phone")
    players[0].user = user
    players[0].save(update_fields=["user"])
    client.force_login(user)
    page = client.get("/").content.decode()
    assert 'data-live-socket="/ws/me/"' in page and 'data-live-regions="#my-tables"' in page
