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
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"
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
