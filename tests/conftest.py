"""Shared fixtures and run-wide set-up for the whole test suite.

Modes
-----
* No environment: SQLite, in-memory channel layer, local-memory cache.
* ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set: the suite runs against them.
  Every run gets its own PostgreSQL test database (``test_<name>_<pid>_<random>``,
  dropped at the end) and its own Redis key prefix, channel-layer prefix and Celery
  queue, so parallel runs on one machine do not collide.
* ``REQUIRE_SERVICES=1`` (CI): ``DATABASE_URL`` must point at PostgreSQL and
  ``REDIS_URL`` must be set (else the run stops at once), a test needing a
  missing service fails instead of skipping, and hypothesis draws the same examples
  every run (its ``ci`` profile; no deadline per example in either mode).

The cache is emptied after every test. On Redis that deletes only this run's keys:
``cache.clear()`` is patched to do the same instead of ``FLUSHDB`` (which would wipe
other runs' keys and the Celery queues).

Celery runs **eagerly** in tests (``task_always_eager``) even on the real stack, so
``task.delay()`` in service code runs in-process. Only tests that use the
``real_celery_worker`` fixture send tasks through Redis to a real worker.

Fixtures for everybody
----------------------
``redis_url``
    The Redis URL (``REDIS_URL``), checked with a ping. Skips with a clear reason when
    unset or unreachable; fails under ``REQUIRE_SERVICES=1``.
``requires_postgres``
    Skips unless the default database is PostgreSQL (fails under
    ``REQUIRE_SERVICES=1``). Use it for tests of row locks, ``select_for_update``,
    concurrent writers and other PostgreSQL-only behaviour.
``real_celery_worker``
    A real Celery worker (solo pool, in a thread) consuming this run's queue on
    Redis; tasks are not eager while it runs. Implies ``transactional_db``: do not
    mark such tests ``django_db`` without ``transaction=True``. Yields the Celery app.
``redis_channel_layer``
    ``CHANNEL_LAYERS`` switched to a Redis channel layer with a prefix of its own
    for the test (needs Redis).
``chromium``
    ``{"browser": path}`` of Debian's Chromium (``shutil.which("chromium")``), for tests
    marked ``browser`` (Playwright launches it: no driver binary, no browser download;
    see ``tests/browser/conftest.py``); skips without Chromium (fails under
    ``REQUIRE_SERVICES=1``; ``.ci/run`` installs it).

SQLite test database: in memory, except in a run that collects browser tests: they
serve the site from another thread, whose connections cannot share an in-memory
database, so such a run gets a file in a temporary directory instead.

Helper: :func:`missing_service` skips (or fails under ``REQUIRE_SERVICES=1``) with
a reason; use it for any other service a test needs (e.g. Chromium).
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from typing import Any, NoReturn

import hypothesis
import pytest

from tests.celery_support import forget_result_backend

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"
RUN_ID = f"{os.getpid()}_{uuid.uuid4().hex[:6]}"

# Property-based tests: no time limit per example (a shared CI machine is slow now and
# then; speed is the benches' business, not a test's). Under REQUIRE_SERVICES=1 (CI)
# the examples are derandomized: the same ones every run, so a run's verdict is the
# code's, never the draw's; a developer's runs keep drawing new ones.
hypothesis.settings.register_profile("suite", deadline=None)
hypothesis.settings.register_profile(
    "ci", parent=hypothesis.settings.get_profile("suite"), derandomize=True
)
hypothesis.settings.load_profile("ci" if REQUIRE_SERVICES else "suite")
POSTGRES_SCHEMES = ("postgres://", "postgresql://", "pgsql://")


def missing_service(reason: str) -> NoReturn:
    """Skip the test because a service is missing, or fail it under REQUIRE_SERVICES=1."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    if REQUIRE_SERVICES:
        database_url = os.environ.get("DATABASE_URL", "")
        if not database_url.startswith(POSTGRES_SCHEMES):
            raise pytest.UsageError(
                "REQUIRE_SERVICES=1 needs DATABASE_URL pointing at PostgreSQL "
                f"(got {database_url or 'nothing'!r})"
            )
        if not os.environ.get("REDIS_URL"):
            raise pytest.UsageError("REQUIRE_SERVICES=1 needs REDIS_URL")

    from django.conf import settings

    if not settings.configured:  # pytest-django configures them before conftests load
        return
    if REQUIRE_SERVICES and settings.DATABASES["default"]["ENGINE"] != (
        "django.db.backends.postgresql"
    ):
        raise pytest.UsageError("REQUIRE_SERVICES=1 but the settings do not use PostgreSQL")

    # Keep this run's keys apart from other runs sharing the same Redis.
    prefix = f"test-{RUN_ID}"
    for cache in settings.CACHES.values():
        if "redis" in cache["BACKEND"].lower():
            cache["KEY_PREFIX"] = prefix
    for layer in settings.CHANNEL_LAYERS.values():
        if "redis" in layer["BACKEND"].lower():
            layer.setdefault("CONFIG", {})["prefix"] = f"{prefix}:asgi"
    if any("redis" in cache["BACKEND"].lower() for cache in settings.CACHES.values()):
        from django.core.cache.backends.redis import RedisCache

        RedisCache.clear = _clear_own_keys  # type: ignore[method-assign]
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        _flush_by_delete()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # A fast hasher: the suite creates many users; PBKDF2 costs ~0.1 s per password.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # This run's own queues (the outbox names them with the prefix: outbox.handlers).
    from kombu import Queue

    settings.CELERY_QUEUE_PREFIX = f"tock-{prefix}-"
    queues = (Queue(f"tock-{prefix}-urgent"), Queue(f"tock-{prefix}-celery"))
    settings.CELERY_TASK_QUEUES = queues
    settings.CELERY_TASK_DEFAULT_QUEUE = f"tock-{prefix}-celery"

    from tock_site.celery import app as celery_app

    celery_app.conf.update(
        task_always_eager=True,
        task_eager_propagates=True,
        task_queues=queues,
        task_default_queue=f"tock-{prefix}-celery",
        worker_hijack_root_logger=False,
    )


def _flush_by_delete() -> None:
    """Empty the tables after a transactional test with ``DELETE``, not ``TRUNCATE``.

    Django flushes the test database after every ``transaction=True`` test (the browser,
    live, worker and concurrency tests) with one ``TRUNCATE`` of all its tables. On
    PostgreSQL that swaps every table's and index's files: 0.14-0.2 s on an idle
    machine, over a second under load, 87 teardowns of a run; a ``DELETE`` of the few
    rows a test leaves takes about 0.01 s. Equivalent here: every foreign key the
    migrations create is ``DEFERRABLE INITIALLY DEFERRED`` (the order of the deletes
    does not matter inside the flush's transaction), no table has a trigger, and no test
    asks for ``reset_sequences`` (that and ``allow_cascade`` keep Django's statement).
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: Any,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


def _clear_own_keys(self: Any) -> None:
    """``RedisCache.clear`` for tests: delete this cache's prefixed keys, not the database."""
    client = self._cache.get_client(None, write=True)
    keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])


@pytest.fixture(autouse=True)
def _default_language_for_each_test() -> Iterator[None]:
    """Every test starts in the default language: a test that activates Spanish (or a
    request handled in this thread) must not decide the language of the next one, which
    depends on the order the tests run in (pytest-xdist changes it)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _tasks_may_wait_for_results() -> Iterator[None]:
    """A Celery worker started in this process (``real_celery_worker``, the fault
    tests) marks the whole process as "inside a worker", where ``result.get()`` raises
    "Never call result.get() within a task!"; a worker restarting after its broker came
    back sets it again. Clear it after every test, so the next one (in whatever order
    the tests run) calls ``task.apply().get()`` as in any process that is no worker."""
    yield
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _empty_cache_after_each_test() -> Iterator[None]:
    yield
    from django.core.cache import caches

    for cache in caches.all(initialized_only=True):
        cache.clear()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test databases; before it drops them, the connections other
    threads left open (the live server's, the real worker's) are closed on the
    PostgreSQL server, else the drop fails ("being accessed by other users") and the
    database stays behind."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A test database of its own for every run (PostgreSQL); pytest-django drops it.
    SQLite: in memory, or a temporary file when the run has browser tests."""
    from django.conf import settings

    browser_run = any(item.get_closest_marker("browser") for item in request.session.items)
    for alias, db in settings.DATABASES.items():
        if db["ENGINE"] == "django.db.backends.sqlite3":
            if browser_run:  # the live server's threads need connections of their own
                folder = tmp_path_factory.mktemp("sqlite")
                db.setdefault("TEST", {})["NAME"] = str(folder / f"test_{alias}.sqlite3")
                # A throwaway file: no fsync; WAL lets the pages read while a test writes.
                db.setdefault("OPTIONS", {})["init_command"] = (
                    "PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL"
                )
            continue  # else in memory: private to the process anyway
        test = db.setdefault("TEST", {})
        base = test.get("NAME") or f"test_{db['NAME']}"
        test["NAME"] = f"{base}_{RUN_ID}"[:63]


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing_service("REDIS_URL is not set; this test needs Redis")
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:
        missing_service(f"Redis at {url} is unreachable ({type(exc).__name__}: {exc})")
    return url


@pytest.fixture(scope="session")
def requires_postgres() -> None:
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if engine != "django.db.backends.postgresql":
        missing_service(f"this test needs PostgreSQL (DATABASE_URL); the database is {engine}")


@pytest.fixture(scope="session")
def chromium() -> dict[str, str]:
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    browser = next((path for name in names if (path := shutil.which(name))), None)
    if not browser:
        missing_service("Chromium is not installed (Debian: apt-get install chromium)")
    return {"browser": browser}


@pytest.fixture
def redis_channel_layer(redis_url: str, settings: Any) -> Iterator[dict[str, Any]]:
    config = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": f"test-{RUN_ID}-{uuid.uuid4().hex[:6]}"},
        }
    }
    settings.CHANNEL_LAYERS = config  # channels resets its layers on setting_changed
    yield config


@pytest.fixture
def real_celery_worker(redis_url: str, transactional_db: None) -> Iterator[Any]:
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connections

    from tock_site.celery import app as celery_app

    def close_worker_connections(**kwargs: Any) -> None:
        # The worker thread's connections would keep the test database from being dropped.
        connections.close_all()

    saved = {
        key: celery_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")
    }
    celery_app.conf.update(broker_url=redis_url, result_backend=redis_url, task_always_eager=False)
    forget_result_backend(celery_app)
    task_postrun.connect(close_worker_connections, weak=False)
    try:
        with start_worker(
            celery_app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=20,
            loglevel="WARNING",
        ):
            yield celery_app
    finally:
        task_postrun.disconnect(close_worker_connections)
        celery_app.conf.update(saved)
        forget_result_backend(celery_app)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Every test has a node id of its own: pytest-xdist tells tests apart by node id,
    and of several sharing one it runs only the first, silently (schemathesis's tests
    did; tests/api/conftest.py names them apart)."""
    seen: set[str] = set()
    shared = sorted(
        {item.nodeid for item in session.items if item.nodeid in seen or seen.add(item.nodeid)}
    )
    if shared:
        raise pytest.UsageError(
            "tests sharing a node id (xdist would skip them): " + ", ".join(shared[:5])
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove this run's keys from Redis (cache entries, queue bindings)."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        keys = list(client.scan_iter(match=f"*test-{RUN_ID}*", count=500))
        if keys:
            client.delete(*keys)
        client.close()
    except Exception:  # cleanup is best effort; a missing Redis was reported by the tests
        pass
