"""A player or scorekeeper calling a referee to a table (issue 23, "Calling a referee"):
:class:`RefereeCall`. A model of the ``tournaments`` app (imported by
:mod:`tournaments.models`); written only by :mod:`tournaments.services.calls`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RefereeCall(models.Model):
    """One call for a referee at a game's table: open (``claimed_at`` empty), claimed
    by a referee on the way, or closed (optionally with the ruling made there). Its
    times are kept: the organizer sees the median time to answer per round. At most
    one call per game is not closed (a database constraint)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="referee_calls",
    )
    game = models.ForeignKey(
        "games.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="calls"
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("called by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("called at"), default=timezone.now, db_index=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("claimed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    ruling = models.ForeignKey(
        "tournaments.Ruling",
        verbose_name=_("ruling"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(closed_at__isnull=True),
                name="call_one_open_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} – {self.status}"

    @property
    def status(self) -> str:
        if self.closed_at is not None:
            return "closed"
        return "claimed" if self.claimed_at is not None else "open"
