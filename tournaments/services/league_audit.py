"""Appending to a league's audit log (:class:`~tournaments.models.LeagueAudit`): every
change to the league itself (its seasons, its staff) writes one row here, in the
change's transaction."""

from __future__ import annotations

from typing import Any

from tournaments.models import League, LeagueAudit
from tournaments.permissions import acting_user


def league_audit_write(*, league: League, user: Any, action: str, **details: Any) -> LeagueAudit:
    """One row of ``league``'s audit log: ``user`` the actor (anonymous and system
    callers are stored as empty), ``action`` and its ``details`` (plain JSON data)."""
    return LeagueAudit.objects.create(
        league=league,
        actor=acting_user(user=user),
        action=action,
        details=details,
    )
