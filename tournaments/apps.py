from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Players, leagues, tournaments, rounds, tables, standings and rulings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from outbox.handlers import register
        from tock_site.page_cache import connect_signals
        from tournaments.services.progression import ROUND_PROGRESS

        # Written players, tournaments, results... make the cached public pages stale.
        connect_signals()

        # Recorded by the recording choke point when a round becomes complete.
        register(ROUND_PROGRESS, "tournaments.services.progression.round_progress_from_outbox")

        # Ratings ask which league's settings (K, rate_unverified) a game rates with.
        from ratings.pools import register_pool_resolver
        from tournaments.rating_pools import game_rating_settings

        register_pool_resolver(game_rating_settings)
