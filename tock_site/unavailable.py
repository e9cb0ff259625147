"""The database unreachable (PostgreSQL down, restarting, out of connections) answers
503 with ``Retry-After``, not a 500: the score page and API clients retry a 503 with the
same ``Idempotency-Key`` (docs/api.md, "When to retry"), so nothing recorded is lost or
stored twice.

Under ``/api/`` the API's error shape, ``{"detail": ..., "code": "unavailable"}``;
elsewhere a plain page. Nothing here uses the database, templates or translations
(any of them could be what failed).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from tock_site.error_views import is_api_path

#: Seconds a client should wait before retrying.
RETRY_AFTER = 5

PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>503 Service '
    "unavailable</title></head><body><h1>Service unavailable</h1><p>The database cannot "
    "be reached just now. Try again in a few seconds.</p></body></html>"
)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    if is_api_path(request.path):
        response: HttpResponse = JsonResponse(
            {
                "detail": "The database cannot be reached just now; retry shortly.",
                "code": "unavailable",
            },
            status=503,
        )
    else:
        response = HttpResponse(PAGE, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """Maps django.db's ``OperationalError``/``InterfaceError`` raised by a view (the API
    re-raises what its exception handler does not map) to :func:`unavailable_response`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            return unavailable_response(request)
        return None
