"""Read-only queries of the tournaments app. Nothing here writes to the database.

Visibility-aware and query-bounded: what the user may not see is reported as not found
(:class:`~tournaments.errors.NotFound`, :class:`~games.errors.GameNotFound`), so private
leagues, tournaments and their games stay hidden from the public. Who may see which
tournament is said once, in :func:`visible_tournaments_q`. Selectors that feed the API's
detail endpoints return plain data (dataclasses); ratings (``top_ratings``,
``player_rating_histories``, ...) are :mod:`ratings.selectors`.

Modules: :mod:`.visibility`, :mod:`.leagues`, :mod:`.tournaments`, :mod:`.standings`,
:mod:`.players`, :mod:`.games`, :mod:`.organize` (the organizer dashboard); every public
name is importable from here.
"""

from tournaments.selectors.audit import AuditEntry, tournament_audit
from tournaments.selectors.games import (
    LAST_EVENT,
    VisibleGame,
    game_events,
    game_events_for,
    game_get_visible,
    game_log_text_for,
    game_log_text_visible,
    game_view_for,
    table_for_game,
)
from tournaments.selectors.leagues import (
    LeagueDetail,
    league_detail,
    league_get_visible,
    league_list,
    league_top_ratings_shown,
)
from tournaments.selectors.organize import (
    Dashboard,
    RoundPanel,
    TableState,
    organize_audit_page,
    organize_dashboard,
    organize_round_panel,
)
from tournaments.selectors.players import (
    PlayerDetail,
    PlayerSummary,
    player_detail,
    player_get_with_ratings,
    player_list,
    player_list_with_ratings,
    player_recent_seats,
    player_summaries,
    players_listed_q,
)
from tournaments.selectors.privacy import hidden_handle, hidden_label
from tournaments.selectors.standings import StandingRow, tournament_standings
from tournaments.selectors.tournaments import (
    LeagueRef,
    SeatFinderRow,
    TournamentDetail,
    home_tournaments,
    registration_list,
    round_list,
    round_seat_finder,
    round_seats,
    round_tables,
    tournament_detail,
    tournament_get_by_ref,
    tournament_get_visible,
    tournament_list,
    tournament_list_visible,
    tournament_points,
    tournament_rounds_detail,
    tournament_rounds_with_tables,
    tournament_user_roles,
)
from tournaments.selectors.visibility import (
    visible_tournament_expression,
    visible_tournaments_q,
)

__all__ = [
    "Dashboard",
    "RoundPanel",
    "TableState",
    "organize_audit_page",
    "organize_dashboard",
    "organize_round_panel",
    "LAST_EVENT",
    "AuditEntry",
    "tournament_audit",
    "LeagueDetail",
    "LeagueRef",
    "PlayerDetail",
    "PlayerSummary",
    "SeatFinderRow",
    "StandingRow",
    "TournamentDetail",
    "VisibleGame",
    "game_events",
    "game_events_for",
    "game_get_visible",
    "game_log_text_for",
    "game_log_text_visible",
    "game_view_for",
    "hidden_handle",
    "hidden_label",
    "home_tournaments",
    "league_detail",
    "league_get_visible",
    "league_list",
    "league_top_ratings_shown",
    "player_detail",
    "player_get_with_ratings",
    "player_list",
    "player_list_with_ratings",
    "player_recent_seats",
    "player_summaries",
    "players_listed_q",
    "registration_list",
    "round_list",
    "round_seat_finder",
    "round_seats",
    "round_tables",
    "table_for_game",
    "tournament_detail",
    "tournament_get_by_ref",
    "tournament_get_visible",
    "tournament_list",
    "tournament_list_visible",
    "tournament_points",
    "tournament_rounds_detail",
    "tournament_rounds_with_tables",
    "tournament_standings",
    "tournament_user_roles",
    "visible_tournament_expression",
    "visible_tournaments_q",
]
