"""Celery tasks of the tournaments app: thin, idempotent, safe to retry."""

from __future__ import annotations

from celery import shared_task

from games.errors import GameNotFound
from tournaments.services.recording import game_refresh as _refresh


@shared_task(name="tournaments.game_refresh", acks_late=True)
def game_refresh(game_id: int) -> int | None:
    """Rebuild a game's cached state from its log (after an engine upgrade); a result
    the replay changes follows like any change. Returns the sequence it reflects."""
    try:
        return _refresh(game=game_id).game.state_sequence
    except GameNotFound:
        return None
