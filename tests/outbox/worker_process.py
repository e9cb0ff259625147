"""A real Celery worker process for the fault tests, whose rating handler hangs.

    python tests/outbox/worker_process.py QUEUES MARKER [TOPIC]

QUEUES: the run's queues, comma-separated (urgent first). The environment gives
``DATABASE_URL`` (the test database) and ``CELERY_BROKER_URL``.
The handler of ``TOPIC`` (the rating topic by default) touches ``MARKER`` and then
hangs, so that the test can kill the process in the middle of a task.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"


def hang(**payload: object) -> None:
    Path(os.environ["WORKER_MARKER"]).write_text(repr(payload))
    time.sleep(600)


def main() -> None:
    import django

    queue, marker = sys.argv[1], sys.argv[2]
    topic = sys.argv[3] if len(sys.argv) > 3 else None
    os.environ["WORKER_MARKER"] = marker
    django.setup()
    from outbox import handlers
    from ratings.services import RATE_GAME
    from tock_site.celery import app

    handlers._HANDLERS[topic or RATE_GAME] = "__main__.hang"
    handlers._BATCHES.pop(topic or RATE_GAME, None)  # one message at a time: it hangs
    app.worker_main(["worker", "--pool=solo", "-Q", queue, "--loglevel=WARNING"])


if __name__ == "__main__":
    main()
