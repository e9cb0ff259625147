"""Read-only queries about games. Nothing here writes to the database."""

from __future__ import annotations

import copy
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

import games.engine as engine
from games.errors import GameNotFound
from games.models import Game, GameEvent

logger = logging.getLogger(__name__)


def game_get(*, game_id: Any) -> Game:
    """The game with this id, or :class:`GameNotFound` (also for ids that are not numbers)."""
    try:
        return Game.objects.get(pk=int(game_id))
    except (TypeError, ValueError, OverflowError, Game.DoesNotExist) as exc:
        raise GameNotFound() from exc


def game_event_list(*, game: Game, after: int = 0) -> QuerySet[GameEvent]:
    """The game's events with a sequence number greater than ``after``, in order."""
    return GameEvent.objects.filter(game=game, sequence__gt=after).order_by("sequence")


@dataclass(frozen=True)
class Withdrawals:
    """What undo lines did to a game's log (:func:`game_withdrawals`)."""

    #: withdrawn line -> the undo line that withdrew it (1-based sequences)
    withdrawn: dict[int, int]
    #: what an undo now would withdraw: ``(sequence, event)`` of the latest event not
    #: withdrawn (never the start line), or ``None``
    target: tuple[int, Any] | None


def game_withdrawals(*, game: Game) -> Withdrawals:
    """The lines the game's undo lines withdrew and what an undo now would withdraw,
    read from the stored log (1 query; :func:`games.engine.withdrawn_lines`). Whether
    the engine accepts that undo (the game in progress) is not asked here."""
    events = list(game_event_list(game=game).values_list("data", flat=True))
    withdrawn = engine.withdrawn_lines(events)
    target = None
    for sequence in range(len(events), 1, -1):
        data = events[sequence - 1]
        if sequence in withdrawn or (isinstance(data, dict) and data.get("type") == "undo"):
            continue
        target = (sequence, data)
        break
    return Withdrawals(withdrawn=withdrawn, target=target)


def game_event_count(*, game: Game, event_type: str, up_to: int) -> int:
    """How many events of ``event_type`` the game's log holds up to sequence ``up_to``
    (1 query): e.g. the deals before a window of the log, to number its hands."""
    return GameEvent.objects.filter(game=game, sequence__lte=up_to, data__type=event_type).count()


def game_log_text(*, game: Game) -> str:
    """The game's log as JSON Lines (one event per line, start line first).

    Keys come in the engine's log order whatever order the database kept them in, so a
    log written in that order (as the bots and the CLI write it) comes back unchanged.
    """
    return engine.format_log(game_event_list(game=game).values_list("data", flat=True))


def game_replay(*, game: Game) -> engine.Game | None:
    """Replay the whole stored log from scratch (ignores the cache). ``None`` without a log."""
    events = list(game_event_list(game=game).values_list("data", flat=True))
    return engine.replay(events) if events else None


def game_engine(*, game: Game) -> engine.Game | None:
    """The engine game after the last stored event; ``None`` before the start event.

    The one way to get a game's engine state (reads and writes use it). The cached
    state is used when it reflects the last event and the engine can read it; a stale
    cache, one written by another version of the engine (``to_state()`` carries a
    ``version``) or an unreadable one falls back to a replay of the log, which is
    always right, since the log is the game. The cached state carries no log lines
    (:meth:`engine.Game.cache_state`): the one writer that needs them, an ``undo``,
    attaches them from the event rows (:func:`games.services.game_append_event`).
    """
    if game.last_sequence == 0:
        return None
    if game.cache_is_fresh and isinstance(game.state, dict):
        try:
            return engine.restore(game.state)
        except engine.EngineError:
            logger.info("game %s: cached state not usable, replaying the log", game.pk)
    return game_replay(game=game)


def game_derived_state(*, game: Game) -> dict[str, Any]:
    """What to show for a game: its summary (from the cache when fresh) and result.

    ``sequence`` is the last event the state reflects; ``verified`` is false for a
    placements-only result; ``sheet`` says the game is a score sheet (its start event
    says ``"sheet": true``), which its summary cannot tell before the first line.
    """
    summary = game.summary
    if game.last_sequence and not game.cache_is_fresh:
        eng = game_engine(game=game)
        summary = eng.summary() if eng is not None else None
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "players": list(game.players),
        "sequence": game.last_sequence,
        "next_sequence": game.last_sequence + 1,
        "placements": game.placements,
        "result_source": game.result_source,
        "verified": game.result_verified,
        "players_confirmed": game.players_confirmed,
        "result_trust": game.result_trust,
        "finished_at": game.finished_at,
        "played_at": game.played_at,
        "summary": summary,
        "sheet": isinstance(game.start_event, dict) and game.start_event.get("sheet") is True,
    }


def game_legal_moves(*, game: Game) -> list[dict[str, Any]]:
    """Events the player to move may push now (empty when not started or over)."""
    eng = game_engine(game=game)
    if eng is None or eng.is_over:
        return []
    return eng.legal_moves()


class BadStatePoint(ValueError):
    """``at`` names no event of the game's log; ``str(exc)`` says why (translated)."""


#: States at an event, keyed by (game id, creation time, event, last sequence, result
#: version): a log only grows, so a key never goes stale (the creation time tells apart
#: games that reuse an id, as in tests); bounded so that replay sessions stay small.
_STATE_AT_CACHE: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_STATE_AT_CACHE_SIZE = 256


def game_state_at(*, game: Game, at: Any = None) -> dict[str, Any]:
    """The engine's ``summary()`` after the ``at``-th event of the log: exactly the object
    ``python -m games.engine replay --json`` prints for the log cut after line ``at``.

    ``at`` is 1..``last_sequence`` (an int or its decimal text); ``None`` or ``""``
    means the last event. Raises :class:`BadStatePoint` for anything else (also for a
    game without a log) and :class:`engine.LogError` for a stored log the engine
    refuses. 1 query; none at the last event while the cached summary is fresh, or when
    the state is in the small in-process cache.
    """
    last = game.last_sequence
    if last == 0:
        raise BadStatePoint(_("This game has no event log."))
    if at is None or at == "":
        n = last
    else:
        text = str(at).strip()
        if not text.isascii() or not text.isdigit() or len(text) > 9:
            raise BadStatePoint(
                _("“at” must be a whole number from 1 to %(last)d.") % {"last": last}
            )
        n = int(text)
        if not 1 <= n <= last:
            raise BadStatePoint(
                _("“at” must be from 1 to %(last)d (the number of events).") % {"last": last}
            )
    if n == last and game.cache_is_fresh and game.summary is not None:
        return copy.deepcopy(game.summary)  # the cache is the replay of the whole log
    key = (game.pk, str(game.created_at), n, last, game.result_version)
    cached = _STATE_AT_CACHE.get(key)
    if cached is not None:
        _STATE_AT_CACHE.move_to_end(key)
        return copy.deepcopy(cached)
    events = game_event_list(game=game).filter(sequence__lte=n).values_list("data", flat=True)
    summary = engine.replay(list(events)).summary()
    _STATE_AT_CACHE[key] = summary
    while len(_STATE_AT_CACHE) > _STATE_AT_CACHE_SIZE:
        _STATE_AT_CACHE.popitem(last=False)
    return copy.deepcopy(summary)


def public_event(*, kind: str, event: Any) -> Any:
    """One logged event as a spectator of a game in progress may see it (the kind's
    ``public_event``; unknown kinds unchanged). The caller decides whether the viewer
    is a spectator and the game still in progress."""
    try:
        cls = engine.game_class(kind)
    except engine.EngineError:
        return event
    return cls.public_event(event)


def public_summary(*, kind: str, summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """``summary`` as a spectator of a game in progress may see it (the kind's
    ``public_summary``; unknown kinds and ``None`` unchanged). The caller decides
    whether the viewer is a spectator and the game still in progress."""
    if summary is None:
        return None
    try:
        cls = engine.game_class(kind)
    except engine.EngineError:
        return summary
    return cls.public_summary(summary)
