"""Games as the tournaments app shows them: with their table, visible or not found.

:func:`game_view_for` is the one place that decides what a visitor sees of a game
(hidden players, the public view of a game in progress); the game page, the game and
state API and the game socket all read a game through it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Prefetch, QuerySet

import games.engine as engine
from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.selectors import (
    game_derived_state,
    game_event_list,
    game_get,
    game_log_text,
    game_state_at,
    public_event,
    public_summary,
)
from tock_site.compiled import CompiledQuery
from tournaments.models import Player, Seat, Table
from tournaments.permissions import (
    RolesOf,
    remember_roles,
    user_is_signed_in,
    user_is_superuser,
    user_sees_game_in_full,
)
from tournaments.selectors.privacy import (
    Masker,
    hidden_label,
    mask_game,
    mask_value,
    name_texts,
)
from tournaments.selectors.visibility import visible_tournament_expression

#: A table's seats in seat order. (By ids: ``Seat``'s default order goes through its
#: table's round and tournament, three joins more on every recorded result.)
_SEATS = Seat.objects.select_related("player").order_by("table_id", "position")


def _tables_of(*, game: Game) -> QuerySet[Table]:
    return _tables_of_id(game.pk)


def _tables_of_id(game_id: int) -> QuerySet[Table]:
    return (
        Table.objects.filter(game_id=game_id)
        .select_related("round__tournament__league")
        .prefetch_related(Prefetch("seats", queryset=_SEATS))
    )


#: Attribute of a Game instance holding its table once read (see :func:`remember_table`).
_TABLE_ATTR = "_tock_table"


def table_for_game(*, game: Game) -> Table | None:
    """The game's table with round, tournament, league and seats (players joined), 2
    queries the first time; ``None`` for a friendly game. Kept on the game instance
    (:func:`remember_table`), so the role check and the answer of one request read it
    once."""
    if _TABLE_ATTR in game.__dict__:
        return game.__dict__[_TABLE_ATTR]
    table = _tables_of(game=game).first()
    remember_table(game=game, table=table)
    return table


def table_read(*, game: Game) -> tuple[bool, Table | None]:
    """``(True, table)`` when the game's table is kept on this instance already
    (:func:`remember_table`; ``None``: a friendly game), else ``(False, None)``: no
    query either way."""
    if _TABLE_ATTR in game.__dict__:
        return True, game.__dict__[_TABLE_ATTR]
    return False, None


def remember_table(*, game: Game, table: Table | None) -> None:
    """Keep ``table`` (from :func:`table_for_game` or :func:`table_with_game`) on this
    ``game`` instance for later :func:`table_for_game` calls of the same request.
    Only for a table unchanged since it was read (the recording service forgets it when
    a result changes, since the round's status may then change)."""
    game.__dict__[_TABLE_ATTR] = table


def table_with_game(*, game_id: int, user: Any = None) -> Table | None:
    """The table of the game ``game_id`` with its game (without the cached state and
    summary), round, tournament, league and seats: 2 queries; ``None`` for a friendly
    game or an unknown id. ``user``: the roles of this signed-in user in the tournament
    are read too and kept on it (:func:`~tournaments.permissions.remember_roles`), for
    the role check of the write that follows (no query of its own)."""
    asks = user_is_signed_in(user=user) and not user_is_superuser(user=user)
    if asks:
        found = _TABLE_WITH_ROLES.run(game_id=game_id, user_id=user.pk)
        if found:
            _keep_seats(found[0])
    else:
        found = list(_table_with_game(game_id=game_id)[:1])
    table = found[0] if found else None
    if asks and table is not None:
        remember_roles(tournament=table.round.tournament, user=user, bits=table.user_role_bits)
    return table


def _table_with_game(*, game_id: int) -> QuerySet[Table]:
    # At most one table per game (one-to-one): no order (the tables' default order joins
    # and sorts by round and tournament).
    tables = _tables_of_id(game_id).select_related("game").defer("game__state", "game__summary")
    return tables.order_by()


def _table_with_roles(*, game_id: int, user_id: int) -> QuerySet[Table]:
    # The seats are read apart (_keep_seats), by a query compiled once too.
    roles = RolesOf(F("round__tournament_id"), F("round__tournament__league_id"), user_id=user_id)
    tables = _table_with_game(game_id=game_id).prefetch_related(None)
    return tables.annotate(user_role_bits=roles)[:1]


def _seats_of_table(*, table_id: int) -> QuerySet[Seat]:
    return _SEATS.filter(table_id=table_id)


def _keep_seats(table: Table) -> None:
    """Read the table's seats (players joined, in seat order) and keep them on it as
    ``prefetch_related("seats")`` does: ``table.seats.all()`` answers without a query
    and each seat's ``table`` is this table."""
    seats = _SEATS_OF_TABLE.run(table_id=table.pk)
    for seat in seats:
        seat.table = table
    kept = table.seats.all()
    kept._result_cache, kept._prefetch_done = seats, True
    table._prefetched_objects_cache = {"seats": kept}


#: :func:`_table_with_roles` and :func:`_seats_of_table`, compiled once (every result
#: recorded reads them; :class:`~tock_site.compiled.CompiledQuery`).
_TABLE_WITH_ROLES = CompiledQuery(_table_with_roles, "game_id", "user_id")
_SEATS_OF_TABLE = CompiledQuery(_seats_of_table, "table_id")


def game_get_visible(*, game_id: Any, user: Any) -> tuple[Game, Table | None]:
    """The game and its table (with round, tournament, league, seats) if the user may see
    it (a friendly game, or one of a tournament they may see); GameNotFound otherwise.
    3 queries (a friendly game: 1 more, for its hidden players).

    Hidden players the user may not see by name (:mod:`.privacy`) are replaced by their
    neutral names in the returned game (an unsaved copy), its seats and, through
    :func:`game_events`, its events."""
    game = game_get(game_id=game_id)
    table = (
        _tables_of(game=game)
        .annotate(visible=visible_tournament_expression(user=user, prefix="round__tournament__"))
        .first()
    )
    if table is not None and not table.visible:
        raise GameNotFound()
    masker = Masker(user=user, tournament=table.round.tournament if table else None)
    if table is not None:
        players = [seat.player for seat in table.seats.all()]
    else:
        players = list(Player.objects.filter(handle__in=list(game.players or []), hidden=True))
    names, texts = {}, {}
    for player in players:
        shown = masker.player(player)
        if shown is not player:
            names[player.handle] = shown.handle
            texts.update(name_texts(player=player, shown=shown))
    if table is not None and names:
        for seat in table.seats.all():
            seat.player = masker.player(seat.player)
    return mask_game(game, names, texts), table


def game_events(
    *, game: Game, after: int = 0, limit: int | None = None, full: bool = True
) -> list[GameEvent]:
    """The game's events after sequence ``after`` (in order), at most ``limit``. 1 query.
    For a game from :func:`game_get_visible` hidden players keep their neutral names;
    without ``full`` (a spectator of a game in progress, see :func:`game_view_for`) each
    event is the kind's ``public_event`` (UNO: no hands, no drawn cards, no seed)."""
    qs = game_event_list(game=game, after=after)
    if limit is not None:
        qs = qs[:limit]
    events = list(qs)
    names = getattr(game, "privacy_names", None)
    texts = getattr(game, "privacy_texts", None)
    for event in events:
        if not full:
            event.data = public_event(kind=game.kind, event=event.data)
        if names:
            event.data = mask_value(event.data, names, texts)
    return events


def game_log_text_visible(*, game: Game, full: bool = True) -> str:
    """The game's log as JSON Lines, as :func:`game_events` shows it (hidden players
    under their neutral names; a masked log still replays; a spectator's log of a game
    in progress, without ``full``, need not). 1 query."""
    names = getattr(game, "privacy_names", None)
    if not names and full:
        return game_log_text(game=game)
    texts = getattr(game, "privacy_texts", None)
    lines = game_event_list(game=game).values_list("data", flat=True)
    if not full:
        lines = (public_event(kind=game.kind, event=data) for data in lines)
    if names:
        lines = (mask_value(data, names, texts) for data in lines)
    return engine.format_log(lines)


def game_events_for(*, user: Any, game_id: Any, after: int = 0) -> tuple[Game, list[GameEvent]]:
    """The game (as :func:`game_get_visible` gives it) and its events after ``after``
    as ``user`` may see them: the privacy rule of :func:`game_view_for`, without the
    derived state. 2-4 queries."""
    game, table = game_get_visible(game_id=game_id, user=user)
    full = user_sees_game_in_full(user=user, game=game, table=table)
    return game, game_events(game=game, after=after, full=full)


def game_log_text_for(*, user: Any, game_id: Any) -> str:
    """The game's log as JSON Lines as ``user`` may see it (see :func:`game_events_for`)."""
    game, table = game_get_visible(game_id=game_id, user=user)
    full = user_sees_game_in_full(user=user, game=game, table=table)
    return game_log_text_visible(game=game, full=full)


# --------------------------------------------------------------------------- the visible view


@dataclass(frozen=True)
class VisibleGame:
    """What one visitor may see of a game: the one answer for the game page, the game
    API, ``GET /api/games/<id>/state?at=N`` and the game socket's messages.

    ``game`` and ``table`` come from :func:`game_get_visible` (hidden players under their
    neutral names); ``full`` says whether the visitor sees everything (see
    :func:`game_view_for`); ``state`` is :func:`games.selectors.game_derived_state` with
    its summary (after the last event) as this visitor may see it; ``summary`` is the
    engine's summary after event ``at`` as this visitor may see it (``None`` without a
    log); ``names`` maps each handle as shown to the name to show (filled when asked
    for with ``with_names``).
    """

    game: Game
    table: Table | None
    full: bool
    at: int
    summary: dict[str, Any] | None
    state: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)

    def events(self, *, after: int = 0, limit: int | None = None) -> list[GameEvent]:
        """The events after ``after`` as this visitor may see them (1 query): hidden
        players masked as in ``summary``; unless ``full``, each event as the kind's
        ``public_event`` shows it (TOCK's moves are made openly at the table, so they
        are whole, and what a spectator must not see is the engine's verdicts, which
        ``summary`` leaves out; UNO's hands and drawn cards are left out)."""
        return game_events(game=self.game, after=after, limit=limit, full=self.full)


def _visible_summary(
    *, game: Game, summary: dict[str, Any] | None, full: bool
) -> dict[str, Any] | None:
    """``summary`` as the visitor may see it: the kind's public view unless ``full``,
    and always with hidden players masked. Masking here (not only in the cached columns
    of the masked game copy) matters: a stale cache or a point of the replay is
    computed from the stored log, which holds the real handles."""
    if summary is None:
        return None
    if not full:
        summary = public_summary(kind=game.kind, summary=summary)
    names = getattr(game, "privacy_names", None)
    if names:
        summary = mask_value(summary, names, getattr(game, "privacy_texts", None))
    return summary


def _display_names(*, game: Game, table: Table | None) -> dict[str, str]:
    """Handle (as the visitor sees it) -> display name: from the table's seats (no
    query), for a friendly game 1 query; hidden players keep their neutral names."""
    if table is not None:
        return {seat.player.handle: seat.player.display_name for seat in table.seats.all()}
    masked = getattr(game, "privacy_names", None) or {}
    handles = [*(game.players or []), *masked]
    names: dict[str, str] = {}
    for pk, handle, display_name in Player.objects.filter(handle__in=handles).values_list(
        "pk", "handle", "display_name"
    ):
        if handle in masked:
            names[masked[handle]] = hidden_label(player_id=pk)
        else:
            names[handle] = display_name
    return names


#: ``at`` for :func:`game_view_for`: the last event, refused like a bad event number
#: (:class:`~games.selectors.BadStatePoint`) when the game has no log.
LAST_EVENT: Any = object()


def game_view_for(
    *, user: Any, game_id: Any, at: Any = None, with_names: bool = False
) -> VisibleGame:
    """The game as ``user`` may see it, after event ``at`` (``None``/``""``: the last).

    The privacy rule, said once for every reader of a game:

    * a game of a tournament the user may not see is :class:`GameNotFound`;
    * hidden players appear under their neutral names everywhere (players, placements,
      summary, events, free-text metadata) unless the user may see them
      (:mod:`.privacy`);
    * while the game is in progress, whoever is not its staff (the tournament's staff,
      league organizers, superusers; for a friendly game its creator and site staff)
      sees only what a spectator at the table could see: the kind's ``public_summary``
      (TOCK: not the infractions nobody has knocked on yet); once the game is over
      everyone sees everything (``full``).

    ``at`` given (or :data:`LAST_EVENT`): :class:`games.selectors.BadStatePoint` when it
    names no event of the log (also for a game without one).

    Queries: 3 (game, table with seats), +1 for a signed-in visitor's roles while the
    game is in progress, +1 for a replay point that is not cached, +1 for ``with_names``
    of a friendly game; none per player.
    """
    game, table = game_get_visible(game_id=game_id, user=user)
    full = user_sees_game_in_full(user=user, game=game, table=table)
    state = game_derived_state(game=game)
    state["summary"] = _visible_summary(game=game, summary=state["summary"], full=full)
    last = game.last_sequence
    if at is None or at == "":
        at_n, summary = last, state["summary"]
    elif at is LAST_EVENT:
        if not last:
            game_state_at(game=game, at=None)  # raises BadStatePoint: no log
        at_n, summary = last, state["summary"]
    else:
        # game_state_at validates ``at`` and replays the stored log (real handles):
        # _visible_summary masks and redacts what it returns.
        raw = game_state_at(game=game, at=at)
        at_n = int(str(at).strip())
        summary = (
            state["summary"]
            if at_n == last
            else _visible_summary(game=game, summary=raw, full=full)
        )
    names = _display_names(game=game, table=table) if with_names else {}
    return VisibleGame(
        game=game, table=table, full=full, at=at_n, summary=summary, state=state, names=names
    )
