from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OutboxConfig(AppConfig):
    """Messages recorded with a change and published after commit (see the package)."""

    name = "outbox"
    verbose_name = _("Outbox")
