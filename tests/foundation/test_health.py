"""``/healthz`` in embedded mode, on the real stack, and with Redis or the database gone."""

import secrets
import socket
from collections.abc import Iterator

import pytest
from django.urls import reverse

from tock_site import health

from .helpers import clean_env, python_json

GET_HEALTHZ = """
import json, time, django
django.setup()
from django.test import Client
start = time.perf_counter()
response = Client().get("/healthz", **EXTRA)
print(json.dumps({
    "code": response.status_code,
    "body": response.json() if response.status_code in (200, 503) else None,
    "seconds": time.perf_counter() - start,
}))
"""


def healthz_in_subprocess(env: dict[str, str], extra: str = "{}") -> dict:
    return python_json(GET_HEALTHZ.replace("EXTRA", extra), env=env)


@pytest.mark.django_db
def test_healthz_reports_json(client, settings):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.json()
    assert set(body) == {"status", "database", "redis", "worker"}
    assert body["database"]["status"] == "ok"
    if settings.REDIS_URL:
        assert body["redis"]["status"] == "ok"
    else:
        assert body["redis"] == {"status": "not_configured"}
    assert body["worker"] == {"status": "eager"}  # the test suite runs Celery eagerly
    assert body["status"] in {"ok", "degraded"}


def test_healthz_embedded_mode_without_any_service(tmp_path):
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    got = healthz_in_subprocess(env)
    assert got["code"] == 200
    assert got["body"] == {
        "status": "ok",
        "database": got["body"]["database"],
        "redis": {"status": "not_configured"},
        "worker": {"status": "eager"},
    }
    assert got["body"]["database"]["status"] == "ok"


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never answers (a hung Redis)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)  # the kernel completes the handshakes; nobody ever reads
        yield sock.getsockname()[1]


@pytest.mark.parametrize("failure", ["refused", "silent"])
def test_healthz_answers_quickly_when_redis_is_unreachable(tmp_path, request, failure):
    if failure == "refused":
        redis_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    else:
        redis_url = f"redis://127.0.0.1:{request.getfixturevalue('silent_server')}/0"
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", REDIS_URL=redis_url)
    got = healthz_in_subprocess(env)
    assert got["code"] == 200, got
    body = got["body"]
    assert body["status"] == "degraded"
    assert body["database"]["status"] == "ok"
    assert body["redis"]["status"] == "down"
    assert "error" in body["redis"]
    assert body["worker"]["status"] == "unknown"
    # Not a speed test (a loaded machine took 6.4 s for django.setup() alone): the bound
    # only catches a check that would hang on the silent Redis instead of timing out.
    assert got["seconds"] < 30


def test_healthz_is_503_when_the_database_is_down():
    env = clean_env(
        DATABASE_URL="postgres://postgres@127.0.0.1:1/nothing",
        REDIS_URL="redis://127.0.0.1:1/0",
    )
    got = healthz_in_subprocess(env)
    assert got["code"] == 503
    assert got["body"]["status"] == "down"
    assert got["body"]["database"]["status"] == "down"
    # The pool would wait DB_POOL_TIMEOUT for a connection; the check has its own bound.
    assert got["body"]["database"]["latency_ms"] < 3000
    assert got["seconds"] < 30  # hangs are what this catches, not slowness


def test_healthz_is_served_over_plain_http_in_production(tmp_path):
    env = clean_env(
        DJANGO_SETTINGS_MODULE="tock_site.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    got = healthz_in_subprocess(env, extra='{"HTTP_HOST": "example.org"}')
    assert got["code"] == 200  # not a redirect to https: the load balancer probes over http
    assert got["body"]["status"] == "ok"


@pytest.mark.services
def test_check_redis_on_the_real_redis(redis_url):
    assert health.check_redis(redis_url)["status"] == "ok"


def test_check_redis_unreachable_is_bounded(monkeypatch):
    """Down, not hanging: the client is given connect and read timeouts of
    ``TIMEOUT_SECONDS`` (checked on the client, not with a clock)."""
    import redis

    made = []
    original = redis.Redis.from_url

    def from_url(url, **kwargs):
        made.append(kwargs)
        return original(url, **kwargs)

    monkeypatch.setattr(redis.Redis, "from_url", from_url)
    result = health.check_redis("redis://127.0.0.1:1/0")
    assert result["status"] == "down"
    assert made == [
        {
            "socket_connect_timeout": health.TIMEOUT_SECONDS,
            "socket_timeout": health.TIMEOUT_SECONDS,
        }
    ]
    assert health.TIMEOUT_SECONDS <= 1


def test_check_redis_not_configured():
    assert health.check_redis("") == {"status": "not_configured"}


@pytest.mark.parametrize(
    ("database", "redis", "worker", "expected"),
    [
        ("ok", "ok", "ok", "ok"),
        ("ok", "not_configured", "eager", "ok"),
        ("ok", "down", "unknown", "degraded"),
        ("ok", "ok", "down", "degraded"),
        ("down", "ok", "ok", "down"),
    ],
)
def test_overall_status(database, redis, worker, expected):
    status = health.overall_status({"status": database}, {"status": redis}, {"status": worker})
    assert status == expected


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_check_worker_sees_a_real_worker(real_celery_worker):
    result = health.check_worker()
    assert result["status"] == "ok", result
    assert result["workers"]


@pytest.mark.services
@pytest.mark.django_db
def test_healthz_on_the_real_stack(client, redis_url, requires_postgres):
    body = client.get("/healthz").json()
    assert body["database"]["status"] == "ok"
    assert body["redis"]["status"] == "ok"
