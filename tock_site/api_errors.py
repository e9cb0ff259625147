"""One error shape for the whole API: ``{"detail": "...", ...}`` with a 4xx status.

DRF already turns its own exceptions into 4xx responses; this handler adds the
engine's and the services' domain errors so that bad input never becomes a 500.
"""

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is not None:
        return response
    if isinstance(exc, ValidationError):
        detail = exc.messages[0] if len(exc.messages) == 1 else exc.messages
        return Response({"detail": detail}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, PermissionDenied):
        return Response({"detail": str(exc) or "Permission denied."}, status=403)
    return None
