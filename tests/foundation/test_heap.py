"""The long-running processes settle their heap once loaded (tock_site.heap): the web
process at import of tock_site.serve, each Celery worker process when it starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tock_site.heap import GC_THRESHOLD

ROOT = Path(__file__).resolve().parents[2]

_WORKER_START = """
import gc
from tock_site.celery import app
from celery.signals import worker_process_init
before = gc.get_freeze_count()
worker_process_init.send(sender=None)
print(before, gc.get_freeze_count() > 0, gc.get_threshold())
"""


def test_a_celery_worker_process_freezes_what_it_loaded() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _WORKER_START],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split(maxsplit=2)
    assert out[0] == "0" and out[1] == "True"  # frozen by the signal, not before
    assert out[2].strip() == str(GC_THRESHOLD)
