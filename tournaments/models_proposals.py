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
    #: players of the table reported different placements (a report): a referee decides
    DISPUTED = "disputed", _("Disputed")
    CONFIRMED = "confirmed", _("Confirmed")
    REJECTED = "rejected", _("Rejected")


#: The statuses of a proposal still open (at most one per game).
OPEN_STATUSES = (ProposalStatus.PENDING, ProposalStatus.DISPUTED)


class ProposalOrigin(models.TextChoices):
    #: a scorekeeper who stopped live scoring (issue 22)
    STAFF = "staff", _("Proposed by a scorekeeper")
    #: reported by a player of the table and confirmed by the others (issue 23)
    PLAYERS = "players", _("Reported by the players")


class ResultProposal(models.Model):
    """Placements proposed for a game that a scorekeeper cannot finish by recording its
    result (live scoring stopped: the log says the game is still in progress), waiting
    for a referee or an organizer of the tournament to confirm them (the result is then
    recorded through the choke point, an ``end`` event by the referee when the game has
    a log) or to reject them (optionally replacing them with their own placements, with
    a note). At most one open (pending or disputed) proposal per game (a database
    constraint).

    The players' reports of issue 23 are the same object (``origin`` players): a player
    of the table reports placements, the others confirm (their ``votes`` agree) or
    dispute (different placements: status disputed, for a referee); once enough have
    agreed the result is recorded and the proposal is confirmed. Written only by
    :mod:`tournaments.services.proposals` and :mod:`tournaments.services.reports`."""

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
    origin = models.CharField(
        _("origin"), max_length=16, choices=ProposalOrigin.choices, default=ProposalOrigin.STAFF
    )
    placements = models.JSONField(_("proposed placements"))
    #: A players' report: who said what, ``{handle: {"placements": {...}, "at": ISO
    #: time}}`` (the reporter's entry first); empty for a scorekeeper's proposal.
    votes = models.JSONField(_("players' answers"), default=dict, blank=True)
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
                condition=models.Q(status__in=["pending", "disputed"]),
                name="proposal_one_pending_per_game",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} – {self.status}"
