"""The shared fixtures behave as documented."""

import os
import subprocess
import sys
import tempfile

import pytest

from tests.conftest import RUN_ID

from .helpers import BASE_DIR, clean_env, run


def test_chromium_fixture(chromium):
    assert os.path.exists(chromium["browser"])


def test_each_run_gets_its_own_test_database(settings, requires_postgres):
    test_name = settings.DATABASES["default"]["TEST"]["NAME"]
    assert test_name.endswith(RUN_ID)


@pytest.mark.django_db
def test_the_test_database_is_in_use():
    """Tests never touch the development database: PostgreSQL runs get a database of
    their own (named after the run), SQLite runs an in-memory one (a temporary file when
    browser tests run)."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor == "postgresql":
        assert name.endswith(RUN_ID)
    else:
        assert connection.vendor == "sqlite"
        # In memory, or a temporary file in a run with browser tests (tests/conftest.py).
        assert connection.is_in_memory_db() or str(name).startswith(tempfile.gettempdir()), name
        assert not str(name).endswith("db.sqlite3")


def test_require_services_refuses_a_run_without_postgres():
    env = clean_env(REQUIRE_SERVICES="1", REDIS_URL="redis://127.0.0.1:6379/0")
    proc = run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "tests/foundation/test_docker.py",
            "-p",
            "no:cacheprovider",
        ],
        env=env,
        timeout=120,
    )
    assert proc.returncode != 0
    assert (
        "REQUIRE_SERVICES=1 needs DATABASE_URL pointing at PostgreSQL" in proc.stdout + proc.stderr
    )


def test_missing_redis_skips_without_require_services_and_fails_with_it():
    test = "tests/foundation/test_health.py::test_check_redis_on_the_real_redis"
    base = {"REDIS_URL": "redis://127.0.0.1:1/0"}
    skipped = run(
        [sys.executable, "-m", "pytest", "-q", "-rs", test, "-p", "no:cacheprovider"],
        env=clean_env(**base),
        timeout=120,
    )
    assert skipped.returncode == 0, skipped.stdout
    assert "unreachable" in skipped.stdout
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        failed = run(
            [sys.executable, "-m", "pytest", "-q", test, "-p", "no:cacheprovider"],
            env=clean_env(**base, REQUIRE_SERVICES="1", DATABASE_URL=os.environ["DATABASE_URL"]),
            timeout=120,
        )
        assert failed.returncode == 1, failed.stdout
        assert "REQUIRE_SERVICES=1 but Redis" in failed.stdout


def test_ci_script_and_makefile():
    ci = BASE_DIR / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    assert subprocess.run(["bash", "-n", str(ci)], check=False).returncode == 0
    makefile = (BASE_DIR / "Makefile").read_text()
    for target in ("run:", "test:", "lint:", "bench:", "worker:"):
        assert f"\n{target}" in makefile


@pytest.mark.services
def test_cache_clear_spares_other_runs_keys(redis_url, settings):
    import redis
    from django.core.cache import cache

    assert settings.CACHES["default"]["KEY_PREFIX"] == f"test-{RUN_ID}"
    client = redis.Redis.from_url(redis_url)
    other = f"other-run-{RUN_ID}:1:kept"
    client.set(other, "1", ex=60)
    try:
        cache.set("mine", 1)
        cache.clear()
        assert cache.get("mine") is None
        assert client.get(other) == b"1"
    finally:
        client.delete(other)
        client.close()


def test_cache_is_empty_at_the_start_of_each_test_part_1():
    from django.core.cache import cache

    assert cache.get("leak") is None
    cache.set("leak", 1)


def test_cache_is_empty_at_the_start_of_each_test_part_2():
    from django.core.cache import cache

    assert cache.get("leak") is None
    cache.set("leak", 1)
