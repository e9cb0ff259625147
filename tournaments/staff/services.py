"""Staff of a tournament without the Django admin: scorekeepers and referees.

Rules and invariants:

* Only organizers of the tournament (its own or its league's) add or remove staff; only
  organizers of the tournament's **league** and superusers create accounts (an account
  is a site-wide thing, a tournament organizer only hands out roles).
* The roles handed out here are :data:`STAFF_ROLES` (scorekeeper, referee). Organizers
  are the league's business (``League.organizers``) and are not touched here.
* A new account has an unusable password and gets its role in the same transaction;
  the organizer is given a one-time link (:func:`staff_set_password_path`) to pass on.
  The link is Django's password-reset token (``default_token_generator``), so it stops
  working once the password is set (the token hashes the password) and after
  ``PASSWORD_RESET_TIMEOUT``. No mail is needed.
* While the password is not set, organizers of the league may get a new link
  (:func:`staff_account_link`), e.g. when the first one was lost; once it is set, the
  owner changes it themself.
* Every change is audited (``staff_added``, ``staff_removed``, ``staff_account_created``);
  any error means nothing was stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.errors import InvalidConfiguration, InvalidState, NotFound, UnknownUser
from tournaments.models import Role, Tournament, TournamentRole
from tournaments.permissions import ensure_can_manage_league, ensure_can_manage_tournament
from tournaments.services.core import audit_write, tournament_role_add, tournament_role_remove

#: The roles organizers hand out from the staff page and the staff API.
STAFF_ROLES: tuple[str, ...] = (Role.SCOREKEEPER, Role.REFEREE)


@dataclass(frozen=True)
class StaffAccount:
    """A staff account just created: the user, the role given, and the path of the
    one-time set-password link (relative; the caller makes it absolute)."""

    user: Any
    role: str
    set_password_path: str


def _validate_role(role: Any) -> str:
    if role not in STAFF_ROLES:
        raise InvalidConfiguration(
            _("The role must be scorekeeper or referee, not %(role)r.") % {"role": role}
        )
    return str(role)


def _member_by_username(username: Any) -> Any:
    """The active account named ``username`` (exact, else case-insensitive), or
    ``UnknownUser`` (400)."""
    name = str(username or "").strip()
    users = get_user_model().objects.filter(is_active=True)
    member = users.filter(username=name).first() if name else None
    if member is None and name:
        member = users.filter(username__iexact=name).first()
    if member is None:
        raise UnknownUser(_("No account has the username %(name)r.") % {"name": name})
    return member


def staff_set_password_path(*, member: Any) -> str:
    """The path of ``member``'s one-time set-password page (``staff-set-password``).
    Valid until the password is set or ``PASSWORD_RESET_TIMEOUT`` passes."""
    uid = urlsafe_base64_encode(force_bytes(member.pk))
    token = default_token_generator.make_token(member)
    return reverse("staff-set-password", kwargs={"uidb64": uid, "token": token})


def staff_add(*, tournament: Tournament, username: str, role: str, user: Any) -> Any:
    """Give the existing account ``username`` a staff role (organizers of the
    tournament). Idempotent. Returns the member. The role check comes first, so a
    refused caller learns nothing about which usernames exist."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    role = _validate_role(role)
    member = _member_by_username(username)
    with transaction.atomic():
        created = not TournamentRole.objects.filter(
            tournament=tournament, user=member, role=role
        ).exists()
        tournament_role_add(tournament=tournament, member=member, role=role, user=user)
        if created:
            audit_write(
                tournament=tournament,
                user=user,
                action="staff_added",
                member=member.get_username(),
                role=role,
            )
    return member


def staff_remove(
    *, tournament: Tournament, username: str, user: Any, role: str | None = None
) -> list[str]:
    """Take ``role`` (or, without it, every staff role) from ``username`` (organizers of
    the tournament). Returns the roles removed; a user who holds none of them is
    ``NotFound`` (404). Organizer roles are never removed here."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    roles = [_validate_role(role)] if role is not None else list(STAFF_ROLES)
    member = get_user_model().objects.filter(username=str(username or "").strip()).first()
    held = (
        sorted(
            TournamentRole.objects.filter(
                tournament=tournament, user=member, role__in=roles
            ).values_list("role", flat=True)
        )
        if member is not None
        else []
    )
    if not held:
        raise NotFound(
            _("%(name)s is not on this tournament's staff.") % {"name": str(username)[:150]}
        )
    with transaction.atomic():
        for name in held:
            tournament_role_remove(tournament=tournament, member=member, role=name, user=user)
        audit_write(
            tournament=tournament,
            user=user,
            action="staff_removed",
            member=member.get_username(),
            roles=held,
        )
    return held


def staff_account_create(
    *,
    tournament: Tournament,
    username: str,
    role: str,
    user: Any,
    display_name: str = "",
) -> StaffAccount:
    """Create an account for a new scorekeeper or referee of ``tournament`` (organizers
    of its league and superusers): unusable password, the role, one transaction.

    The username follows Django's rules (letters, digits and ``@.+-_``, at most 150);
    one that exists (in any case) is ``InvalidState`` (409: add it by username instead).
    ``display_name`` (optional, at most 150 characters) is stored as the first name.
    Returns the account and the path of its one-time set-password link.
    """
    ensure_can_manage_league(user=user, league=tournament.league)
    role = _validate_role(role)
    model = get_user_model()
    name = str(username or "").strip()
    display = str(display_name or "").strip()
    if not name:
        raise InvalidConfiguration(_("A username is needed."))
    field = model._meta.get_field(model.USERNAME_FIELD)
    try:
        field.run_validators(name)
        if len(name) > field.max_length:
            raise ValidationError(_("At most %(count)d characters.") % {"count": field.max_length})
    except ValidationError as exc:
        raise InvalidConfiguration(
            _("Invalid username: %(reason)s") % {"reason": " ".join(exc.messages)}
        ) from exc
    if len(display) > 150:
        raise InvalidConfiguration(_("The display name may have at most 150 characters."))
    taken = _("The username %(name)r is taken; add that account by its username.") % {"name": name}
    if model.objects.filter(username__iexact=name).exists():
        raise InvalidState(taken)
    try:
        with transaction.atomic():
            member = model(username=name, first_name=display)
            member.set_unusable_password()
            member.save()
            TournamentRole.objects.create(tournament=tournament, user=member, role=role)
            audit_write(
                tournament=tournament,
                user=user,
                action="staff_account_created",
                member=name,
                role=role,
            )
    except IntegrityError as exc:  # created by someone else at the same moment
        raise InvalidState(taken) from exc
    return StaffAccount(
        user=member, role=role, set_password_path=staff_set_password_path(member=member)
    )


def staff_account_link(*, tournament: Tournament, username: str, user: Any) -> str:
    """A new one-time set-password link (its path) for a staff member of ``tournament``
    who has not set a password yet (organizers of the league and superusers, like
    creating the account). ``NotFound`` (404) for a username with no staff role here;
    ``InvalidState`` (409) once the password is set. Audited ``staff_link_issued``."""
    ensure_can_manage_league(user=user, league=tournament.league)
    member = get_user_model().objects.filter(username=str(username or "").strip()).first()
    if (
        member is None
        or not TournamentRole.objects.filter(
            tournament=tournament, user=member, role__in=STAFF_ROLES
        ).exists()
    ):
        raise NotFound(
            _("%(name)s is not on this tournament's staff.") % {"name": str(username)[:150]}
        )
    if member.has_usable_password():
        raise InvalidState(
            _("%(name)s has set a password already.") % {"name": member.get_username()}
        )
    audit_write(
        tournament=tournament, user=user, action="staff_link_issued", member=member.get_username()
    )
    return staff_set_password_path(member=member)
