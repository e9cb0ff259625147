"""Rendered public pages, kept in the cache until something they show changes.

The public read pages (home, the tournament page with its ``?round=``, ``?tables=``
and ``?standings=`` variants, the player page, the API standings) are what crowds at a
venue reload; between two results they are the same bytes for every anonymous
visitor. :class:`PageCacheMiddleware` keeps the rendered answer of such a page in
Django's cache (Redis on the real stack, the process's memory when embedded) and
serves it again, without running the view or touching the database, until the
*page version* moves on.

The version
-----------
One number for the whole site (:data:`VERSION_KEY`), stored in every entry: an entry
of another version is never served (one round trip reads both, ``get_many``).
:func:`pages_changed` moves it on. Only :mod:`tournaments.effects` calls it, once per
transaction after commit, for every recorded change a cached page shows (results, a
game starting, seating, registrations, rulings, players hidden or erased, leagues,
ratings): see the table there. A visitor who rendered the old state before the commit
stored it under the old version, which the move after commit makes stale. Event rows of
a game in progress and the outbox are not shown on cached pages.

What none of these sees (SQL run outside the services and the admin) shows after at
most :data:`settings.PAGE_CACHE_SECONDS` (60 by default), the life of an entry.
``PAGE_CACHE_SECONDS=0`` turns the page cache off.

Who gets a cached page
----------------------
Only a plain anonymous ``GET``: no session cookie (so nobody signed in, and no
messages kept in a session), no ``messages`` cookie, no ``Authorization`` header (API
tokens), only query parameters the view names with values of the shape it names
(anything else, e.g. ``?find=`` or ``?round=x9``, is rendered afresh: nobody can fill
the cache with variants), and for API views an ``Accept`` that allows JSON (the one
renderer). The key holds the scheme, host, path, the sorted query and the active
language (cookie or ``Accept-Language``, chosen by ``LocaleMiddleware``).

A crowd reloading at once (every live page refetches right after a result) costs one
render, however slow it is under load: the first request of a version takes a short
lock (``cache.add``) and renders; the others wait for its entry (or a later version's),
and if the lock goes without one, the next of them renders in its place; only past
:data:`WAIT_SECONDS` does a request render the page itself.

What is stored: a ``200`` answer whose rendering set no cookie, used no CSRF token
(``get_token``), did not touch the session's contents and left no message; headers
as the view set them (``Vary``, ``Content-Language`` and ``Vary: Cookie`` are added by
the outer middleware on every answer, hit or miss, as before). So a signed-in
visitor's page, or any page carrying a CSRF token or a cookie, is never stored nor
served to anybody else. A cache that cannot be reached is skipped: the page is
rendered as without it, and the process leaves the cache alone for
:data:`RETRY_SECONDS`; a version move it could not make then is made, as a fresh
version, at its next page or write once the cache answers again.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

logger = logging.getLogger(__name__)

#: The cache key of the site's page version.
VERSION_KEY = "tock:pages:version"
#: Prefix of the cached pages' keys.
ENTRY_PREFIX = "tock:page:"
#: Longest query string a cached page may have (longer ones are rendered afresh).
MAX_QUERY = 200
#: Seconds the page cache leaves a cache that failed alone before trying it again.
RETRY_SECONDS = 5.0
#: Seconds a render lock lives at most (a request that died holding it).
LOCK_SECONDS = 10
#: Seconds a request waits at most for another's render of the same page (however slow
#: that render is under load) before rendering it itself.
WAIT_SECONDS = 10.0
#: Response header that marks an answer served from the page cache.
HIT_HEADER = "X-Page-Cache"

# --------------------------------------------------------------------------- the version


def _fresh_version() -> int:
    # A version never used before (nanoseconds), so that a lost or cleared version key
    # never brings back the entries of an older one.
    return time.time_ns()


def page_version() -> int:
    """The current page version (created when missing)."""
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, _fresh_version(), None)
        version = cache.get(VERSION_KEY)
    return int(version)


class _Health:
    """Per process: after the cache failed, the page cache leaves it alone for
    :data:`RETRY_SECONDS` (a write must not wait for a dead Redis on every statement),
    and a version move missed meanwhile becomes a fresh version once it answers again
    (so no entry of before the outage is served after it)."""

    down_until = 0.0
    missed = False

    @classmethod
    def down(cls) -> bool:
        return time.monotonic() < cls.down_until

    @classmethod
    def failed(cls, what: str) -> None:
        cls.down_until = time.monotonic() + RETRY_SECONDS
        cls.missed = True
        logger.warning("page cache: %s failed; off for %s s", what, RETRY_SECONDS, exc_info=True)


def _bump() -> None:
    if _Health.down():
        _Health.missed = True
        return
    try:
        if _Health.missed:
            cache.set(VERSION_KEY, _fresh_version(), None)
            _Health.missed = False
            return
        try:
            cache.incr(VERSION_KEY)
        except ValueError:  # no version yet (or evicted): a fresh one
            cache.set(VERSION_KEY, _fresh_version(), None)
    except Exception:
        _Health.failed("moving the version on")


def pages_changed() -> None:
    """Every cached page is stale: moves the page version on. Called after commit by
    :func:`tournaments.effects.flush` (never inside a transaction: a page rendered
    meanwhile could show uncommitted rows under the new version)."""
    _bump()


# --------------------------------------------------------------------------- the views


def page_cached(
    view: Callable[..., HttpResponse] | None = None,
    *,
    params: Mapping[str, str] | None = None,
    vary_accept: bool = False,
) -> Any:
    """Mark ``view`` as a public read page the page cache may keep. ``params`` maps the
    query parameters it understands to the pattern of the values worth keeping (a
    request with any other parameter or value is rendered afresh, so the number of
    entries a page can have is bounded); ``vary_accept``: an API view, kept for
    callers that accept JSON. Usable as ``@page_cached(params={...})`` or
    ``page_cached(view, ...)``; returns ``view``."""
    patterns = {name: re.compile(pattern) for name, pattern in (params or {}).items()}

    def mark(func: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        func.page_cache = (patterns, vary_accept)  # type: ignore[attr-defined]
        return func

    return mark(view) if view is not None else mark


#: What an API caller's ``Accept`` must allow for a cached (JSON) answer.
JSON_ACCEPTS = ("application/json", "application/*", "*/*")


def _cacheable(request: HttpRequest, patterns: dict[str, re.Pattern], vary_accept: bool) -> bool:
    if request.method != "GET" or settings.PAGE_CACHE_SECONDS <= 0:
        return False
    if "HTTP_AUTHORIZATION" in request.META:
        return False
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or CookieStorage.cookie_name in cookies:
        return False
    if len(request.META.get("QUERY_STRING", "")) > MAX_QUERY:
        return False
    if vary_accept:
        accept = request.META.get("HTTP_ACCEPT", "")
        if accept and not any(kind in accept for kind in JSON_ACCEPTS):
            return False
    for name in request.GET:
        values = request.GET.getlist(name)
        pattern = patterns.get(name)
        if pattern is None or len(values) != 1 or not pattern.fullmatch(values[0]):
            return False
    return True


def _key(request: HttpRequest) -> str:
    parts = [
        request.scheme or "",
        request.get_host(),
        request.path,
        "&".join(f"{k}={v}" for k, v in sorted(request.GET.items())),
        translation.get_language() or "",
    ]
    digest = hashlib.blake2b("\n".join(parts).encode(), digest_size=20).hexdigest()
    return f"{ENTRY_PREFIX}{digest}"


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False  # the page carries a CSRF token: it is this visitor's alone
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return False
    messages = getattr(request, "_messages", None)
    if messages is not None and len(messages):
        return False
    control = response.get("Cache-Control", "").lower()
    if "private" in control or "no-store" in control:
        return False
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


class PageCacheMiddleware:
    """Serves and stores the pages marked with :func:`page_cached` (see the module).
    Placed last in ``MIDDLEWARE``: it sees the view's own answer, and every other
    middleware treats a cached answer as it treats a fresh one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
            miss = getattr(request, "_page_cache_miss", None)
            if miss is not None and not _Health.down() and _storable(request, response):
                self._store(request, response, key=miss[0], version=miss[1])
        finally:
            lock = getattr(request, "_page_cache_lock", None)
            if lock is not None:
                try:
                    cache.delete(lock)
                except Exception:
                    _Health.failed("releasing a render lock")
        return response

    @staticmethod
    def _store(request: HttpRequest, response: HttpResponse, *, key: str, version: int) -> None:
        headers = [
            (name, value)
            for name, value in response.items()
            if name.lower() not in ("content-length", "set-cookie")
        ]
        try:
            # The version read before rendering: if a change came meanwhile, the entry
            # is already stale and the next visitor renders afresh.
            entry = (version, response.content, response.charset, headers)
            cache.set(key, entry, settings.PAGE_CACHE_SECONDS)
        except Exception:
            _Health.failed(f"storing {request.path}")

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: Any,
        view_kwargs: Any,
    ) -> HttpResponse | None:
        marked = getattr(view_func, "page_cache", None)
        if marked is None or not _cacheable(request, *marked):
            return None
        if _Health.down():
            return None
        key = _key(request)
        try:
            if _Health.missed:  # a change went unrecorded while the cache was down
                _bump()
            found = cache.get_many([VERSION_KEY, key])
            version = found.get(VERSION_KEY)
            if version is None:
                version = page_version()
            entry = found.get(key)
            if entry is None or entry[0] != version:
                entry = self._render_once(request, key, version)
        except Exception:
            _Health.failed(f"reading {request.path}")
            return None
        if entry is None:
            return None  # this request renders (and stores) the page
        _version, content, charset, headers = entry
        response = HttpResponse(content, charset=charset)
        for name, value in headers:
            response[name] = value
        # As a fresh render would (it reads the session to learn who is asking).
        patch_vary_headers(response, ("Cookie",))
        response[HIT_HEADER] = "hit"
        return response

    @staticmethod
    def _render_once(request: HttpRequest, key: str, version: int) -> tuple | None:
        """A miss: the entry another request is rendering right now (the live pages of
        a crowd all reload at once after a result), or ``None`` when this request is to
        render it. One render per change whatever the crowd: the first request of a
        version takes a short lock and renders; the others wait for an entry of that
        version or a later one (never a page older than the change they saw), however
        slow the render, and when the lock goes without an entry (the render failed or
        could not be stored) the next of them takes the lock in its place. Nobody waits
        more than :data:`WAIT_SECONDS` (a render lock lives :data:`LOCK_SECONDS` at
        most); past that, a request renders the page itself."""
        lock = f"{key}:render:{version}"
        deadline = time.monotonic() + WAIT_SECONDS
        pause = 0.005
        while True:
            if cache.add(lock, 1, LOCK_SECONDS):
                request._page_cache_lock = lock  # type: ignore[attr-defined]
                # Another request may have rendered and stored it since this one looked.
                entry = cache.get(key)
                if entry is not None and entry[0] >= version:
                    return entry
                request._page_cache_miss = (key, version)  # type: ignore[attr-defined]
                return None
            while True:
                if time.monotonic() >= deadline:
                    request._page_cache_miss = (key, version)  # type: ignore[attr-defined]
                    return None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
                found = cache.get_many([key, lock])
                entry = found.get(key)
                if entry is not None and entry[0] >= version:
                    return entry
                if lock not in found:
                    break  # rendered without an entry, or given up: take the lock


__all__ = [
    "PageCacheMiddleware",
    "page_cached",
    "page_version",
    "pages_changed",
]
