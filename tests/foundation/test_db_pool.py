"""No connection leak: a real server under 64 concurrent requests stays within its pool.

Requests run in threads (daphne: a new thread per request; ``make serve``: a fixed
pool of threads per process) and Django keeps one database connection per thread.
Before the pool, every thread kept its own (``CONN_MAX_AGE=60``) and PostgreSQL ran
out of connections under load. Here a real server, started on 127.0.0.1 against this
run's PostgreSQL test database, answers 64 requests sent at once while a sampler
counts the server's connections in ``pg_stat_activity`` (by ``application_name``):
the count never passes ``processes * DB_POOL_MAX_SIZE`` and every request answers
200. The ``serve`` case runs more request threads (16) than pool connections (4), so
threads really wait for the pool.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.tournaments.factories import RegistrationFactory, TournamentFactory

from .helpers import BASE_DIR, clean_env

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BIN = Path(sys.executable).parent
POOL_MAX = 4
CONCURRENT = 64


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url(settings_dict: dict, application_name: str) -> str:
    """A DATABASE_URL for this run's test database, tagged with ``application_name``."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return (
        f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
        f"?application_name={application_name}"
    )


def server_command(setup: str, port: int) -> list[str]:
    if setup == "daphne":
        return [
            str(BIN / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "tock_site.asgi:application",
        ]
    return [str(BIN / "gunicorn"), "-c", "tock_site/gunicorn.conf.py"]


@contextmanager
def running_server(setup: str, port: int, env: dict[str, str]) -> Iterator[None]:
    proc = subprocess.Popen(
        server_command(setup, port),
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120  # a hang, not slowness
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert time.monotonic() < deadline, f"{setup} did not start"
                time.sleep(0.1)
        yield
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


class ConnectionSampler(threading.Thread):
    """Counts the server's connections (by application_name) every 10 ms; keeps the peak."""

    def __init__(self, dsn: str, application_name: str) -> None:
        super().__init__(daemon=True)
        self.dsn, self.application_name = dsn, application_name
        self.peak = 0
        self.samples = 0
        self.stop = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self.stop.is_set():
                (count,) = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                    [self.application_name],
                ).fetchone()
                self.peak = max(self.peak, count)
                self.samples += 1
                self.stop.wait(0.01)


def fetch(port: int, path: str, barrier: threading.Barrier) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=25)
    try:
        conn.connect()
        barrier.wait(timeout=10)  # all 64 connected: send together
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        response.read()
        return response.status
    except Exception as exc:  # a refused or broken request is a failure, counted below
        return -1 if not isinstance(exc, threading.BrokenBarrierError) else -2
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("setup", "processes", "extra_env"),
    [
        ("daphne", 1, {}),
        ("serve", 2, {"WEB_CONCURRENCY": "2", "WEB_THREADS": "16"}),
    ],
)
def test_64_concurrent_requests_stay_within_the_pool(
    requires_postgres, setup: str, processes: int, extra_env: dict[str, str]
) -> None:
    from django.db import connection

    tournament = TournamentFactory()
    for _ in range(8):
        RegistrationFactory(tournament=tournament)
    # Pages that read the database. Not /healthz: a probe waits at most a second for a
    # connection and answers 503 after it, which 64 requests at once on a busy machine
    # can make it do while the pool works as it should.
    paths = ["/", f"/api/tournaments/{tournament.id}/standings", f"/tournaments/{tournament.id}/"]

    application_name = f"tock-pool-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = clean_env(
        DATABASE_URL=database_url(connection.settings_dict, application_name),
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_LOG_LEVEL="ERROR",
        DB_POOL_MIN_SIZE="1",
        DB_POOL_MAX_SIZE=str(POOL_MAX),
        DB_POOL_TIMEOUT="20",
        HOST="127.0.0.1",
        PORT=str(port),
        **extra_env,
    )
    sampler = ConnectionSampler(
        database_url(connection.settings_dict, "tock-pool-sampler"), application_name
    )
    with running_server(setup, port, env):
        sampler.start()
        try:
            barrier = threading.Barrier(CONCURRENT)
            statuses: list[int] = [0] * CONCURRENT

            def one(i: int) -> None:
                statuses[i] = fetch(port, paths[i % len(paths)], barrier)

            threads = [threading.Thread(target=one, args=(i,)) for i in range(CONCURRENT)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
        finally:
            sampler.stop.set()
            sampler.join(timeout=5)

    assert statuses == [200] * CONCURRENT, statuses
    assert sampler.samples > 0
    assert 1 <= sampler.peak <= processes * POOL_MAX, sampler.peak
