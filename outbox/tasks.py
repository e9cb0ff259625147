"""Celery tasks of the outbox: thin, idempotent (see :mod:`outbox.services`)."""

from __future__ import annotations

from celery import shared_task

from outbox import services


@shared_task(name="outbox.deliver", acks_late=True, ignore_result=True)
def deliver(message_id: int) -> str:
    """Run one message's handler (a no-op when it is already done)."""
    return services.outbox_deliver(message_id=message_id)


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> int:
    """Publish again what a lost publish left pending (Celery beat, every minute)."""
    return services.outbox_sweep()
