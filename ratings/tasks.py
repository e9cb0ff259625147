"""Celery tasks of the ratings app: thin, idempotent, safe to retry."""

from __future__ import annotations

from celery import shared_task

from ratings.services import ratings_recompute as _recompute
from ratings.services import ratings_update_for_game as _update


@shared_task(name="ratings.update_for_game", acks_late=True)
def ratings_update_for_game(game_id: int) -> str:
    """Count game ``game_id``'s current result in the ratings (no-op if already counted)."""
    return _update(game_id=game_id)


@shared_task(name="ratings.recompute", acks_late=True)
def ratings_recompute(kind: str | None = None) -> dict[str, int]:
    """Recompute the ratings of one kind (or all) from scratch."""
    return _recompute(kind=kind)
