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

Garbage collection (:mod:`tock_site.heap`): a page of a big event allocates some
hundred thousand objects, and with Python's default thresholds (700, 10, 10) the cyclic
collector ran often enough to cost about a quarter of the uncached 1,000-player
tournament page (52 -> 40 ms in-process). Each process freezes what it loaded at start
(``gc.freeze``: never scanned again) and collects the youngest generation every
:data:`~tock_site.heap.GC_THRESHOLD` allocations; memory is still freed by reference
counting as before, only garbage in
reference cycles waits longer: so much longer with 8 request threads that the dead
contexts of rendered pages (Django's ``RequestContext`` is a cycle) and DRF's answers
took a worker rendering the 1,000-player page from 110 to 260-370 MB. The template
backend (:mod:`tock_site.template_backend`) and the API's base view
(:func:`tournaments.api.base._let_go`) break those cycles once a page is rendered.

Served by gunicorn with uvicorn workers: ``gunicorn -c tock_site/gunicorn.conf.py``.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from tock_site.asgi import application as _channels_application  # noqa: E402 (sets Django up)
from tock_site.heap import settle_heap  # noqa: E402
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

# Django, the apps and (loaded here) the URL conf and its views: none of it is garbage.
get_resolver().url_patterns  # noqa: B018 - imports the URL conf now
settle_heap()
