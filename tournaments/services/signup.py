"""Players sign up for a tournament themselves (issue 24, "Registration as events
really go"), while its registration is open (status ``registration``).

* :func:`signup`: a signed-in person registers their own player (linked to their
  account) while registration is open, or, once the tournament runs, while its late
  entry is (``late_entry_until`` set and not passed: they join the next round); a
  person without one gets a new player made from their account (handle
  from the username, made unique; display name from their name) and linked to it.
  The registration is marked ``self_signup`` (the organizer sees who signed up
  themselves). Past the tournament's maximum it joins the waitlist, in order
  (:func:`tournaments.services.core.registration_upsert`). Signing up again is
  idempotent.
* :func:`signup_withdraw`: the player withdraws (a drop); before the start their place
  goes to the first player waiting.

Audited ``signed_up`` (with ``waitlisted``) and ``dropped``; refusals:
:class:`InvalidState` (409) when registration is not open, "sign in" for anonymous
callers.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.kinds import reserved_names
from tournaments.errors import InvalidState, NotAllowed
from tournaments.models import Player, Registration, Tournament, TournamentStatus
from tournaments.permissions import user_is_signed_in
from tournaments.services.core import (
    audit_write,
    registration_drop,
    registration_flag_set,
    registration_upsert,
)


def _own_player(user: Any) -> Player:
    """The user's player, made for them when they have none."""
    player = Player.objects.filter(user_id=user.pk).first()
    if player is not None:
        return player
    base = slugify(user.get_username())[:40] or "player"
    if base in reserved_names():
        base = f"{base}-1"
    name = (user.get_full_name() or user.get_username())[:120]
    for n in range(0, 1000):
        handle = base if n == 0 else f"{base}-{n + 1}"
        if Player.objects.filter(handle=handle).exists():
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(handle=handle, display_name=name, user=user)
        except IntegrityError:  # taken meanwhile, or the user got a player meanwhile
            mine = Player.objects.filter(user_id=user.pk).first()
            if mine is not None:
                return mine
    raise InvalidState(_("No free player handle could be made from your username."))


def signup(*, tournament: Tournament, user: Any) -> Registration:
    """Sign ``user`` up for ``tournament`` (see the module). Returns the registration
    (``waitlisted`` says whether they wait for a place)."""
    if not user_is_signed_in(user=user):
        raise NotAllowed(_("You must be signed in to do this."))
    late = tournament.status == TournamentStatus.RUNNING and tournament.late_entry_until
    if tournament.status != TournamentStatus.REGISTRATION and not late:
        raise InvalidState(_("Registration for this tournament is not open."))
    with transaction.atomic():
        player = _own_player(user)
        existing = Registration.objects.filter(tournament=tournament, player=player).first()
        if existing is not None and not existing.dropped:
            return existing
        reg = registration_upsert(tournament=tournament, player=player, self_signup=True)
        if not reg.self_signup:
            reg.self_signup = True
            reg.save(update_fields=["self_signup"])
        audit_write(
            tournament=tournament,
            user=user,
            action="signed_up",
            player=player.handle,
            waitlisted=reg.waitlisted,
        )
    return reg


def signup_withdraw(*, tournament: Tournament, user: Any) -> Registration:
    """The signed-in player withdraws from ``tournament`` (a drop: their results stay;
    before the start, the first player waiting takes the place)."""
    if not user_is_signed_in(user=user):
        raise NotAllowed(_("You must be signed in to do this."))
    reg = (
        Registration.objects.filter(tournament=tournament, player__user_id=user.pk)
        .select_related("player", "tournament")
        .first()
    )
    if reg is None:
        raise InvalidState(_("You are not registered for this tournament."))
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise InvalidState(_("The tournament is over."))
    return registration_drop(registration=reg, user=user)


def registration_self_check_in(*, tournament: Tournament, user: Any) -> Registration:
    """A registered player checks themselves in from their phone while the organizer has
    check-in open (``Tournament.check_in_open``): not once dropped, nor while waiting on
    the waitlist (409). Audited ``checked_in`` (the organizer's list shows it live).
    Idempotent."""
    if not user_is_signed_in(user=user):
        raise NotAllowed(_("You must be signed in to do this."))
    if not tournament.check_in_open or tournament.status in (
        TournamentStatus.FINISHED,
        TournamentStatus.CANCELLED,
    ):
        raise InvalidState(_("Check-in is not open."))
    reg = (
        Registration.objects.filter(tournament=tournament, player__user_id=user.pk)
        .select_related("player", "tournament")
        .first()
    )
    if reg is None:
        raise InvalidState(_("You are not registered for this tournament."))
    if reg.dropped or reg.waitlisted:
        raise InvalidState(_("You have no place in this tournament to check in to."))
    return registration_flag_set(
        registration=reg, user=user, field="checked_in", value=True, action="checked_in"
    )
