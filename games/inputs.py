"""What an input must be before it reaches a game: events, logs, placements, keys.

The form of what callers send, checked before any rule or any write (every failure a
:class:`~games.errors.DomainError` with a 400 or 422 and a reason; a log's with the
line): a JSON object of bounded size and depth, text that can be stored (no NUL, no
lone surrogates), an idempotency key, a positive sequence number, placements that
are competition ranks of the seated players. The rules themselves are the engine's;
:mod:`games.services` applies them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

import games.engine as engine
from games.engine import jsonio
from games.engine.log import MAX_DEPTH
from games.errors import LogRejected, MalformedInput, ResultMismatch

#: Largest accepted event (serialized), and log (bytes).
MAX_EVENT_BYTES = 16 * 1024
MAX_LOG_BYTES = 8 * 1024 * 1024


def normalize_event(event: Any) -> dict[str, Any]:
    """Check that ``event`` is a JSON object of bounded size; return a JSON-clean copy."""
    if not isinstance(event, Mapping):
        raise MalformedInput(_("An event must be a JSON object."))
    check_input_text(dict(event))
    try:
        text = jsonio.dumps(dict(event))
    except (TypeError, ValueError) as exc:
        raise MalformedInput(_("The event is not valid JSON: %(error)s") % {"error": exc}) from exc
    if len(text) > MAX_EVENT_BYTES:
        raise MalformedInput(_("The event is too large."))
    return jsonio.loads(text)


def check_input_text(value: Any) -> None:
    """Refuse what cannot be stored or shown, before anything walks it recursively: text
    with NUL characters (PostgreSQL's jsonb refuses ``\\u0000``) or with lone surrogates
    (not Unicode: no database or response can encode them), and nesting deeper than
    the engine allows. An iterative walk that stops at the depth limit. A 400."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise MalformedInput(_("Text may not contain NUL characters."))
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise MalformedInput(_("Text must be valid Unicode.")) from None
        if depth > MAX_DEPTH:  # the engine's rule (games.engine.log.check_depth)
            raise MalformedInput(
                _("The input is nested too deeply (at most %(n)d levels).") % {"n": MAX_DEPTH}
            )
        if isinstance(item, dict | list):
            if isinstance(item, dict):
                stack.extend((k, depth + 1) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


#: An ``Idempotency-Key``: 1 to 100 visible ASCII characters (no spaces), e.g. a UUID.
IDEMPOTENCY_KEY_RE = re.compile(r"[\x21-\x7e]{1,100}")


def check_idempotency_key(value: Any) -> str | None:
    """``value`` as an idempotency key (``None``: no key), or :class:`MalformedInput`
    (400) when it is not 1 to 100 visible ASCII characters."""
    if value is None:
        return None
    if not isinstance(value, str) or not IDEMPOTENCY_KEY_RE.fullmatch(value):
        raise MalformedInput(
            _("An Idempotency-Key must be 1 to 100 visible ASCII characters (no spaces).")
        )
    return value


def check_sequence_number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MalformedInput(_("The expected sequence number must be a positive integer."))
    return value


def game_log_parse(*, log: str | bytes | Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Parse a log (JSON Lines text, or event objects) into JSON-clean event dicts.

    Raises :class:`LogRejected` naming the 1-based line of the first malformed line.
    Only the form is checked here; the rules are the engine's
    (:func:`games.services.game_attach_log`).
    """
    if isinstance(log, str | bytes):
        if len(log) > MAX_LOG_BYTES:
            raise MalformedInput(_("The log is too large."))
        try:
            parsed = engine.parse_log(log)
        except engine.LogError as exc:
            raise LogRejected(exc.line, exc.reason) from exc
        for n, event in enumerate(parsed, start=1):
            try:
                check_input_text(event)
            except MalformedInput as exc:
                raise LogRejected(n, str(exc.message)) from exc
        return parsed
    events = []
    for n, event in enumerate(log, start=1):
        try:
            events.append(normalize_event(event))
        except MalformedInput as exc:
            raise LogRejected(n, str(exc.message)) from exc
    return events


def validate_placements(*, kind: str, players: list[str], placements: Any) -> dict[str, int]:
    """The placements in seat order, checked by the game kind's own rule
    (:meth:`games.engine.Game.check_placements`: every seated player gets exactly one
    place; places are competition ranks, ties share and the next place is skipped:
    1, 2, 2, 4). The engine's codes become translated errors here."""
    try:
        return engine.game_class(kind).check_placements(players, placements)
    except engine.InvalidPlacements as exc:
        raise _placements_error(exc) from exc
    except engine.EngineError as exc:  # a kind the engine cannot play
        raise MalformedInput(_("Unknown game kind %(kind)r.") % {"kind": kind}) from exc


def _placements_error(exc: engine.InvalidPlacements) -> MalformedInput | ResultMismatch:
    params = exc.params
    if exc.code == "not_a_mapping":
        return MalformedInput(_("Placements must be an object mapping player to place."))
    if exc.code == "players_mismatch":
        return ResultMismatch(
            _(
                "Placements do not match the seated players (missing: %(missing)s; not seated: "
                "%(unknown)s)."
            )
            % {
                "missing": ", ".join(params["missing"]) or "-",
                "unknown": ", ".join(params["unknown"]) or "-",
            }
        )
    if exc.code == "bad_place":
        return ResultMismatch(
            _("The place of %(player)s must be an integer from 1 to %(n)d.")
            % {"player": params["player"], "n": params["n"]}
        )
    if exc.code == "not_competition_ranks":
        return ResultMismatch(
            _(
                "Places must be competition ranks: ties share a place, then places are skipped "
                "(e.g. 1, 2, 2, 4)."
            )
        )
    return ResultMismatch(str(exc))  # a kind's own rule: the engine's English reason


__all__ = [
    "IDEMPOTENCY_KEY_RE",
    "MAX_EVENT_BYTES",
    "MAX_LOG_BYTES",
    "check_idempotency_key",
    "check_input_text",
    "check_sequence_number",
    "game_log_parse",
    "normalize_event",
    "validate_placements",
]
