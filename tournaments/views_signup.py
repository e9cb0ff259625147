"""Sign up for a tournament, or withdraw, from its page (issue 24): ``POST
/tournaments/<pk>/signup/`` with ``action`` ``signup`` or ``withdraw``. Thin: the rules
are :mod:`tournaments.services.signup`'s. Post/redirect/get back to the tournament page
with a message (a refusal's reason as an error message)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import DomainError
from tournaments.errors import NotFound
from tournaments.redirects import see_other
from tournaments.selectors import tournament_get_visible
from tournaments.services.signup import (
    registration_self_check_in,
    signup,
    signup_withdraw,
)


@login_required
@require_POST
def tournament_signup(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    target = see_other(reverse("tournaments:tournament-detail", args=[pk]))
    action = request.POST.get("action")
    try:
        if action == "signup":
            reg = signup(tournament=tournament, user=request.user)
            messages.success(
                request,
                _("The tournament is full: you are on the waitlist.")
                if reg.waitlisted
                else _("You are registered."),
            )
        elif action == "withdraw":
            signup_withdraw(tournament=tournament, user=request.user)
            messages.success(request, _("You withdrew from this tournament."))
        else:
            messages.error(request, _("Unknown action."))
    except DomainError as exc:
        messages.error(request, str(exc.message))
    return target


@login_required
def tournament_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """The venue's QR code on the door leads here: GET goes to the tournament page (its
    "Check in" button); POST checks the signed-in player in."""
    try:
        tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    target = see_other(reverse("tournaments:tournament-detail", args=[pk]))
    if request.method == "POST":
        try:
            registration_self_check_in(tournament=tournament, user=request.user)
            messages.success(request, _("You are checked in."))
        except DomainError as exc:
            messages.error(request, str(exc.message))
    return target
