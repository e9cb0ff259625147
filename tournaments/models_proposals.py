"""Results proposed at a table and waiting for a referee (issue 22, "No dead ends"):
:class:`ResultProposal` and its :class:`ProposalStatus`. Models of the ``tournaments``
app (imported by :mod:`tournaments.models`); written only by
:mod:`tournaments.services.proposals`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for a referee")
    CONFIRMED = "confirmed", _("Confirmed")
    REJECTED = "rejected", _("Rejected")


class ResultProposal(models.Model):
    """Placements proposed for a game that a scorekeeper cannot finish by recording its
    result (live scoring stopped: the log says the game is still in progress), waiting
    for a referee or an organizer of the tournament to confirm them (the result is then
    recorded through the choke point, an ``end`` event by the referee when the game has
    a log) or to reject them (optionally replacing them with their own placements, with
    a note). At most one pending proposal per game (a database constraint). Written
    only by :mod:`tournaments.services.proposals`."""

    game = models.ForeignKey(
        "games.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="proposals"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",  # a string: this module imports nothing of models.py
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="proposals",
    )
    placements = models.JSONField(_("proposed placements"))
    #: The game's log length when proposed (what the proposer saw).
    sequence = models.PositiveIntegerField(_("event"), default=0)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("proposed by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("proposed at"), default=timezone.now, db_index=True)
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=ProposalStatus.choices,
        default=ProposalStatus.PENDING,
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("proposed result")
        verbose_name_plural = _("proposed results")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="pending"),
                name="proposal_one_pending_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} – {self.status}"
