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


@dataclass(frozen=True)
class MyTable:
    """Where a signed-in player sits now: the round, the table, their seat, the others
    at the table (names as the player may see them), the round's deadline and the
    game (its report page)."""

    tournament_id: int
    tournament_name: str
    round: int
    table: int
    seat: int
    others: list[str]
    deadline: datetime | None
    game: int


def my_tables(*, user: Any, tournament: Tournament | None = None) -> list[MyTable]:
    """The signed-in user's tables in the running rounds (of ``tournament``, else of
    every tournament). 2 queries."""
    from tournaments.models import RoundStatus, Seat
    from tournaments.selectors.privacy import Masker

    if not user_is_signed_in(user=user):
        return []
    mine = Seat.objects.filter(
        player__user_id=user.pk, table__round__status=RoundStatus.RUNNING
    ).select_related("table__round__tournament")
    if tournament is not None:
        mine = mine.filter(table__round__tournament=tournament)
    mine = list(mine.order_by("-table__round__created_at")[:5])
    if not mine:
        return []
    tables = [s.table_id for s in mine]
    by_table: dict[int, list[Any]] = {}
    for seat in (
        Seat.objects.filter(table_id__in=tables).select_related("player").order_by("position")
    ):
        by_table.setdefault(seat.table_id, []).append(seat)
    out = []
    for s in mine:
        rnd = s.table.round
        masker = Masker(user=user, tournament=rnd.tournament)
        others = [
            masker.player(o.player).display_name
            for o in by_table.get(s.table_id, [])
            if o.player_id != s.player_id
        ]
        out.append(
            MyTable(
                tournament_id=rnd.tournament_id,
                tournament_name=rnd.tournament.name,
                round=rnd.number,
                table=s.table.number,
                seat=s.position + 1,
                others=others,
                deadline=rnd.deadline,
                game=s.table.game_id,
            )
        )
    return out


#: The tournaments whose rounds can seat a registered player (their "my table" can change).
_SEATING_STATUSES = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


def my_live_tournaments(*, user: Any) -> list[int]:
    """Ids of the tournaments whose seating may change the signed-in user's table: those
    their player is registered in (not dropped), open for registration or running, and
    that the user may see. What the home page's live "my table" listens to. 1 query."""
    from tournaments.selectors import tournament_list

    if not user_is_signed_in(user=user):
        return []
    mine = tournament_list(user=user).filter(
        status__in=_SEATING_STATUSES,
        registrations__player__user_id=user.pk,
        registrations__dropped=False,
    )
    return sorted(set(mine.values_list("pk", flat=True)))
