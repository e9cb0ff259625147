from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Elo ratings per player and game kind, across leagues (depends on ``games``; the
    player model is ``tournaments.Player``, reached through the ORM only)."""

    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from outbox.handlers import register
        from ratings.services import RATE_GAME

        # Recorded by the recording choke point whenever a game's result changes; a
        # delivery rates every pending game it can take, under one lock per kind.
        register(
            RATE_GAME,
            "ratings.services.ratings_update_for_game",
            batch="ratings.services.ratings_update_for_games",
        )
