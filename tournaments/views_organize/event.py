"""The organizer's pages that run the event itself: a new tournament, the dashboard,
the audit log, settings, start, next round, re-seat, time up, finish.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import DomainError
from tournaments.errors import NotAllowed, NotFound
from tournaments.forms import (
    TournamentSettingsForm,
)
from tournaments.models import Round, Tournament
from tournaments.permissions import ensure_can_manage_league
from tournaments.selectors import (
    league_get_visible,
    organize_audit_page,
    organize_dashboard,
)
from tournaments.services import (
    round_create_next,
    round_reseat,
    round_time_up,
    tournament_create,
    tournament_finish,
    tournament_settings_update,
    tournament_start,
)
from tournaments.views_organize.common import (
    back_to_dashboard,
    confirmed_action,
    organizer_page,
    refused,
    render_dashboard,
)


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
                return back_to_dashboard(tournament)
        status = 400
    return render(
        request,
        "tournaments/organize/create.html",
        {"league": league, "form": form},
        status=status,
    )


@organizer_page
@require_GET
def organize(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render_dashboard(request, tournament)


@organizer_page
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


@organizer_page
@require_POST
def organize_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Edit the event before it starts (``tournament_settings_update``; refused once it
    has started, also when the form is posted from an old page)."""
    form = TournamentSettingsForm.for_tournament(tournament, request.POST)
    if form.is_valid():
        changes = form.changed_kwargs(tournament)
        if not changes:
            messages.info(request, _("Nothing changed."))
            return back_to_dashboard(tournament, "settings")
        try:
            tournament_settings_update(tournament=tournament, user=request.user, **changes)
        except NotAllowed:
            raise
        except DomainError as exc:
            tournament.refresh_from_db()
            if organize_dashboard(tournament=tournament).can_edit:
                form.add_error(None, str(exc.message))
            else:  # started meanwhile: the form is no longer offered
                refused(request, exc)
                return back_to_dashboard(tournament)
        else:
            messages.success(request, _("The settings are saved."))
            return back_to_dashboard(tournament, "settings")
    return render_dashboard(request, tournament, status=400, settings_form=form)


@organizer_page
@require_POST
def organize_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Start: seat round 1 (``tournament_start``); the reason when refused."""
    try:
        rnd = tournament_start(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        messages.error(request, _("The event cannot start: %(reason)s") % {"reason": exc.message})
        return back_to_dashboard(tournament)
    messages.success(request, _("Round %(n)d is seated.") % {"n": rnd.number})
    return back_to_dashboard(tournament, "round")


@organizer_page
@require_POST
def organize_next_round(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rnd = round_create_next(tournament=tournament, user=request.user)
    except NotAllowed:
        raise
    except DomainError as exc:
        refused(request, exc)
        return back_to_dashboard(tournament, "round")
    messages.success(request, _("Round %(n)d is seated.") % {"n": rnd.number})
    return back_to_dashboard(tournament, "round")


def _current_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    """The round the form names (``round``), if it is this tournament's last round."""
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    named = request.POST.get("round")
    if last is None or (named and named != str(last.pk)):
        return None
    last.tournament = tournament
    return last


@organizer_page
@require_POST
def organize_reseat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = _current_round(tournament, request)
    if rnd is None:
        messages.error(request, _("That round is no longer the current one."))
        return back_to_dashboard(tournament, "round")
    return confirmed_action(
        request,
        tournament,
        question=_("Seat round %(n)d again?") % {"n": rnd.number},
        explanation=_("Its tables and games are replaced by a new seating."),
        button=_("Yes, seat round %(n)d again") % {"n": rnd.number},
        action=lambda: round_reseat(round=rnd, user=request.user),
        success=_("Round %(n)d is seated again.") % {"n": rnd.number},
        anchor="round",
    )


@organizer_page
@require_POST
def organize_time_up(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = _current_round(tournament, request)
    if rnd is None:
        messages.error(request, _("That round is no longer the current one."))
        return back_to_dashboard(tournament, "round")
    return confirmed_action(
        request,
        tournament,
        question=_("End round %(n)d now (time is up)?") % {"n": rnd.number},
        explanation=_(
            "Unfinished games end as they stand (the rules place the players); games "
            "without any event are closed without a result."
        ),
        button=_("Yes, time is up"),
        action=lambda: round_time_up(round=rnd, user=request.user),
        success=_("Round %(n)d is over: time is up.") % {"n": rnd.number},
        anchor="round",
    )


@organizer_page
@require_POST
def organize_finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return confirmed_action(
        request,
        tournament,
        question=_("Finish %(name)s now?") % {"name": tournament.name},
        explanation=_(
            "The event ends: a running round is closed as it stands (its tables without "
            "a result do not count). This cannot be undone."
        ),
        button=_("Yes, finish the event"),
        action=lambda: tournament_finish(tournament=tournament, user=request.user),
        success=_("The event is finished."),
    )
