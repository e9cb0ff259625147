"""Celery tasks of the games app: thin, idempotent, safe to retry."""

from __future__ import annotations

from celery import shared_task

from games import services
from games.errors import GameNotFound


@shared_task(name="games.refresh_cache", acks_late=True)
def game_refresh_cache(game_id: int) -> int | None:
    """Rebuild a game's derived-state cache from its log. Returns the sequence it reflects."""
    try:
        game = services.game_refresh_cache(game=game_id)
    except GameNotFound:
        return None
    return game.state_sequence
