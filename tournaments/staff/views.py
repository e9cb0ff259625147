"""The organizers' staff page: ``/tournaments/<pk>/organize/staff/``.

Thin: the services (:mod:`tournaments.staff.services`) check the roles and validate;
this view only routes the forms (``action`` = ``add`` | ``create`` | ``remove`` |
``link``: a new set-password link for an account whose password is not set yet).
Anonymous visitors are sent to log in, signed-in users without the organizer role get
403, a tournament they may not see 404. A new account's one-time set-password link is
shown on the answer to the form that created it (never stored in a message cookie).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.errors import DomainError
from tournaments.errors import NotFound
from tournaments.models import Role, Tournament
from tournaments.permissions import user_can_manage_league, user_can_manage_tournament
from tournaments.selectors import tournament_get_visible
from tournaments.staff.selectors import tournament_staff
from tournaments.staff.services import (
    STAFF_ROLES,
    staff_account_create,
    staff_account_link,
    staff_add,
    staff_remove,
)


def organizer_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament for an organizer's page: 404 when the user may not see it, 403
    (``PermissionDenied``) when they may see it but do not organize it."""
    try:
        tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404(str(exc.message)) from exc
    if not user_can_manage_tournament(user=request.user, tournament=tournament):
        raise PermissionDenied(_("Only the tournament's organizers may open this page."))
    return tournament


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    error: str | None = None,
    created: dict[str, Any] | None = None,
    form: dict[str, str] | None = None,
) -> HttpResponse:
    labels = dict(Role.choices)
    return render(
        request,
        "tournaments/organize/staff.html",
        {
            "tournament": tournament,
            "staff": tournament_staff(tournament=tournament, user=request.user),
            "roles": [(role, labels[role]) for role in STAFF_ROLES],
            "can_create": user_can_manage_league(user=request.user, league=tournament.league),
            "error": error,
            "created": created,
            "form": form or {},
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def organize_staff(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = organizer_tournament(request, pk)
    if request.method != "POST":
        return _page(request, tournament)
    action = request.POST.get("action", "")
    username = request.POST.get("username", "")
    role = request.POST.get("role", "")
    form = {"action": action, "username": username.strip()[:150], "role": role}
    try:
        if action == "add":
            member = staff_add(
                tournament=tournament, username=username, role=role, user=request.user
            )
            messages.success(
                request,
                _("%(name)s is now %(role)s.")
                % {"name": member.get_username(), "role": dict(Role.choices)[role]},
            )
        elif action == "remove":
            staff_remove(
                tournament=tournament,
                username=username,
                role=role or None,
                user=request.user,
            )
            messages.success(request, _("%(name)s was removed.") % {"name": form["username"]})
        elif action == "create":
            account = staff_account_create(
                tournament=tournament,
                username=username,
                display_name=request.POST.get("display_name", ""),
                role=role,
                user=request.user,
            )
            created = {
                "username": account.user.get_username(),
                "role": dict(Role.choices)[account.role],
                "link": request.build_absolute_uri(account.set_password_path),
            }
            return _page(request, tournament, created=created)
        elif action == "link":
            path = staff_account_link(tournament=tournament, username=username, user=request.user)
            created = {
                "username": form["username"],
                "link": request.build_absolute_uri(path),
                "again": True,
            }
            return _page(request, tournament, created=created)
        else:
            return _page(request, tournament, status=400, error=_("Unknown action."), form=form)
    except DomainError as exc:
        return _page(request, tournament, status=exc.http_status, error=str(exc.message), form=form)
    return redirect("tournaments:organize-staff", pk=tournament.pk)
