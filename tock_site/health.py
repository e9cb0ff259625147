"""Health checks for ``/healthz``: the database, Redis and the Celery workers.

Each check is a small function returning a :class:`Check` (a JSON-ready dict).
They never raise, and each is bounded by a short timeout, so the endpoint answers
quickly even when Redis or the workers are gone. Only the database is vital: without
it the site is *down* (HTTP 503); without Redis or a worker it is *degraded* (200).

Check states:

* database: ``ok`` | ``down``
* redis: ``ok`` | ``down`` | ``not_configured`` (embedded mode: no ``REDIS_URL``)
* worker: ``ok`` | ``down`` | ``unknown`` (broker unreachable) | ``eager``
  (embedded mode: tasks run in-process, no worker needed)
"""

from __future__ import annotations

import time
from typing import Literal, NotRequired, TypedDict

from django.conf import settings
from django.db import connections

TIMEOUT_SECONDS = 1.0

OverallStatus = Literal["ok", "degraded", "down"]


class Check(TypedDict):
    status: str
    latency_ms: NotRequired[float]
    error: NotRequired[str]
    workers: NotRequired[list[str]]


class Report(TypedDict):
    status: OverallStatus
    database: Check
    redis: Check
    worker: Check


def _elapsed_ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def check_database(alias: str = "default") -> Check:
    """``SELECT 1`` on the database, bounded by ``TIMEOUT_SECONDS`` also with a pool.

    With PostgreSQL's connection pool a request would wait ``DB_POOL_TIMEOUT`` (5 s) for
    a connection while the database is down, past a load balancer's probe timeout; the
    check asks the pool itself with its own one-second bound instead."""
    start = time.perf_counter()
    try:
        connection = connections[alias]
        pool = getattr(connection, "pool", None) if connection.vendor == "postgresql" else None
        if pool is not None:
            pool.open()  # Django opens it lazily, without waiting for connections
            with pool.connection(timeout=TIMEOUT_SECONDS) as raw:
                raw.execute("SELECT 1").fetchone()
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except Exception as exc:  # any failure means "down"; the endpoint must not raise
        return {"status": "down", "latency_ms": _elapsed_ms(start), "error": _error(exc)}
    return {"status": "ok", "latency_ms": _elapsed_ms(start)}


def _ping_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(
        url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()


def check_redis(url: str | None = None) -> Check:
    """``PING`` Redis (``REDIS_URL``) with a one-second timeout."""
    url = settings.REDIS_URL if url is None else url
    if not url:
        return {"status": "not_configured"}
    start = time.perf_counter()
    try:
        _ping_redis(url)
    except Exception as exc:
        return {"status": "down", "latency_ms": _elapsed_ms(start), "error": _error(exc)}
    return {"status": "ok", "latency_ms": _elapsed_ms(start)}


def check_worker(known_broker_error: str | None = None) -> Check:
    """Ask the Celery workers for a pong (one second at most).

    The broker is pinged first: when it cannot be reached, Celery's own connection
    retries would make the request hang, so the worker state is reported ``unknown``.
    ``known_broker_error``: the broker is already known to be down (it is the Redis that
    :func:`check_redis` could not reach), so it is not pinged a second time.
    """
    from tock_site.celery import app as celery_app

    if celery_app.conf.task_always_eager:
        return {"status": "eager"}
    broker_url: str = celery_app.conf.broker_url or ""
    start = time.perf_counter()
    if known_broker_error:
        return {"status": "unknown", "error": "broker unreachable: " + known_broker_error}
    if broker_url.startswith(("redis://", "rediss://", "unix://")):
        try:
            _ping_redis(broker_url)
        except Exception as exc:
            return {
                "status": "unknown",
                "latency_ms": _elapsed_ms(start),
                "error": "broker unreachable: " + _error(exc),
            }
    try:
        with celery_app.connection_for_write(broker_url or None) as conn:
            conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
            replies = celery_app.control.ping(timeout=TIMEOUT_SECONDS, limit=1, connection=conn)
    except Exception as exc:
        return {"status": "unknown", "latency_ms": _elapsed_ms(start), "error": _error(exc)}
    workers = sorted(name for reply in replies or [] for name in reply)
    if not workers:
        return {
            "status": "down",
            "latency_ms": _elapsed_ms(start),
            "error": "no worker answered",
        }
    return {"status": "ok", "latency_ms": _elapsed_ms(start), "workers": workers}


def overall_status(database: Check, redis: Check, worker: Check) -> OverallStatus:
    if database["status"] != "ok":
        return "down"
    if redis["status"] in {"ok", "not_configured"} and worker["status"] in {"ok", "eager"}:
        return "ok"
    return "degraded"


def report() -> Report:
    database = check_database()
    redis = check_redis()
    broker_error = None
    if redis["status"] == "down" and settings.CELERY_BROKER_URL == settings.REDIS_URL:
        broker_error = redis.get("error", "down")
    worker = check_worker(known_broker_error=broker_error)
    return {
        "status": overall_status(database, redis, worker),
        "database": database,
        "redis": redis,
        "worker": worker,
    }
