"""A league's seasons (issue 24): :class:`Season`. A model of the ``tournaments`` app
(imported by :mod:`tournaments.models`); written only by
:mod:`tournaments.services.seasons`.

A tournament belongs to the season whose dates contain its ``starts_on`` (no foreign
key: moving a tournament's date moves it between seasons); a league's seasons never
overlap (the service refuses it), so that season is at most one.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


def default_season_points() -> list[int]:
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Season(models.Model):
    league = models.ForeignKey(
        "tournaments.League",  # a string: this module imports nothing of models.py
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="seasons",
    )
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    #: Season points by final rank in a tournament (1st, 2nd, ...); 0 beyond the list.
    season_points = models.JSONField(_("season points by rank"), default=default_season_points)
    #: Only a player's N best tournaments count; empty: all of them.
    best_of = models.PositiveSmallIntegerField(_("best of"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"
