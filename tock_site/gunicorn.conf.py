"""gunicorn settings of ``make serve`` and the Docker ``web`` service, from the environment.

One port serves HTTP and WebSockets: ``WEB_CONCURRENCY`` processes (default: one per
core), each an ASGI server (uvicorn's event loop, :mod:`tock_site.asgi_worker`) running
``tock_site.asgi:application``. Each process has its own database pool, so the site
opens at most ``WEB_CONCURRENCY * DB_POOL_MAX_SIZE`` PostgreSQL connections.

Variables: ``HOST`` (default 127.0.0.1; ``0.0.0.0`` in a container), ``PORT`` (8000),
``WEB_CONCURRENCY``, ``WEB_TIMEOUT`` (seconds a silent worker lives before it is
restarted, default 60), ``WEB_MAX_REQUESTS`` (recycle a worker after that many
requests, 0 = never), ``WEB_REUSE_PORT`` (0: one socket shared by the workers instead
of one each). Without ``REDIS_URL`` and with more than one process the page
cache is turned off (it would be per process). Run as
``gunicorn -c tock_site/gunicorn.conf.py``.
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
worker_class = "tock_site.asgi_worker.AsgiWorker"
wsgi_app = "tock_site.serve:application"
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
# Each worker listens on a socket of its own (SO_REUSEPORT; gunicorn binds them after the
# fork) and the kernel spreads new connections over them by a hash. With one shared socket
# the worker that wakes first accepts every waiting connection, so a few keep-alive
# clients (a proxy's upstream pool, a load tester) all landed on one worker while the
# other cores idled: measured with wrk, 16 connections, the player page: 39-149 req/s
# shared (one run with one worker idle) against 145-154 req/s with reuse_port, both
# workers busy. The cost: connections queued on a worker that dies are reset.
# WEB_REUSE_PORT=0 goes back to one shared socket.
reuse_port = os.environ.get("WEB_REUSE_PORT", "1") != "0"
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# The page cache (tock_site.page_cache) is only right when every process shares it:
# without Redis each process has its own memory cache, and a change seen by one would
# leave the others serving stale pages for up to PAGE_CACHE_SECONDS. Off then.
if workers > 1 and not os.environ.get("REDIS_URL"):
    os.environ["PAGE_CACHE_SECONDS"] = "0"
# No preload: each worker opens its own database pool after the fork.
preload_app = False
accesslog = None  # the balancer logs requests; set GUNICORN_CMD_ARGS=--access-logfile=-
errorlog = "-"
loglevel = os.environ.get("WEB_LOG_LEVEL", "warning")
