from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Players, leagues, tournaments, rounds, tables, standings and rulings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from outbox.handlers import URGENT_QUEUE, register
        from tournaments import effects
        from tournaments.services.progression import ROUND_PROGRESS

        # One module decides what follows every recorded change (caches, outbox, live).
        effects.install()

        # Recorded when a result completes a round (tournaments.effects): a room of
        # players waits for the next round, so it goes before other background work.
        register(
            ROUND_PROGRESS,
            "tournaments.services.progression.round_progress_from_outbox",
            queue=URGENT_QUEUE,
        )

        # Ratings ask which league's settings (K, rate_unverified) a game rates with.
        from ratings.pools import register_pool_resolver
        from tournaments.rating_pools import game_rating_settings

        register_pool_resolver(game_rating_settings)
