"""League staff (issue 24): :class:`LeagueRole`. A scorekeeper or referee of a league
holds the role in every tournament of the league, present and future, until removed
(tournament roles stay for one-off help). A model of the ``tournaments`` app (imported by
:mod:`tournaments.models`); written only by :mod:`tournaments.services.league_staff`;
read by :func:`tournaments.permissions.user_tournament_roles` with the tournament's
own roles, in one query."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The roles a league hands out, as ``tournaments.models.Role`` names them (written out:
#: this module is imported by that one). A database constraint holds them, so the role
#: rule (:class:`tournaments.permissions.RolesOf`) knows every name a row can hold.
LEAGUE_ROLE_CHOICES = [("scorekeeper", _("Scorekeeper")), ("referee", _("Referee"))]


class LeagueRole(models.Model):
    league = models.ForeignKey(
        "tournaments.League",
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="staff_roles",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="league_roles",
    )
    #: ``scorekeeper`` or ``referee`` (a league's organizers are League.organizers)
    role = models.CharField(_("role"), max_length=16, choices=LEAGUE_ROLE_CHOICES)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league role")
        verbose_name_plural = _("league roles")
        ordering = ["league", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "role"], name="league_role_unique"),
            models.CheckConstraint(
                condition=models.Q(role__in=[value for value, _label in LEAGUE_ROLE_CHOICES]),
                name="league_role_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {self.user} ({self.role})"
