"""The audit logs of a tournament and of a league (their organizers)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from tournaments.models import League, LeagueAudit, Tournament, TournamentAudit
from tournaments.permissions import ensure_can_manage_league, ensure_can_manage_tournament


@dataclass(frozen=True)
class AuditEntry:
    """One step: when, who (``actor``: a username, or ``None`` for the system), which
    round (its number, or ``None``), what (``action``) and the ``details``."""

    at: dt.datetime
    action: str
    actor: str | None
    round: int | None
    details: dict[str, Any] = field(default_factory=dict)


def tournament_audit(*, tournament: Tournament, user: Any = None) -> list[AuditEntry]:
    """The tournament's audit log, oldest first. 1 query.

    Actions: ``created``, ``settings_changed``, ``registered``, ``checked_in``,
    ``checked_out``, ``dropped``,
    ``started``, ``round_seated``, ``round_finished``, ``round_reseated``, ``time_up``,
    ``no_show``, ``finished`` (``early`` when ended by hand), ``progress_failed``,
    ``staff_added``, ``staff_removed``, ``staff_account_created``, ``staff_link_issued``,
    ``result_proposed`` and the proposal's decisions, ``report_made``,
    ``report_replaced``, ``report_confirmed``, ``report_disputed``, ``report_accepted``,
    ``report_accepted_by_staff`` (players' reports, :mod:`tournaments.services.reports`).
    With ``user``, only the tournament's organizers (else ``NotAllowed``); without it
    the caller has checked.
    """
    if user is not None:
        ensure_can_manage_tournament(user=user, tournament=tournament)
    rows = (
        TournamentAudit.objects.filter(tournament=tournament)
        .order_by("at", "id")
        .values_list("at", "action", "actor__username", "round__number", "details")
    )
    return [
        AuditEntry(at=at, action=action, actor=actor, round=number, details=details or {})
        for at, action, actor, number, details in rows
    ]


def league_audit(*, league: League, user: Any) -> list[AuditEntry]:
    """The league's audit log, oldest first (its organizers, else ``NotAllowed``):
    ``season_created``, ``season_changed``, ``season_deleted``, ``league_staff_added``,
    ``league_staff_removed``. 1 query (plus the role check)."""
    ensure_can_manage_league(user=user, league=league)
    rows = (
        LeagueAudit.objects.filter(league=league)
        .order_by("at", "id")
        .values_list("at", "action", "actor__username", "details")
    )
    return [
        AuditEntry(at=at, action=action, actor=actor, round=None, details=details or {})
        for at, action, actor, details in rows
    ]
