"""Reads for a person's own registration in a tournament (issue 24): what the
tournament page tells them (registered, waiting and where, moved up, withdrawn) and
whether they may sign up or withdraw now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.models import Registration, Tournament, TournamentStatus
from tournaments.permissions import user_is_signed_in


@dataclass(frozen=True)
class MyRegistration:
    """``state``: ``none`` (not registered), ``registered``, ``waitlisted``,
    ``dropped``; ``position``: 1-based place on the waitlist; ``promoted_at``: when they
    moved up from it; ``can_sign_up`` / ``can_withdraw``: the buttons to show."""

    state: str
    position: int | None
    promoted_at: datetime | None
    checked_in: bool
    can_sign_up: bool
    can_withdraw: bool
    full: bool


def my_registration(*, tournament: Tournament, user: Any) -> MyRegistration | None:
    """The signed-in user's registration in ``tournament`` (``None`` for anonymous
    visitors). 1-3 queries."""
    if not user_is_signed_in(user=user):
        return None
    open_ = tournament.status == TournamentStatus.REGISTRATION
    reg = (
        Registration.objects.filter(tournament=tournament, player__user_id=user.pk)
        .only("waitlisted", "dropped", "checked_in", "promoted_at", "registered_at")
        .first()
    )
    full = False
    if tournament.max_players is not None and (reg is None or reg.dropped):
        active = Registration.objects.filter(
            tournament=tournament, dropped=False, waitlisted=False
        ).count()
        full = active >= tournament.max_players
    if reg is None:
        return MyRegistration("none", None, None, False, open_, False, full)
    position = None
    if reg.waitlisted and not reg.dropped:
        position = (
            Registration.objects.filter(
                tournament=tournament,
                waitlisted=True,
                dropped=False,
                registered_at__lt=reg.registered_at,
            ).count()
            + 1
        )
    state = "dropped" if reg.dropped else "waitlisted" if reg.waitlisted else "registered"
    over = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return MyRegistration(
        state=state,
        position=position,
        promoted_at=reg.promoted_at,
        checked_in=reg.checked_in,
        can_sign_up=open_ and reg.dropped,
        can_withdraw=not reg.dropped and not over,
        full=full,
    )
