"""Faults on the real stack: the broker stops while a game ends, a worker dies mid-task.
No rating update is lost: the outbox sweep finishes what the broker or worker dropped.

These tests run their own ``redis-server`` on a free port (never the shared one) as the
Celery broker, and a real worker thread when the broker is back.
"""

from __future__ import annotations

import datetime as dt
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from outbox import services as outbox_services
from outbox.models import OutboxMessage
from ratings.models import Rating
from ratings.services import RATE_GAME, ratings_recompute
from tests.conftest import missing_service
from tests.tournaments.factories import RoundFactory, seat_table
from tournaments import services
from tournaments.models import Role

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class PrivateRedis:
    """A ``redis-server`` of this test's own, stopped and started at will."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60  # a hang, not slowness
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("private redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def private_broker(redis_url: str) -> Iterator[PrivateRedis]:
    """Celery publishes to a private Redis (not eagerly) for the test."""
    if shutil.which("redis-server") is None:
        missing_service("redis-server is not installed")
    from tock_site.celery import app

    redis = PrivateRedis()
    redis.start()
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    app.conf.update(broker_url=redis.url, result_backend=None, task_always_eager=False)
    _reset_connections(app)
    try:
        yield redis
    finally:
        redis.stop()
        app.conf.update(saved)
        _reset_connections(app)


def _reset_connections(app: Any) -> None:
    """Forget pooled broker connections (they point at a server that was restarted)."""
    from kombu import pools

    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    pools.reset()  # kombu's process-wide producer pools, keyed by connection


def _worker(app: Any):
    from celery.contrib.testing.worker import start_worker

    return start_worker(
        app, pool="solo", perform_ping_check=False, shutdown_timeout=20, loglevel="WARNING"
    )


def _wait_done(message: OutboxMessage, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message.refresh_from_db()
        if message.done_at is not None:
            return
        time.sleep(0.1)
    raise AssertionError(f"outbox message {message.pk} still pending: {message.last_error}")


def _sweep_rates_the_game(app: Any, message: OutboxMessage) -> None:
    """With a worker running, the sweep publishes the pending rating message again, the
    game is rated, and the ratings equal a recomputation from scratch."""
    with _worker(app):
        later = timezone.now() + outbox_services.SWEEP_AFTER + dt.timedelta(seconds=1)
        assert outbox_services.outbox_sweep(now=later) == 1
        _wait_done(message)
    rated = _ratings()
    assert len(rated) == 4
    ratings_recompute(kind="tock")
    assert _ratings() == pytest.approx(rated)


def _ratings() -> dict[int, float]:
    return dict(Rating.objects.filter(kind="tock").values_list("player_id", "value"))


def test_a_result_stored_while_the_broker_is_down_is_rated_once_it_is_back(
    private_broker, tournament, players, staff, simulated_log
):
    from tock_site.celery import app

    table = seat_table(RoundFactory(tournament=tournament, number=1), players)
    private_broker.stop()
    started = time.monotonic()
    outcome = services.game_record_log(
        game=table.game, log=simulated_log(seed=21), user=staff[Role.SCOREKEEPER]
    )
    # The broker being down costs a moment (no publish retries), never a hang; the bound
    # is generous so that a busy machine cannot break it.
    assert time.monotonic() - started < 30
    assert outcome.result_changed and outcome.game.placements
    message = OutboxMessage.objects.get(topic=RATE_GAME)
    assert message.done_at is None and _ratings() == {}

    private_broker.start()
    _reset_connections(app)
    _sweep_rates_the_game(app, message)


def test_a_worker_killed_mid_task_loses_no_rating_update(
    private_broker, requires_postgres, tournament, players, staff, simulated_log, tmp_path
):
    """SIGKILL while the rating task runs: its transaction dies with it, the message
    stays pending, and the sweep has another worker finish it."""
    import os
    import signal
    import sys
    from pathlib import Path

    from django.db import connection

    from tock_site.celery import app

    table = seat_table(RoundFactory(tournament=tournament, number=1), players)
    db = connection.settings_dict
    marker = tmp_path / "task-started"
    worker = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("worker_process.py")),
         ",".join(q.name for q in app.conf.task_queues), str(marker)],
        env={
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": private_broker.url,
            "REDIS_URL": private_broker.url,
        },
    )  # fmt: skip
    try:
        outcome = services.game_record_log(
            game=table.game, log=simulated_log(seed=22), user=staff[Role.SCOREKEEPER]
        )
        deadline = time.monotonic() + 120  # a hang, not slowness
        while not marker.exists():
            assert worker.poll() is None, "the worker process died on its own"
            assert time.monotonic() < deadline, "the worker never started the task"
            time.sleep(0.1)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        if worker.poll() is None:
            worker.kill()
    message = OutboxMessage.objects.get(topic=RATE_GAME)
    assert str(outcome.game.pk) in marker.read_text()
    assert message.done_at is None and _ratings() == {}

    _reset_connections(app)
    _sweep_rates_the_game(app, message)
