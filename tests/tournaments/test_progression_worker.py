"""Automatic progression on the real stack: a real Celery worker, a real Redis broker
(a private ``redis-server``, as in tests/outbox/test_faults.py) and PostgreSQL (row
locks), transactional tests. Whatever happens -- two progressions at once, a database
error, a worker killed mid-task, a broker down when the round ended -- the round is
followed by exactly one next round.

Faults are injected by swapping the handler of the ``tournaments.round_progress``
outbox topic for a wrapper around the real one (in the worker thread's process), or
by a worker process whose handler hangs (tests/outbox/worker_process.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connections
from django.utils import timezone

from outbox import handlers
from outbox import services as outbox_services
from outbox.models import OutboxMessage

# the private broker fixture of the outbox fault tests (a redis-server of the test's own)
from tests.outbox.test_faults import _reset_connections, private_broker  # noqa: F401
from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.models import Round, TournamentAudit
from tournaments.permissions import SYSTEM
from tournaments.services.progression import ROUND_PROGRESS, round_progress_from_outbox

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REAL_HANDLER = "tournaments.services.progression.round_progress_from_outbox"


# -- helpers -------------------------------------------------------------------------------


def _event():
    """A running Swiss event with automatic progression: 8 players, round 1 seated."""
    t = TournamentFactory(swiss_rounds=3, auto_progress=True, table_sizes=[4, 3])
    for _ in range(8):
        RegistrationFactory(tournament=t, player=PlayerFactory(), checked_in=True)
    return t, services.tournament_start(tournament=t, user=SYSTEM, seed=1)


def _finish(rnd: Round) -> None:
    """Record every table of ``rnd`` (each in its own transaction, as the API does)."""
    for table in rnd.tables.select_related("game").order_by("number"):
        players = table.game.players
        services.game_record_placements(
            game=table.game.pk, placements={h: i for i, h in enumerate(players, 1)}, user=SYSTEM
        )


def _wait(what: str, check: Callable[[], bool], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _seated_once(t) -> Round:
    """Exactly one round 2, seated by exactly one audited step."""
    assert Round.objects.filter(tournament=t).count() == 2
    second = Round.objects.get(tournament=t, number=2)
    seated = TournamentAudit.objects.filter(tournament=t, action="round_seated", round=second)
    assert seated.count() == 1
    assert not TournamentAudit.objects.filter(tournament=t, action="progress_failed").exists()
    return second


@contextlib.contextmanager
def _handler(path: str) -> Iterator[None]:
    saved = handlers._HANDLERS[ROUND_PROGRESS]
    handlers._HANDLERS[ROUND_PROGRESS] = path
    try:
        yield
    finally:
        handlers._HANDLERS[ROUND_PROGRESS] = saved


class _Tasks:
    """What the worker ran: finished task names, and the most running at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = self.most = 0
        self.done: list[str] = []

    def prerun(self, sender: Any = None, **kwargs: Any) -> None:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)

    def postrun(self, sender: Any = None, **kwargs: Any) -> None:
        connections.close_all()  # the worker thread's connections: let the test DB go
        with self.lock:
            self.running -= 1
            self.done.append(sender.name)


@contextlib.contextmanager
def _worker(app: Any, *, concurrency: int = 1) -> Iterator[_Tasks]:
    """A real worker in this process (threads pool for ``concurrency`` > 1)."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun, task_prerun

    tasks = _Tasks()
    task_prerun.connect(tasks.prerun, weak=False)
    task_postrun.connect(tasks.postrun, weak=False)
    try:
        with start_worker(
            app,
            pool="solo" if concurrency == 1 else "threads",
            concurrency=concurrency,
            perform_ping_check=False,
            shutdown_timeout=20,
            loglevel="WARNING",
        ):
            yield tasks
    finally:
        task_prerun.disconnect(tasks.prerun)
        task_postrun.disconnect(tasks.postrun)


def _message(t) -> OutboxMessage:
    first = Round.objects.get(tournament=t, number=1)
    return OutboxMessage.objects.get(topic=ROUND_PROGRESS, payload={"round_id": first.pk})


def _later():
    return timezone.now() + outbox_services.SWEEP_AFTER + outbox_services.SWEEP_AFTER


# -- fault-injecting handlers (imported by dotted path in the worker thread) -----------------

_calls = {"failing": 0}


def slow_progress(*, round_id: int) -> None:
    """The real handler after a pause, so that another progression runs meanwhile."""
    time.sleep(0.5)
    round_progress_from_outbox(round_id=round_id)


def failing_once(*, round_id: int) -> None:
    """A database error on the first call (a dropped connection), then the real handler."""
    _calls["failing"] += 1
    if _calls["failing"] == 1:
        raise OperationalError("simulated: server closed the connection unexpectedly")
    round_progress_from_outbox(round_id=round_id)


# -- tests ---------------------------------------------------------------------------------


def test_the_delivery_task_is_acks_late_and_retries_database_errors_with_backoff():
    from django.db import DatabaseError

    from outbox.tasks import deliver
    from tournaments.tasks import progression_sweep

    for task in (deliver, progression_sweep):
        assert task.acks_late is True
        assert DatabaseError in task.autoretry_for and task.retry_backoff
        assert task.max_retries >= 3


def test_progression_run_twice_at_once_seats_one_round(
    private_broker,  # noqa: F811
    requires_postgres,
):
    """Three progressions of one finished round at once on a 3-thread worker: the
    outbox delivery, the same message delivered again, and the beat sweep."""
    from tock_site.celery import app
    from tournaments.tasks import progression_sweep

    t, r1 = _event()
    with _handler(f"{__name__}.slow_progress"):
        _finish(r1)  # the last result publishes the progression message (no worker yet)
        message = _message(t)
        outbox_services.outbox_publish(message_id=message.pk)  # delivered twice
        progression_sweep.delay()  # and the beat sweep at the same time
        with _worker(app, concurrency=3) as tasks:
            _wait(
                "the three progressions",
                lambda: (
                    # + 1 rating delivery: the second result's rating message finds
                    # the first one's delivery queued and sends no task of its own
                    tasks.done.count("outbox.deliver") >= 3
                    and "tournaments.progression_sweep" in tasks.done
                ),
            )
    assert tasks.most >= 2  # they did run at the same time
    _seated_once(t)
    message.refresh_from_db()
    assert message.done_at is not None and message.attempts == 1  # its handler ran once


def test_a_database_error_is_retried_with_backoff_and_progresses_once(
    private_broker,  # noqa: F811
    requires_postgres,
):
    from tock_site.celery import app

    _calls["failing"] = 0
    t, r1 = _event()
    with _handler(f"{__name__}.failing_once"), _worker(app) as tasks:
        _finish(r1)
        _wait("the retried delivery", lambda: _message(t).done_at is not None)
    message = _message(t)
    assert _calls["failing"] == 2 and message.attempts == 2 and message.last_error == ""
    assert tasks.done.count("outbox.deliver") >= 2
    _seated_once(t)


def test_a_worker_killed_mid_progression_is_finished_by_the_sweep(
    private_broker,  # noqa: F811
    requires_postgres,
    tmp_path,
):
    """SIGKILL while the progression task runs: its transaction dies with it (no round
    2), the message stays pending (acks_late), and the outbox sweep has another worker
    progress the round, once."""
    from tock_site.celery import app

    t, r1 = _event()
    db = connections["default"].settings_dict
    marker = tmp_path / "progression-started"
    worker = subprocess.Popen(
        [sys.executable, str(Path(__file__).parents[1] / "outbox" / "worker_process.py"),
         ",".join(q.name for q in app.conf.task_queues), str(marker), ROUND_PROGRESS],
        env={
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": private_broker.url,
            "REDIS_URL": private_broker.url,
        },
    )  # fmt: skip
    try:
        _finish(r1)
        deadline = time.monotonic() + 120  # a hang, not slowness
        while not marker.exists():
            assert worker.poll() is None, "the worker process died on its own"
            assert time.monotonic() < deadline, "the worker never started the task"
            time.sleep(0.05)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
    message = _message(t)
    assert message.done_at is None
    assert not Round.objects.filter(tournament=t, number=2).exists()

    _reset_connections(app)
    with _worker(app):
        assert outbox_services.outbox_sweep(now=_later()) >= 1
        _wait("the swept delivery", lambda: _message(t).done_at is not None)
    _seated_once(t)


def test_the_beat_sweep_progresses_a_round_missed_while_the_broker_was_down(
    private_broker,  # noqa: F811
    requires_postgres,
):
    from tock_site.celery import app
    from tournaments.tasks import progression_sweep

    t, r1 = _event()
    private_broker.stop()
    _finish(r1)  # committed; the publish fails and is logged
    message = _message(t)
    assert message.done_at is None
    assert not Round.objects.filter(tournament=t, number=2).exists()

    private_broker.start()
    _reset_connections(app)
    with _worker(app) as tasks:
        progression_sweep.delay()  # what beat sends every minute
        _wait("the sweep", lambda: Round.objects.filter(tournament=t, number=2).exists())
        # the pending message, published again by the outbox sweep, finds the round seated
        assert outbox_services.outbox_sweep(now=_later()) >= 1
        _wait("the pending message", lambda: _message(t).done_at is not None)
    assert "tournaments.progression_sweep" in tasks.done
    _seated_once(t)
