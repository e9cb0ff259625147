"""The organizer's pages: a new tournament from the league page, and the dashboard that
runs the event (settings before the start, registration, check-in, start, the current
round's tables and clock, next round, re-seat, time up, finish, audit log).

Thin views over the same services as the API (:mod:`tournaments.services`): each POST
calls one service, which checks the role itself; the views check it first too, so that
a user without the role gets 403 before any input is read (and learns nothing about
players). Access: anonymous users are sent to the login page; a tournament the user
may not see is 404; a signed-in user who does not organize it gets 403.

Post/redirect/get: a successful POST redirects to the dashboard (with a message); a
form with errors is shown again with the errors (400); a refusal of a service
(:class:`~games.errors.DomainError`) becomes a message on the dashboard, never a 500.
Destructive actions (re-seat, time up, finish, drop, no-show) first answer a
confirmation page, which posts again with ``confirm=yes``: no JavaScript needed.

The views live in :mod:`.event` (the event itself) and :mod:`.players` (registration
and check-in); :mod:`.common` holds what they share.
"""

from tournaments.views_organize.event import (
    organize,
    organize_audit,
    organize_finish,
    organize_next_round,
    organize_reseat,
    organize_settings,
    organize_start,
    organize_time_up,
    tournament_create_page,
)
from tournaments.views_organize.players import (
    organize_check_in_all,
    organize_check_in_open,
    organize_player_action,
    organize_player_add,
    organize_players_csv,
)
from tournaments.views_organize.seasons import league_staff_action, season_new

__all__ = [
    "season_new",
    "league_staff_action",
    "organize",
    "organize_audit",
    "organize_check_in_all",
    "organize_check_in_open",
    "organize_finish",
    "organize_next_round",
    "organize_player_action",
    "organize_player_add",
    "organize_players_csv",
    "organize_reseat",
    "organize_settings",
    "organize_start",
    "organize_time_up",
    "tournament_create_page",
]
