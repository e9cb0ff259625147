"""League staff (issue 24): the league's organizers add and remove scorekeepers and
referees who then hold the role in every tournament of the league, present and future
(:func:`tournaments.permissions.user_tournament_roles` reads them). Adding twice is
harmless; removing a role nobody holds is too. Each change is in the league's audit
log, and in the audit log of each of its tournaments that is not over (where the role
now counts)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import InvalidConfiguration, UnknownUser
from tournaments.models import League, LeagueRole, Role, Tournament, TournamentStatus
from tournaments.permissions import ensure_can_manage_league
from tournaments.services.core import audit_write
from tournaments.services.league_audit import league_audit_write

#: The roles a league hands out (its organizers are ``League.organizers``).
LEAGUE_ROLES = (Role.SCOREKEEPER, Role.REFEREE)


def _member(username: Any) -> Any:
    account = get_user_model().objects.filter(username=username).first()
    if account is None:
        raise UnknownUser()
    return account


def _audit(league: League, user: Any, action: str, **details: Any) -> None:
    league_audit_write(league=league, user=user, action=action, **details)
    for t in Tournament.objects.filter(league=league).exclude(
        status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED]
    ):
        audit_write(tournament=t, user=user, action=action, **details)


def league_role_add(*, league: League, username: Any, role: Any, user: Any) -> LeagueRole:
    """Make ``username`` the league's ``role`` (scorekeeper or referee)."""
    ensure_can_manage_league(user=user, league=league)
    if role not in LEAGUE_ROLES:
        raise InvalidConfiguration(_("A league's staff are scorekeepers or referees."))
    member = _member(username)
    with transaction.atomic():
        made, created = LeagueRole.objects.get_or_create(league=league, user=member, role=role)
        if created:
            _audit(league, user, "league_staff_added", member=member.get_username(), role=role)
    return made


def league_role_remove(*, league: League, role_id: Any, user: Any) -> None:
    """Remove one league role (by its id)."""
    ensure_can_manage_league(user=user, league=league)
    with transaction.atomic():
        found = LeagueRole.objects.filter(league=league, pk=role_id).select_related("user").first()
        if found is None:
            return
        found.delete()
        _audit(
            league,
            user,
            "league_staff_removed",
            member=found.user.get_username(),
            role=found.role,
        )
