"""The gunicorn worker class of ``make serve`` and the Docker ``web`` service.

uvicorn's worker with the settings this site needs:

* ``proxy_headers`` off: the app reads ``X-Forwarded-For`` itself, trusting only
  ``DJANGO_TRUSTED_PROXIES`` entries from the right (docs/deploy.md, "Client
  addresses behind proxies"); the server must not rewrite the client address first.
* ``lifespan`` off: Django and Channels do not implement the lifespan protocol.
* uvloop and httptools when installed (``auto``), the fastest parser and loop.
* no ``server`` header (it only tells the software).
"""

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class AsgiWorker(UvicornWorker):
    """``gunicorn -k tock_site.asgi_worker.AsgiWorker tock_site.asgi:application``."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "auto",
        "http": "auto",
        "ws": "auto",
        "proxy_headers": False,
        "lifespan": "off",
        "server_header": False,  # no "server: uvicorn" on every answer
    }
