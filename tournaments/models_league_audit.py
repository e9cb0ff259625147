"""The league's audit log (issue 24): who changed the league itself, when and how
(seasons, league staff), as :class:`~tournaments.models.TournamentAudit` does for a
tournament. A model of the ``tournaments`` app (imported by :mod:`tournaments.models`);
appended to only by :func:`tournaments.services.league_audit.league_audit_write`; read
by :func:`tournaments.selectors.audit.league_audit` (the league's organizers)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LeagueAudit(models.Model):
    league = models.ForeignKey(
        "tournaments.League",
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="audit",
    )
    #: Empty for the system (a task), like a tournament's audit.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=40)
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("league audit entry")
        verbose_name_plural = _("league audit log")
        ordering = ["league", "at", "id"]
        indexes = [models.Index(fields=["league", "at"], name="league_audit_at")]

    def __str__(self) -> str:
        return f"{self.league} {self.at:%Y-%m-%d %H:%M} {self.action}"
