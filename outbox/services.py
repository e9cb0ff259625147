"""Recording, publishing and delivering outbox messages (see :mod:`outbox`).

* :func:`outbox_record` -- inside the transaction of a change: store a message and
  publish it once that transaction commits (never before: a rolled-back change leaves
  no message and no task);
* :func:`outbox_publish` -- hand a message to the Celery task :func:`outbox.tasks.deliver`
  (in the embedded mode tasks run in-process at once). A broker that cannot be reached
  is logged, never raised: the change is already committed and the message waits for
  the sweep;
* :func:`outbox_deliver` -- run the topic's handler and mark the message done, in one
  transaction with the message row locked, so two deliveries of one message (a
  re-published message, a redelivered task) run the handler once;
* :func:`outbox_sweep` -- publish again what is still pending after a while, and
  forget messages done long ago (Celery beat runs it every minute).

Live-page notifications are not outbox messages: they are hints that a page should
fetch a newer state (see :mod:`outbox.live`), so losing one loses no work, and they
are published on commit without a database row.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from outbox.handlers import BATCH_LIMIT, batch_handler_for, handler_for, queue_for
from outbox.models import OutboxMessage

logger = logging.getLogger(__name__)

#: A pending message older than this, and not published for as long, is published again.
SWEEP_AFTER = timedelta(seconds=60)
#: Done messages are deleted after this long.
KEEP_DONE = timedelta(days=7)


#: The Celery task that delivers a message (``outbox.tasks.deliver``).
DELIVER_TASK = "outbox.deliver"


def outbox_record(*, topic: str, payload: dict[str, Any]) -> OutboxMessage:
    """Store a message in the current transaction; publish it after commit.

    The topic must have a handler (:func:`outbox.handlers.register`): an unknown topic
    is a programming error and raises ``LookupError`` before anything is stored.
    """
    handler_for(topic)
    message = OutboxMessage.objects.create(topic=topic, payload=payload)
    transaction.on_commit(lambda: outbox_publish(message_id=message.pk, topic=topic))
    return message


def outbox_publish(*, message_id: int, topic: str | None = None) -> None:
    """Send a message to the delivery task (after commit), on its topic's queue
    (:func:`outbox.handlers.queue_for`; the topic is read from the message when not
    given). Never raises. The task is found by its name (:data:`DELIVER_TASK`,
    registered by :mod:`outbox.tasks`, which imports this module), so that the two
    modules do not import each other."""
    try:
        deliver = current_app.tasks[DELIVER_TASK]
        if topic is None:
            topic = OutboxMessage.objects.filter(pk=message_id).values_list("topic", flat=True)
            topic = topic.first() or ""
        OutboxMessage.objects.filter(pk=message_id).update(published_at=timezone.now())
        # No publish retries: with the broker down the request goes on at once, and the
        # sweep publishes the message again later.
        deliver.apply_async((message_id,), retry=False, queue=queue_for(topic))
    except Exception:  # the change is committed; the sweep publishes the message again
        logger.exception("could not publish outbox message %s", message_id)


def outbox_deliver(*, message_id: int) -> str:
    """Run the message's handler once; ``"done"``, or ``"skipped"`` if already done or
    gone. A handler that raises leaves the message pending (its error is kept) and the
    exception propagates to the task."""
    started = timezone.now()
    try:
        with transaction.atomic():
            message = OutboxMessage.objects.select_for_update().filter(pk=message_id).first()
            if message is None or message.done_at is not None:
                return "skipped"
            batch = batch_handler_for(message.topic)
            if batch is None:
                handler_for(message.topic)(**message.payload)
                taken = [message.pk]
            else:
                # The topic's other pending messages that no other delivery holds.
                others = list(
                    OutboxMessage.objects.select_for_update(skip_locked=True)
                    .filter(topic=message.topic, done_at__isnull=True)
                    .exclude(pk=message.pk)
                    .order_by("id")
                    .values_list("pk", "payload")[: BATCH_LIMIT - 1]
                )
                held = sorted([(message.pk, message.payload), *others])  # oldest first
                batch(payloads=[payload for _pk, payload in held])
                taken = [pk for pk, _payload in held]
            OutboxMessage.objects.filter(pk__in=taken).update(
                attempts=F("attempts") + 1,
                started_at=started,
                done_at=timezone.now(),
                last_error="",
            )
    except Exception as exc:
        OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(
            attempts=F("attempts") + 1, last_error=repr(exc)[:2000]
        )
        raise
    return "done"


def outbox_sweep(*, now: Any = None, limit: int = 500) -> int:
    """Publish again the pending messages that waited longer than :data:`SWEEP_AFTER`
    since they were created and last published; delete those done more than
    :data:`KEEP_DONE` ago. Returns the number of messages published."""
    now = now or timezone.now()
    cutoff = now - SWEEP_AFTER
    OutboxMessage.objects.filter(done_at__lt=now - KEEP_DONE).delete()
    stale = list(
        OutboxMessage.objects.filter(done_at__isnull=True, created_at__lt=cutoff)
        .exclude(published_at__gte=cutoff)
        .order_by("created_at")
        .values_list("pk", "topic")[:limit]
    )
    for message_id, topic in stale:
        outbox_publish(message_id=message_id, topic=topic)
    return len(stale)
