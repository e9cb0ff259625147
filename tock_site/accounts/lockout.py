"""Login locks (django-axes, database handler).

After ``AXES_FAILURE_LIMIT`` failed logins for one **(username, client address)** pair
that pair is refused for ``AXES_COOLOFF_TIME`` (15 minutes) counted from the last
recorded failure: the account stays open from other addresses (nobody can lock the
organizer out from afar) and the address stays open for other accounts (a venue's
phones share one address). It covers ``/accounts/login/``, ``/admin/login/`` and the
password check of ``POST /api/auth/token``. Superusers unlock in axes' admin
("Access attempts"), organizers on ``/accounts/unlock/`` (:func:`login_unlock`).
"""

from __future__ import annotations

import math
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from tock_site.accounts.client import client_ip


class LoginLockBackend(AxesStandaloneBackend):
    """Axes' lock check, first in ``AUTHENTICATION_BACKENDS``.

    Every login a client can reach (login forms, admin, token endpoint) passes the
    request. An ``authenticate()`` without one is code (the test client's ``login()``,
    a shell): there is no client address to lock, so it is not checked rather than
    refused with axes' ``ValueError``.
    """

    def authenticate(self, request: Any, username: Any = None, password: Any = None, **kw: Any):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kw)


def lock_retry_after(*, username: str | None, ip_address: str | None) -> int:
    """Seconds until the lock of (``username``, ``ip_address``) ends (at least 1)."""
    cool_off = get_cool_off()
    if cool_off is None:
        return 1
    last = AccessAttempt.objects.filter(username=username, ip_address=ip_address).aggregate(
        last=Max("attempt_time")
    )["last"]
    if last is None:
        return max(1, math.ceil(cool_off.total_seconds()))
    remaining = (last + cool_off - timezone.now()).total_seconds()
    return max(1, math.ceil(remaining))


def lockout_message() -> str:
    return _(
        "Too many failed logins for this account from your address. Wait %(minutes)d "
        "minutes and try again, or ask an organizer to unlock it."
    ) % {"minutes": _cool_off_minutes()}


def _cool_off_minutes() -> int:
    cool_off = get_cool_off()
    return math.ceil(cool_off.total_seconds() / 60) if cool_off else 0


def _posted_username(request: HttpRequest, credentials: Any) -> str | None:
    if isinstance(credentials, dict) and credentials.get("username"):
        return str(credentials["username"])
    username = request.POST.get("username") if request.method == "POST" else None
    return username or None


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: 429 with the login page's lock message, or the API's
    JSON error (``detail``, ``code``, ``Retry-After``) under ``/api/``.

    (Axes' async middleware passes ``credentials`` second: both orders are accepted.)
    """
    if isinstance(original_response, HttpResponse) and original_response.status_code == 429:
        return original_response  # the view already answered in its own shape
    if not isinstance(credentials, dict) and isinstance(original_response, dict):
        credentials = original_response
    username = _posted_username(request, credentials)
    retry_after = lock_retry_after(username=username, ip_address=client_ip(request))
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": lockout_message(), "code": "locked_out"}, status=429
        )
    else:
        context = {"message": lockout_message(), "username": username or ""}
        response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response


# --------------------------------------------------------------------------- unlocking


def _organized_tournaments_q(user: Any) -> Q:
    return Q(roles__user=user, roles__role="organizer") | Q(league__organizers=user)


def user_is_organizer(*, user: Any) -> bool:
    """Organizes at least one league or tournament (or is a superuser)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    from tournaments.models import TournamentRole

    return (
        user.organized_leagues.exists()
        or TournamentRole.objects.filter(user=user, role="organizer").exists()
    )


def user_can_unlock(*, actor: Any, username: str) -> bool:
    """Superusers unlock anyone. An organizer unlocks the accounts of the people of the
    tournaments they organize (staff with a role, registered players), except
    superusers."""
    if not getattr(actor, "is_authenticated", False):
        return False
    if actor.is_superuser:
        return True
    target = get_user_model().objects.filter(username=username).first()
    if target is None or target.is_superuser:
        return False
    from tournaments.models import Tournament

    organized = Tournament.objects.filter(_organized_tournaments_q(actor))
    return (
        Tournament.objects.filter(pk__in=organized.values("pk"))
        .filter(Q(roles__user=target) | Q(registrations__player__user=target))
        .exists()
    )


class UnlockNotAllowed(Exception):
    pass


def login_unlock(*, actor: Any, username: str, ip_address: str | None = None) -> int:
    """Lift the lock of ``username`` (from every address, or only ``ip_address``);
    returns how many failure records were removed. Raises :class:`UnlockNotAllowed`."""
    if not user_can_unlock(actor=actor, username=username):
        raise UnlockNotAllowed(username)
    return axes_reset(ip=ip_address or None, username=username)
