"""The organizer's pages for players: add one, import a CSV (with its confirmation
step for handles that belong to someone else), check-in (one or all), drop,
reinstate, no-show.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
)
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import DomainError
from tournaments.errors import NotAllowed
from tournaments.forms import (
    PlayerAddForm,
    PlayerCsvForm,
    csv_choices,
)
from tournaments.models import Registration, Round, Tournament
from tournaments.services import (
    registration_check_in,
    registration_check_in_all,
    registration_check_out,
    registration_csv_parse,
    registration_drop,
    registration_no_show,
    registration_reinstate,
    tournament_update,
)
from tournaments.services.registration import CsvEntry, CsvRejected, RegistrationRejected
from tournaments.services.registration_csv import (
    CsvCheck,
    CsvChoicesRejected,
    CsvConflictsChanged,
    registration_csv_check,
    registration_csv_register,
)
from tournaments.views_organize.common import (
    back_to_dashboard,
    confirm_first,
    organizer_page,
    page_of,
    refused,
    render_dashboard,
    search_of,
)


@organizer_page
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
            return back_to_dashboard(tournament, "players")
    return render_dashboard(request, tournament, status=400, add_form=form)


@organizer_page
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
            return back_to_dashboard(tournament, "players")
    return render_dashboard(request, tournament, status=400, csv_form=form, csv_errors=errors)


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


@organizer_page
@require_POST
def organize_check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        handles = registration_check_in_all(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            ngettext("%(count)d player checked in.", "%(count)d players checked in.", len(handles))
            % {"count": len(handles)},
        )
    return back_to_dashboard(tournament, "players", q=search_of(request), page=page_of(request))


@organizer_page
@require_POST
def organize_check_in_open(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Open or close check-in from the players' phones (``open``: "yes" or not)."""
    wanted = request.POST.get("open") == "yes"
    try:
        tournament_update(tournament=tournament, user=request.user, check_in_open=wanted)
    except NotAllowed:
        raise
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("Players check in from their phones now.")
            if wanted
            else _("Check-in from the phones is closed."),
        )
    return back_to_dashboard(tournament, "players", q=search_of(request), page=page_of(request))


#: The actions on one registration (drop and no-show ask for a confirmation first).
_PLAYER_ACTIONS = {"check-in", "check-out", "drop", "reinstate", "no-show"}


@organizer_page
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
        page = confirm_first(
            request,
            tournament,
            question=_("Drop %(name)s?") % {"name": name},
            explanation=_("A dropped player is never seated again; results so far stay."),
            button=_("Yes, drop %(name)s") % {"name": name},
        )
        if page is not None:
            return page
    if action == "no-show":
        page = confirm_first(
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
        refused(request, exc)
    return back_to_dashboard(
        tournament, f"reg-{registration.player.handle}", q=search_of(request), page=page_of(request)
    )
