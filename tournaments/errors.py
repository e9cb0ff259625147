"""Domain errors raised by the tournaments services (see :mod:`games.errors`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from games.errors import DomainError


class NotAllowed(DomainError, PermissionDenied):
    """The user lacks the role needed (anonymous users are always refused writes)."""

    code = "not_allowed"
    http_status = 403
    default_message = _("You do not have permission to do this.")


class PlaysInGame(NotAllowed):
    """The user plays in the game (their account is linked to a seated player): nobody
    undoes an event of, rules on or accepts a result of a game they play in."""

    code = "plays_in_game"
    http_status = 403
    default_message = _(
        "You play in this game: someone else must undo, rule on or accept its results."
    )


class NotFound(DomainError):
    code = "not_found"
    http_status = 404
    default_message = _("Not found.")


class InvalidConfiguration(DomainError):
    code = "invalid_configuration"
    http_status = 400
    default_message = _("Invalid tournament settings.")


class InvalidState(DomainError):
    """The action is not possible in the current state (e.g. round not finished)."""

    code = "invalid_state"
    http_status = 409
    default_message = _("This is not possible in the current state.")


class UnknownUser(DomainError):
    """A username that names no account (adding staff by username)."""

    code = "unknown_user"
    http_status = 400
    default_message = _("No account has this username.")


class TooManyAttempts(DomainError):
    """Too many wrong codes in a short time (link codes): wait and try again."""

    code = "too_many_attempts"
    http_status = 429
    default_message = _("Too many wrong codes: wait a few minutes and try again.")
