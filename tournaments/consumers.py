"""Live pages over WebSockets: ``/ws/games/<id>/``, ``/ws/tournaments/<id>/`` and
``/ws/me/`` (the signed-in user's tables, :class:`MyTablesConsumer`).

The channel layer only carries hints (``outbox.live``): ``{"type": "game.changed",
"game", "sequence", "status", "result_version"}`` to ``game.<id>`` for every stored
change, and to ``tournament.<id>`` when a result changed; ``{"type":
"tournament.changed", "changed": [...]}`` to ``tournament.<id>`` from whatever seats or
finishes rounds. The consumers read what the client sees from the database
(``database_sync_to_async``), with the same selectors and visibility rules as the
pages and the API, so a socket never shows more than ``GET /api/...`` would.

A game socket opened with ``?lang=<language>`` (the site's game page) also gets the
page's live regions in the last message of each change (``regions``, ``version``), as
this user sees them: rendered once per change for everyone who sees the game alike
(:mod:`tournaments.game_page`), in the database thread, from the same read as the
events.

Who may listen: the origin is checked by the ASGI stack (``AllowedHostsOriginValidator``);
the user is the session's (``AuthMiddlewareStack``) or, for API clients, the owner of
the DRF token in ``?token=``. Public tournaments (of public leagues) and friendly games
are open to anyone; private ones to their staff. A refused socket is accepted and
closed at once with a code the client can read (see :data:`CLOSE_CODES`); a hidden
tournament answers exactly like a missing one. Visibility is checked again before
anything is sent, so a tournament made private stops reaching anonymous sockets.

The message formats are documented in ``docs/api.md`` ("Live updates").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from games.errors import GameNotFound
from outbox.live import game_group, tournament_group, user_group

logger = logging.getLogger(__name__)

#: Malformed query (``after`` not a whole number >= 0).
CLOSE_BAD_REQUEST = 4400
#: ``?token=`` given but not a valid token of an active user.
CLOSE_FORBIDDEN = 4403
#: No such game or tournament, or not visible to this user (private ones stay hidden).
CLOSE_NOT_FOUND = 4404
CLOSE_CODES = {
    CLOSE_BAD_REQUEST: "malformed query",
    CLOSE_FORBIDDEN: "invalid token",
    CLOSE_NOT_FOUND: "not found (or not visible to you)",
}

#: A tournament socket sends at most one message per this many seconds.
TOURNAMENT_INTERVAL = 1.0
#: Events a game socket sends one by one at most; a client further behind gets a
#: ``resync`` message and fetches them from ``GET /api/games/<id>/events?after=N``.
MAX_BACKLOG = 200
#: What may appear in a tournament message's ``changed`` (anything else is dropped).
TOURNAMENT_CHANGES = (
    "results",
    "seating",
    "rounds",
    "status",
    "clock",
    "registrations",
    "proposals",
    "calls",
)


# --------------------------------------------------------------------------- who is listening


def _query(scope: dict[str, Any]) -> dict[str, str]:
    raw = scope.get("query_string", b"")
    if isinstance(raw, bytes):
        raw = raw.decode("latin-1")
    return {key: values[-1] for key, values in parse_qs(raw).items()}


def _token_user(key: str) -> Any | None:
    """The active user owning the DRF token ``key``, else ``None`` (DRF's own check)."""
    from rest_framework.authentication import TokenAuthentication
    from rest_framework.exceptions import AuthenticationFailed

    try:
        user, _token = TokenAuthentication().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return user


async def _listener(scope: dict[str, Any], query: dict[str, str]) -> Any | None:
    """The user behind the socket: the token's owner when ``?token=`` is given (``None``
    when it is invalid), else the session's user (anonymous included)."""
    key = query.get("token")
    if key is not None:
        return await database_sync_to_async(_token_user)(key)
    user = scope.get("user")
    if user is None:
        from django.contrib.auth.models import AnonymousUser

        user = AnonymousUser()
    return user


class _Refused(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _LiveConsumer(AsyncJsonWebsocketConsumer):
    """Shared handshake: identify the listener, then accept or refuse with a code."""

    group_names: tuple[str, ...] = ()

    async def refuse(self, code: int) -> None:
        # Accepting first lets the client read the code (a close before accepting is
        # an HTTP 403 to the browser, without any code).
        await self.accept()
        await self.close(code=code)

    async def identify(self) -> tuple[Any, dict[str, str]]:
        query = _query(self.scope)
        user = await _listener(self.scope, query)
        if user is None:
            raise _Refused(CLOSE_FORBIDDEN)
        return user, query

    async def subscribe(self, group: str) -> None:
        self.group_names = (*self.group_names, group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def unsubscribe(self, group: str) -> None:
        self.group_names = tuple(g for g in self.group_names if g != group)
        await self.channel_layer.group_discard(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        groups, self.group_names = self.group_names, ()
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen; a ``{"type": "ping"}`` keeps idle proxies from closing."""
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})


# --------------------------------------------------------------------------- games


@dataclass
class _GameView:
    sequence: int
    status: str
    result_version: int
    placements: dict[str, int] | None
    result_source: str
    events: list[tuple[int, Any]] = field(default_factory=list)
    behind: bool = False  # more than MAX_BACKLOG events were missing
    #: The game page's live regions as this user sees them (with ``language``).
    regions: dict[str, str] | None = None


def _game_view(
    *,
    game_id: int,
    user: Any,
    after: int | None,
    result_version: int | None = None,
    language: str | None = None,
) -> _GameView:
    """What ``user`` may see of the game now (GameNotFound when nothing), and its events
    after ``after``: both from :func:`~tournaments.selectors.game_view_for`, the one
    place that decides what a visitor sees of a game (the events as ``GET
    /api/games/<id>/events?after=`` shows them: hidden players under their neutral
    names). With ``language``, when there is something to send (events after ``after``,
    a result other than ``result_version``), also the game page's live regions from the
    same read (made in that language), as :func:`tournaments.game_page.game_live_regions`
    renders them once for everyone who sees the game alike."""
    # in the page's language: a hidden player's neutral name is translated
    with translation.override(language) if language else contextlib.nullcontext():
        return _read_game_view(
            game_id=game_id,
            user=user,
            after=after,
            result_version=result_version,
            language=language,
        )


def _read_game_view(
    *, game_id: int, user: Any, after: int | None, result_version: int | None, language: str | None
) -> _GameView:
    from tournaments.game_page import game_live_regions
    from tournaments.selectors import game_view_for

    shown = game_view_for(game_id=game_id, user=user, with_names=language is not None)
    game = shown.game
    view = _GameView(
        sequence=game.last_sequence,
        status=game.status,
        result_version=game.result_version,
        placements=game.placements,
        result_source=game.result_source,
    )
    if after is not None and after < game.last_sequence:
        events = shown.events(after=after, limit=MAX_BACKLOG + 1)
        view.behind = len(events) > MAX_BACKLOG
        if not view.behind:
            view.events = [(e.sequence, e.data) for e in events]
    news = (after is not None and after < game.last_sequence) or (
        result_version is not None and result_version != game.result_version
    )
    if language is not None and news:
        try:
            view.regions = game_live_regions(shown=shown, language=language)
        except Exception:  # best effort: without regions the page fetches itself
            logger.exception("live regions of game %s not rendered", game_id)
    return view


class GameConsumer(_LiveConsumer):
    """``/ws/games/<id>/[?after=N][&token=KEY]``: every event after the client's last
    one, and the result when it changes."""

    game_id: int
    user: Any
    sent_sequence: int
    result_version: int
    #: The language of the page's live regions (``?lang=``), else none are sent.
    language: str | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        try:
            self.user, query = await self.identify()
            after = _after(query)
            self.language = _language(query)
            view = await self.load(after=after)
        except _Refused as refused:
            await self.refuse(refused.code)
            return
        await self.subscribe(game_group(self.game_id))
        await self.accept()
        self.sent_sequence = view.sequence if after is None else min(after, view.sequence)
        self.result_version = view.result_version
        await self.send_json(
            {
                "type": "hello",
                "game": self.game_id,
                "sequence": view.sequence,
                "status": view.status,
                "result_version": view.result_version,
            }
        )
        await self.send_view(view)

    async def load(self, *, after: int | None, result_version: int | None = None) -> _GameView:
        try:
            return await database_sync_to_async(_game_view)(
                game_id=self.game_id,
                user=self.user,
                after=after,
                result_version=result_version,
                language=self.language,
            )
        except GameNotFound as exc:
            raise _Refused(CLOSE_NOT_FOUND) from exc

    async def send_view(self, view: _GameView) -> None:
        """The view's news, one message each; the last carries the page's live regions
        (``regions``, ``version``) when the client asked for them."""
        messages: list[dict[str, Any]] = []
        if view.behind:
            messages.append(
                {
                    "type": "resync",
                    "game": self.game_id,
                    "after": self.sent_sequence,
                    "sequence": view.sequence,
                }
            )
            self.sent_sequence = view.sequence
        for sequence, event in view.events:
            if sequence <= self.sent_sequence:
                continue
            messages.append(
                {"type": "event", "game": self.game_id, "sequence": sequence, "event": event}
            )
            self.sent_sequence = sequence
        if view.result_version != self.result_version:
            self.result_version = view.result_version
            messages.append(
                {
                    "type": "result",
                    "game": self.game_id,
                    "status": view.status,
                    "result_version": view.result_version,
                    "placements": view.placements,
                    "result_source": view.result_source,
                    "sequence": view.sequence,
                }
            )
        if messages and view.regions is not None:
            messages[-1] = {**messages[-1], "regions": view.regions, "version": view.sequence}
        for message in messages:
            await self.send_json(message)

    async def game_changed(self, message: dict[str, Any]) -> None:
        """A hint from ``outbox.live``: read what is new from the database and send it."""
        if message.get("game") not in (None, self.game_id):
            return
        sequence, version = message.get("sequence"), message.get("result_version")
        if (
            isinstance(sequence, int)
            and sequence <= self.sent_sequence
            and version == self.result_version
        ):
            return  # already sent (a later read covered it)
        try:
            view = await self.load(after=self.sent_sequence, result_version=self.result_version)
        except _Refused as refused:
            await self.close(code=refused.code)  # no longer visible to this user
            return
        await self.send_view(view)


def _after(query: dict[str, str]) -> int | None:
    raw = query.get("after")
    if raw is None or raw == "":
        return None
    try:
        after = int(raw)
    except ValueError:
        raise _Refused(CLOSE_BAD_REQUEST) from None
    if after < 0:
        raise _Refused(CLOSE_BAD_REQUEST)
    return after


def _language(query: dict[str, str]) -> str | None:
    """``?lang=``: one of the site's languages, else none (no regions: the page
    refetches itself, as it does without them)."""
    from django.conf import settings

    code = query.get("lang")
    return code if code in {known for known, _name in settings.LANGUAGES} else None


# --------------------------------------------------------------------------- tournaments


def _tournament_visible(*, tournament_id: int, user: Any) -> bool:
    from tournaments.errors import NotFound
    from tournaments.selectors import tournament_get_visible

    try:
        tournament_get_visible(tournament_id=tournament_id, user=user)
    except NotFound:
        return False
    return True


class _BatchedConsumer(_LiveConsumer):
    """A socket that sends what changed at most once per :attr:`interval`, whatever the
    burst behind it: the kinds noted meanwhile (:meth:`note`) and the games whose result
    changed go in one message (:meth:`message`), after :meth:`visible` is asked again."""

    interval: float = TOURNAMENT_INTERVAL

    def start_batching(self) -> None:
        self.pending: dict[str, None] = {}
        self.pending_games: dict[int, None] = {}
        self.last_sent = 0.0
        self.flush_task: asyncio.Task[None] | None = None

    async def visible(self) -> bool:
        raise NotImplementedError

    def message(self, changed: list[str], games: list[int]) -> dict[str, Any]:
        raise NotImplementedError

    async def disconnect(self, code: int) -> None:
        task = getattr(self, "flush_task", None)
        if task is not None and not task.done():
            task.cancel()
        await super().disconnect(code)

    def note(self, changed: list[Any]) -> None:
        for item in changed:
            if item in TOURNAMENT_CHANGES:
                self.pending[item] = None
        if not self.pending or (self.flush_task is not None and not self.flush_task.done()):
            return  # nothing known, or a send is already scheduled: it takes these too
        delay = max(0.0, self.last_sent + self.interval - time.monotonic())
        self.flush_task = asyncio.ensure_future(self.flush(delay))

    async def flush(self, delay: float) -> None:
        """Send what is pending after ``delay``; what arrives meanwhile (or during the
        send) goes in the next message, one interval later."""
        while True:
            if delay:
                await asyncio.sleep(delay)
            if not await self.visible():
                await self.close(code=CLOSE_NOT_FOUND)
                return
            changed, self.pending = list(self.pending), {}
            games, self.pending_games = sorted(self.pending_games), {}
            self.last_sent = time.monotonic()
            await self.send_json(self.message(changed, games))
            if not self.pending:
                return
            delay = self.interval


class TournamentConsumer(_BatchedConsumer):
    """``/ws/tournaments/<id>/[?token=KEY]``: ``{"type": "tournament", "changed": [...]}``
    at most once a second, whatever the burst behind it."""

    tournament_id: int
    user: Any

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.start_batching()
        try:
            self.user, _query = await self.identify()
            if not await self.visible():
                raise _Refused(CLOSE_NOT_FOUND)
        except _Refused as refused:
            await self.refuse(refused.code)
            return
        await self.subscribe(tournament_group(self.tournament_id))
        await self.accept()
        await self.send_json({"type": "hello", "tournament": self.tournament_id})

    async def visible(self) -> bool:
        return await database_sync_to_async(_tournament_visible)(
            tournament_id=self.tournament_id, user=self.user
        )

    def message(self, changed: list[str], games: list[int]) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "tournament",
            "tournament": self.tournament_id,
            "changed": changed,
        }
        if games:
            message["games"] = games
        return message

    async def game_changed(self, message: dict[str, Any]) -> None:
        """A game's result changed (``_follow`` sends only those to the tournament)."""
        game = message.get("game")
        if isinstance(game, int):
            self.pending_games[game] = None
        self.note(["results"])

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        """Seating, round state, the clock... (sent by the progression services)."""
        changed = message.get("changed")
        self.note(changed if isinstance(changed, list) else [])


# --------------------------------------------------------------------------- my tables

#: What changes a player's "my table" (their seat, the round, its clock).
MY_TABLE_CHANGES = frozenset({"seating", "rounds", "status", "clock"})


def _my_tournaments(*, user: Any) -> list[int]:
    from tournaments.selectors.signup import my_live_tournaments

    return my_live_tournaments(user=user)


class MyTablesConsumer(_BatchedConsumer):
    """``/ws/me/[?token=KEY]``, for a signed-in user (else refused with
    :data:`CLOSE_FORBIDDEN`): ``{"type": "me", "tournaments": [...], "changed":
    [...]}`` at most once a second when the seating, a round, a tournament's status or
    the round clock changed in a tournament the user's player is registered in (open
    for registration or running, visible to them). The home page's "my table" listens
    here, so a player sees their next table appear without reloading. Results are not
    sent: they do not move a table.

    Which tournaments those are is read when the socket opens, and again whenever one
    of the player's registrations changes (``me.follow`` on the account's own group,
    :func:`~outbox.live.user_group`): signed up at the desk with the page open, the
    player is followed from then on. A tournament followed or left so sends
    ``registrations`` once: its round may have been seated before the socket joined it,
    and a player who dropped out keeps no table there."""

    user: Any

    async def connect(self) -> None:
        self.start_batching()
        self.tournaments: dict[int, None] = {}
        self.followed: list[int] = []
        try:
            self.user, _query = await self.identify()
            if not self.user.is_authenticated:
                raise _Refused(CLOSE_FORBIDDEN)
        except _Refused as refused:
            await self.refuse(refused.code)
            return
        await self.subscribe(user_group(self.user.pk))  # first: no change in between is lost
        await self.follow()
        await self.accept()
        await self.send_json({"type": "hello", "tournaments": self.followed})

    async def follow(self) -> list[int]:
        """Read the user's tournaments and follow exactly those; returns the ones
        followed or left so."""
        now = await database_sync_to_async(_my_tournaments)(user=self.user)
        before = set(self.followed)
        left = sorted(before.difference(now))
        added = [t for t in now if t not in before]
        for tournament_id in left:
            await self.unsubscribe(tournament_group(tournament_id))
        for tournament_id in added:
            await self.subscribe(tournament_group(tournament_id))
        self.followed = now
        return left + added

    async def me_follow(self, message: dict[str, Any]) -> None:
        """One of the user's registrations changed (:mod:`tournaments.effects`)."""
        moved = await self.follow()
        for tournament_id in moved:
            self.tournaments[tournament_id] = None
        if moved:
            self.note(["registrations"])

    async def visible(self) -> bool:
        return True  # the user's own tables: nothing of anybody else's is sent

    def message(self, changed: list[str], games: list[int]) -> dict[str, Any]:
        tournaments, self.tournaments = sorted(self.tournaments), {}
        return {"type": "me", "tournaments": tournaments, "changed": changed}

    async def game_changed(self, message: dict[str, Any]) -> None:
        """A result: it does not move the player's table (the round it finishes sends
        ``rounds`` and ``seating`` itself)."""

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        changed = message.get("changed")
        if not isinstance(changed, list):
            changed = []
        relevant = [c for c in changed if c in MY_TABLE_CHANGES]
        tournament = message.get("tournament")  # (tournaments.effects names it)
        if relevant and isinstance(tournament, int):
            self.tournaments[tournament] = None
        self.note(relevant)
