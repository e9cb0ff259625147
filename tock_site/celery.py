"""The Celery application. Configuration comes from Django settings (``CELERY_*``)."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")

app = Celery("tock_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _settle_heap(**_: object) -> None:
    """Each worker process, once forked with Django and the tasks loaded, freezes them
    (a round's progression no longer pays full collections scanning them)."""
    from tock_site.heap import settle_heap

    settle_heap()
