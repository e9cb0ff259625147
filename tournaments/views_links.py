"""Linking one's account to one's player (issue 23): ``/link/`` (enter the code, or see
and undo one's link) and ``/link/<code>/`` (where the QR code on a player's slip leads:
the code filled in, one tap to confirm); the organizer's slips of codes,
``/tournaments/<id>/print/codes/`` (a cut-out slip per registered player not yet
linked, with their code and its QR). The rules are :mod:`tournaments.services.links`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from games.errors import DomainError
from tournaments.errors import NotFound
from tournaments.models import Player, Registration
from tournaments.permissions import user_can_manage_tournament
from tournaments.qr import qr_svg
from tournaments.redirects import see_other
from tournaments.selectors import tournament_get_visible
from tournaments.services.links import link_code_issue, player_link_by_code, player_unlink
from tournaments.views_print import print_context


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def link_page(request: HttpRequest, code: str = "") -> HttpResponse:
    mine = Player.objects.filter(user_id=request.user.pk).first()
    error = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "unlink" and mine is not None:
                player_unlink(player=mine, user=request.user)
                messages.success(request, _("Your account is no longer linked to a player."))
            else:
                player = player_link_by_code(
                    code=request.POST.get("code", ""),
                    user=request.user,
                    address=request.META.get("REMOTE_ADDR", ""),
                )
                messages.success(
                    request, _("Your account is now %(name)s.") % {"name": player.display_name}
                )
            response = see_other(reverse("tournaments:link"))
            return response
        except DomainError as exc:
            error = exc
    return render(
        request,
        "tournaments/link.html",
        {"mine": mine, "code": request.POST.get("code", code), "error": error},
        status=error.http_status if error is not None else 200,
    )


@login_required
@require_safe
def print_codes(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    if not user_can_manage_tournament(user=request.user, tournament=tournament):
        raise PermissionDenied(_("Only the tournament's organizers print link codes."))
    slips = []
    for reg in (
        Registration.objects.filter(tournament=tournament, player__user__isnull=True, dropped=False)
        .select_related("player")
        .order_by("player__display_name", "player__handle")
    ):
        made = link_code_issue(player=reg.player, tournament=tournament, user=request.user)
        url = request.build_absolute_uri(reverse("tournaments:link-code", args=[made.code]))
        slips.append(
            {
                "player": reg.player,
                "code": made.code,
                "expires": made.expires_at,
                "url": url,
                "qr": mark_safe(qr_svg(url, scale=3)),  # noqa: S308 - segno's own markup
            }
        )
    return render(
        request, "tournaments/print/codes.html", print_context(request, tournament, slips=slips)
    )
