"""End-to-end fixtures: Playwright driving Debian's Chromium against a live ASGI server.

The browser
-----------
Playwright's Python package is launched with the system browser
(``executable_path`` = ``shutil.which("chromium")``, ``--no-sandbox``): no driver binary
and no browser download (``playwright install`` must never run; it fails here). Without
Chromium (or without the ``playwright`` package) every test here skips with the reason,
or fails under ``REQUIRE_SERVICES=1`` (``tests/conftest.py``: ``missing_service``).

One Playwright and one browser serve the whole package (starting Chromium costs
seconds); every test gets fresh contexts (cookies, language, viewport):

``phone``
    390 x 844 CSS pixels, device scale factor 2, ``is_mobile``, ``has_touch``.
``desktop``
    1280 x 900.
``make_context(kind="phone"|"desktop", locale="en-US", **options)``
    any further context (a second phone, a Spanish browser: ``locale`` sets the
    ``Accept-Language`` header and ``navigator.language``).

Contexts know the server (``base_url``), so ``page.goto("/tournaments/1/")`` works.

The server
----------
pytest-django's ``live_server`` speaks WSGI only, so live updates could not reach a
browser through it. ``live_site`` serves the real ASGI application
(``tock_site.asgi:application``: HTTP and ``/ws/``, static files added as
``runserver`` would) with daphne, in a thread of the test process, so that:

* the pages read the test database through their own connections. The tests are
  transactional (``transactional_db``); on SQLite the test database is a file for such
  runs (``tests/conftest.py``, ``django_db_modify_db_settings``), since an in-memory
  one cannot be shared between connections of several threads;
* a change made by the test through a service (``tournaments.services``) publishes its
  live notification (``outbox.live``) on the channel layer that the server's sockets
  listen on: an in-memory layer (:class:`ServerLoopChannelLayer`) whose every operation
  runs on the server's event loop, because the notification sender lives in a thread
  (and event loop) of its own.

Twisted's reactor runs once per process, so the server is started once per session
and every test gets it with a clean database (``transactional_db``) and a fresh
channel layer.

Screenshots
-----------
``shot(page, "step")`` saves ``tests/artifacts/<test>/<NN>-<step>.png`` (ignored by
git) so a person can look at what the browser saw; a failing test also leaves a
``failed`` shot of every page still open.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer

from tests.conftest import missing_service

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

#: Chromium's flags: no sandbox (root in a container), nothing that talks to the net.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"

#: Milliseconds a page action or expectation waits for its condition.
TIMEOUT_MS = 10_000
#: Milliseconds a live update may take to show (commit -> socket -> refetch -> swap);
#: the promise is "within a second", the margin is for a loaded 2-core machine.
LIVE_TIMEOUT_MS = 8_000


# --------------------------------------------------------------------------- channel layer


class ServerLoopChannelLayer(InMemoryChannelLayer):
    """The in-memory channel layer, safe to use from any thread of the test process.

    Its queues belong to the live server's event loop (the consumers wait on them
    there); a send from another loop (``outbox.live``'s sender thread) is handed to the
    server's loop instead of touching the queues from a foreign thread, which would not
    wake the waiting consumer."""

    #: The live server's event loop (set when it starts).
    server_loop: asyncio.AbstractEventLoop | None = None

    async def _on_server_loop(self, make: Callable[[], Any]) -> Any:
        loop = type(self).server_loop
        if loop is None or asyncio.get_running_loop() is loop:
            return await make()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(make(), loop))

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self._on_server_loop(
            lambda: super(ServerLoopChannelLayer, self).send(channel, message)
        )

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._on_server_loop(
            lambda: super(ServerLoopChannelLayer, self).group_send(group, message)
        )


# --------------------------------------------------------------------------- the server


class _AsgiServer:
    """daphne serving the site's ASGI application from a background thread."""

    def __init__(self) -> None:
        self.url = ""
        self._thread: threading.Thread | None = None
        self._server: Any = None

    def start(self, timeout: float = 30.0) -> None:
        # Importing daphne.server installs Twisted's asyncio reactor (it must be first).
        from daphne.server import Server
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from twisted.internet import reactor

        from tock_site.asgi import application

        listening = threading.Event()

        def wait_for_port() -> None:
            if self._server.listening_addresses:
                ServerLoopChannelLayer.server_loop = asyncio.get_event_loop()
                listening.set()
            else:
                reactor.callLater(0.02, wait_for_port)

        self._server = Server(
            # Static files as runserver serves them (DEBUG is off in tests and there is
            # no collectstatic): the pages' scripts must load.
            application=ASGIStaticFilesHandler(application),
            endpoints=["tcp:port=0:interface=127.0.0.1"],
            signal_handlers=False,
            ready_callable=lambda: reactor.callLater(0, wait_for_port),
            verbosity=0,
        )
        self._thread = threading.Thread(target=self._server.run, name="daphne", daemon=True)
        self._thread.start()
        if not listening.wait(timeout):
            raise RuntimeError(f"daphne did not start listening within {timeout} s")
        host, port = self._server.listening_addresses[0]
        self.url = f"http://{host}:{port}"

    def stop(self) -> None:
        from twisted.internet import reactor

        if self._thread and self._thread.is_alive():
            reactor.callFromThread(self._server.stop)
            self._thread.join(timeout=10)


@pytest.fixture(scope="session")
def _asgi_server() -> Iterator[_AsgiServer]:
    server = _AsgiServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def live_site(_asgi_server: _AsgiServer, transactional_db: None, settings: Any) -> Iterator[str]:
    """The base URL of the live ASGI server (HTTP and WebSockets) on the test database."""
    from django.db import connections

    from outbox.live import live_flush

    live_flush()  # what earlier tests queued must not reach this test's sockets
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "tests.browser.conftest.ServerLoopChannelLayer"}
    }
    from channels.layers import get_channel_layer

    # The very class the server set its loop on (not a second import of this module).
    assert type(get_channel_layer()).server_loop is ServerLoopChannelLayer.server_loop
    # The server's request threads come and go: their connections must close with the
    # request (else PostgreSQL's test database could not be dropped at the end).
    saved = {alias: connections[alias].settings_dict.get("CONN_MAX_AGE") for alias in connections}
    for alias in connections:
        connections[alias].settings_dict["CONN_MAX_AGE"] = 0
    yield _asgi_server.url
    live_flush()
    for alias, value in saved.items():
        connections[alias].settings_dict["CONN_MAX_AGE"] = value


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="session")
def chromium_path(chromium: dict[str, str]) -> str:
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing_service("the playwright package is not installed (pip install -e '.[dev]')")
    return chromium["browser"]


@pytest.fixture(scope="package")
def browser(chromium_path: str) -> Iterator[Any]:
    """Chromium (headless) driven by Playwright, launched from the system's binary."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    # Between its calls Playwright's sync API leaves its event loop marked as running in
    # this thread, and Django then refuses the test's own ORM work (data set-up, the
    # services a test calls, pytest-django's flush) as "async". That work is plain sync
    # code here, so Django's check is off while the browser runs (Playwright's documented
    # advice for Django); the consumers' async safety is tested in tests/live.
    saved_unsafe = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
        )
    except Exception as exc:
        playwright.stop()
        os.environ.pop(ASYNC_UNSAFE, None)
        missing_service(f"Chromium at {chromium_path} did not start ({exc})")
    yield chromium
    chromium.close()
    playwright.stop()
    if saved_unsafe is None:
        os.environ.pop(ASYNC_UNSAFE, None)
    else:
        os.environ[ASYNC_UNSAFE] = saved_unsafe


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


def _artifact_dir(node: pytest.Item) -> Path:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", node.name).strip("-")
    return ARTIFACTS / name


@pytest.fixture
def make_context(browser: Any, live_site: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """``make_context(kind="phone", locale="en-US", **options)``: a fresh browser context
    on the live site. Closed after the test (after a ``failed`` shot of its pages)."""
    contexts: list[Any] = []

    def make(kind: str = "phone", locale: str = "en-US", **options: Any) -> Any:
        base = PHONE if kind == "phone" else DESKTOP
        context = browser.new_context(**{**base, **options}, base_url=live_site, locale=locale)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    failed = request.node.stash.get(_FAILED, False)
    for n, context in enumerate(contexts, start=1):
        for m, page in enumerate(context.pages, start=1):
            if failed:
                folder = _artifact_dir(request.node)
                folder.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(Exception):  # a crashed page has nothing to show
                    page.screenshot(path=str(folder / f"failed-context{n}-page{m}.png"))
        context.close()


@pytest.fixture
def phone(make_context: Callable[..., Any]) -> Any:
    """A phone-sized context: 390 x 844, scale 2, mobile, touch."""
    return make_context("phone")


@pytest.fixture
def desktop(make_context: Callable[..., Any]) -> Any:
    """A desktop context: 1280 x 900."""
    return make_context("desktop")


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """``shot(page, "step")``: save a full-page screenshot as
    ``tests/artifacts/<test>/<NN>-<step>.png`` and return its path."""
    folder = _artifact_dir(request.node)
    shutil.rmtree(folder, ignore_errors=True)  # only this run's pictures
    counter = iter(range(1, 1000))

    def take(page: Any, step: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", step).strip("-")
        path = folder / f"{next(counter):02d}-{slug}.png"
        page.screenshot(path=str(path), full_page=True, scale="css", animations="disabled")
        return path

    return take


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def log_in(live_site: str) -> Callable[[Any, Any], None]:
    """``log_in(context, user)``: sign ``user`` in for every page of ``context`` with a
    session made by Django's test client, for tests that are not about logging in."""
    from django.conf import settings
    from django.test import Client

    def sign_in(context: Any, user: Any) -> None:
        client = Client()
        client.force_login(user)
        name = settings.SESSION_COOKIE_NAME
        cookie = {"name": name, "value": client.cookies[name].value, "url": live_site}
        context.add_cookies([cookie])

    return sign_in


def fits_width(page: Any) -> bool:
    """Nothing wider than the screen: no sideways scrolling at the venue."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def table_fits(page: Any, selector: str) -> bool:
    """Whether the table fits its scrolling box (no column hidden to the right)."""
    return page.evaluate(
        "(s) => { const t = document.querySelector(s); "
        "return t.parentElement.scrollWidth <= t.parentElement.clientWidth; }",
        selector,
    )


class ServeOnce:
    """A Playwright route handler that answers the first GET it sees with ``html`` (a
    copy of a page made earlier: what a slow answer that crossed a newer one brings)
    and lets every other request through. ``served`` lists the URL it answered."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.served: list[str] = []

    def __call__(self, route: Any) -> None:
        if route.request.method == "GET" and not self.served:
            self.served.append(route.request.url)
            route.fulfill(status=200, body=self.html, content_type="text/html")
        else:
            route.continue_()

    def wait(self, page: Any) -> None:
        """Let the page run until the copy was served (route handlers run then)."""
        wait_until(page, lambda: self.served, "the older copy to be asked for")


def wait_until(page: Any, done: Callable[[], Any], what: str) -> None:
    """Let Playwright run (route handlers are called then) until ``done()``, ≤ 10 s."""
    for _ in range(200):
        if done():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out waiting for {what}")
