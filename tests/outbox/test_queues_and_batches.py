"""Issue 26: a round's progression goes to the queue workers take first, and rating
updates are delivered in batches (one delivery takes every pending message of the
topic it can, under one lock per game kind), with the numbers a recompute gives."""

from __future__ import annotations

import random
import uuid

import pytest
from django.conf import settings

from outbox import handlers, services
from outbox.models import OutboxMessage
from ratings.models import Rating, RatingChange
from ratings.services import RATE_GAME, ratings_recompute
from tests.tournaments.factories import PlayerFactory
from tournaments import services as tournament_services
from tournaments.permissions import SYSTEM
from tournaments.services.progression import ROUND_PROGRESS

pytestmark = pytest.mark.django_db


def _snapshot():
    return (
        sorted(RatingChange.objects.values_list("player_id", "game_id", "before", "after")),
        sorted(Rating.objects.values_list("player_id", "kind", "value", "games")),
    )


def test_progression_goes_to_the_urgent_queue_which_workers_poll_first(monkeypatch):
    prefix = settings.CELERY_QUEUE_PREFIX  # this test run's own queues
    assert handlers.queue_for(ROUND_PROGRESS) == prefix + handlers.URGENT_QUEUE
    assert handlers.queue_for(RATE_GAME) == prefix + handlers.DEFAULT_QUEUE
    names = [q.name for q in settings.CELERY_TASK_QUEUES]
    assert names == [prefix + handlers.URGENT_QUEUE, prefix + handlers.DEFAULT_QUEUE]
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] == "priority"
    sent = []
    from celery import current_app

    task = current_app.tasks[services.DELIVER_TASK]
    monkeypatch.setattr(task, "apply_async", lambda args, **kw: sent.append((args, kw)))
    message = OutboxMessage.objects.create(topic=ROUND_PROGRESS, payload={"round_id": 1})
    services.outbox_publish(message_id=message.pk)  # the sweep's way: topic looked up
    assert sent == [((message.pk,), {"retry": False, "queue": prefix + "urgent"})]


def test_one_delivery_rates_every_pending_game_as_a_recompute_would():
    rng = random.Random(3)
    handles = [PlayerFactory(handle=f"q{i}").handle for i in range(6)]
    # Results recorded without their deliveries running (as when the workers lag).
    for _ in range(12):
        seated = rng.sample(handles, rng.choice([2, 3, 4]))
        places = {h: i + 1 for i, h in enumerate(seated)}
        tournament_services.friendly_game_create(kind="tock", placements=places, user=SYSTEM)
    pending = list(
        OutboxMessage.objects.filter(topic=RATE_GAME, done_at__isnull=True).order_by("id")
    )
    assert len(pending) == 12 and not RatingChange.objects.exists()
    # The newest message's delivery takes all twelve.
    assert services.outbox_deliver(message_id=pending[-1].pk) == "done"
    assert not OutboxMessage.objects.filter(topic=RATE_GAME, done_at__isnull=True).exists()
    assert services.outbox_deliver(message_id=pending[0].pk) == "skipped"
    batched = _snapshot()
    assert len(batched[0]) > 12
    assert ratings_recompute(kind="tock") == {"tock": 12}
    assert _snapshot() == batched


@pytest.mark.django_db(transaction=True)
def test_a_worker_takes_the_urgent_queue_before_the_backlog(redis_url):
    """A worker (one process) busy with a backlog on the ordinary queue takes an urgent
    task that arrives meanwhile next, before the backlog: the first task (urgent too)
    sends it while it runs. Polling the queues in turn would take the backlog first
    after an urgent task. A Celery app of its own (the site's broker settings, queues of
    this test), so that the site's app and its other workers are left as they were."""
    import redis
    from celery import Celery
    from celery.contrib.testing.worker import start_worker
    from kombu import Queue

    from tock_site.celery import app as site_app

    run = uuid.uuid4().hex[:8]
    urgent, ordinary, log = f"urgent-{run}", f"celery-{run}", f"tock-test-order-{run}"
    client = redis.Redis.from_url(redis_url)
    app = Celery(f"priority-{run}", set_as_current=False)
    app.conf.update(
        broker_url=redis_url,
        broker_transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        task_queues=(Queue(urgent), Queue(ordinary)),  # as CELERY_TASK_QUEUES: urgent first
        task_default_queue=ordinary,
        worker_prefetch_multiplier=settings.CELERY_WORKER_PREFETCH_MULTIPLIER,
        task_acks_late=settings.CELERY_TASK_ACKS_LATE,
        worker_hijack_root_logger=False,
    )

    @app.task(name="record_order", ignore_result=True)
    def record(label: str, then: str = "") -> None:
        client.rpush(log, label)
        if then:  # a result completes a round while the worker is busy
            record.apply_async((then,), queue=urgent)

    try:
        for i in range(5):
            record.apply_async((f"backlog-{i}",), queue=ordinary)
        record.apply_async(("first", "progression"), queue=urgent)
        with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
            for _ in range(600):  # at most a minute for the worker to empty both queues
                if client.llen(log) == 7:
                    break
                client.blpop([f"{log}-idle"], timeout=0.1)  # wait a little, on Redis
        order = [x.decode() for x in client.lrange(log, 0, -1)]
        assert order[:2] == ["first", "progression"] and len(order) == 7, order
    finally:
        # start_worker makes its app the current and default one: the site's again, or
        # later tests in this process would publish through this test's app.
        site_app.set_current()
        site_app.set_default()
        client.delete(log, urgent, ordinary)
        client.close()


def test_a_queued_rating_delivery_answers_for_the_messages_after_it(monkeypatch):
    """While a delivery of the batched rating topic is queued, new rating messages send
    no task of their own; that delivery, once it starts, takes them all; the next
    message after it sends a task again; the sweep always sends (a claim may be stale);
    a publish the broker refuses leaves no claim behind."""
    from celery import current_app

    sent: list[int] = []
    task = current_app.tasks[services.DELIVER_TASK]
    monkeypatch.setattr(task, "apply_async", lambda args, **kw: sent.append(args[0]))
    handles = [PlayerFactory(handle=f"c{i}").handle for i in range(4)]

    def result() -> int:
        places = {h: i + 1 for i, h in enumerate(handles)}
        tournament_services.friendly_game_create(kind="tock", placements=places, user=SYSTEM)
        return OutboxMessage.objects.filter(topic=RATE_GAME).latest("id").pk

    def publish_pending() -> None:  # what each result's commit does
        for pk in OutboxMessage.objects.filter(topic=RATE_GAME, published_at__isnull=True):
            services.outbox_publish(message_id=pk.pk, topic=RATE_GAME)

    first = [result() for _ in range(5)]
    publish_pending()
    assert sent == [first[0]]  # one task for five messages
    assert services.outbox_deliver(message_id=first[0]) == "done"
    assert not OutboxMessage.objects.filter(topic=RATE_GAME, done_at__isnull=True).exists()
    assert RatingChange.objects.values("game_id").distinct().count() == 5

    later = result()
    services.outbox_publish(message_id=later, topic=RATE_GAME)
    assert sent == [first[0], later]  # the queued delivery started: a task again
    another = result()
    services.outbox_publish(message_id=another, topic=RATE_GAME)
    assert sent == [first[0], later]  # ... and it is queued again
    services.outbox_publish(message_id=another, topic=RATE_GAME, force=True)
    assert sent == [first[0], later, another]  # the sweep's publish goes out

    def refuse(args, **kw):
        raise ConnectionError("broker down")

    assert services.outbox_deliver(message_id=later) == "done"  # releases the claim
    monkeypatch.setattr(task, "apply_async", refuse)
    refused = result()
    services.outbox_publish(message_id=refused, topic=RATE_GAME)
    monkeypatch.setattr(task, "apply_async", lambda args, **kw: sent.append(args[0]))
    retried = result()
    services.outbox_publish(message_id=retried, topic=RATE_GAME)
    assert sent[-1] == retried  # the refused publish left no claim
