from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Games and their append-only event logs, replayed through :mod:`games.engine`."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Each kind's presenter registers itself with games.presenters on import.
        from games.presenters import PRESENTER_MODULES

        for module in PRESENTER_MODULES:
            import_module(module)
