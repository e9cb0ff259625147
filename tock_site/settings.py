"""Settings, read from the environment.

Two modes:

* **Embedded** (no environment set): SQLite, Celery tasks run in-process (eager),
  the in-memory channel layer and a local-memory cache. `make run` works on a bare
  machine.
* **Real stack**: ``DATABASE_URL`` (PostgreSQL through psycopg 3) and ``REDIS_URL``
  (Celery broker and result backend, channel layer, cache). This is how the site is
  deployed and how CI tests it.

Production hardening lives in :mod:`tock_site.settings_production`; every variable
is listed in ``docs/deploy.md``. Tests run Celery eagerly and give each run its own
test database and Redis prefixes (``tests/conftest.py``).
"""

from datetime import timedelta
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():  # optional local overrides; the real environment wins
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=True)
# The embedded default key only ever serves a developer's own machine; production
# settings refuse to start without DJANGO_SECRET_KEY.
SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-embedded-development-key-change-me")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by us (/api/docs/ works offline)
    "channels",
    "axes",
    "tock_site.accounts",
    "outbox",
    "games",
    "tournaments",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The database unreachable: 503 + Retry-After, not 500 (tock_site.unavailable).
    "tock_site.unavailable.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes asks: turns a locked login into its 429 page (tock_site.accounts.lockout).
    "axes.middleware.AxesMiddleware",
    # Last: serves and stores the public read pages marked page_cached (tock_site.page_cache).
    "tock_site.page_cache.PageCacheMiddleware",
]

ROOT_URLCONF = "tock_site.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "tock_site.asgi.application"

TEMPLATES = [
    {
        # Django's, freeing each render's context at once (see the module).
        "BACKEND": "tock_site.template_backend.DjangoTemplates",
        "NAME": "django",  # the alias Django's own backend has
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tock_site.accounts.mail.mail_context",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a competing writer instead of failing at once ("database is locked").
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    # Each request may run in a thread of its own (daphne, uvicorn, threaded workers), and
    # Django keeps one connection per thread: with CONN_MAX_AGE > 0 every such thread
    # kept its connection until PostgreSQL refused clients. So by default a bounded pool
    # per process (psycopg_pool through Django's OPTIONS["pool"]): a request borrows a
    # connection and returns it when it ends; at most DB_POOL_MAX_SIZE are open per
    # process, and a request that finds none free waits DB_POOL_TIMEOUT seconds, then
    # fails (an error page, never a connection past the bound). The pool needs
    # CONN_MAX_AGE = 0.
    # DB_POOL=false (e.g. behind PgBouncer) falls back to per-thread connections that
    # live DB_CONN_MAX_AGE seconds (default 0: closed after each request).
    if env.bool("DB_POOL", default=True):
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
            "max_size": env.int("DB_POOL_MAX_SIZE", default=8),
            # Short: /healthz must answer 503 soon when PostgreSQL is down (the pool
            # retries the connection until then instead of failing at once).
            "timeout": env.float("DB_POOL_TIMEOUT", default=5.0),
            # Recycle idle connections beyond min_size after 5 minutes.
            "max_idle": env.float("DB_POOL_MAX_IDLE", default=300.0),
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Fail fast (and let /healthz answer) when PostgreSQL cannot be reached.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache, channel layer, Celery ------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")
# Keeps several sites (or parallel test runs) apart on one Redis.
REDIS_KEY_PREFIX = env("REDIS_KEY_PREFIX", default="tock")

if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, with one client (and its connections) per process (see the module).
            "BACKEND": "tock_site.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "TIMEOUT": 300,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            # A cache that cannot be reached must not take pages down with it.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_KEY_PREFIX}:asgi"},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Seconds a rendered public page is kept at most (tock_site.page_cache: it is dropped as
# soon as something it shows changes; this bounds what that cannot see).
# 0 turns the page cache off.
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=60)

# "memory://localhost/" (not "memory://"): kombu warns about a URL without a host.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL or "memory://localhost/")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL or "cache+memory://")
# Without a broker, tasks run in-process so the embedded mode needs no worker.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again: tasks are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # Publishing from a request tries the broker twice, 0.2 s apart, then gives up: work
    # that must happen is an outbox row, published again by the sweep (outbox.services).
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
    # A task taken by a worker that dies is delivered again after this many seconds
    # (with acks_late); tasks here take seconds, so five minutes is ample.
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300),
    # Queues are polled in the order CELERY_TASK_QUEUES lists them (not in turn).
    "queue_order_strategy": "priority",
}
# Every worker consumes both queues, "urgent" first: a round's progression is taken
# before queued rating updates (outbox.handlers: URGENT_QUEUE, DEFAULT_QUEUE). A prefix
# keeps several sites (or test runs) on one Redis apart.
CELERY_QUEUE_PREFIX = env("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_QUEUES = (Queue(f"{CELERY_QUEUE_PREFIX}urgent"), Queue(f"{CELERY_QUEUE_PREFIX}celery"))
CELERY_TASK_DEFAULT_QUEUE = f"{CELERY_QUEUE_PREFIX}celery"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_IMPORTS = ["tock_site.tasks"]  # tock_site is not an app: autodiscovery misses it
CELERY_BEAT_SCHEDULE: dict = {
    "site-heartbeat": {"task": "tock_site.site_heartbeat", "schedule": 60.0},
    # Publishes again what a lost publish left pending (see outbox.services).
    "outbox-sweep": {"task": "outbox.sweep", "schedule": 60.0},
    # Progresses tournaments whose progression was missed; ends rounds whose time is up.
    "tournaments-progression-sweep": {"task": "tournaments.progression_sweep", "schedule": 60.0},
}

# --- Auth -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "tock_site.accounts.lockout.LoginLockBackend",  # axes: refuses a locked (user, address)
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Client address behind proxies ------------------------------------------------------
# How many reverse proxies of ours append to X-Forwarded-For in front of the app. 0 (the
# default): daphne faces the clients and the header is ignored (anyone can write it).
# n: the client is the n-th address from the right. Used by the API throttle (DRF's
# NUM_PROXIES) and the login locks (tock_site.accounts.client.client_ip); see
# docs/deploy.md. Never combine with `daphne --proxy-headers`.
TRUSTED_PROXIES = env.int("DJANGO_TRUSTED_PROXIES", default=0)

# --- Login locks (django-axes) ------------------------------------------------------------
# A (username, address) pair is refused for 15 minutes after AXES_FAILURE_LIMIT failed
# logins (login page, admin, API token). Attempts live in the database: no Redis needed.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # at most 15 minutes, even if retried
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "tock_site.accounts.client.client_ip"
AXES_LOCKOUT_CALLABLE = "tock_site.accounts.lockout.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # no history of successful logins (personal data)
AXES_VERBOSE = False

# --- Mail ---------------------------------------------------------------------------------
# DJANGO_EMAIL_URL (e.g. smtp+tls://user:password@smtp.example.org:587) or EMAIL_HOST,
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS. Without either, mail
# goes to the console here (embedded mode); production settings turn it off instead.
# MAIL_ENABLED decides whether password reset is offered (tock_site.accounts.mail).
if env("DJANGO_EMAIL_URL", default=""):
    _email = env.email_url("DJANGO_EMAIL_URL")
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
    EMAIL_PORT = _email.get("EMAIL_PORT", 25)
    EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
    EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
    MAIL_CONFIGURED = True
elif env("EMAIL_HOST", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=587)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
    MAIL_CONFIGURED = True
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    MAIL_CONFIGURED = False
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)  # a dead mail server must not hang pages
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="") or "TOCK tournaments <noreply@localhost>"
SERVER_EMAIL = env("SERVER_EMAIL", default="") or DEFAULT_FROM_EMAIL
MAIL_ENABLED = True  # the console counts here; settings_production: MAIL_CONFIGURED

# --- I18N / time --------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("DJANGO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").exists() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- REST API -----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "tock_site.api_errors.exception_handler",
    # X-Forwarded-For is trusted from this many proxies only (see TRUSTED_PROXIES).
    "NUM_PROXIES": TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_RATES": {"auth-token": env("API_TOKEN_RATE", default="10/min")},
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "TOCK tournaments API",
    "DESCRIPTION": "Leagues, tournaments, standings, ratings and game event logs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # a league's staff roles (tournaments.api.league_staff) beside a tournament's roles
    "ENUM_NAME_OVERRIDES": {"LeagueStaffRoleEnum": ["scorekeeper", "referee"]},
}

# --- Logging -----------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}
