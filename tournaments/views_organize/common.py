"""What every organizer page shares: access (sign-in, the tournament visible and
organized by the user), the dashboard's rendering, a service call's message, the
confirmation page of destructive actions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse

from games.errors import DomainError
from tournaments.errors import NotAllowed, NotFound
from tournaments.forms import (
    PlayerAddForm,
    PlayerCsvForm,
    TournamentSettingsForm,
)
from tournaments.models import Tournament
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.selectors import (
    organize_audit_page,
    organize_dashboard,
    tournament_get_visible,
)

#: How many audit entries the dashboard shows (the audit page has them all).
RECENT_AUDIT = 8


#: Registered players shown a page on the dashboard: a 1,000-player event would
#: otherwise send a megabyte to an organizer's phone after every tap. The search box
#: asks the server (``?q=``), so every player is one search away.
REGISTRATIONS_PER_PAGE = 100


def organizer_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Sign-in required (else the login page), the tournament visible (else 404) and
    organized by the user (else 403); the view gets the tournament instead of ``pk``."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            tournament = tournament_get_visible(tournament_id=pk, user=request.user)
        except NotFound as exc:
            raise Http404(str(exc.message)) from exc
        ensure_can_manage_tournament(user=request.user, tournament=tournament)
        try:
            return view(request, tournament, *args, **kwargs)
        except NotFound as exc:
            raise Http404(str(exc.message)) from exc

    return login_required(wrapper)


def dashboard_url(tournament: Tournament, anchor: str = "", **query: str) -> str:
    url = reverse("tournaments:organize", args=[tournament.pk])
    query = {k: v for k, v in query.items() if v}
    if query:
        url += "?" + urlencode(query)
    return url + (f"#{anchor}" if anchor else "")


def back_to_dashboard(
    tournament: Tournament, anchor: str = "", **query: str
) -> HttpResponseRedirect:
    return HttpResponseRedirect(dashboard_url(tournament, anchor, **query))


def refused(request: HttpRequest, exc: DomainError) -> None:
    """A service's refusal as an error message (the role was checked before, so this
    is a state or input problem: 400/409)."""
    messages.error(request, str(exc.message))


def attempt(request: HttpRequest, action: Callable[[], object], *, success: str) -> bool:
    """Run one service call for a page: its refusal becomes an error message, its
    success ``success``. A missing role (``NotAllowed``) is not a refusal to show on the
    dashboard: it propagates and answers 403."""
    try:
        action()
    except NotAllowed:
        raise
    except DomainError as exc:
        refused(request, exc)
        return False
    messages.success(request, success)
    return True


def search_of(request: HttpRequest) -> str:
    return (request.GET.get("q") or request.POST.get("q") or "").strip()[:60]


def page_of(request: HttpRequest) -> str:
    """The page of the registrations list the request came from (``?page=N``, or the
    hidden ``page`` of a form on it), so that an action returns to it."""
    value = (request.GET.get("page") or request.POST.get("page") or "").strip()
    return value if value.isdigit() and value != "1" else ""


def render_dashboard(
    request: HttpRequest, tournament: Tournament, *, status: int = 200, **forms: Any
) -> HttpResponse:
    dashboard = organize_dashboard(tournament=tournament)
    query = search_of(request).lower()
    rows = dashboard.registrations
    if query:
        rows = [r for r in rows if query in r.display_name.lower() or query in r.handle]
    page = Paginator(rows, REGISTRATIONS_PER_PAGE).get_page(page_of(request) or 1)
    context = {
        "tournament": tournament,
        "dash": dashboard,
        "rows": page.object_list,
        "reg_page": page,
        # What a row's links carry so that the organizer comes back to the same list.
        "keep_query": urlencode(
            {k: v for k, v in (("q", search_of(request)), ("page", page_of(request))) if v}
        ),
        "q": search_of(request),
        "settings_form": forms.get("settings_form")
        or (TournamentSettingsForm.for_tournament(tournament) if dashboard.can_edit else None),
        "add_form": forms.get("add_form") or PlayerAddForm(),
        "csv_form": forms.get("csv_form") or PlayerCsvForm(),
        "csv_errors": forms.get("csv_errors") or [],
        "audit": organize_audit_page(tournament=tournament, per_page=RECENT_AUDIT),
        # the address the venue's QR code on the door leads to (check-in from the phone)
        "check_in_url": request.build_absolute_uri(
            reverse("tournaments:tournament-check-in", args=[tournament.pk])
        ),
    }
    return render(request, "tournaments/organize/dashboard.html", context, status=status)


def confirm_first(
    request: HttpRequest,
    tournament: Tournament,
    *,
    question: str,
    button: str,
    explanation: str = "",
) -> HttpResponse | None:
    """The confirmation page unless the request is a POST saying ``confirm=yes`` (then
    ``None``). Reached by a POST without it, or by a GET (a link); the page posts the
    same fields again with ``confirm=yes``."""
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        return None
    given = request.POST if request.method == "POST" else request.GET
    fields = [
        (key, value)
        for key, value in given.items()
        if key not in ("csrfmiddlewaretoken", "confirm")
    ]
    return render(
        request,
        "tournaments/organize/confirm.html",
        {
            "tournament": tournament,
            "question": question,
            "explanation": explanation,
            "button": button,
            "action": request.path,
            "fields": fields,
            "q": search_of(request),
        },
    )


def confirmed_action(
    request: HttpRequest,
    tournament: Tournament,
    *,
    question: str,
    button: str,
    action: Callable[[], object],
    success: str,
    explanation: str = "",
    anchor: str = "",
) -> HttpResponse:
    """A destructive action: the confirmation page first (:func:`confirm_first`); once
    confirmed, the one service call (:func:`attempt`: its refusal or ``success`` as the
    message), then back to the dashboard at ``anchor``."""
    page = confirm_first(
        request, tournament, question=question, button=button, explanation=explanation
    )
    if page is not None:
        return page
    attempt(request, action, success=success)
    return back_to_dashboard(tournament, anchor)
