"""Settings load in both modes, and production settings pass ``check --deploy``."""

import secrets
import sys

from .helpers import clean_env, python_json, run, run_python

DESCRIBE = """
import json, django
django.setup()
from django.conf import settings
from tock_site.celery import app
print(json.dumps({
    "db": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "cache": settings.CACHES["default"]["BACKEND"],
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "eager": app.conf.task_always_eager,
    "broker": app.conf.broker_url,
    "backend": app.conf.result_backend,
    "use_tz": settings.USE_TZ,
    "use_i18n": settings.USE_I18N,
    "languages": [code for code, _ in settings.LANGUAGES],
}))
"""


def test_embedded_mode_without_environment():
    got = python_json(DESCRIBE, env=clean_env())
    assert got["db"] == "django.db.backends.sqlite3"
    assert got["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert got["layer"] == "channels.layers.InMemoryChannelLayer"
    assert got["eager"] is True
    assert got["broker"].startswith("memory://")
    assert got["use_tz"] is True and got["use_i18n"] is True
    assert got["languages"] == ["en", "es", "de"]


def test_real_stack_mode_from_environment():
    env = clean_env(
        DATABASE_URL="postgres://tock:pw@db.internal:5432/tock",
        REDIS_URL="redis://redis.internal:6379/0",
    )
    got = python_json(DESCRIBE, env=env)  # loading settings needs no running service
    assert got["db"] == "django.db.backends.postgresql"
    assert got["db_name"] == "tock"
    assert got["cache"] == "tock_site.cache.SharedRedisCache"
    assert got["layer"] == "channels_redis.core.RedisChannelLayer"
    assert got["eager"] is False
    assert got["broker"] == "redis://redis.internal:6379/0"
    assert got["backend"] == "redis://redis.internal:6379/0"
    assert got["use_tz"] is True


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = clean_env(
        DJANGO_SETTINGS_MODULE="tock_site.settings_production", DJANGO_ALLOWED_HOSTS="example.org"
    )
    proc = run_python("import django; django.setup()", env=env)
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY" in proc.stderr


def test_production_settings_pass_check_deploy():
    env = clean_env(
        DJANGO_SETTINGS_MODULE="tock_site.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org,www.example.org",
    )
    proc = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_production_settings_are_secure():
    env = clean_env(
        DJANGO_SETTINGS_MODULE="tock_site.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    got = python_json(
        """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG, "hosts": s.ALLOWED_HOSTS, "ssl": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS, "session": s.SESSION_COOKIE_SECURE,
    "csrf": s.CSRF_COOKIE_SECURE, "exempt": s.SECURE_REDIRECT_EXEMPT,
}))
""",
        env=env,
    )
    assert got["debug"] is False
    assert got["hosts"] == ["example.org"]
    assert got["ssl"] and got["session"] and got["csrf"]
    assert got["hsts"] >= 31536000
    assert any("healthz" in pattern for pattern in got["exempt"])


POOL = """
import json, django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({"max_age": db["CONN_MAX_AGE"], "pool": db.get("OPTIONS", {}).get("pool")}))
"""


def test_postgresql_uses_a_bounded_pool_sized_from_the_environment():
    """Requests in threads must share a bounded pool, never keep one connection each."""
    url = "postgres://tock:pw@db.internal:5432/tock"
    got = python_json(POOL, env=clean_env(DATABASE_URL=url))
    assert got["max_age"] == 0  # Django refuses a pool with persistent connections
    assert got["pool"]["max_size"] >= got["pool"]["min_size"] >= 1
    assert got["pool"]["timeout"] > 0
    sized = clean_env(
        DATABASE_URL=url, DB_POOL_MIN_SIZE="2", DB_POOL_MAX_SIZE="6", DB_POOL_TIMEOUT="3.5"
    )
    got = python_json(POOL, env=sized)
    assert (got["pool"]["min_size"], got["pool"]["max_size"]) == (2, 6)
    assert got["pool"]["timeout"] == 3.5
    # Production settings keep the pool (they inherit the database section).
    production = dict(
        sized,
        DJANGO_SETTINGS_MODULE="tock_site.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="example.org",
    )
    got = python_json(POOL, env=production)
    assert got["max_age"] == 0 and got["pool"]["max_size"] == 6


def test_the_pool_can_be_turned_off_for_an_external_pooler():
    env = clean_env(DATABASE_URL="postgres://tock:pw@db.internal:5432/tock", DB_POOL="false")
    got = python_json(POOL, env=env)
    assert got["pool"] is None
    assert got["max_age"] == 0  # closed after each request unless DB_CONN_MAX_AGE says more


def test_sqlite_has_no_pool():
    got = python_json(POOL, env=clean_env())
    assert got["pool"] is None
