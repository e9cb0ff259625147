"""What the organizer dashboard shows: registrations, the current round's tables with
their state, what the organizer may do now, and the audit log newest first.

Organizers see real names (they run the event), so nothing here masks hidden players;
the views call these only after checking the organizer role. Query counts are bounded
(whatever the number of players or tables): see each docstring.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import F, Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import GameEvent, GameStatus, ResultSource
from games.presenters import presenter_for
from tournaments.models import (
    League,
    LeagueAudit,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentAudit,
    TournamentStatus,
)
from tournaments.selectors.audit_text import audit_names, audit_sentence
from tournaments.selectors.seating import (
    round_seating_record,
    seating_sentence,
    with_seating_summary,
)

_OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)

#: The audit log's actions as the dashboard names them.
AUDIT_ACTIONS = {
    "created": gettext_lazy("Created"),
    "settings_changed": gettext_lazy("Settings changed"),
    "registered": gettext_lazy("Players registered"),
    "checked_in": gettext_lazy("Checked in"),
    "checked_out": gettext_lazy("Check-in undone"),
    "dropped": gettext_lazy("Dropped"),
    "reinstated": gettext_lazy("Drop undone"),
    "started": gettext_lazy("Started"),
    "round_seated": gettext_lazy("Round seated"),
    "round_reseated": gettext_lazy("Round seated again"),
    "round_finished": gettext_lazy("Round finished"),
    "time_up": gettext_lazy("Time up"),
    "no_show": gettext_lazy("No-show"),
    "finished": gettext_lazy("Finished"),
    "progress_failed": gettext_lazy("Automatic progression failed"),
    "staff_added": gettext_lazy("Staff added"),
    "staff_removed": gettext_lazy("Staff removed"),
    "staff_account_created": gettext_lazy("Staff account created"),
    "staff_link_issued": gettext_lazy("New set-password link for a staff member"),
    "result_proposed": gettext_lazy("Result proposed"),
    "result_proposal_replaced": gettext_lazy("Proposed result changed"),
    "result_proposal_confirmed": gettext_lazy("Proposed result confirmed"),
    "result_proposal_rejected": gettext_lazy("Proposed result rejected"),
    "report_made": gettext_lazy("Result reported by a player"),
    "report_replaced": gettext_lazy("Report changed by its player"),
    "report_confirmed": gettext_lazy("Report confirmed by a player"),
    "report_disputed": gettext_lazy("Report disputed by a player"),
    "report_accepted": gettext_lazy("Report accepted: the players agreed"),
    "report_accepted_by_staff": gettext_lazy("Report accepted by staff"),
    "signed_up": gettext_lazy("Signed up themselves"),
    "waitlist_promoted": gettext_lazy("Moved up from the waitlist"),
    "byes": gettext_lazy("Byes"),
    "referee_called": gettext_lazy("Referee called"),
    "referee_call_claimed": gettext_lazy("Referee on the way"),
    "referee_call_closed": gettext_lazy("Referee call closed"),
    "position_ruling": gettext_lazy("Knock ruled from the table's position"),
    "player_linked": gettext_lazy("Player linked to an account"),
    "league_staff_added": gettext_lazy("League staff added"),
    "league_staff_removed": gettext_lazy("League staff removed"),
    "player_unlinked": gettext_lazy("Player's account unlinked"),
    "season_created": gettext_lazy("Season created"),
    "season_changed": gettext_lazy("Season changed"),
    "season_deleted": gettext_lazy("Season removed"),
}


@dataclass(frozen=True)
class TableState:
    """One table of the round as the dashboard shows it. ``state`` is one of
    ``not_started``, ``in_progress``, ``finished``, ``void``; ``latest`` describes the
    last event of a game in progress; ``verified`` says whether a result comes from the
    log (``None`` without a result)."""

    number: int
    game_id: int
    state: str
    state_label: str
    players: list[str]
    handles: list[str]
    events: int
    latest: str | None = None
    verified: bool | None = None
    places: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundPanel:
    """The tournament's last round: its tables, clock and counts."""

    round: Round
    tables: list[TableState]
    deadline: dt.datetime | None
    done: int
    total: int
    untouched: bool  # no table has an event or a result: it may be seated again
    #: How the round was seated, in words (:func:`.seating.seating_sentence`).
    seating: str = ""


@dataclass(frozen=True)
class RegistrationRow:
    pk: int
    handle: str
    display_name: str
    checked_in: bool
    dropped: bool
    no_show_possible: bool


@dataclass(frozen=True)
class Dashboard:
    """Everything the dashboard decides on (and the actions it offers)."""

    tournament: Tournament
    registrations: list[RegistrationRow]
    checked_in: int
    active: int
    panel: RoundPanel | None
    can_edit: bool
    can_start: bool
    can_next: bool
    can_reseat: bool
    can_time_up: bool
    can_finish: bool
    over: bool


def _state(game: Any) -> tuple[str, str]:
    if game.status == GameStatus.VOID:
        return "void", _("Closed without a result")
    if game.is_over or game.placements is not None:
        return "finished", _("Finished")
    if game.last_sequence:
        return "in_progress", _("In progress")
    return "not_started", _("Not started")


#: The table states of a table whose game is done (counted in ``RoundPanel.done``).
DONE_STATES = frozenset({"finished", "void"})


def organize_round_panel(*, round: Round) -> RoundPanel:
    """The round's tables, the ones still playing (not started or in progress) first,
    then the done ones (finished or closed), each group by table number; players in seat
    order, each table's state and the last event of games in progress (described by the
    kind's presenter). 4 queries."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = list(
        Table.objects.filter(round=round)
        .select_related("game")
        .defer("game__state", "game__summary", "game__start_event")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    running = [t.game_id for t in tables if t.game.last_sequence and not t.game.is_over]
    last_events = (
        {
            e.game_id: e.data
            for e in GameEvent.objects.filter(
                game_id__in=running, sequence=F("game__last_sequence")
            ).only("game_id", "data")
        }
        if running
        else {}
    )
    states = []
    done = 0
    for table in tables:
        game = table.game
        names = {s.player.handle: s.player.display_name for s in table.seats.all()}
        state, label = _state(game)
        if state in DONE_STATES:
            done += 1
        latest = None
        if table.game_id in last_events:
            latest = presenter_for(game.kind).describe(
                last_events[table.game_id], names, sequence=game.last_sequence
            )
        states.append(
            TableState(
                number=table.number,
                game_id=table.game_id,
                state=state,
                state_label=label,
                players=[s.player.display_name for s in table.seats.all()],
                handles=[s.player.handle for s in table.seats.all()],
                events=game.last_sequence,
                latest=latest,
                verified=(game.result_source == ResultSource.LOG) if game.has_result else None,
                places={names.get(h, h): p for h, p in (game.placements or {}).items()},
            )
        )
    states.sort(key=lambda t: t.state in DONE_STATES)  # stable: by number in each group
    untouched = all(
        not t.game.last_sequence and t.game.result_source == ResultSource.NONE for t in tables
    )
    return RoundPanel(
        round=round,
        tables=states,
        deadline=round.deadline if round.status == RoundStatus.RUNNING else None,
        done=done,
        total=len(tables),
        untouched=untouched,
        seating=seating_sentence(
            round.seating_summary
            if hasattr(round, "seating_summary")  # read with the round: a query less
            else round_seating_record(rnd=round)
        ),
    )


def organize_dashboard(*, tournament: Tournament) -> Dashboard:
    """The dashboard of ``tournament`` (the caller has checked the organizer role):
    registrations by name, the last round's panel and the actions possible now.
    At most 7 queries."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__display_name", "player__handle")
    )
    rounds = with_seating_summary(Round.objects.filter(tournament=tournament))
    last = rounds.order_by("-number").first()
    panel = organize_round_panel(round=last) if last is not None else None
    pending: set[str] = set()
    if panel is not None and last.status == RoundStatus.RUNNING:
        pending = {h for t in panel.tables if t.state == "not_started" for h in t.handles}
    over = tournament.status in _OVER
    rows = [
        RegistrationRow(
            pk=r.pk,
            handle=r.player.handle,
            display_name=r.player.display_name,
            checked_in=r.checked_in,
            dropped=r.dropped,
            no_show_possible=not over and r.player.handle in pending and not r.dropped,
        )
        for r in registrations
    ]
    running = last is not None and last.status == RoundStatus.RUNNING and not over
    return Dashboard(
        tournament=tournament,
        registrations=rows,
        checked_in=sum(1 for r in rows if r.checked_in and not r.dropped),
        active=sum(1 for r in rows if not r.dropped),
        panel=panel,
        can_edit=not over and last is None and tournament.status != TournamentStatus.RUNNING,
        can_start=not over and last is None,
        can_next=not over and last is not None and last.status == RoundStatus.FINISHED,
        can_reseat=running and panel is not None and panel.untouched,
        can_time_up=running,
        can_finish=not over and (last is not None or tournament.status == TournamentStatus.RUNNING),
        over=over,
    )


@dataclass(frozen=True)
class AuditRow:
    """One step of the audit log as the organizer reads it: the action's ``label`` and
    its details as a ``sentence`` in the active language (``""``: nothing to add)."""

    at: dt.datetime
    action: str
    label: str
    actor: str | None
    round: int | None
    sentence: str


def _audit_rows(rows: list[tuple]) -> list[AuditRow]:
    # (at, action, actor username, round number, details) -> rows in the reader's words
    names = audit_names(details for *_, details in rows)
    return [
        AuditRow(
            at=at,
            action=action,
            label=str(AUDIT_ACTIONS.get(action, action)),
            actor=actor,
            round=number,
            sentence=audit_sentence(action=action, details=details, names=names),
        )
        for at, action, actor, number, details in rows
    ]


def league_audit_recent(*, league: League, limit: int = 20) -> list[AuditRow]:
    """The league's latest audit rows, newest first (the caller has checked that the
    user is an organizer of the league): seasons and league staff. 2 queries."""
    rows = (
        LeagueAudit.objects.filter(league=league)
        .order_by("-at", "-id")
        .values_list("at", "action", "actor__username", "details")[:limit]
    )
    return _audit_rows([(at, action, actor, None, details) for at, action, actor, details in rows])


def organize_audit_page(*, tournament: Tournament, page: Any = 1, per_page: int = 25) -> Page:
    """One page of the tournament's audit log, newest first (the caller has checked the
    organizer role); its ``object_list`` holds :class:`AuditRow`. 3 queries (the
    players' names for the sentences)."""
    rows = (
        TournamentAudit.objects.filter(tournament=tournament)
        .order_by("-at", "-id")
        .values_list("at", "action", "actor__username", "round__number", "details")
    )
    paginator = Paginator(rows, per_page)
    current = paginator.get_page(page)
    current.object_list = _audit_rows(list(current.object_list))
    return current
