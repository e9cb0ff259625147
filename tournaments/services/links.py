"""Linking a person's account to their player (issue 23, "Players with accounts").

* :func:`link_code_issue`: an organizer of a tournament the player is registered in gets
  the player's current code (made when there is none valid): 8 characters from an
  alphabet without look-alikes (no 0/O, 1/I/L), valid 14 days, single use. It is
  printed on a slip of its own for that player (``/tournaments/<id>/print/codes/``),
  never on a table's slip.
* :func:`player_link_by_code`: a signed-in person without a player enters the code and
  becomes that player's account. Wrong, used or expired codes are refused
  (:class:`~tournaments.errors.NotFound`, 404, one message for all three: a code says
  nothing about others); after :data:`MAX_FAILURES` wrong codes within
  :data:`FAILURE_WINDOW` seconds, per account and per address,
  :class:`~tournaments.errors.TooManyAttempts` (429) until the window passes.
* :func:`player_link` (an organizer links a registered player to an account by its
  username) and :func:`player_unlink` (the player themself, or an organizer of a
  tournament they are registered in).

Every link and unlink is a line in the tournament's audit log.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import InvalidState, NotAllowed, NotFound, TooManyAttempts, UnknownUser
from tournaments.models import Player, PlayerLinkCode, Registration, Tournament
from tournaments.permissions import (
    ensure_can_manage_tournament,
    ensure_signed_in,
    user_can_manage_tournament,
    user_is_signed_in,
)
from tournaments.services.core import audit_write

#: No look-alike characters (0/O, 1/I/L) in a code a person types.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
VALID_FOR = timedelta(days=14)
MAX_FAILURES = 10
FAILURE_WINDOW = 15 * 60


def _new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def _registered(player: Player, tournament: Tournament) -> None:
    if not Registration.objects.filter(tournament=tournament, player=player).exists():
        raise NotFound(_("This player is not registered in this tournament."))


def link_code_issue(*, player: Player, tournament: Tournament, user: Any) -> PlayerLinkCode:
    """The player's valid code for this tournament, or a new one (see the module)."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    _registered(player, tournament)
    if player.user_id is not None:
        raise InvalidState(_("This player is linked to an account already."))
    now = timezone.now()
    current = (
        PlayerLinkCode.objects.filter(player=player, used_at__isnull=True, expires_at__gt=now)
        .order_by("-created_at")
        .first()
    )
    if current is not None:
        return current
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return PlayerLinkCode.objects.create(
                    player=player,
                    tournament=tournament,
                    code=_new_code(),
                    created_by=user if user_is_signed_in(user=user) else None,
                    expires_at=now + VALID_FOR,
                )
        except IntegrityError:  # the same code twice: 31^8 makes it rare; draw again
            continue
    raise InvalidState(_("No code could be made; try again."))


def _failures_key(kind: str, who: Any) -> str:
    return f"tock:link-failures:{kind}:{who}"


def _count_failure(keys: list[str]) -> None:
    for key in keys:
        try:
            cache.add(key, 0, FAILURE_WINDOW)
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, FAILURE_WINDOW)


def player_link_by_code(*, code: Any, user: Any, address: str = "") -> Player:
    """Link ``user`` to the player of ``code`` (see the module rules)."""
    ensure_signed_in(user=user)
    keys = [_failures_key("user", user.pk)] + ([_failures_key("ip", address)] if address else [])
    if any((cache.get(k) or 0) >= MAX_FAILURES for k in keys):
        raise TooManyAttempts()
    text = code.strip().upper().replace(" ", "").replace("-", "") if isinstance(code, str) else ""
    if Player.objects.filter(user_id=user.pk).exists():
        raise InvalidState(_("Your account is linked to a player already."))
    with transaction.atomic():
        found = (
            PlayerLinkCode.objects.select_for_update()
            .select_related("player", "tournament")
            .filter(code=text)
            .first()
        )
        valid = found is not None and found.used_at is None and found.expires_at > timezone.now()
        if not valid:
            _count_failure(keys)
            raise NotFound(
                _("This code is wrong, used or expired. Ask the organizer for a new one.")
            )
        player = Player.objects.select_for_update().get(pk=found.player_id)
        if player.user_id is not None:
            raise InvalidState(_("This player is linked to an account already."))
        player.user = user
        player.save(update_fields=["user"])
        found.used_at, found.used_by = timezone.now(), user
        found.save(update_fields=["used_at", "used_by"])
        audit_write(
            tournament=found.tournament, user=user, action="player_linked", player=player.handle
        )
    return player


def player_link(*, player: Player, tournament: Tournament, username: Any, user: Any) -> Player:
    """An organizer links a registered player to the account ``username``."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    _registered(player, tournament)
    account = get_user_model().objects.filter(username=username).first()
    if account is None:
        raise UnknownUser()
    with transaction.atomic():
        if Player.objects.filter(user=account).exclude(pk=player.pk).exists():
            raise InvalidState(_("That account is linked to another player."))
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.user_id not in (None, account.pk):
            raise InvalidState(_("This player is linked to an account already."))
        locked.user = account
        locked.save(update_fields=["user"])
        audit_write(
            tournament=tournament,
            user=user,
            action="player_linked",
            player=locked.handle,
            account=account.get_username(),
        )
    return locked


def player_unlink(*, player: Player, user: Any) -> Player:
    """The player themself, or an organizer of a tournament they are registered in,
    unlinks the account (the player and their results stay)."""
    ensure_signed_in(user=user)
    tournaments = list(
        Tournament.objects.filter(registrations__player=player).select_related("league")
    )
    own = player.user_id is not None and player.user_id == user.pk
    if not own and not any(
        user_can_manage_tournament(user=user, tournament=t) for t in tournaments
    ):
        raise NotAllowed()
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.user_id is None:
            return locked
        locked.user = None
        locked.save(update_fields=["user"])
        for t in tournaments[:1]:  # the audit of the latest tournament they play
            audit_write(tournament=t, user=user, action="player_unlinked", player=locked.handle)
    return locked
