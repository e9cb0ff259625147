"""One-time codes that link a person's account to their player (issue 23, "Players with
accounts"): :class:`PlayerLinkCode`. A model of the ``tournaments`` app (imported by
:mod:`tournaments.models`); written only by :mod:`tournaments.services.links`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PlayerLinkCode(models.Model):
    """A code an organizer hands a registered player (printed on a slip of its own):
    whoever signs in and enters it becomes that player's account. Single use, expiring
    (``expires_at``); issued for a tournament the player is registered in (its audit log
    records the link)."""

    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="link_codes",
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="link_codes",
    )
    code = models.CharField(_("code"), max_length=16, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("used by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("player link code")
        verbose_name_plural = _("player link codes")
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} – {self.code}"
