"""One error shape for the whole API: ``{"detail": "...", ...}`` with a 4xx status.

DRF already turns its own exceptions into 4xx responses; this handler adds the
engine's and the services' domain errors so that bad input never becomes a 500:

* a :class:`games.errors.DomainError` (tournaments' errors included) answers with its
  own ``http_status`` and ``as_dict()`` body (``detail``, ``code`` and extra fields such
  as ``current_sequence`` or ``line``);
* DRF's field validation errors keep their per-field messages under ``errors`` and get
  a one-line ``detail`` naming the first bad field;
* Django's request limits (a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413, too many
  form fields or files: 400) answer in JSON too, not with Django's HTML error page.
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
    ValidationError,
)
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import DomainError


def _first_message(data: Any, path: str = "") -> str:
    """The first message of a DRF error structure, prefixed with its field path."""
    if isinstance(data, dict):
        for key, value in data.items():
            field = "" if key == "non_field_errors" else str(key)
            return _first_message(value, ".".join(p for p in (path, field) if p))
        return path
    if isinstance(data, list | tuple):
        return _first_message(data[0], path) if data else path
    return f"{path}: {data}" if path else str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.http_status)
    response = drf_exception_handler(exc, context)
    if response is not None:
        if isinstance(exc, exceptions.ValidationError) and not (
            isinstance(response.data, dict) and set(response.data) == {"detail"}
        ):
            response.data = {
                "detail": _first_message(response.data),
                "code": "invalid",
                "errors": response.data,
            }
        return response
    if isinstance(exc, ValidationError):
        detail = exc.messages[0] if len(exc.messages) == 1 else exc.messages
        return Response({"detail": detail}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, PermissionDenied):
        return Response({"detail": str(exc) or "Permission denied."}, status=403)
    if isinstance(exc, RequestDataTooBig):
        detail = _(
            "The request body is too large (over %(limit)d bytes); upload a long log as a "
            "text/plain or application/x-ndjson body."
        ) % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
        return Response({"detail": detail, "code": "too_large"}, status=413)
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return Response({"detail": str(exc), "code": "malformed"}, status=400)
    if isinstance(exc, SuspiciousOperation):
        return Response({"detail": _("Bad request."), "code": "malformed"}, status=400)
    return None
