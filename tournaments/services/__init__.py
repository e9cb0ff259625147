"""Write services of the tournaments app (HackSoft style: ``<entity>_<action>``)."""

# tournament_points is a read (a selector), kept here for existing callers.
from tournaments.selectors import tournament_points
from tournaments.services.core import (
    league_create,
    player_create,
    registration_check_in,
    registration_create,
    registration_drop,
    tournament_create,
    tournament_role_add,
    tournament_role_remove,
    tournament_update,
    validate_scoring,
)
from tournaments.services.ratings import (
    compute_ratings,
    rated_games,
    ratings_recompute,
    ratings_update_for_game,
)
from tournaments.services.recording import (
    friendly_game_create,
    game_record_event,
    game_record_log,
    game_record_placements,
)
from tournaments.services.rounds import round_create_next, round_refresh_status, split_sizes

__all__ = [
    "compute_ratings",
    "friendly_game_create",
    "game_record_event",
    "game_record_log",
    "game_record_placements",
    "league_create",
    "player_create",
    "rated_games",
    "ratings_recompute",
    "ratings_update_for_game",
    "registration_check_in",
    "registration_create",
    "registration_drop",
    "round_create_next",
    "round_refresh_status",
    "split_sizes",
    "tournament_create",
    "tournament_points",
    "tournament_role_add",
    "tournament_role_remove",
    "tournament_update",
    "validate_scoring",
]
