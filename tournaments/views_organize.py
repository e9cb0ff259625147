"""The organizer's pages: a new tournament from the league page, and the dashboard that
runs the event (settings before the start, registration, check-in, start, the current
round's tables and clock, next round, re-seat, time up, finish, audit log).

Thin views over the same services as the API (:mod:`tournaments.services`): each POST
calls one service, which checks the role itself; the views check it first too, so that
a user without the role gets 403 before any input is read (and learns nothing about
players). Access: anonymous users are sent to the login page; a tournament the user
may not see is 404; a signed-in user who does not organize it gets 403.

Post/redirect/get: a successful POST redirects to the dashboard (with a message); a
form with errors is shown again with the errors (400); a refusal of a service
(:class:`~games.errors.DomainError`) becomes a message on the dashboard, never a 500.
Destructive actions (re-seat, time up, finish, drop, no-show) first answer a
confirmation page, which posts again with ``confirm=yes``: no JavaScript needed.
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
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import DomainError
from tournaments.errors import NotAllowed, NotFound
from tournaments.forms import (
    PlayerAddForm,
    PlayerCsvForm,
    TournamentSettingsForm,
    csv_choices,
)
from tournaments.models import Registration, Round, Tournament
from tournaments.permissions import ensure_can_manage_league, ensure_can_manage_tournament
from tournaments.selectors import (
    league_get_visible,
    organize_audit_page,
    organize_dashboard,
    tournament_get_visible,
)
from tournaments.services import (
    registration_check_in,
    registration_check_in_all,
    registration_check_out,
    registration_csv_parse,
    registration_drop,
    registration_no_show,
    registration_reinstate,
    round_create_next,
    round_reseat,
    round_time_up,
    tournament_create,
    tournament_finish,
    tournament_settings_update,
    tournament_start,
)
from tournaments.services.registration import CsvEntry, CsvRejected, RegistrationRejected
from tournaments.services.registration_csv import (
    CsvCheck,
    CsvChoicesRejected,
    CsvConflictsChanged,
    registration_csv_check,
    registration_csv_register,
)

#: How many audit entries the dashboard shows (the audit page has them all).
RECENT_AUDIT = 8
#: Registered players shown a page on the dashboard: a 1,000-player event would
#: otherwise send a megabyte to an organizer's phone after every tap. The search box
#: asks the server (``?q=``), so every player is one search away.
REGISTRATIONS_PER_PAGE = 100


def _organizer_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
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


def _dashboard_url(tournament: Tournament, anchor: str = "", **query: str) -> str:
    url = reverse("tournaments:organize", args=[tournament.pk])
    query = {k: v for k, v in query.items() if v}
    if query:
        url += "?" + urlencode(query)
    return url + (f"#{anchor}" if anchor else "")


def _back(tournament: Tournament, anchor: str = "", **query: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(_dashboard_url(tournament, anchor, **query))


def _refused(request: HttpRequest, exc: DomainError) -> None:
    """A service's refusal as an error message (the role was checked before, so this
    is a state or input problem: 400/409)."""
    messages.error(request, str(exc.message))


def _attempt(request: HttpRequest, action: Callable[[], object], *, success: str) -> bool:
    """Run one service call for a page: its refusal becomes an error message, its
    success ``success``. A missing role (``NotAllowed``) is not a refusal to show on the
    dashboard: it propagates and answers 403."""
    try:
        action()
    except NotAllowed:
        raise
    except DomainError as exc:
        _refused(request, exc)
        return False
    messages.success(request, success)
    return True


def _search(request: HttpRequest) -> str:
    return (request.GET.get("q") or request.POST.get("q") or "").strip()[:60]


def _page(request: HttpRequest) -> str:
    """The page of the registrations list the request came from (``?page=N``, or the
    hidden ``page`` of a form on it), so that an action returns to it."""
    value = (request.GET.get("page") or request.POST.get("page") or "").strip()
    return value if value.isdigit() and value != "1" else ""


def _render_dashboard(
    request: HttpRequest, tournament: Tournament, *, status: int = 200, **forms: Any
) -> HttpResponse:
    dashboard = organize_dashboard(tournament=tournament)
    query = _search(request).lower()
    rows = dashboard.registrations
    if query:
        rows = [r for r in rows if query in r.display_name.lower() or query in r.handle]
    page = Paginator(rows, REGISTRATIONS_PER_PAGE).get_page(_page(request) or 1)
    context = {
        "tournament": tournament,
        "dash": dashboard,
        "rows": page.object_list,
        "reg_page": page,
        # What a row's links carry so that the organizer comes back to the same list.
        "keep_query": urlencode(
            {k: v for k, v in (("q", _search(request)), ("page", _page(request))) if v}
        ),
        "q": _search(request),
        "settings_form": forms.get("settings_form")
        or (TournamentSettingsForm.for_tournament(tournament) if dashboard.can_edit else None),
        "add_form": forms.get("add_form") or PlayerAddForm(),
        "csv_form": forms.get("csv_form") or PlayerCsvForm(),
        "csv_errors": forms.get("csv_errors") or [],
        "audit": organize_audit_page(tournament=tournament, per_page=RECENT_AUDIT),
    }
    return render(request, "tournaments/organize/dashboard.html", context, status=status)


def _confirm(
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
            "q": _search(request),
        },
    )


# --------------------------------------------------------------------------- new tournament


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A new tournament in a league the user organizes (``tournament_create``); on
    success the dashboard of the new tournament."""
    try:
        league = league_get_visible(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404(str(exc.message)) from exc
    ensure_can_manage_league(user=request.user, league=league)
    form = TournamentSettingsForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                tournament = tournament_create(
                    league=league, user=request.user, **form.settings_kwargs()
                )
            except NotAllowed:
                raise
            except DomainError as exc:
                form.add_error(None, str(exc.message))
            else:
                messages.success(
                    request,
                    _("%(name)s is created. Register the players next.")
                    % {"name": tournament.name},
                )
                return _back(tournament)
        status = 400
    return render(
        request,
        "tournaments/organize/create.html",
        {"league": league, "form": form},
        status=status,
    )


# --------------------------------------------------------------------------- the dashboard


@_organizer_page
@require_GET
def organize(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _render_dashboard(request, tournament)


@_organizer_page
@require_GET
def organize_audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The whole audit log, newest first, 50 a page (``?page=N``)."""
    return render(
        request,
        "tournaments/organize/audit.html",
        {
            "tournament": tournament,
            "audit": organize_audit_page(
                tournament=tournament, page=request.GET.get("page") or 1, per_page=50
            ),
        },
    )


@_organizer_page
@require_POST
def organize_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Edit the event before it starts (``tournament_settings_update``; refused once it
    has started, also when the form is posted from an old page)."""
    form = TournamentSettingsForm.for_tournament(tournament, request.POST)
    if form.is_valid():
        changes = form.changed_kwargs(tournament)
        if not changes:
            messages.info(request, _("Nothing changed."))
            return _back(tournament, "settings")
        try:
            tournament_settings_update(tournament=tournament, user=request.user, **changes)
        except NotAllowed:
            raise
        except DomainError as exc:
            tournament.refresh_from_db()
            if organize_dashboard(tournament=tournament).can_edit:
                form.add_error(None, str(exc.message))
            else:  # started meanwhile: the form is no longer offered
                _refused(request, exc)
                return _back(tournament)
        else:
            messages.success(request, _("The settings are saved."))
            return _back(tournament, "settings")
    return _render_dashboard(request, tournament, status=400, settings_form=form)


@_organizer_page
@require_POST
def organize_player_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register one player by handle (a new handle becomes a player). A handle that
    belongs to a player with another name than the one given is not registered: the
    form says whose it is and proposes a free handle (as the list's confirmation step)."""
    form = PlayerAddForm(request.POST)
    if form.is_valid():
        handle = form.cleaned_data["handle"]
        entry = CsvEntry(line=1, handle=handle, name=form.cleaned_data["display_name"] or None)
        try:
            check = registration_csv_check(
                tournament=tournament, user=request.user, entries=[entry]
            )
            if check.conflicts:
                raise CsvConflictsChanged(check)
            batch = registration_csv_register(
                tournament=tournament,
                user=request.user,
                entries=[entry],
                token=check.token,
                decisions={},
            )
        except CsvConflictsChanged as exc:
            for conflict in exc.check.conflicts:
                form.add_error(
                    "handle",
                    _(
                        "@%(handle)s is %(existing)s. To register them, leave the name "
                        "empty; for a new player use another handle, e.g. %(proposed)s."
                    )
                    % {
                        "handle": handle,
                        "existing": conflict.existing_name,
                        "proposed": conflict.proposed,
                    },
                )
        except NotAllowed:
            raise
        except RegistrationRejected as exc:
            for reason in [p.reason for p in exc.problems] or [str(exc.message)]:
                form.add_error("handle", reason)
        except DomainError as exc:
            form.add_error(None, str(exc.message))
        else:
            name = batch.registered[0].player.display_name
            if batch.created:
                messages.success(
                    request, _("%(name)s is a new player, registered.") % {"name": name}
                )
            else:
                messages.success(request, _("%(name)s is registered.") % {"name": name})
            return _back(tournament, "players")
    return _render_dashboard(request, tournament, status=400, add_form=form)


@_organizer_page
@require_POST
def organize_players_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register a pasted or uploaded list (``handle,name`` per line), all or nothing:
    any bad line (or a handle the services refuse) stores nothing and is named as
    ``line N: reason``.

    Lines whose handle is a player with another name are not registered silently: the
    answer is a confirmation step listing them, each with a choice (the existing player,
    or a new player with a proposed free handle). It posts the same list again with
    ``confirm=yes``, the choices and the check's ``token``; the list is parsed and
    checked again (a change in between shows the step again, 409)."""
    form = PlayerCsvForm(request.POST, request.FILES)
    errors: list[str] = []
    if form.is_valid():
        text = form.cleaned_data["text"]
        entries: list[CsvEntry] = []
        confirming = request.POST.get("confirm") == "yes"
        try:
            entries = registration_csv_parse(text)
            if confirming:
                token = request.POST.get("token") or ""
                choices = csv_choices(request.POST)
            else:
                check = registration_csv_check(
                    tournament=tournament, user=request.user, entries=entries
                )
                if check.conflicts:
                    return _csv_conflicts_page(request, tournament, check=check, text=text)
                token, choices = check.token, {}
            batch = registration_csv_register(
                tournament=tournament,
                user=request.user,
                entries=entries,
                token=token,
                decisions=choices,
            )
        except CsvConflictsChanged as exc:
            return _csv_conflicts_page(
                request, tournament, check=exc.check, text=text, status=409, notice=exc.message
            )
        except CsvChoicesRejected as exc:
            return _csv_conflicts_page(
                request,
                tournament,
                check=exc.check,
                text=text,
                status=400,
                choices=csv_choices(request.POST),
                problems=exc.problems,
            )
        except CsvRejected as exc:
            errors = exc.errors
        except RegistrationRejected as exc:
            lines = [e.line for e in entries]
            errors = [
                _("line %(line)d: %(reason)s") % {"line": lines[p.index], "reason": p.reason}
                for p in exc.problems
            ] or [str(exc.message)]
        except NotAllowed:
            raise
        except DomainError as exc:
            errors = [str(exc.message)]
        else:
            count, new = len(batch.registered), len(batch.created)
            messages.success(
                request,
                ngettext(
                    "%(count)d player registered (%(new)d new, %(linked)d existing).",
                    "%(count)d players registered (%(new)d new, %(linked)d existing).",
                    count,
                )
                % {"count": count, "new": new, "linked": count - new},
            )
            return _back(tournament, "players")
    return _render_dashboard(request, tournament, status=400, csv_form=form, csv_errors=errors)


def _csv_conflicts_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    check: CsvCheck,
    text: str,
    status: int = 200,
    notice: Any = "",
    choices: dict[int, str | None] | None = None,
    problems: dict[int, str] | None = None,
) -> HttpResponse:
    """The import's confirmation step: each conflicting line with its choice (kept from
    the organizer's last answer when it is shown again with errors)."""
    choices = choices or {}
    problems = problems or {}
    rows = []
    for conflict in check.conflicts:
        picked = choices.get(conflict.line, False)  # False: no choice yet
        rows.append(
            {
                "c": conflict,
                "choice": "" if picked is False else ("existing" if picked is None else "new"),
                "handle": picked if isinstance(picked, str) else conflict.proposed,
                "error": problems.get(conflict.line, ""),
            }
        )
    return render(
        request,
        "tournaments/organize/csv_conflicts.html",
        {
            "tournament": tournament,
            "check": check,
            "rows": rows,
            "text": text,
            "notice": notice,
            "errors": bool(problems),
        },
        status=status,
    )


@_organizer_page
@require_POST
def organize_check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        handles = registration_check_in_all(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request,
            ngettext("%(count)d player checked in.", "%(count)d players checked in.", len(handles))
            % {"count": len(handles)},
        )
    return _back(tournament, "players", q=_search(request), page=_page(request))


#: The actions on one registration (drop and no-show ask for a confirmation first).
_PLAYER_ACTIONS = {"check-in", "check-out", "drop", "reinstate", "no-show"}


@_organizer_page
@require_http_methods(["GET", "POST"])
def organize_player_action(
    request: HttpRequest, tournament: Tournament, handle: str, action: str
) -> HttpResponse:
    """Check in, undo the check-in, drop, undo the drop (reinstate) or mark as no-show
    one registered player.
    Drop and no-show are links (GET: the confirmation page); the rest are POST only."""
    if action not in _PLAYER_ACTIONS:
        raise Http404()
    if request.method == "GET" and action not in ("drop", "no-show"):
        return HttpResponseNotAllowed(["POST"])
    registration = (
        Registration.objects.filter(tournament=tournament, player__handle=handle)
        .select_related("player", "tournament__league")
        .first()
    )
    if registration is None:
        raise Http404()
    name = registration.player.display_name
    if action == "drop":
        page = _confirm(
            request,
            tournament,
            question=_("Drop %(name)s?") % {"name": name},
            explanation=_("A dropped player is never seated again; results so far stay."),
            button=_("Yes, drop %(name)s") % {"name": name},
        )
        if page is not None:
            return page
    if action == "no-show":
        page = _confirm(
            request,
            tournament,
            question=_("Mark %(name)s as a no-show?") % {"name": name},
            explanation=_(
                "Their table plays without them (a player left alone gets a bye); they take "
                "the table's last place and are checked out."
            ),
            button=_("Yes, %(name)s did not come") % {"name": name},
        )
        if page is not None:
            return page
    try:
        if action == "check-in":
            registration_check_in(registration=registration, user=request.user)
            messages.success(request, _("%(name)s is checked in.") % {"name": name})
        elif action == "check-out":
            registration_check_out(registration=registration, user=request.user)
            messages.success(request, _("%(name)s is no longer checked in.") % {"name": name})
        elif action == "drop":
            registration_drop(registration=registration, user=request.user)
            messages.success(request, _("%(name)s is dropped.") % {"name": name})
        elif action == "reinstate":
            registration_reinstate(registration=registration, user=request.user)
            messages.success(
                request, _("%(name)s is back: seated again from the next round.") % {"name": name}
            )
        else:
            current = Round.objects.filter(tournament=tournament).order_by("-number").first()
            if current is None:
                messages.error(request, _("The round is not running."))
            else:
                registration_no_show(registration=registration, round=current, user=request.user)
                messages.success(request, _("%(name)s is marked as a no-show.") % {"name": name})
    except NotAllowed:
        raise
    except DomainError as exc:
        _refused(request, exc)
    return _back(
        tournament, f"reg-{registration.player.handle}", q=_search(request), page=_page(request)
    )


@_organizer_page
@require_POST
def organize_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Start: seat round 1 (``tournament_start``); the reason when refused."""
    try:
        rnd = tournament_start(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        messages.error(request, _("The event cannot start: %(reason)s") % {"reason": exc.message})
        return _back(tournament)
    messages.success(request, _("Round %(n)d is seated.") % {"n": rnd.number})
    return _back(tournament, "round")


@_organizer_page
@require_POST
def organize_next_round(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rnd = round_create_next(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        _refused(request, exc)
        return _back(tournament, "round")
    messages.success(request, _("Round %(n)d is seated.") % {"n": rnd.number})
    return _back(tournament, "round")


def _current_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    """The round the form names (``round``), if it is this tournament's last round."""
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    named = request.POST.get("round")
    if last is None or (named and named != str(last.pk)):
        return None
    last.tournament = tournament
    return last


@_organizer_page
@require_POST
def organize_reseat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = _current_round(tournament, request)
    if rnd is None:
        messages.error(request, _("That round is no longer the current one."))
        return _back(tournament, "round")
    page = _confirm(
        request,
        tournament,
        question=_("Seat round %(n)d again?") % {"n": rnd.number},
        explanation=_("Its tables and games are replaced by a new seating."),
        button=_("Yes, seat round %(n)d again") % {"n": rnd.number},
    )
    if page is not None:
        return page
    _attempt(
        request,
        lambda: round_reseat(round=rnd, user=request.user),
        success=_("Round %(n)d is seated again.") % {"n": rnd.number},
    )
    return _back(tournament, "round")


@_organizer_page
@require_POST
def organize_time_up(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = _current_round(tournament, request)
    if rnd is None:
        messages.error(request, _("That round is no longer the current one."))
        return _back(tournament, "round")
    page = _confirm(
        request,
        tournament,
        question=_("End round %(n)d now (time is up)?") % {"n": rnd.number},
        explanation=_(
            "Unfinished games end as they stand (the rules place the players); games "
            "without any event are closed without a result."
        ),
        button=_("Yes, time is up"),
    )
    if page is not None:
        return page
    _attempt(
        request,
        lambda: round_time_up(round=rnd, user=request.user),
        success=_("Round %(n)d is over: time is up.") % {"n": rnd.number},
    )
    return _back(tournament, "round")


@_organizer_page
@require_POST
def organize_finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    page = _confirm(
        request,
        tournament,
        question=_("Finish %(name)s now?") % {"name": tournament.name},
        explanation=_(
            "The event ends: a running round is closed as it stands (its tables without "
            "a result do not count). This cannot be undone."
        ),
        button=_("Yes, finish the event"),
    )
    if page is not None:
        return page
    _attempt(
        request,
        lambda: tournament_finish(tournament=tournament, user=request.user),
        success=_("The event is finished."),
    )
    return _back(tournament)
