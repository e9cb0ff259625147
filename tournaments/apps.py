from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Players, leagues, tournaments, rounds, tables, standings and rulings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from outbox.handlers import register
        from tournaments import effects
        from tournaments.services.progression import ROUND_PROGRESS

        # One module decides what follows every recorded change (caches, outbox, live).
        effects.install()

        # Recorded when a result completes a round (tournaments.effects).
        register(ROUND_PROGRESS, "tournaments.services.progression.round_progress_from_outbox")
