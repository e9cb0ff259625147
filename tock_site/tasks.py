"""Site-level Celery tasks."""

from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_CACHE_KEY = "tock:site-heartbeat"


@shared_task(name="tock_site.site_heartbeat", ignore_result=False)
def site_heartbeat() -> dict[str, Any]:
    """Record that a worker can reach the database and the cache.

    Idempotent: it only overwrites one cache key. Celery beat runs it every minute;
    ``/healthz`` and the tests read what it wrote.
    """
    beat = {
        "at": timezone.now().isoformat(),
        "users": get_user_model().objects.count(),
    }
    cache.set(HEARTBEAT_CACHE_KEY, beat, timeout=None)
    return beat
