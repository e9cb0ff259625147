"""The application of ``make serve`` and the Docker ``web`` service: one port, two paths.

* **HTTP** goes through Django's *WSGI* handler, run in a fixed pool of
  ``WEB_THREADS`` threads per process (a2wsgi). Django's ASGI handler costs several
  milliseconds of CPU per request before any view runs (a new thread per request,
  async signal dispatch, thread hops around the synchronous middleware), which is
  most of the work of a small page; the WSGI path in a reused thread does not pay it
  (``bench/bench_serving.py``). The views are synchronous anyway.
* **WebSockets** (``/ws/``) go to the Channels stack of :mod:`tock_site.asgi`
  unchanged (origin check, session auth, consumers).

Invariant: at most ``WEB_THREADS`` requests run Django code at once in a process, and
each holds at most one database connection, borrowed from the process's pool at its
first query and given back when the response is closed (``request_finished``, in
the same thread). With ``WEB_THREADS <= DB_POOL_MAX_SIZE`` (the default makes them
equal) a request never waits for a connection.

Served by gunicorn with uvicorn workers: ``gunicorn -c tock_site/gunicorn.conf.py``.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from tock_site.asgi import application as _channels_application  # noqa: E402 (sets Django up)
from tock_site.wsgi import application as _wsgi_application  # noqa: E402


def _default_threads() -> int:
    """As many request threads as the database pool has connections (8 without a pool)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    return int(pool["max_size"]) if isinstance(pool, dict) and "max_size" in pool else 8


WEB_THREADS = int(os.environ.get("WEB_THREADS") or _default_threads())

application = ProtocolTypeRouter(
    {
        "http": WSGIMiddleware(_wsgi_application, workers=WEB_THREADS),
        "websocket": _channels_application.application_mapping["websocket"],
    }
)
