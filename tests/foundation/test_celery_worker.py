"""A Celery task runs on a real worker, through the real Redis, against the test database."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.celery_support import forget_result_backend
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


@pytest.fixture
def backend_built_before():
    """What a task sent earlier in this process, under other settings, leaves: the app
    built its result backend then (here: none) and keeps it."""
    from tock_site.celery import app

    saved = app.conf.result_backend
    app.conf.result_backend = None
    forget_result_backend(app)
    try:
        assert app.backend.__class__.__name__ == "DisabledBackend"
    finally:
        app.conf.result_backend = saved


def test_a_worker_answers_after_the_backend_was_built_without_one(
    backend_built_before, real_celery_worker
):
    assert site_heartbeat.delay().get(timeout=20)["users"] == 0


def test_tasks_run_eagerly_outside_the_worker_fixture():
    result = site_heartbeat.delay()
    assert result.__class__.__name__ == "EagerResult"
    assert result.get()["users"] == 0
