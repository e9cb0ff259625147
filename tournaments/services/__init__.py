"""Write services of the tournaments app (HackSoft style: ``<entity>_<action>``).

Ratings are written by :mod:`ratings.services`."""

from tournaments.services.core import (
    league_create,
    player_create,
    registration_check_in,
    registration_create,
    registration_drop,
    table_size_limits,
    tournament_create,
    tournament_role_add,
    tournament_role_remove,
    tournament_update,
    validate_progression_settings,
    validate_scoring,
    validate_table_size,
    validate_table_sizes,
)
from tournaments.services.players import player_erase, player_set_hidden
from tournaments.services.progression import (
    progression_sweep,
    registration_no_show,
    round_create_next,
    round_progress,
    round_refresh_status,
    round_reseat,
    round_time_up,
    tournament_finish,
    tournament_start,
)
from tournaments.services.recording import (
    friendly_game_create,
    game_record_event,
    game_record_log,
    game_record_placements,
    game_refresh,
)

__all__ = [
    "friendly_game_create",
    "game_record_event",
    "game_record_log",
    "game_record_placements",
    "game_refresh",
    "league_create",
    "player_create",
    "player_erase",
    "player_set_hidden",
    "registration_check_in",
    "registration_create",
    "registration_drop",
    "progression_sweep",
    "registration_no_show",
    "round_create_next",
    "round_progress",
    "round_refresh_status",
    "round_reseat",
    "round_time_up",
    "tournament_finish",
    "tournament_start",
    "table_size_limits",
    "tournament_create",
    "tournament_role_add",
    "tournament_role_remove",
    "tournament_update",
    "validate_progression_settings",
    "validate_scoring",
    "validate_table_size",
    "validate_table_sizes",
]
