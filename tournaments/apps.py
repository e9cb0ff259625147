from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Players, leagues, tournaments, rounds, tables, standings and rulings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

