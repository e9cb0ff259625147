"""The outbox: a message exists exactly when its change committed, is delivered once,
and a lost publish or a failing handler is finished by the sweep."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from outbox import handlers, services, tasks
from outbox.models import OutboxMessage

pytestmark = pytest.mark.django_db

CALLS: list[dict] = []
FAILURES: list[str] = []
TOPIC = "tests.outbox.record_call"


def record_call(**payload):
    """The test topic's handler: fails while FAILURES holds a reason."""
    if FAILURES:
        raise RuntimeError(FAILURES[0])
    CALLS.append(payload)


@pytest.fixture(autouse=True)
def topic():
    handlers.register(TOPIC, f"{__name__}.record_call")
    CALLS.clear()
    FAILURES.clear()
    yield
    handlers._HANDLERS.pop(TOPIC, None)


def test_a_message_is_delivered_after_commit_and_marked_done(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        message = services.outbox_record(topic=TOPIC, payload={"game_id": 7})
        assert CALLS == []  # not before commit
    assert len(callbacks) == 1
    assert CALLS == [{"game_id": 7}]
    message.refresh_from_db()
    assert message.done_at is not None and message.attempts == 1 and message.published_at


def test_a_rolled_back_change_leaves_no_message_and_no_work(django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(ZeroDivisionError),
        transaction.atomic(),
    ):
        services.outbox_record(topic=TOPIC, payload={"game_id": 7})
        raise ZeroDivisionError
    assert callbacks == [] and CALLS == []
    assert not OutboxMessage.objects.exists()


def test_an_unknown_topic_is_refused_before_anything_is_stored():
    with pytest.raises(LookupError):
        services.outbox_record(topic="no.such.topic", payload={})
    assert not OutboxMessage.objects.exists()


def test_a_lost_publish_is_finished_by_the_sweep(monkeypatch, django_capture_on_commit_callbacks):
    def broker_down(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.deliver, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        message = services.outbox_record(topic=TOPIC, payload={"n": 1})  # no exception
    assert CALLS == []
    monkeypatch.undo()

    assert services.outbox_sweep() == 0  # too recent: its publish may still be on the way
    later = timezone.now() + services.SWEEP_AFTER + dt.timedelta(seconds=1)
    assert services.outbox_sweep(now=later) == 1
    assert CALLS == [{"n": 1}]
    message.refresh_from_db()
    assert message.done_at is not None
    assert services.outbox_sweep(now=later) == 0  # done: never again


def test_a_failing_handler_leaves_the_message_pending_with_its_error(
    django_capture_on_commit_callbacks,
):
    FAILURES.append("database hiccup")
    with django_capture_on_commit_callbacks(execute=True):
        message = services.outbox_record(topic=TOPIC, payload={"n": 2})  # the writer is unhurt
    message.refresh_from_db()
    assert message.done_at is None and message.attempts == 1
    assert "database hiccup" in message.last_error

    FAILURES.clear()
    later = timezone.now() + services.SWEEP_AFTER + dt.timedelta(seconds=1)
    assert services.outbox_sweep(now=later) == 1
    message.refresh_from_db()
    assert message.done_at is not None and message.attempts == 2 and message.last_error == ""
    assert CALLS == [{"n": 2}]


def test_delivering_a_message_twice_runs_its_handler_once():
    message = OutboxMessage.objects.create(topic=TOPIC, payload={"n": 3})
    assert services.outbox_deliver(message_id=message.pk) == "done"
    assert services.outbox_deliver(message_id=message.pk) == "skipped"
    assert services.outbox_deliver(message_id=987654) == "skipped"
    assert CALLS == [{"n": 3}]


def test_done_messages_are_forgotten_after_a_week():
    old = OutboxMessage.objects.create(topic=TOPIC, payload={}, done_at=timezone.now())
    pending = OutboxMessage.objects.create(topic=TOPIC, payload={"n": 4})
    services.outbox_sweep(now=timezone.now() + services.KEEP_DONE + dt.timedelta(minutes=1))
    assert not OutboxMessage.objects.filter(pk=old.pk).exists()
    assert OutboxMessage.objects.get(pk=pending.pk).done_at is not None  # swept and delivered
