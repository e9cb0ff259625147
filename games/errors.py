"""Domain errors raised by the games services.

Every error carries a translated one-line ``message``, a stable machine ``code`` and
the HTTP status the API should answer with (``http_status``), plus ``extra`` fields
for the response body. Raising one of them always means **nothing was stored**
(the services run in ``transaction.atomic``).

API mapping (``tock_site.api_errors`` or the view)::

    except DomainError as exc:
        return Response({"detail": str(exc.message), "code": exc.code, **exc.extra},
                        status=exc.http_status)
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    """Base of all domain errors of the games and tournaments apps."""

    code = "invalid"
    http_status = 400
    default_message = _("Invalid request.")

    def __init__(self, message: Any = None, **extra: Any) -> None:
        self.message = message if message is not None else self.default_message
        self.extra = extra
        super().__init__(str(self.message))

    def as_dict(self) -> dict[str, Any]:
        return {"detail": str(self.message), "code": self.code, **self.extra}


class GameNotFound(DomainError):
    code = "game_not_found"
    http_status = 404
    default_message = _("No such game.")


class MalformedInput(DomainError):
    """Input that is not even well-formed (not JSON, not an object, too large...)."""

    code = "malformed"
    http_status = 400
    default_message = _("Malformed input.")


class EventRejected(DomainError):
    """The engine refused the event; ``reason`` is the engine's one-line reason."""

    code = "event_rejected"
    http_status = 422

    def __init__(self, reason: str, **extra: Any) -> None:
        self.reason = reason
        super().__init__(reason, reason=reason, **extra)


class LogRejected(DomainError):
    """An uploaded log is invalid; ``line`` is the 1-based line of the first bad line."""

    code = "log_rejected"
    http_status = 422

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(
            _("line %(line)d: %(reason)s") % {"line": line, "reason": reason},
            line=line,
            reason=reason,
        )


class StaleSequence(DomainError):
    """The client expected to write another sequence number than the next one."""

    code = "stale_sequence"
    http_status = 409

    def __init__(self, current_sequence: int, expected_sequence: int | None = None) -> None:
        self.current_sequence = current_sequence
        super().__init__(
            _(
                "Stale sequence number %(expected)s: the log has %(current)d events, "
                "the next sequence number is %(next)d."
            )
            % {
                "expected": expected_sequence,
                "current": current_sequence,
                "next": current_sequence + 1,
            },
            current_sequence=current_sequence,
        )


class GameFinished(DomainError):
    code = "game_finished"
    http_status = 409
    default_message = _("The game is over; no more events can be recorded.")


class ResultMismatch(DomainError):
    """Placements or a log do not match the players seated for the game."""

    code = "result_mismatch"
    http_status = 400
    default_message = _("The result does not match the seated players.")


class ResultConflict(DomainError):
    """The requested recording conflicts with what is already stored for the game."""

    code = "result_conflict"
    http_status = 409
    default_message = _("The game already has a conflicting log or result.")


class IdempotencyKeyReused(DomainError):
    """An ``Idempotency-Key`` already stored with another event (or another sequence
    number) of the game: the request is not a retry of the one that stored it."""

    code = "idempotency_key_reused"
    http_status = 422

    def __init__(self, sequence: int) -> None:
        message = _(
            "This Idempotency-Key was already used for event %(sequence)d of this game, "
            "with a different event or sequence number; use a new key for a new event."
        ) % {"sequence": sequence}
        super().__init__(message, reason=str(message), sequence=sequence)
