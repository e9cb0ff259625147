"""Typed changes: what a service changed, recorded in the transaction of the change.

Every write service that changes something the site shows or that must be followed up
records *what* changed, as one of the small frozen dataclasses below, with
:func:`change_recorded`; it never decides *what follows* (caches, outbox messages, live
pages). One module decides that for every change: :mod:`tournaments.effects`, which
installs itself here at start-up (:func:`configure`), so that an app lower in the
layering (``games``, ``ratings``) records its changes without importing the apps that
react to them (Zulip's ``send_event_on_commit``, one place for every consequence).

How a change is followed (the contract the effects module implements):

1. at once, in the caller's transaction: the effects module's ``handle(change, plan)``
   runs what must be part of the change (an outbox row, finishing a round whose last
   table just got its result) and notes in ``plan`` what must happen after commit;
2. once per transaction, after it commits: ``flush(plan)`` moves the cache versions on
   and sends the live messages, each once however many changes asked for it.

A change recorded outside any transaction (autocommit) is handled and flushed at once.
A savepoint rolled back after a change keeps that change's after-commit part in the
plan: a cache version moved on or a live hint sent for nothing costs a render, never a
wrong page (hints only make pages fetch). In-transaction parts are rows and roll back
with the savepoint.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """Base of every typed change."""


@dataclass(frozen=True)
class GameChanged(Change):
    """A game's log, result or players changed (or it was created).

    ``events_added``: events appended by this write; ``result_changed``: its result
    (placements, status over or void) appeared or changed; ``shown_changed``: something
    the listings show changed besides the result (the game started, its players
    changed, it was created or renamed). One more event of a game in progress is
    neither: only the game's own live page hears of it.

    ``table``: where the game is played, ``(round_id, tournament_id)``, when the writer
    read it already (``None``: a friendly game); ``table_known`` false: not read, the
    handler reads it. A game's table never changes."""

    game_id: int
    sequence: int
    status: str
    result_version: int
    events_added: int = 0
    result_changed: bool = False
    shown_changed: bool = False
    table: tuple[int, int] | None = None
    table_known: bool = False


@dataclass(frozen=True)
class TournamentChanged(Change):
    """An audited step of a tournament (``action`` as in its audit log: seating,
    registrations, rounds, settings, staff...)."""

    tournament_id: int
    action: str


@dataclass(frozen=True)
class RegistrationChanged(Change):
    """The registration of a player who has an account (``user_id``) changed: registered,
    checked in or out, dropped, reinstated, moved up from the waitlist. Recorded beside
    the step's :class:`TournamentChanged`, for that account's own pages: which
    tournaments their "my table" follows may have changed."""

    tournament_id: int
    user_id: int


@dataclass(frozen=True)
class RulingRecorded(Change):
    """A referee's ruling or a correction of a result was stored for a game."""

    game_id: int
    tournament_id: int | None


@dataclass(frozen=True)
class PlayerChanged(Change):
    """A player was created, renamed, hidden, shown again or erased."""

    player_id: int


@dataclass(frozen=True)
class LeagueChanged(Change):
    """A league was created or changed."""

    league_id: int


@dataclass(frozen=True)
class RatingsChanged(Change):
    """The ratings of a game kind changed (a game rated, or a full recompute)."""

    kind: str


# --------------------------------------------------------------------------- dispatch

Handle = Callable[[Change, Any], None]
Flush = Callable[[Any], None]
NewPlan = Callable[[], Any]


class _Effects:
    """The installed effects module (none: changes are recorded and nothing follows)."""

    new_plan: NewPlan | None = None
    handle: Handle | None = None
    flush: Flush | None = None


def configure(*, new_plan: NewPlan, handle: Handle, flush: Flush) -> None:
    """Install the module that decides what follows every change (idempotent)."""
    _Effects.new_plan, _Effects.handle, _Effects.flush = new_plan, handle, flush


class _Pending:
    """The plan of one transaction, and whether it was flushed (a test's
    ``captureOnCommitCallbacks`` runs the callbacks without starting a new list)."""

    __slots__ = ("done", "plan")

    def __init__(self, plan: Any) -> None:
        self.plan, self.done = plan, False

    def flush(self) -> None:
        if self.done:
            return  # flushed by the callback of an earlier change of the transaction
        self.done = True
        if _Effects.flush is not None:
            _Effects.flush(self.plan)


def _pending_of_transaction() -> tuple[_Pending, bool]:
    """The plan of the current transaction (created on its first change), and whether
    the caller is in a transaction at all. Every change registers the plan's flush on
    commit (the first to run flushes, the others find it done): a test capturing the
    on-commit callbacks of one step (``captureOnCommitCallbacks``) sees that step's
    consequences even when an earlier step of the same transaction made the plan."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return _Pending(_Effects.new_plan()), False
    # Django starts a new list of on-commit callbacks with every transaction (and after
    # a savepoint's rollback): one plan per list, found without scanning it.
    pending = getattr(connection, "_changes_pending", None)
    if (
        pending is not None
        and not pending.done
        and getattr(connection, "_changes_on_commit", None) is connection.run_on_commit
    ):
        transaction.on_commit(pending.flush, robust=True)
        return pending, True
    pending = _Pending(_Effects.new_plan())
    transaction.on_commit(pending.flush, robust=True)
    connection._changes_on_commit = connection.run_on_commit
    connection._changes_pending = pending
    return pending, True


def change_recorded(change: Change) -> None:
    """Record ``change`` in the caller's transaction: its in-transaction consequences
    run now, the rest once after commit (see the module)."""
    if _Effects.handle is None:
        return
    pending, in_transaction = _pending_of_transaction()
    _Effects.handle(change, pending.plan)
    if not in_transaction:
        pending.flush()


__all__ = [
    "Change",
    "GameChanged",
    "LeagueChanged",
    "PlayerChanged",
    "RatingsChanged",
    "RulingRecorded",
    "TournamentChanged",
    "change_recorded",
    "configure",
]
