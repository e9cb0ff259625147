"""Celery tasks of the ratings app: thin, idempotent, safe to retry."""

from __future__ import annotations

from celery import shared_task

from ratings.services import ratings_recompute as _recompute


@shared_task(name="ratings.recompute", acks_late=True)
def ratings_recompute(kind: str | None = None) -> dict[str, int]:
    """Recompute the ratings of one kind (or all) from scratch."""
    return _recompute(kind=kind)
