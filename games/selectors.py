"""Read-only queries about games. Nothing here writes to the database."""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import QuerySet

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


def game_list(*, kind: str | None = None, status: str | None = None) -> QuerySet[Game]:
    qs = Game.objects.defer("state").order_by("-id")
    if kind:
        qs = qs.filter(kind=kind)
    if status:
        qs = qs.filter(status=status)
    return qs


def game_event_list(*, game: Game, after: int = 0) -> QuerySet[GameEvent]:
    """The game's events with a sequence number greater than ``after``, in order."""
    return GameEvent.objects.filter(game=game, sequence__gt=after).order_by("sequence")


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
    always right, since the log is the game.
    """
    if game.last_sequence == 0:
        return None
    if game.cache_is_fresh:
        try:
            return engine.restore(game.state)
        except engine.EngineError:
            logger.info("game %s: cached state not usable, replaying the log", game.pk)
    return game_replay(game=game)


def game_derived_state(*, game: Game) -> dict[str, Any]:
    """What to show for a game: its summary (from the cache when fresh) and result.

    ``sequence`` is the last event the state reflects; ``verified`` is false for a
    placements-only result.
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
        "finished_at": game.finished_at,
        "summary": summary,
    }


def game_legal_moves(*, game: Game) -> list[dict[str, Any]]:
    """Events the player to move may push now (empty when not started or over)."""
    eng = game_engine(game=game)
    if eng is None or eng.is_over:
        return []
    return eng.legal_moves()
