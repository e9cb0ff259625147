"""Players, leagues, tournaments, roles and registrations (write services).

Every service takes the acting ``user`` (a Django user, ``AnonymousUser`` or
:data:`tournaments.permissions.SYSTEM`) and checks the role it needs first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

import games.engine as engine
from games.kinds import player_count_range, reserved_names
from outbox.changes import (
    LeagueChanged,
    PlayerChanged,
    RegistrationChanged,
    TournamentChanged,
    change_recorded,
)
from tournaments.errors import InvalidConfiguration, InvalidState, NotAllowed
from tournaments.models import (
    TIEBREAK_CHOICES,
    LateEntryPoints,
    League,
    Player,
    Registration,
    RepeatAvoidance,
    ReportAgreement,
    Role,
    Seeding,
    Tournament,
    TournamentAudit,
    TournamentFormat,
    TournamentRole,
    TournamentStatus,
    UnevenPlayers,
    default_tiebreaks,
    table_sizes_around,
)
from tournaments.permissions import (
    acting_user,
    ensure_can_manage_league,
    ensure_can_manage_tournament,
    ensure_signed_in,
    user_is_signed_in,
    user_is_superuser,
)


def table_size_limits(*, kind: str) -> tuple[int, int]:
    """Fewest and most players at one table of ``kind``: the game class's
    ``min_players``/``max_players`` (TOCK: 2 to 6), as :func:`games.kinds.player_count_range`
    states them. Every table-size check asks here."""
    try:
        return player_count_range(kind)
    except engine.EngineError as exc:
        raise InvalidConfiguration(_("Unknown game kind %(kind)r.") % {"kind": kind}) from exc


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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_table_sizes(*, kind: str, table_sizes: Any) -> list[int]:
    """``table_sizes`` (the preferred size first, then the other sizes allowed when the
    count does not divide) if every size is one a table of ``kind`` may seat, distinct,
    at least one; else :class:`InvalidConfiguration` (400)."""
    if not isinstance(table_sizes, list | tuple) or not table_sizes:
        raise InvalidConfiguration(_("Table sizes must be a non-empty list (preferred first)."))
    for size in table_sizes:
        validate_table_size(kind=kind, table_size=size)
    if len(set(table_sizes)) != len(table_sizes):
        raise InvalidConfiguration(_("Table sizes must be distinct."))
    return [int(s) for s in table_sizes]


def validate_progression_settings(
    *,
    format: Any,
    table_sizes: list[int],
    rounds: Any,
    cut: Any,
    advance: Any,
    round_minutes: Any,
    seeding: Any,
) -> None:
    """The rules of a tournament's progression settings (:class:`InvalidConfiguration`):

    * ``format`` is ``swiss``, ``elimination`` or ``swiss_cut``;
    * ``rounds`` (Swiss rounds) from 1 to 50;
    * ``advance`` (top K per table, elimination) from 1 to one less than the preferred
      table size (elimination tables are only seated at sizes above ``advance``, so
      every elimination round sends somebody home);
    * ``cut`` (top N after the Swiss rounds, ``swiss_cut``) at least 2;
    * ``round_minutes`` empty or from 1 to 1440; ``seeding`` ``rating`` or ``random``.
    """
    if format not in TournamentFormat.values:
        raise InvalidConfiguration(_("Unknown format %(format)r.") % {"format": format})
    if not _is_int(rounds) or not 1 <= rounds <= 50:
        raise InvalidConfiguration(_("The number of rounds must be from 1 to 50."))
    eliminates = format in (TournamentFormat.ELIMINATION, TournamentFormat.SWISS_CUT)
    if not _is_int(advance) or advance < 1 or (eliminates and advance >= table_sizes[0]):
        raise InvalidConfiguration(
            _("The players advancing per table must be from 1 to %(n)d.")
            % {"n": max(table_sizes[0] - 1, 1)}
        )
    if not _is_int(cut) or not 2 <= cut <= 10000:
        raise InvalidConfiguration(_("The cut must be at least 2 players."))
    if round_minutes is not None and (not _is_int(round_minutes) or not 1 <= round_minutes <= 1440):
        raise InvalidConfiguration(_("Minutes per round must be from 1 to 1440, or empty."))
    if seeding not in Seeding.values:
        raise InvalidConfiguration(_("Unknown seeding %(seeding)r.") % {"seeding": seeding})


def audit_write(
    *, tournament: Tournament, user: Any, action: str, round: Any = None, **details: Any
) -> TournamentAudit:
    """Append one row to the tournament's audit log. ``user`` is the actor (a signed-in
    user is stored; SYSTEM, tasks and anonymous callers are stored as empty = system).

    Every step of an event is audited here, so this is also where the step is recorded
    as a change (:class:`~outbox.changes.TournamentChanged`): what follows it (standings,
    cached pages, the live pages) is :mod:`tournaments.effects`' to decide."""
    change_recorded(TournamentChanged(tournament_id=tournament.pk, action=action))
    return TournamentAudit.objects.create(
        tournament=tournament,
        round=round,
        actor=acting_user(user=user),
        action=action,
        details=details,
    )


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
            player = Player.objects.create(
                handle=handle, display_name=display_name or handle, user=linked_user
            )
            change_recorded(PlayerChanged(player_id=player.pk))
            return player
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
        change_recorded(LeagueChanged(league_id=league.pk))
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


def _check_report_agreement(value: Any) -> None:
    if value not in ReportAgreement.values:
        raise InvalidConfiguration(
            _("Unknown rule for players' reports %(value)r: use %(choices)s.")
            % {"value": value, "choices": ", ".join(ReportAgreement.values)}
        )


def _check_uneven(uneven: Any, bye_points: Any) -> None:
    if uneven not in UnevenPlayers.values:
        raise InvalidConfiguration(
            _("Unknown choice for players who do not fill the tables %(value)r: use %(choices)s.")
            % {"value": uneven, "choices": ", ".join(UnevenPlayers.values)}
        )
    if bye_points is not None and (
        isinstance(bye_points, bool)
        or not isinstance(bye_points, int | float)
        or not 0 <= bye_points <= 1000
    ):
        raise InvalidConfiguration(
            _("The points of a bye are empty (a table win's) or a number from 0 to 1000.")
        )


def _check_repeats(repeat_avoidance: Any, top_table_final: Any) -> None:
    if repeat_avoidance not in RepeatAvoidance.values:
        raise InvalidConfiguration(
            _("Unknown choice for repeat meetings %(value)r: use %(choices)s.")
            % {"value": repeat_avoidance, "choices": ", ".join(RepeatAvoidance.values)}
        )
    if not isinstance(top_table_final, bool):
        raise InvalidConfiguration(_("Leaders together in the last round is true or false."))


def _check_late_entry(until: Any, points: Any) -> None:
    if until is not None and (not _is_int(until) or not 1 <= until <= 100):
        raise InvalidConfiguration(
            _("Late entry is open until a round from 1 to 100, or empty (any round).")
        )
    if points not in LateEntryPoints.values:
        raise InvalidConfiguration(
            _("Unknown choice for a late player's missed rounds %(value)r: use %(choices)s.")
            % {"value": points, "choices": ", ".join(LateEntryPoints.values)}
        )


def _check_max_players(value: Any, *, kind: str) -> None:
    if value is None:
        return
    low = table_size_limits(kind=kind)[0]
    if not _is_int(value) or not low <= value <= 100_000:
        raise InvalidConfiguration(
            _("The maximum number of players is empty (no limit) or a whole number from %(low)d.")
            % {"low": low}
        )


def tournament_create(
    *,
    league: League,
    name: str,
    starts_on: dt.date,
    slug: str | None = None,
    ends_on: dt.date | None = None,
    venue: str = "",
    format: str = TournamentFormat.SWISS,
    table_sizes: Sequence[int] | None = None,
    rounds: int | None = None,
    cut: int = 8,
    advance: int = 2,
    round_minutes: int | None = None,
    auto_progress: bool = True,
    seeding: str = Seeding.RATING,
    points_per_place: Sequence[float] | None = None,
    tiebreaks: Sequence[str] | None = None,
    is_public: bool = True,
    status: str = TournamentStatus.REGISTRATION,
    report_agreement: str = ReportAgreement.ALL,
    max_players: int | None = None,
    uneven_players: str = UnevenPlayers.REFUSE,
    bye_points: float | None = None,
    late_entry_until: int | None = None,
    late_entry_points: str = LateEntryPoints.LAST,
    repeat_avoidance: str = RepeatAvoidance.STRICT,
    top_table_final: bool = False,
    table_size: int | None = None,
    rounds_count: int | None = None,
    user: Any,
) -> Tournament:
    """Create a tournament in a league (league organizers). The creator becomes organizer.

    Settings (see :func:`validate_progression_settings` for their rules): ``format``
    (``swiss`` | ``elimination`` | ``swiss_cut``; the former ``random`` is accepted as
    Swiss with ``seeding="random"``), ``table_sizes`` (preferred first; default: 4, then
    every other size the game allows, nearest first), ``rounds`` (Swiss rounds), ``cut``,
    ``advance``, ``round_minutes``, ``auto_progress``, ``seeding``, ``report_agreement``
    (who must agree on a players' report: ``all`` or ``two``), ``repeat_avoidance``
    (``strict``, ``balanced``, ``off``: :mod:`tournaments.seating`) and
    ``top_table_final`` (the leaders together in the last round). The former names
    ``table_size`` (= ``table_sizes`` around that size) and ``rounds_count`` are accepted.
    """
    ensure_can_manage_league(user=user, league=league)
    _check_report_agreement(report_agreement)
    _check_max_players(max_players, kind=league.kind)
    _check_uneven(uneven_players, bye_points)
    _check_late_entry(late_entry_until, late_entry_points)
    _check_repeats(repeat_avoidance, top_table_final)
    lo, hi = table_size_limits(kind=league.kind)
    if table_sizes is None:
        preferred = 4 if table_size is None else table_size
        validate_table_size(kind=league.kind, table_size=preferred)
        sizes = table_sizes_around(preferred, lo, hi)
    else:
        sizes = validate_table_sizes(kind=league.kind, table_sizes=list(table_sizes))
    points, order = validate_scoring(
        kind=league.kind,
        table_size=sizes[0],
        points_per_place=points_per_place,
        tiebreaks=tiebreaks,
    )
    if format == "random":  # the former format: Swiss seated at random
        format, seeding = TournamentFormat.SWISS, Seeding.RANDOM
    rounds = rounds if rounds is not None else (rounds_count if rounds_count is not None else 5)
    validate_progression_settings(
        format=format,
        table_sizes=sizes,
        rounds=rounds,
        cut=cut,
        advance=advance,
        round_minutes=round_minutes,
        seeding=seeding,
    )
    if status not in TournamentStatus.values:
        raise InvalidConfiguration(_("Unknown status %(status)r.") % {"status": status})
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
            table_sizes=sizes,
            swiss_rounds=rounds,
            cut=cut,
            advance=advance,
            round_minutes=round_minutes,
            auto_progress=bool(auto_progress),
            seeding=seeding,
            points_per_place=points,
            tiebreaks=order,
            is_public=is_public,
            status=status,
            report_agreement=report_agreement,
            max_players=max_players,
            uneven_players=uneven_players,
            bye_points=bye_points,
            late_entry_until=late_entry_until,
            late_entry_points=late_entry_points,
            repeat_avoidance=repeat_avoidance,
            top_table_final=top_table_final,
        )
        if user_is_signed_in(user=user):
            TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ORGANIZER)
        audit_write(
            tournament=tournament, user=user, action="created", format=format, table_sizes=sizes
        )
    return tournament


_UPDATABLE = {
    "name",
    "venue",
    "starts_on",
    "ends_on",
    "format",
    "rounds",
    "cut",
    "advance",
    "round_minutes",
    "auto_progress",
    "seeding",
    "points_per_place",
    "tiebreaks",
    "is_public",
    "status",
    "report_agreement",
    "max_players",
    "uneven_players",
    "bye_points",
    "late_entry_until",
    "late_entry_points",
    "check_in_open",
    "repeat_avoidance",
    "top_table_final",
}
#: Settings that decide how players are seated: fixed once round 1 is seated.
_SEATING = {"table_sizes", "table_size", "format", "seeding"}


def tournament_update(*, tournament: Tournament, user: Any, **fields: Any) -> Tournament:
    """Change a tournament's settings (organizers). Scoring changes apply to standings at once.

    The one rule of what may change when (the API's PATCH applies it as it is): a
    tournament that is over (finished, cancelled) changes no more, unless the change is
    its ``status`` itself (:class:`InvalidState`);
    the table sizes (``table_sizes``, or the former ``table_size``), ``format`` and
    ``seeding`` cannot change once a round exists (:class:`InvalidState`); ``rounds``
    (``rounds_count``), ``cut``, ``advance``, ``round_minutes`` and ``auto_progress`` may
    (they apply from the next round). Every change is written to the audit log.
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED) and (
        fields.get("status") in (None, tournament.status)
    ):
        raise InvalidState(_("The tournament is over."))
    if "rounds_count" in fields:
        fields["rounds"] = fields.pop("rounds_count")
    if fields.get("format") == "random":
        fields["format"], fields["seeding"] = TournamentFormat.SWISS, Seeding.RANDOM
    unknown = set(fields) - _UPDATABLE - _SEATING
    if unknown:
        raise InvalidConfiguration(
            _("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    changed_seating = {
        k
        for k in _SEATING & set(fields)
        if fields[k] != getattr(tournament, k if k != "table_size" else "table_size")
    }
    if changed_seating and tournament.rounds.exists():
        raise InvalidState(
            _("The table sizes, format and seeding cannot change once a round has been seated.")
        )
    kind = tournament.league.kind
    if "table_sizes" in fields:
        sizes = validate_table_sizes(kind=kind, table_sizes=fields.pop("table_sizes"))
    elif "table_size" in fields:
        preferred = validate_table_size(kind=kind, table_size=fields.pop("table_size"))
        sizes = table_sizes_around(preferred, *table_size_limits(kind=kind))
    else:
        sizes = list(tournament.table_sizes)
    points, order = validate_scoring(
        kind=kind,
        table_size=sizes[0],
        points_per_place=fields.get("points_per_place", tournament.points_per_place),
        tiebreaks=fields.get("tiebreaks", tournament.tiebreaks),
    )
    validate_progression_settings(
        format=fields.get("format", tournament.format),
        table_sizes=sizes,
        rounds=fields.get("rounds", tournament.swiss_rounds),
        cut=fields.get("cut", tournament.cut),
        advance=fields.get("advance", tournament.advance),
        round_minutes=fields.get("round_minutes", tournament.round_minutes),
        seeding=fields.get("seeding", tournament.seeding),
    )
    if "report_agreement" in fields:
        _check_report_agreement(fields["report_agreement"])
    if "max_players" in fields:
        _check_max_players(fields["max_players"], kind=kind)
    _check_uneven(
        fields.get("uneven_players", tournament.uneven_players),
        fields.get("bye_points", tournament.bye_points),
    )
    _check_late_entry(
        fields.get("late_entry_until", tournament.late_entry_until),
        fields.get("late_entry_points", tournament.late_entry_points),
    )
    _check_repeats(
        fields.get("repeat_avoidance", tournament.repeat_avoidance),
        fields.get("top_table_final", tournament.top_table_final),
    )
    if "status" in fields and fields["status"] not in TournamentStatus.values:
        raise InvalidConfiguration(_("Unknown status %(status)r.") % {"status": fields["status"]})
    if "rounds" in fields:
        fields["swiss_rounds"] = fields.pop("rounds")
    with transaction.atomic():
        for name, value in fields.items():
            setattr(tournament, name, value)
        tournament.table_sizes = sizes
        tournament.points_per_place = points
        tournament.tiebreaks = order
        # Only what this call sets: a caller's stale copy must not write back the status
        # (a PATCH while the progression finishes the tournament).
        tournament.save(
            update_fields=sorted({*fields, "table_sizes", "points_per_place", "tiebreaks"})
        )
        audit_write(
            tournament=tournament,
            user=user,
            action="settings_changed",
            fields=sorted(fields) + (["table_sizes"] if changed_seating else []),
        )
        if "max_players" in fields and tournament.status in (
            TournamentStatus.DRAFT,
            TournamentStatus.REGISTRATION,
        ):
            waitlist_promote(tournament=tournament, user=user)  # a larger maximum has room
    return tournament


def tournament_settings_update(*, tournament: Tournament, user: Any, **fields: Any) -> Tournament:
    """Edit an event before it starts (organizers): what the API's PATCH and the
    organizer dashboard call. Refused with :class:`InvalidState` (409) once the
    tournament is over, running or has a round; otherwise :func:`tournament_update`."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise InvalidState(_("The tournament is over."))
    if tournament.status == TournamentStatus.RUNNING or tournament.rounds.exists():
        raise InvalidState(_("The tournament has already started."))
    return tournament_update(tournament=tournament, user=user, **fields)


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
    return registration_upsert(tournament=tournament, player=player, checked_in=checked_in)


def registration_upsert(
    *,
    tournament: Tournament,
    player: Player,
    checked_in: bool = False,
    self_signup: bool = False,
) -> Registration:
    """The registration rule itself, WITHOUT a role check (callers check: here
    :func:`registration_create`, the batch service
    :func:`tournaments.services.registration.registration_create_many` and the self
    sign-up :func:`tournaments.services.signup.signup`): register the player, or keep the
    registration there is (un-dropped; checked in if asked).

    Capacity (``Tournament.max_players``): a registration that would take the active
    registrations (neither dropped nor waiting) past the maximum joins the waitlist
    instead, in order (it is not checked in, so it is never seated); the tournament row
    is locked while counting, so two sign-ups at once cannot both take the last place."""
    with transaction.atomic():
        if tournament.max_players is not None:
            Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        seated = late_entry_round(tournament)
        reg, created = Registration.objects.get_or_create(
            tournament=tournament,
            player=player,
            defaults={
                # a late entry is present (checked in), seated from the next round
                "checked_in": checked_in or bool(seated),
                "self_signup": self_signup,
                "joined_round": seated + 1 if seated else None,
            },
        )
        if created:
            if _full(tournament, exclude=reg.pk):  # past the maximum: the waitlist
                reg.waitlisted, reg.checked_in = True, False
                reg.save(update_fields=["checked_in", "waitlisted"])
        else:
            if not reg.dropped and not (checked_in and not reg.checked_in):
                return reg
            holds_a_place = not reg.dropped and not reg.waitlisted
            if not holds_a_place and _full(tournament, exclude=reg.pk):
                reg.waitlisted, reg.checked_in, reg.dropped = True, False, False
            else:
                reg.waitlisted = False
                reg.dropped = False
                reg.checked_in = reg.checked_in or checked_in
            reg.save(update_fields=["dropped", "checked_in", "waitlisted"])
    change_recorded(TournamentChanged(tournament_id=tournament.pk, action="registered"))
    registration_changed(tournament_id=tournament.pk, player=player)
    return reg


def registration_changed(*, tournament_id: int, player: Player) -> None:
    """Record that ``player``'s registration in the tournament changed, for the account's
    own pages (:class:`~outbox.changes.RegistrationChanged`; nothing for a player
    without an account: nobody's "my table" follows them)."""
    if player.user_id is not None:
        change_recorded(RegistrationChanged(tournament_id=tournament_id, user_id=player.user_id))


def late_entry_round(tournament: Tournament) -> int:
    """The rounds seated so far (0 before the start): a player registered now is a late
    entry who joins the next one. :class:`InvalidState` once late entry has closed
    (``late_entry_until`` rounds seated)."""
    seated = tournament.rounds.count() if tournament.status == TournamentStatus.RUNNING else 0
    limit = tournament.late_entry_until
    if seated and limit is not None and seated >= limit:
        raise InvalidState(
            _("Late entry closed after round %(n)d: no more players may join.") % {"n": limit}
        )
    return seated


def _full(tournament: Tournament, *, exclude: int | None = None) -> bool:
    """Whether the tournament's active registrations (neither dropped nor waiting) have
    reached its maximum (never, without one)."""
    if tournament.max_players is None:
        return False
    active = Registration.objects.filter(tournament=tournament, dropped=False, waitlisted=False)
    return active.exclude(pk=exclude).count() >= tournament.max_players


def waitlist_promote(*, tournament: Tournament, user: Any) -> list[str]:
    """Move the first waiting players up, in order, while the tournament has room (no
    role check: the callers, a drop or a change of the maximum, checked theirs). Each
    is audited ``waitlist_promoted`` and their page says so. Returns their handles."""
    promoted: list[str] = []
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        waiting = (
            Registration.objects.filter(tournament=tournament, waitlisted=True, dropped=False)
            .select_related("player")
            .order_by("registered_at", "id")
        )
        for reg in waiting:
            if _full(tournament):
                break
            reg.waitlisted = False
            reg.promoted_at = timezone.now()
            reg.save(update_fields=["waitlisted", "promoted_at"])
            audit_write(
                tournament=tournament,
                user=user,
                action="waitlist_promoted",
                player=reg.player.handle,
            )
            registration_changed(tournament_id=tournament.pk, player=reg.player)
            promoted.append(reg.player.handle)
    return promoted


def registration_flag_set(
    *, registration: Registration, user: Any, field: str, value: bool, action: str
) -> Registration:
    """The step the registration services share, WITHOUT a role or state check (the
    caller checks): set the flag ``field`` (``checked_in`` or ``dropped``) to ``value``
    and audit it as ``action``, in one transaction; nothing (no audit line either) when
    the flag is so already, so every such service is idempotent."""
    if getattr(registration, field) != value:
        with transaction.atomic():
            setattr(registration, field, value)
            registration.save(update_fields=[field])
            audit_write(
                tournament=registration.tournament,
                user=user,
                action=action,
                player=registration.player.handle,
            )
            registration_changed(
                tournament_id=registration.tournament_id, player=registration.player
            )
    return registration


def registration_check_in(*, registration: Registration, user: Any) -> Registration:
    """Mark a player present (organizers). Idempotent. Not a player on the waitlist
    (:class:`InvalidState`: they have no place yet)."""
    ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    if registration.dropped:
        raise InvalidState(_("A dropped player cannot check in; register again."))
    if registration.waitlisted:
        raise InvalidState(_("This player is on the waitlist: they have no place yet."))
    return registration_flag_set(
        registration=registration, user=user, field="checked_in", value=True, action="checked_in"
    )


def registration_drop(*, registration: Registration, user: Any) -> Registration:
    """Drop a player from later rounds (organizers, or the player). Results stay."""
    own = user_is_signed_in(user=user) and registration.player.user_id == user.pk
    if not own:
        ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    tournament = registration.tournament
    with transaction.atomic():
        was_active = not registration.dropped and not registration.waitlisted
        registration_flag_set(
            registration=registration, user=user, field="dropped", value=True, action="dropped"
        )
        # a place freed before the start goes to the first player waiting
        if was_active and tournament.status in (
            TournamentStatus.DRAFT,
            TournamentStatus.REGISTRATION,
        ):
            waitlist_promote(tournament=tournament, user=user)
    return registration


def registration_reinstate(*, registration: Registration, user: Any) -> Registration:
    """Undo a drop (organizers only: a player who dropped asks the organizer to come
    back): the player is seated again from the next round that is seated, checked in or
    not as before the drop. Refused once the tournament is over. Idempotent."""
    ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    if registration.tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise InvalidState(_("The tournament is over."))
    return registration_flag_set(
        registration=registration, user=user, field="dropped", value=False, action="reinstated"
    )
