"""Reads for referee calls (issue 23): the open calls of a tournament for its referee
list (oldest first, with the table and how long they have waited), a table's call for
its players, and the median time to answer per round for the organizer."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Game
from tournaments.models import RefereeCall, Table, Tournament


@dataclass(frozen=True)
class CallRow:
    id: int
    game: int
    round: int | None
    table: int | None
    reason: str
    status: str
    called_by: str
    created_at: datetime
    waited_seconds: int
    claimed_by: str
    claimed_at: datetime | None
    closed_at: datetime | None


def _row(call: RefereeCall, table: Table | None, now: datetime) -> CallRow:
    end = call.claimed_at or now
    return CallRow(
        id=call.pk,
        game=call.game_id,
        round=table.round.number if table else None,
        table=table.number if table else None,
        reason=call.reason,
        status=call.status,
        called_by=call.called_by.get_username() if call.called_by else "",
        created_at=call.created_at,
        waited_seconds=max(0, int((end - call.created_at).total_seconds())),
        claimed_by=call.claimed_by.get_username() if call.claimed_by else "",
        claimed_at=call.claimed_at,
        closed_at=call.closed_at,
    )


def tournament_calls(*, tournament: Tournament, status: str = "open") -> list[CallRow]:
    """The tournament's calls, oldest first: ``open`` (not closed: waiting or claimed)
    or ``all`` (the caller checks the role). 2 queries."""
    calls = RefereeCall.objects.filter(tournament=tournament).select_related(
        "called_by", "claimed_by"
    )
    if status == "open":
        calls = calls.filter(closed_at__isnull=True)
    calls = list(calls.order_by("created_at", "id"))
    tables = {
        t.game_id: t
        for t in Table.objects.filter(game_id__in=[c.game_id for c in calls]).select_related(
            "round"
        )
    }
    now = timezone.now()
    return [_row(c, tables.get(c.game_id), now) for c in calls]


def game_open_call(*, game: Game) -> CallRow | None:
    """The table's call that is not closed yet (``None``)."""
    call = (
        RefereeCall.objects.filter(game=game, closed_at__isnull=True)
        .select_related("called_by", "claimed_by")
        .first()
    )
    if call is None:
        return None
    table = Table.objects.filter(game_id=game.pk).select_related("round").first()
    return _row(call, table, timezone.now())


def calls_answer_times(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Per round: the calls made and the median seconds from a call to its claim (the
    answered ones), earliest round first."""
    by_round: dict[int, list[float]] = {}
    made: dict[int, int] = {}
    for call in RefereeCall.objects.filter(tournament=tournament).values(
        "created_at", "claimed_at", "game__table__round__number"
    ):
        number = call["game__table__round__number"]
        made[number] = made.get(number, 0) + 1
        if call["claimed_at"] is not None:
            seconds = (call["claimed_at"] - call["created_at"]).total_seconds()
            by_round.setdefault(number, []).append(seconds)
    return [
        {
            "round": n,
            "calls": made[n],
            "median_seconds": round(statistics.median(by_round[n])) if by_round.get(n) else None,
        }
        for n in sorted(made)
    ]


def call_row(*, call: RefereeCall) -> CallRow:
    """One call as the pages and the API show it."""
    table = Table.objects.filter(game_id=call.game_id).select_related("round").first()
    return _row(call, table, timezone.now())
