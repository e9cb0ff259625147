"""The staff of a tournament (organizers only): who holds which role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import Role, Tournament, TournamentRole
from tournaments.permissions import ensure_can_manage_tournament


@dataclass(frozen=True)
class StaffMember:
    """One role of one account. ``via_league``: an organizer of the tournament's league
    (not a role of the tournament: not removable from the staff page). ``removable``:
    a scorekeeper or referee role, which the staff page and API may take away."""

    username: str
    name: str
    role: str
    role_label: str
    via_league: bool = False
    removable: bool = False
    #: The account has no password yet (created here, its link not used).
    awaiting_password: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "username": self.username,
            "name": self.name,
            "role": self.role,
            "via_league": self.via_league,
        }


def tournament_staff(*, tournament: Tournament, user: Any) -> list[StaffMember]:
    """Every staff role of ``tournament``: its league's organizers, then its own roles
    (organizers, referees, scorekeepers), by role then username. Organizers of the
    tournament only (else ``NotAllowed``). 2 queries after the role check."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    labels = dict(Role.choices)
    members = [
        StaffMember(
            username=u.get_username(),
            name=u.get_full_name(),
            role=Role.ORGANIZER,
            role_label=str(labels[Role.ORGANIZER]),
            via_league=True,
        )
        for u in tournament.league.organizers.order_by("username")
    ]
    order = {Role.ORGANIZER: 0, Role.REFEREE: 1, Role.SCOREKEEPER: 2}
    roles = sorted(
        TournamentRole.objects.filter(tournament=tournament).select_related("user"),
        key=lambda r: (order.get(r.role, 9), r.user.get_username()),
    )
    members.extend(
        StaffMember(
            username=r.user.get_username(),
            name=r.user.get_full_name(),
            role=r.role,
            role_label=str(labels.get(r.role, r.role)),
            removable=r.role != Role.ORGANIZER,
            awaiting_password=not r.user.has_usable_password(),
        )
        for r in roles
    )
    return members
