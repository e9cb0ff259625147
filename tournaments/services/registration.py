"""Registering players in batches, checking them in and out (organizers).

One home for the batch rules that both the API (``POST /api/tournaments/<id>/players``)
and the organizer dashboard (one player, or a pasted/uploaded CSV) use:

* the role is checked once, first: a user who is not an organizer of the tournament is
  refused (:class:`NotAllowed`) before any handle is looked up, so the answer never
  tells whether a handle exists;
* all or nothing: every entry is checked (and, with ``create``, every new player
  created) inside one transaction; when any entry is bad nothing is stored and the
  error lists every problem, each with the index of its entry, so that a caller reading
  a file can say ``line N: reason``;
* registering a registered player again is harmless (and un-drops a dropped one);
  a handle given twice is registered once (the first name counts).

:func:`registration_csv_parse` turns the CSV text into entries: pure, no database.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import MalformedInput
from tournaments.errors import InvalidConfiguration, InvalidState
from tournaments.models import Player, Registration, Tournament, TournamentStatus
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.services.core import (
    audit_write,
    player_create,
    registration_flag_set,
    registration_upsert,
)

#: Most entries one batch (or one CSV) may hold.
MAX_ENTRIES = 1000
#: Longest display name (``Player.display_name``) and handle (``Player.handle``).
MAX_NAME = 100
MAX_HANDLE = 40

_OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


@dataclass(frozen=True)
class Problem:
    """What is wrong with one entry: its 0-based ``index`` in the batch, its handle
    and the translated ``reason``."""

    index: int
    handle: str
    reason: str


class RegistrationRejected(MalformedInput):
    """A batch with at least one bad entry (400): nothing was stored. ``problems`` lists
    them all; ``message`` is one sentence for API clients."""

    def __init__(self, message: Any, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(message)


@dataclass(frozen=True)
class RegistrationBatch:
    """What :func:`registration_create_many` did: the registrations in the order of the
    entries (each handle once) and the handles of the players it created."""

    registered: list[Registration]
    created: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CsvEntry:
    """One player line of a CSV: its 1-based ``line`` number, ``handle`` and ``name``
    (``None`` when the line gives none)."""

    line: int
    handle: str
    name: str | None


class CsvRejected(MalformedInput):
    """CSV text with bad lines (400). ``errors`` are ``line N: reason`` sentences, one
    per bad line, in line order."""

    def __init__(self, errors: Sequence[str]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(self.errors))


def _line_error(line: int, reason: str) -> str:
    return _("line %(line)d: %(reason)s") % {"line": line, "reason": reason}


def registration_csv_parse(text: str) -> list[CsvEntry]:
    """Parse a list of players: one per line, ``handle`` or ``handle,name``.

    Rules (every bad line is reported, as ``line N: reason``, in :class:`CsvRejected`):

    * an optional first line ``handle,name`` (any case, spaces ignored) is a header;
    * blank lines are skipped (they keep their number for the messages); a line may
      be quoted as CSV (``ana,"Ana, the first"``); a ``;`` or a tab separates too
      when the line has no comma (spreadsheets in some languages);
    * the handle is lowercase letters, digits, ``-`` or ``_`` (at most 40); the name at
      most 100 characters, surrounding spaces removed; more than two columns is an error;
    * a handle given twice is an error (the second line names the first);
    * at most :data:`MAX_ENTRIES` players, and at least one.

    Pure: no database, so it says nothing about whether a handle exists.
    """
    if not isinstance(text, str):
        raise CsvRejected([_("The list is not text.")])
    errors: list[str] = []
    entries: list[CsvEntry] = []
    seen: dict[str, int] = {}
    lines = text.lstrip("\ufeff").splitlines()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        delimiter = ","
        if "," not in raw:
            delimiter = ";" if ";" in raw else ("\t" if "\t" in raw else ",")
        try:
            cells = next(csv.reader(io.StringIO(raw), delimiter=delimiter))
        except (csv.Error, StopIteration):
            errors.append(_line_error(number, _("not a CSV line")))
            continue
        cells = [c.strip() for c in cells]
        while len(cells) > 1 and not cells[-1]:
            cells.pop()  # "ana," or "ana;;": trailing empty cells
        if (
            not entries
            and not errors
            and [c.lower() for c in cells] in (["handle", "name"], ["handle"])
        ):
            continue  # the header
        if len(cells) > 2:
            errors.append(
                _line_error(number, _("%(n)d columns; expected handle,name") % {"n": len(cells)})
            )
            continue
        handle = cells[0]
        name = cells[1] if len(cells) > 1 and cells[1] else None
        reason = handle_problem(handle)
        if reason is None and name is not None and len(name) > MAX_NAME:
            reason = _("the name is longer than %(n)d characters") % {"n": MAX_NAME}
        if reason is None and handle in seen:
            reason = _("%(handle)s is already on line %(first)d") % {
                "handle": handle,
                "first": seen[handle],
            }
        if reason is not None:
            errors.append(_line_error(number, reason))
            continue
        seen[handle] = number
        entries.append(CsvEntry(line=number, handle=handle, name=name))
    if not errors and not entries:
        errors.append(_("The list is empty: one player per line, handle,name."))
    if len(entries) > MAX_ENTRIES:
        errors.append(_("At most %(n)d players at once.") % {"n": MAX_ENTRIES})
    if errors:
        raise CsvRejected(errors)
    return entries


def handle_problem(handle: str) -> str | None:
    """Why ``handle`` is not a well-formed handle (translated), or ``None``. The shape
    only (what a parser can say); whether it is free or reserved, the services say."""
    if not handle:
        return _("the handle is missing")
    if len(handle) > MAX_HANDLE:
        return _("the handle is longer than %(n)d characters") % {"n": MAX_HANDLE}
    if not all(c.isascii() and (c.islower() or c.isdigit() or c in "-_") for c in handle):
        return _("%(handle)r is not a handle: use lowercase letters, digits, '-' or '_'") % {
            "handle": handle
        }
    return None


def registration_create_many(
    *,
    tournament: Tournament,
    user: Any,
    entries: Sequence[tuple[str, str | None]],
    create: bool = False,
    must_create: Collection[str] = (),
) -> RegistrationBatch:
    """Register players by handle (organizers of the tournament), all or nothing.

    ``entries`` are ``(handle, display_name or None)``; the name is used only for a
    player created here (``create``: unknown handles become new players, named so,
    or after their handle). Known players keep their names: the name is not compared
    here (an import that compares names asks first: :mod:`.registration_csv`).
    ``must_create``: handles that must become new players (the organizer chose "a new
    player with this handle"); one that is a player already is refused, never linked.

    Refusals (nothing stored): :class:`NotAllowed` (403) before anything else for
    users without the organizer role; :class:`InvalidState` (409) when the tournament
    is over; :class:`RegistrationRejected` (400) listing every bad entry: unknown
    handles without ``create`` (``"Unknown player handles: a, b."``), handles the player
    service refuses (malformed, reserved), names too long; an empty or too large batch.
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in _OVER:
        raise InvalidState(_("The tournament is over."))
    if not entries:
        raise RegistrationRejected(_("No players given."), [])
    if len(entries) > MAX_ENTRIES:
        raise RegistrationRejected(_("At most %(n)d players at once.") % {"n": MAX_ENTRIES}, [])
    names: dict[str, str | None] = {}
    first_index: dict[str, int] = {}
    for index, (handle, name) in enumerate(entries):
        if handle not in names:
            names[handle] = name
            first_index[handle] = index
    handles = list(names)
    known = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
    unknown = [h for h in handles if h not in known]
    if unknown and not create:
        problems = [Problem(first_index[h], h, _("unknown player handle")) for h in unknown]
        raise RegistrationRejected(
            _("Unknown player handles: %(handles)s.") % {"handles": ", ".join(unknown)}, problems
        )
    problems: list[Problem] = [
        Problem(
            first_index[h],
            h,
            _("the handle %(handle)s is already taken") % {"handle": h},
        )
        for h in handles
        if h in known and h in must_create
    ]
    for handle in unknown:
        name = names[handle]
        if name is not None and len(name) > MAX_NAME:
            problems.append(
                Problem(
                    first_index[handle],
                    handle,
                    _("the name is longer than %(n)d characters") % {"n": MAX_NAME},
                )
            )
    try:
        with transaction.atomic():
            for handle in unknown:
                if any(p.handle == handle for p in problems):
                    continue
                try:
                    known[handle] = player_create(
                        handle=handle, display_name=names[handle] or "", user=user
                    )
                except InvalidConfiguration as exc:
                    problems.append(Problem(first_index[handle], handle, str(exc.message)))
            if problems:
                raise _Rollback()
            registered = [
                registration_upsert(tournament=tournament, player=known[h]) for h in handles
            ]
            if registered:
                audit_write(
                    tournament=tournament,
                    user=user,
                    action="registered",
                    players=handles,
                    created=unknown,
                )
    except _Rollback:
        problems.sort(key=lambda p: p.index)
        raise RegistrationRejected(
            "; ".join(f"{p.handle}: {p.reason}" for p in problems), problems
        ) from None
    return RegistrationBatch(registered=registered, created=unknown)


class _Rollback(Exception):
    """Raised inside the transaction to undo the players created before a bad entry."""


def registration_check_out(*, registration: Registration, user: Any) -> Registration:
    """Undo a check-in (organizers): the player is not seated in the next round until
    checked in again. Idempotent; refused (409) once the tournament is over."""
    ensure_can_manage_tournament(user=user, tournament=registration.tournament)
    if registration.tournament.status in _OVER:
        raise InvalidState(_("The tournament is over."))
    return registration_flag_set(
        registration=registration, user=user, field="checked_in", value=False, action="checked_out"
    )


def registration_check_in_all(*, tournament: Tournament, user: Any) -> list[str]:
    """Check in every registered player who is neither checked in nor dropped
    (organizers), in one transaction; each is audited as ``checked_in``, as one by one.
    Returns their handles (empty when there was nobody to check in)."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in _OVER:
        raise InvalidState(_("The tournament is over."))
    with transaction.atomic():
        waiting = list(
            Registration.objects.select_for_update()
            .filter(tournament=tournament, checked_in=False, dropped=False, waitlisted=False)
            .select_related("player")
            .order_by("id")
        )
        if not waiting:
            return []
        Registration.objects.filter(pk__in=[r.pk for r in waiting]).update(checked_in=True)
        for registration in waiting:
            audit_write(
                tournament=tournament,
                user=user,
                action="checked_in",
                player=registration.player.handle,
            )
    return [r.player.handle for r in waiting]
