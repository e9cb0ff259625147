from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Games and their append-only event logs, replayed through :mod:`games.engine`."""

    name = "games"
    verbose_name = _("Games")
