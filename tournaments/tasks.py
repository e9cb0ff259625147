"""Celery tasks of the tournaments app: thin, idempotent, safe to retry."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

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


@shared_task(
    name="tournaments.progression_sweep",
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
)
def progression_sweep() -> list[int]:
    """Every minute (Celery beat): progress running tournaments with automatic
    progression whose last round is complete but not followed (a lost outbox publish,
    a dead worker), and end the rounds whose time is up
    (:func:`tournaments.services.progression.progression_sweep`)."""
    from tournaments.services.progression import progression_sweep as sweep

    return sweep()
