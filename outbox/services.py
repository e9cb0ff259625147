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
  re-published message, a redelivered task) run the handler once; a delivery of a
  batched topic takes every pending message of the topic that no other delivery holds;
* :func:`outbox_sweep` -- publish again what is still pending after a while, and
  forget messages done long ago (Celery beat runs it every minute).

Live-page notifications are not outbox messages: they are hints that a page should
fetch a newer state (see :mod:`outbox.live`), so losing one loses no work, and they
are published on commit without a database row.

Coalescing (batched topics, issue 26): publishing claims the topic in the cache
(``cache.add``, atomic) for as long as a delivery task of it is queued; a message whose
publish finds the claim taken sends no task, since the queued delivery releases the
claim before it reads the pending messages, so it finds that message committed (the
claim was seen after the commit). 250 results of a round then cost a few tasks instead
of 250. A claim whose task is lost expires after :data:`SWEEP_AFTER`, and the sweep
publishes what waited meanwhile; with the cache unreachable every message publishes.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from outbox.handlers import BATCH_LIMIT, batch_handler_for, handler_for, is_batched, queue_for
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


def _claim_key(topic: str) -> str:
    return f"outbox:queued:{topic}"


def _claim(topic: str, *, force: bool = False) -> bool:
    """Claim ``topic``'s queued delivery (see Coalescing above); whether this publish
    must send the task. Always true for a topic without batches or without a cache,
    and with ``force`` (the sweep: a claim may be stale, its task lost)."""
    if not is_batched(topic):
        return True
    seconds = int(SWEEP_AFTER.total_seconds())
    try:
        if force:
            cache.set(_claim_key(topic), 1, seconds)
            return True
        return bool(cache.add(_claim_key(topic), 1, seconds))
    except Exception:  # the cache is down: every message publishes
        return True


def _release(topic: str) -> None:
    """The queued delivery of ``topic`` has started: the next message publishes."""
    try:
        cache.delete(_claim_key(topic))
    except Exception:  # the cache is down: then no claim holds either
        logger.warning("could not release the outbox claim of %s", topic)


def outbox_publish(*, message_id: int, topic: str | None = None, force: bool = False) -> None:
    """Send a message to the delivery task (after commit), on its topic's queue
    (:func:`outbox.handlers.queue_for`; the topic is read from the message when not
    given), unless a queued delivery of its batched topic will take it (Coalescing
    above; ``force``: the sweep's publish, sent whatever the claim). Never raises. The
    task is found by its name (:data:`DELIVER_TASK`, registered by :mod:`outbox.tasks`,
    which imports this module), so that the two modules do not import each other."""
    claimed = False
    try:
        deliver = current_app.tasks[DELIVER_TASK]
        if topic is None:
            topic = OutboxMessage.objects.filter(pk=message_id).values_list("topic", flat=True)
            topic = topic.first() or ""
        claimed = _claim(topic, force=force)
        if not claimed:
            return  # the topic's queued delivery takes this message too
        OutboxMessage.objects.filter(pk=message_id).update(published_at=timezone.now())
        # No publish retries: with the broker down the request goes on at once, and the
        # sweep publishes the message again later.
        deliver.apply_async((message_id,), retry=False, queue=queue_for(topic))
    except Exception:  # the change is committed; the sweep publishes the message again
        if claimed and topic and is_batched(topic):
            _release(topic)  # no task is queued: the next message must publish
        logger.exception("could not publish outbox message %s", message_id)


def outbox_deliver(*, message_id: int) -> str:
    """Run the message's handler once; ``"done"``, or ``"skipped"`` if already done or
    gone. A batched topic's delivery runs its batch handler on every pending message of
    the topic that no other delivery holds (the given one included, if still pending),
    ``"skipped"`` when there is none. A handler that raises leaves the messages pending
    (the given one keeps the error) and the exception propagates to the task."""
    started = timezone.now()
    row = OutboxMessage.objects.filter(pk=message_id).values_list("topic", "done_at").first()
    if row is None:
        return "skipped"
    topic, done_at = row
    batched = is_batched(topic)
    if batched:
        _release(topic)  # before reading the pending messages (Coalescing above)
    elif done_at is not None:
        return "skipped"
    try:
        with transaction.atomic():
            if batched:
                # The topic's pending messages that no other delivery holds.
                held = list(
                    OutboxMessage.objects.select_for_update(skip_locked=True)
                    .filter(topic=topic, done_at__isnull=True)
                    .order_by("id")
                    .values_list("pk", "payload")[:BATCH_LIMIT]
                )
                if not held:
                    return "skipped"
                batch_handler_for(topic)(payloads=[payload for _pk, payload in held])
                taken = [pk for pk, _payload in held]
            else:
                message = OutboxMessage.objects.select_for_update().filter(pk=message_id).first()
                if message is None or message.done_at is not None:
                    return "skipped"
                handler_for(topic)(**message.payload)
                taken = [message.pk]
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
        outbox_publish(message_id=message_id, topic=topic, force=True)
    return len(stale)
