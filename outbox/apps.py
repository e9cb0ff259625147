from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OutboxConfig(AppConfig):
    """Messages recorded with a change and published after commit (see the package)."""

    name = "outbox"
    verbose_name = _("Outbox")

    def ready(self) -> None:
        # The delivery task is registered in every process that publishes (the web
        # processes too): outbox.services finds it by its name.
        from outbox import tasks  # noqa: F401
