"""A Celery task runs on a real worker, through the real Redis, against the test database."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tock_site.tasks import HEARTBEAT_CACHE_KEY, site_heartbeat

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_task_runs_on_a_real_worker(real_celery_worker):
    get_user_model().objects.create_user("worker-check", password="x" * 12)
    result = site_heartbeat.delay()
    assert result.__class__.__name__ == "AsyncResult"  # sent to the broker, not run eagerly
    beat = result.get(timeout=20)
    assert beat["users"] == 1  # the worker saw the row this test committed
    assert result.successful()
    assert cache.get(HEARTBEAT_CACHE_KEY) == beat


def test_task_is_idempotent(real_celery_worker):
    first = site_heartbeat.delay().get(timeout=20)
    second = site_heartbeat.delay().get(timeout=20)
    assert first["users"] == second["users"] == 0
    assert cache.get(HEARTBEAT_CACHE_KEY) == second


def test_tasks_run_eagerly_outside_the_worker_fixture():
    result = site_heartbeat.delay()
    assert result.__class__.__name__ == "EagerResult"
    assert result.get()["users"] == 0
