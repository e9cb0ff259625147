"""A league organizer adds a season from the league page (issue 24); the rules are
:func:`tournaments.services.seasons.season_create`'s. Post/redirect/get: back to the
league page with a message, the refusal's reason as an error message."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import DomainError
from tournaments.errors import NotFound
from tournaments.permissions import user_can_manage_league
from tournaments.redirects import see_other
from tournaments.selectors import league_get_visible
from tournaments.services.league_staff import league_role_add, league_role_remove
from tournaments.services.seasons import season_create


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None


def _points(text: str) -> list[float] | None:
    """ "25, 18, 15" -> [25, 18, 15]; empty: the default; not numbers: ``[-1]`` (refused
    by the service with its reason)."""
    text = text.strip()
    if not text:
        return None
    try:
        return [float(p) for p in text.replace(";", ",").split(",") if p.strip()]
    except ValueError:
        return [-1]


@login_required
@require_POST
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        league = league_get_visible(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    if not user_can_manage_league(user=request.user, league=league):
        raise PermissionDenied(_("Only the league's organizers add seasons."))
    best_of = request.POST.get("best_of", "").strip()
    target = see_other(reverse("tournaments:league-detail", args=[league.slug]))
    try:
        season = season_create(
            league=league,
            name=request.POST.get("name", ""),
            starts_on=_date(request.POST.get("starts_on", "")),
            ends_on=_date(request.POST.get("ends_on", "")),
            season_points=_points(request.POST.get("season_points", "")),
            best_of=int(best_of) if best_of.isdigit() and len(best_of) < 4 else (best_of or None),
            user=request.user,
        )
    except DomainError as exc:
        messages.error(request, str(exc.message))
        return target
    messages.success(request, _("Season %(name)s added.") % {"name": season.name})
    return target


@login_required
@require_POST
def league_staff_action(request: HttpRequest, slug: str) -> HttpResponse:
    """Add (``username``, ``role``) or remove (``remove``: a role's id) league staff."""
    try:
        league = league_get_visible(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    if not user_can_manage_league(user=request.user, league=league):
        raise PermissionDenied(_("Only the league's organizers change its staff."))
    target = see_other(reverse("tournaments:league-detail", args=[league.slug]))
    try:
        if request.POST.get("remove"):
            removed = request.POST["remove"]
            league_role_remove(
                league=league, role_id=int(removed) if removed.isdigit() else -1, user=request.user
            )
            messages.success(request, _("Removed from the league's staff."))
        else:
            made = league_role_add(
                league=league,
                username=request.POST.get("username", "").strip(),
                role=request.POST.get("role", ""),
                user=request.user,
            )
            messages.success(
                request,
                _("%(member)s is now on the league's staff.")
                % {"member": made.user.get_username()},
            )
    except DomainError as exc:
        messages.error(request, str(exc.message))
    return target
