"""Whether the site can send mail (``settings.MAIL_ENABLED``).

Password reset works only by mail: without it the reset link is not shown and the
reset pages answer 404, instead of a form whose mail silently goes nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest


def mail_enabled() -> bool:
    return bool(getattr(settings, "MAIL_ENABLED", False))


def mail_context(request: HttpRequest) -> dict[str, Any]:
    """Template context processor: ``password_reset_enabled``."""
    return {"password_reset_enabled": mail_enabled()}


def mail_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """404 while mail is off (checked on every request, so a settings change applies)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if not mail_enabled():
            raise Http404("Password reset needs mail, which is not configured.")
        return view(request, *args, **kwargs)

    return wrapper
