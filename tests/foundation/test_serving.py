"""``make serve``'s server answers HTTP and WebSockets on one port.

The server (``gunicorn -c tock_site/gunicorn.conf.py``: uvicorn workers, HTTP through
Django's WSGI handler in a thread pool, ``/ws/`` through Channels) is started for
real on 127.0.0.1 over an empty SQLite file (the health check and the ping socket
need no tables), with two worker processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .helpers import BASE_DIR, clean_env

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def served(tmp_path: Path):
    port = free_port()
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
    )
    proc = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", "tock_site/gunicorn.conf.py"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120  # a hang, not slowness
        while True:
            assert proc.poll() is None, "gunicorn exited"
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer"
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_http_and_websockets_on_one_port(served: int) -> None:
    import websockets

    with urllib.request.urlopen(f"http://127.0.0.1:{served}/healthz", timeout=5) as response:
        assert response.status == 200
        assert json.loads(response.read())["database"]["status"] == "ok"
        assert response.headers.get("server") is None  # no software banner

    async def ping() -> dict:
        url = f"ws://127.0.0.1:{served}/ws/ping/"
        async with websockets.connect(url, origin=f"http://127.0.0.1:{served}") as ws:
            await ws.send(json.dumps({"type": "ping", "payload": "hi"}))
            return json.loads(await asyncio.wait_for(ws.recv(), 5))

    assert asyncio.run(ping()) == {"type": "pong", "payload": "hi"}


def test_make_serve_runs_this_server_and_make_run_stays_daphne() -> None:
    makefile = (BASE_DIR / "Makefile").read_text()
    serve = re.search(r"^serve:.*?(?=^\S)", makefile, re.M | re.S).group(0)
    assert "gunicorn -c tock_site/gunicorn.conf.py" in serve
    run = re.search(r"^run:.*?(?=^\S)", makefile, re.M | re.S).group(0)
    assert "daphne" in run and "tock_site.asgi:application" in run


def _listeners(port: int) -> int:
    """Sockets listening on 127.0.0.1:``port`` (``/proc/net/tcp``, state 0A = LISTEN)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state = fields[1], fields[3]
        if state == "0A" and local == f"0100007F:{port:04X}":
            count += 1
    return count


@pytest.mark.skipif(
    not hasattr(socket, "SO_REUSEPORT") or not Path("/proc/net/tcp").exists(),
    reason="SO_REUSEPORT and /proc/net/tcp are Linux's",
)
def test_each_worker_listens_on_a_socket_of_its_own(served: int) -> None:
    """Two workers, two sockets in one reuse-port group on the port (gunicorn's
    ``reuse_port``), so the kernel spreads new connections over both workers; with one
    shared socket the first worker to wake took every waiting connection."""
    deadline = time.monotonic() + 10
    while _listeners(served) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the second worker may still be starting
    assert _listeners(served) == 2
    with urllib.request.urlopen(f"http://127.0.0.1:{served}/healthz/live", timeout=5) as r:
        assert r.status == 200
