"""gunicorn settings of ``make serve`` and the Docker ``web`` service, from the environment.

One port serves HTTP and WebSockets: ``WEB_CONCURRENCY`` processes (default: one per
core), each an ASGI server (uvicorn's event loop, :mod:`tock_site.asgi_worker`) running
``tock_site.asgi:application``. Each process has its own database pool, so the site
opens at most ``WEB_CONCURRENCY * DB_POOL_MAX_SIZE`` PostgreSQL connections.

Variables: ``HOST`` (default 127.0.0.1; ``0.0.0.0`` in a container), ``PORT`` (8000),
``WEB_CONCURRENCY``, ``WEB_TIMEOUT`` (seconds a silent worker lives before it is
restarted, default 60), ``WEB_MAX_REQUESTS`` (recycle a worker after that many
requests, 0 = never). Run as ``gunicorn -c tock_site/gunicorn.conf.py``.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
worker_class = "tock_site.asgi_worker.AsgiWorker"
wsgi_app = "tock_site.serve:application"
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# No preload: each worker opens its own database pool after the fork.
preload_app = False
accesslog = None  # the balancer logs requests; set GUNICORN_CMD_ARGS=--access-logfile=-
errorlog = "-"
loglevel = os.environ.get("WEB_LOG_LEVEL", "warning")
