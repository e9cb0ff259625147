"""Celery tasks of the outbox: thin, idempotent (see :mod:`outbox.services`).

:func:`deliver` is ``acks_late`` (a worker that dies mid-task leaves the broker message
unacknowledged, and the outbox row pending for the sweep) and retries a database error
(a dropped connection, a deadlock, a serialization failure: transient) with
exponential backoff: about 1, 2, 4, 8, 16 s (with jitter, at most a minute), five
times; after that the message stays pending and :func:`sweep` publishes it again. A
handler's other errors are not retried by the task: the sweep retries them, a minute
apart. Delivery runs the handler at most once per message (the row lock), so a retry
or a second delivery of a done message changes nothing.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from outbox import services

#: Retries of a delivery that met a database error (then the sweep takes over).
DELIVER_MAX_RETRIES = 5


@shared_task(
    name=services.DELIVER_TASK,
    acks_late=True,
    ignore_result=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=DELIVER_MAX_RETRIES,
)
def deliver(message_id: int) -> str:
    """Run one message's handler (a no-op when it is already done)."""
    return services.outbox_deliver(message_id=message_id)


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> int:
    """Publish again what a lost publish left pending (Celery beat, every minute)."""
    return services.outbox_sweep()
