"""Referee calls from the pages (issue 23): ``POST /games/<pk>/call/`` (a player of the
table or its staff; an optional one-line ``reason``), ``POST /calls/<id>/claim/`` and
``POST /calls/<id>/close/`` (referees, from the referee list). Thin: the rules are
:mod:`tournaments.services.calls`'s. Post/redirect/get back to where the form was
(``next``, a path on this site), with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import DomainError
from tournaments.redirects import see_other
from tournaments.services.calls import referee_call, referee_call_claim, referee_call_close


def _back(request: HttpRequest, default: str) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = default
    response = see_other(target or default)
    return response


@login_required
@require_POST
def game_call(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        referee_call(game=pk, user=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, _("A referee is called to your table."))
    except DomainError as exc:
        messages.error(request, str(exc.message))
    return _back(request, reverse("tournaments:game-detail", args=[pk]))


@login_required
@require_POST
def call_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    try:
        if action == "claim":
            call = referee_call_claim(call=pk, user=request.user)
            messages.success(request, _("You are on the way."))
        else:
            call = referee_call_close(call=pk, user=request.user)
            messages.success(request, _("Call closed."))
        default = reverse("tournaments:referee", args=[call.tournament_id])
    except DomainError as exc:
        messages.error(request, str(exc.message))
        default = "/"
    return _back(request, default)
