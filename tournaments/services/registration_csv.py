"""Importing a list of players (CSV) with names: nobody inherits another player's identity.

A line ``hugo,Hugo Brandt`` whose handle belongs to a player with another name
("Hugo Ives") is a *conflict*: it is not registered until the organizer chooses, per
line, to use the existing player or to create a new player with a free handle (one is
proposed, the organizer may change it). Nothing is merged silently. The rules:

* a line without a name keeps its old meaning: an existing handle is that player, an
  unknown one a new player named after its handle (like the API's ``handles``);
* a line with a name is *existing* when its handle is a player of the same name (the
  same after ignoring case, accents and repeated spaces: :func:`name_key`), *new*
  when the handle is unknown, and a *conflict* otherwise;
* :func:`registration_csv_check` classifies (no writes) and proposes free handles;
  :func:`registration_csv_register` checks again and registers everything in one
  transaction through :func:`~.registration.registration_create_many` (all or nothing).
  It registers only when the conflicts are still the ones the organizer decided on
  (their ``token``, signed by the server), else :class:`CsvConflictsChanged` (409)
  carries the fresh check to show again; a bad choice (a handle taken, malformed,
  reserved, in the list already, chosen twice; a conflict without a choice) is
  :class:`CsvChoicesRejected` (400) naming the lines.

The existing player's name is shown to the organizer as :mod:`..selectors.privacy`
says: a hidden player appears under the neutral label unless the organizer may see
them (staff of one of their tournaments); the comparison itself uses the real name.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import transaction
from django.utils.crypto import salted_hmac
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.errors import MalformedInput
from games.kinds import reserved_names
from tournaments.errors import InvalidState
from tournaments.models import Player, Tournament
from tournaments.permissions import ensure_can_manage_tournament, user_can_see_hidden_player
from tournaments.selectors.privacy import hidden_label
from tournaments.services.registration import (
    _OVER,
    MAX_HANDLE,
    CsvEntry,
    RegistrationBatch,
    handle_problem,
    registration_create_many,
)

#: How many numbered handles (``hugo2`` ... ``hugo99``) a proposal tries.
_NUMBERED = range(2, 100)


def name_key(name: str) -> str:
    """A name as compared: accents removed (NFKD, combining marks dropped), case folded,
    runs of spaces as one. ``"  josé  GARCÍA"`` and ``"Jose Garcia"`` are the same."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


class LineKind(StrEnum):
    NEW = "new"
    EXISTING = "existing"
    CONFLICT = "conflict"


def registration_csv_classify(
    *, entries: Sequence[CsvEntry], known: Mapping[str, str]
) -> dict[int, LineKind]:
    """Each line's kind (by line number), given ``known``: the display name of every
    existing player among the entries' handles. Pure. A line without a name is never
    a conflict (an existing handle is that player)."""
    kinds: dict[int, LineKind] = {}
    for entry in entries:
        existing = known.get(entry.handle)
        if existing is None:
            kinds[entry.line] = LineKind.NEW
        elif entry.name is None or name_key(entry.name) == name_key(existing):
            kinds[entry.line] = LineKind.EXISTING
        else:
            kinds[entry.line] = LineKind.CONFLICT
    return kinds


@dataclass(frozen=True)
class CsvConflict:
    """A line whose handle is a player with another name: the ``name`` in the list, the
    existing player's name as the organizer may see it (``existing_name``, the neutral
    label for a hidden player they may not see: ``existing_hidden``) and a free,
    valid handle ``proposed`` for a new player."""

    line: int
    handle: str
    name: str
    existing_name: str
    existing_hidden: bool
    proposed: str


@dataclass(frozen=True)
class CsvCheck:
    """What registering the list would do now: the ``entries``, the lines of new players
    (``new``), of existing ones (``existing``), the ``conflicts`` to decide, and the
    ``token`` that signs the conflicts as they are (to detect a change before the
    organizer's confirmation is applied)."""

    entries: list[CsvEntry]
    new: list[int]
    existing: list[int]
    conflicts: list[CsvConflict]
    token: str


class CsvConflictsChanged(InvalidState):
    """The conflicts are not the ones the organizer decided on (the list or the players
    changed in between): nothing stored; ``check`` is the fresh check to show again."""

    code = "csv_conflicts_changed"

    def __init__(self, check: CsvCheck) -> None:
        self.check = check
        super().__init__(
            _("The players changed since the list was checked: look at the lines again.")
        )


class CsvChoicesRejected(MalformedInput):
    """Some choices cannot be applied (400): ``problems`` maps a line to its reason;
    ``check`` is the check the choices were made on (to show the step again)."""

    code = "csv_choices_rejected"

    def __init__(self, check: CsvCheck, problems: Mapping[int, str]) -> None:
        self.check = check
        self.problems = dict(sorted(problems.items()))
        super().__init__(
            "; ".join(
                _("line %(line)d: %(reason)s") % {"line": line, "reason": reason}
                for line, reason in self.problems.items()
            )
        )


def new_handle_problem(handle: str) -> str | None:
    """Why ``handle`` cannot be a new player's handle by its shape (translated), or
    ``None``: the parser's rules, and what the player service refuses (a slug exactly,
    not reserved by a game). Whether it is free is checked against the database."""
    problem = handle_problem(handle)
    if problem is None and (slugify(handle) != handle or handle in reserved_names()):
        problem = _("%(handle)r cannot be a handle") % {"handle": handle}
    return problem


def _token(*, tournament: Tournament, rows: Sequence[tuple[Any, ...]]) -> str:
    """A server-signed fingerprint of the conflicts (line, handle, player id, both
    names): the client cannot forge it, and it says nothing about the names."""
    value = json.dumps([tournament.pk, *rows], ensure_ascii=False)
    return salted_hmac("tournaments.registration_csv", value).hexdigest()[:32]


def _proposals(*, conflicts: Sequence[CsvEntry], taken: set[str]) -> dict[int, str]:
    """A free, valid handle for each conflict line, all different and none of
    ``taken`` (the list's handles): the name as a slug (``hugo-brandt``) when it is free,
    else the handle numbered (``hugo2``, ``hugo3``...). 1 query."""
    reserved = reserved_names()
    candidates: dict[int, list[str]] = {}
    for entry in conflicts:
        options = []
        slug = slugify(entry.name or "")[:MAX_HANDLE].strip("-_")
        if slug:
            options.append(slug)
        for n in _NUMBERED:
            suffix = str(n)
            options.append(entry.handle[: MAX_HANDLE - len(suffix)] + suffix)
        candidates[entry.line] = [
            c for c in options if c not in reserved and new_handle_problem(c) is None
        ]
    everyone = {c for options in candidates.values() for c in options}
    used = set(Player.objects.filter(handle__in=everyone).values_list("handle", flat=True))
    used |= taken
    proposals: dict[int, str] = {}
    for entry in conflicts:
        choice = next((c for c in candidates[entry.line] if c not in used), None)
        while choice is None:  # pragma: no cover - 98 numbered handles taken
            guess = f"{entry.handle[: MAX_HANDLE - 7]}-{secrets.token_hex(3)}"
            if guess not in used and not Player.objects.filter(handle=guess).exists():
                choice = guess
        used.add(choice)
        proposals[entry.line] = choice
    return proposals


def registration_csv_check(
    *, tournament: Tournament, user: Any, entries: Sequence[CsvEntry]
) -> CsvCheck:
    """Classify the parsed list for the organizer (no writes): new, existing and
    conflicting lines, with a proposed handle for each conflict. Refused like the
    batch: :class:`NotAllowed` (403) before any handle is looked up; the tournament
    over (409). 2 queries, plus one per hidden conflicting player."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if tournament.status in _OVER:
        raise InvalidState(_("The tournament is over."))
    players = {
        p.handle: p
        for p in Player.objects.filter(handle__in=[e.handle for e in entries]).only(
            "pk", "handle", "display_name", "hidden", "user_id"
        )
    }
    kinds = registration_csv_classify(
        entries=entries, known={h: p.display_name for h, p in players.items()}
    )
    conflicting = [e for e in entries if kinds[e.line] is LineKind.CONFLICT]
    proposals = _proposals(conflicts=conflicting, taken={e.handle for e in entries})
    conflicts = []
    for entry in conflicting:
        player = players[entry.handle]
        masked = player.hidden and not user_can_see_hidden_player(user=user, player=player)
        conflicts.append(
            CsvConflict(
                line=entry.line,
                handle=entry.handle,
                name=entry.name or "",
                existing_name=hidden_label(player_id=player.pk) if masked else player.display_name,
                existing_hidden=masked,
                proposed=proposals[entry.line],
            )
        )
    rows = [
        (e.line, e.handle, players[e.handle].pk, players[e.handle].display_name, e.name)
        for e in conflicting
    ]
    return CsvCheck(
        entries=list(entries),
        new=[e.line for e in entries if kinds[e.line] is LineKind.NEW],
        existing=[e.line for e in entries if kinds[e.line] is LineKind.EXISTING],
        conflicts=conflicts,
        token=_token(tournament=tournament, rows=rows),
    )


def registration_csv_register(
    *,
    tournament: Tournament,
    user: Any,
    entries: Sequence[CsvEntry],
    token: str,
    decisions: Mapping[int, str | None],
) -> RegistrationBatch:
    """Register the list as the organizer decided, all or nothing (one transaction).

    ``token`` is the :attr:`CsvCheck.token` the organizer saw (any string for a list
    checked just before); ``decisions`` maps each conflict line to ``None`` (use the
    existing player) or the handle of a new player. The list is checked again first:
    conflicts other than the ones ``token`` signs raise :class:`CsvConflictsChanged`
    (409, with the fresh check); bad decisions :class:`CsvChoicesRejected` (400). A new
    handle must be free: one that became a player meanwhile is refused, never linked.
    Decisions for lines that are not conflicts are ignored. Returns the batch (its
    ``created`` handles are the new players; the others were linked).
    """
    with transaction.atomic():
        check = registration_csv_check(tournament=tournament, user=user, entries=entries)
        given = str(token).encode("utf-8", "replace")
        if not secrets.compare_digest(given, check.token.encode()):
            raise CsvConflictsChanged(check)
        in_list = {e.handle: e.line for e in entries}
        chosen: dict[str, int] = {}
        new_handles: dict[int, str] = {}
        problems: dict[int, str] = {}
        for conflict in check.conflicts:
            if conflict.line not in decisions:
                problems[conflict.line] = _("choose the existing player or a new one")
                continue
            handle = decisions[conflict.line]
            if handle is None:
                continue
            handle = handle.strip()
            reason = new_handle_problem(handle)
            if reason is None and handle in in_list:
                reason = _("%(handle)s is already on line %(first)d") % {
                    "handle": handle,
                    "first": in_list[handle],
                }
            if reason is None and handle in chosen:
                reason = _("%(handle)s is also chosen on line %(first)d") % {
                    "handle": handle,
                    "first": chosen[handle],
                }
            if reason is None:
                chosen[handle] = conflict.line
                new_handles[conflict.line] = handle
            else:
                problems[conflict.line] = reason
        if chosen:
            for handle in Player.objects.filter(handle__in=list(chosen)).values_list(
                "handle", flat=True
            ):
                problems[chosen[handle]] = _("the handle %(handle)s is already taken") % {
                    "handle": handle
                }
        if problems:
            raise CsvChoicesRejected(check, problems)
        return registration_create_many(
            tournament=tournament,
            user=user,
            entries=[(new_handles.get(e.line, e.handle), e.name) for e in entries],
            create=True,
            must_create=set(new_handles.values()),
        )
