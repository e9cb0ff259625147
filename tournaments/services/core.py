"""Players, leagues, tournaments, roles and registrations (write services).

Every service takes the acting ``user`` (a Django user, ``AnonymousUser`` or
:data:`tournaments.permissions.SYSTEM`) and checks the role it needs first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

import games.engine as engine
from games.kinds import reserved_names
from tournaments.errors import InvalidConfiguration, InvalidState, NotAllowed
from tournaments.models import (
    TIEBREAK_CHOICES,
    League,
    Player,
    Registration,
    Role,
    Tournament,
    TournamentFormat,
    TournamentRole,
    TournamentStatus,
    default_tiebreaks,
)
from tournaments.permissions import (
    ensure_can_manage_league,
    ensure_can_manage_tournament,
    ensure_signed_in,
    user_is_signed_in,
    user_is_superuser,
)


def table_size_limits(*, kind: str) -> tuple[int, int]:
    """Fewest and most players at one table of ``kind``: the game class's
    ``min_players``/``max_players`` (TOCK: 2 to 6). Every table-size check asks here."""
    try:
        cls = engine.game_class(kind)
    except engine.EngineError as exc:
        raise InvalidConfiguration(_("Unknown game kind %(kind)r.") % {"kind": kind}) from exc
    return cls.min_players, cls.max_players


def validate_table_size(*, kind: str, table_size: Any) -> int:
    """``table_size`` if a table of ``kind`` may seat that many players, else
    :class:`InvalidConfiguration` (400) saying the kind's range."""
    lo, hi = table_size_limits(kind=kind)
    if (
        not isinstance(table_size, int)
        or isinstance(table_size, bool)
        or not lo <= table_size <= hi
    ):
        raise InvalidConfiguration(
            _("The table size must be from %(min)d to %(max)d for %(game)s.")
            % {"min": lo, "max": hi, "game": engine.game_class(kind).title}
        )
    return table_size


def player_create(
    *, handle: str, display_name: str = "", linked_user: Any = None, user: Any
) -> Player:
    """Create a player. Handles are slugs, unique, and never change once used in a log.

    Any signed-in user may create players (organizers register walk-ins).
    """
    ensure_signed_in(user=user)
    clean = slugify(handle or "")
    if not clean or clean != handle or clean in reserved_names():
        raise InvalidConfiguration(
            _("Invalid handle %(handle)r: use lowercase letters, digits, '-' or '_'.")
            % {"handle": handle}
        )
    try:
        with transaction.atomic():
            return Player.objects.create(
                handle=handle, display_name=display_name or handle, user=linked_user
            )
    except IntegrityError as exc:
        raise InvalidConfiguration(
            _("The handle %(handle)r is already taken.") % {"handle": handle}
        ) from exc


def league_create(
    *,
    name: str,
    kind: str,
    slug: str | None = None,
    description: str = "",
    k_factor: float = 32.0,
    rate_unverified: bool = True,
    is_public: bool = True,
    organizers: Iterable[Any] = (),
    user: Any,
) -> League:
    """Create a league. Superusers only (SYSTEM included)."""
    if not user_is_superuser(user=user):
        raise NotAllowed()
    if kind not in engine.game_kinds():  # a kind the engine can start, not any stored value
        raise InvalidConfiguration(_("Unknown game kind %(kind)r.") % {"kind": kind})
    if not k_factor or k_factor <= 0:
        raise InvalidConfiguration(_("The K factor must be positive."))
    slug = slug or slugify(name)
    if League.objects.filter(slug=slug).exists():
        raise InvalidConfiguration(_("The slug %(slug)r is already taken.") % {"slug": slug})
    with transaction.atomic():
        league = League.objects.create(
            name=name,
            slug=slug,
            kind=kind,
            description=description,
            k_factor=float(k_factor),
            rate_unverified=rate_unverified,
            is_public=is_public,
        )
        league.organizers.set(list(organizers))
    return league


def validate_scoring(
    *,
    kind: str,
    table_size: int,
    points_per_place: Sequence[Any] | None,
    tiebreaks: Sequence[Any] | None,
) -> tuple[list[float], list[str]]:
    """Check the table size (for the game ``kind``), points and tiebreaks; return the
    stored forms of points and tiebreaks (empty points = default)."""
    validate_table_size(kind=kind, table_size=table_size)
    points = list(points_per_place or [])
    if points:
        if len(points) != table_size or not all(
            isinstance(p, int | float) and not isinstance(p, bool) and p >= 0 for p in points
        ):
            raise InvalidConfiguration(
                _("Points per placement must be %(n)d non-negative numbers (1st place first).")
                % {"n": table_size}
            )
        if any(a < b for a, b in zip(points, points[1:], strict=False)):
            raise InvalidConfiguration(_("Points per placement must not increase with the place."))
    order = list(tiebreaks) if tiebreaks is not None else default_tiebreaks()
    unknown = [t for t in order if t not in TIEBREAK_CHOICES]
    if unknown or len(set(order)) != len(order):
        raise InvalidConfiguration(
            _("Tiebreaks must be distinct keys among: %(keys)s.")
            % {"keys": ", ".join(TIEBREAK_CHOICES)}
        )
    return points, order


def tournament_create(
    *,
    league: League,
    name: str,
    starts_on: dt.date,
    slug: str | None = None,
    ends_on: dt.date | None = None,
    venue: str = "",
    format: str = TournamentFormat.SWISS,
    table_size: int = 4,
    rounds_count: int = 5,
    points_per_place: Sequence[float] | None = None,
    tiebreaks: Sequence[str] | None = None,
    is_public: bool = True,
    status: str = TournamentStatus.REGISTRATION,
    user: Any,
) -> Tournament:
    """Create a tournament in a league (league organizers). The creator becomes organizer."""
    ensure_can_manage_league(user=user, league=league)
    points, order = validate_scoring(
        kind=league.kind,
        table_size=table_size,
        points_per_place=points_per_place,
        tiebreaks=tiebreaks,
    )
    if format not in TournamentFormat.values:
        raise InvalidConfiguration(_("Unknown format %(format)r.") % {"format": format})
    if status not in TournamentStatus.values:
        raise InvalidConfiguration(_("Unknown status %(status)r.") % {"status": status})
    if not isinstance(rounds_count, int) or not 1 <= rounds_count <= 50:
        raise InvalidConfiguration(_("The number of rounds must be from 1 to 50."))
    if ends_on is not None and ends_on < starts_on:
        raise InvalidConfiguration(_("The tournament cannot end before it starts."))
    slug = slug or slugify(name)
    if Tournament.objects.filter(league=league, slug=slug).exists():
        raise InvalidConfiguration(_("The slug %(slug)r is already taken.") % {"slug": slug})
    with transaction.atomic():
        tournament = Tournament.objects.create(
            league=league,
            name=name,
            slug=slug,
            starts_on=starts_on,
            ends_on=ends_on,
            venue=venue,
            format=format,
            table_size=table_size,
            rounds_count=rounds_count,
            points_per_place=points,
            tiebreaks=order,
            is_public=is_public,
            status=status,
        )
        if user_is_signed_in(user=user):
            TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ORGANIZER)
    return tournament


_UPDATABLE = {
    "name",
    "venue",
    "starts_on",
    "ends_on",
    "format",
    "rounds_count",
    "points_per_place",
    "tiebreaks",
    "is_public",
    "status",
}


def tournament_update(*, tournament: Tournament, user: Any, **fields: Any) -> Tournament:
    """Change a tournament's settings (organizers). Scoring changes apply to standings at once.

    The table size cannot change once a round exists.
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    unknown = set(fields) - _UPDATABLE - {"table_size"}
    if unknown:
        raise InvalidConfiguration(
            _("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    if "table_size" in fields and tournament.rounds.exists():
        raise InvalidState(_("The table size cannot change once a round has been seated."))
    table_size = fields.get("table_size", tournament.table_size)
    points, order = validate_scoring(
        kind=tournament.league.kind,
        table_size=table_size,
        points_per_place=fields.get("points_per_place", tournament.points_per_place),
        tiebreaks=fields.get("tiebreaks", tournament.tiebreaks),
    )
    if "status" in fields and fields["status"] not in TournamentStatus.values:
        raise InvalidConfiguration(_("Unknown status %(status)r.") % {"status": fields["status"]})
    if "format" in fields and fields["format"] not in TournamentFormat.values:
        raise InvalidConfiguration(_("Unknown format %(format)r.") % {"format": fields["format"]})
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.points_per_place = points
    tournament.tiebreaks = order
    tournament.save()
    return tournament


def tournament_role_add(*, tournament: Tournament, member: Any, role: str, user: Any) -> None:
    """Give ``member`` a role in the tournament (organizers). Idempotent."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if role not in Role.values:
        raise InvalidConfiguration(_("Unknown role %(role)r.") % {"role": role})
    TournamentRole.objects.get_or_create(tournament=tournament, user=member, role=role)


def tournament_role_remove(*, tournament: Tournament, member: Any, role: str, user: Any) -> None:
    """Take a role away (organizers). Idempotent."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    TournamentRole.objects.filter(tournament=tournament, user=member, role=role).delete()


def registration_create(
    *, tournament: Tournament, player: Player, user: Any, checked_in: bool = False
) -> Registration:
    """Register a player (organizers, or the player's own account while registration is
    open). Registering again is idempotent (and un-drops a dropped player)."""
    own = user_is_signed_in(user=user) and player.user_id == user.pk
    if not (own and tournament.status == TournamentStatus.REGISTRATION):
        ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise InvalidState(_("The tournament is over."))
    reg, created = Registration.objects.get_or_create(
        tournament=tournament, player=player, defaults={"checked_in": checked_in}
    )
    if not created and (reg.dropped or (checked_in and not reg.checked_in)):
        reg.dropped = False
        reg.checked_in = reg.checked_in or checked_in
        reg.save(update_fields=["dropped", "checked_in"])
    return reg


def registration_check_in(*, registration: Registration, user: Any) -> Registration:
    """Mark a player present (organizers). Idempotent."""
    ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    if registration.dropped:
        raise InvalidState(_("A dropped player cannot check in; register again."))
    if not registration.checked_in:
        registration.checked_in = True
        registration.save(update_fields=["checked_in"])
    return registration


def registration_drop(*, registration: Registration, user: Any) -> Registration:
    """Drop a player from later rounds (organizers, or the player). Results stay."""
    own = user_is_signed_in(user=user) and registration.player.user_id == user.pk
    if not own:
        ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    if not registration.dropped:
        registration.dropped = True
        registration.save(update_fields=["dropped"])
    return registration
