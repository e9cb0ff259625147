"""What follows every change: the one table of consequences.

Services record typed changes (:mod:`outbox.changes`); this module alone decides what
follows each, and :func:`install` (``TournamentsConfig.ready``) makes it the one that
does. In the transaction of the change run only what must be part of it (an outbox
row, finishing the round); caches and live messages wait for the commit and go out
once per transaction, however many changes asked for them.

=======================  ==========================  ===================  =====================
change                   in the transaction          caches (after        live messages (after
                                                     commit)              commit)
=======================  ==========================  ===================  =====================
``GameChanged``          result changed: finish the  result changed or    events added or
                         table's round (and the      listings changed     result changed:
                         tournament); outbox         (started, players,   ``game.changed`` to
                         ``ratings.update_for_game`` created): pages;     ``game.<id>``, and to
                                                     result changed: the  ``tournament.<id>``
                                                     tournament's         when the result
                                                     standings            changed
``TournamentChanged``    --                          pages, standings     ``tournament.changed``
                                                                          with the action's
                                                                          :data:`LIVE_CHANGES`
``RegistrationChanged``  --                          --                   ``me.follow`` to
                                                                          ``user.<id>`` (the
                                                                          account's own pages)
``RulingRecorded``       --                          pages                --
``PlayerChanged``        --                          pages (privacy)      --
``LeagueChanged``        --                          pages                --
``RatingsChanged``       --                          pages                --
=======================  ==========================  ===================  =====================

The messages are hints: each socket reads what its user may see and sends that; a game
socket also sends the game page's live regions, rendered once per change and audience
(:mod:`tournaments.game_page`), so the page needs no fetch.

Rounds finish inside the transaction of the result that completes them (so two last
results at once finish the round exactly once, under the round's lock), through
:func:`tournaments.services.progression.round_refresh_status`, which records the
outbox message ``tournaments.round_progress`` when the tournament moves on by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from outbox import changes
from outbox.changes import (
    Change,
    GameChanged,
    LeagueChanged,
    PlayerChanged,
    RatingsChanged,
    RegistrationChanged,
    RulingRecorded,
    TournamentChanged,
)
from outbox.live import game_group, latest_per_group, live_send, tournament_group, user_group
from outbox.services import outbox_record
from ratings.services import RATE_GAME
from tock_site.page_cache import pages_changed
from tournaments.models import Table
from tournaments.selectors.standings_cache import standings_invalidate
from tournaments.services.progression import round_refresh_status

#: What each audited step changes on the tournament's pages (the ``changed`` of its
#: live message; see the "Live updates" section of docs/api.md). Steps not listed
#: change nothing a live page shows.
LIVE_CHANGES: dict[str, list[str]] = {
    "round_seated": ["seating", "rounds"],
    "round_reseated": ["seating", "rounds"],
    "round_finished": ["rounds"],
    "started": ["status", "rounds"],
    "finished": ["status"],
    "time_up": ["clock", "rounds"],
    "no_show": ["seating"],
    "registered": ["registrations"],
    "checked_in": ["registrations"],
    "checked_out": ["registrations"],
    "dropped": ["registrations"],
    "reinstated": ["registrations"],
    "settings_changed": ["status"],
    # proposed results (the referee list); a confirmation's result is a game change too
    "result_proposed": ["proposals"],
    "result_proposal_replaced": ["proposals"],
    "result_proposal_confirmed": ["proposals"],
    "result_proposal_rejected": ["proposals"],
    # players' reports (the table's report page, the referee list)
    "report_made": ["proposals"],
    "report_replaced": ["proposals"],
    "report_confirmed": ["proposals"],
    "report_disputed": ["proposals"],
    "report_accepted": ["proposals"],
    "report_accepted_by_staff": ["proposals"],
    # referee calls (the referee list, the table's page)
    "referee_called": ["calls"],
    "referee_call_claimed": ["calls"],
    "referee_call_closed": ["calls"],
}


@dataclass
class Plan:
    """What follows the changes of one transaction, after it commits."""

    pages: bool = False
    standings: set[int] = field(default_factory=set)
    #: The live messages to send, as ``(groups, message)``; of several for one group
    #: about one game only the latest goes out, tournament ``changed`` lists merged
    #: (:func:`outbox.live.latest_per_group`, the sender's own rule).
    live: list[tuple[list[str], dict[str, Any]]] = field(default_factory=list)

    def send(self, group: str, message: dict[str, Any]) -> None:
        self.live.append(([group], message))


def _tournament_changed(tournament_id: int, changed: list[str]) -> dict[str, Any]:
    return {"type": "tournament.changed", "tournament": tournament_id, "changed": changed}


def _table_of(game_id: int) -> tuple[int, int] | None:
    """The round and tournament of the game's table (none for a friendly game)."""
    rows = Table.objects.filter(game_id=game_id).values_list("round_id", "round__tournament_id")
    return rows.first()


def _game(change: GameChanged, plan: Plan) -> None:
    groups = [game_group(change.game_id)]
    if change.result_changed:
        table = change.table if change.table_known else _table_of(change.game_id)
        # The rating's message first: finishing the round locks the tournament until
        # the commit, and every other result of the round waits for that lock.
        outbox_record(topic=RATE_GAME, payload={"game_id": change.game_id})
        if table is not None:
            round_id, tournament_id = table
            round_refresh_status(round_id=round_id, tournament_id=tournament_id)
            groups.append(tournament_group(tournament_id))
            plan.standings.add(tournament_id)
    if change.result_changed or change.shown_changed:
        plan.pages = True
    if change.events_added or change.result_changed:
        message = {
            "type": "game.changed",
            "game": change.game_id,
            "sequence": change.sequence,
            "status": change.status,
            "result_version": change.result_version,
        }
        for group in groups:
            plan.send(group, message)


def _tournament(change: TournamentChanged, plan: Plan) -> None:
    # Any audited step may change the standings (registrations, drops, seating...).
    plan.pages = True
    plan.standings.add(change.tournament_id)
    changed = LIVE_CHANGES.get(change.action)
    if changed:
        group = tournament_group(change.tournament_id)
        plan.send(group, _tournament_changed(change.tournament_id, changed))


def _registration(change: RegistrationChanged, plan: Plan) -> None:
    # (the step's TournamentChanged moves the pages and the standings on)
    plan.send(user_group(change.user_id), {"type": "me.follow", "tournament": change.tournament_id})


def _pages_only(change: Change, plan: Plan) -> None:
    plan.pages = True


#: The table above, in code: the handler of each kind of change.
HANDLERS = {
    GameChanged: _game,
    TournamentChanged: _tournament,
    RegistrationChanged: _registration,
    RulingRecorded: _pages_only,
    PlayerChanged: _pages_only,
    LeagueChanged: _pages_only,
    RatingsChanged: _pages_only,
}


def handle(change: Change, plan: Plan) -> None:
    """In the transaction of ``change``: its in-transaction part, and what follows it
    after commit noted in ``plan``."""
    HANDLERS[type(change)](change, plan)


def flush(plan: Plan) -> None:
    """After commit, once per transaction: the cache versions, then the live messages
    (a page that hears of a change and refetches must find the caches moved on)."""
    for tournament_id in sorted(plan.standings):
        standings_invalidate(tournament_id=tournament_id)
    if plan.pages:
        pages_changed()
    for (group, _type, _game_id), message in latest_per_group(plan.live).items():
        live_send(groups=[group], message=message)


def install() -> None:
    """Make this module decide what follows every change (``TournamentsConfig.ready``)."""
    changes.configure(new_plan=Plan, handle=handle, flush=flush)


__all__ = ["HANDLERS", "LIVE_CHANGES", "Plan", "flush", "handle", "install"]
