"""Ratings per player and game kind, across leagues.

:class:`RatingChange` keeps every change (before, after, game); :class:`Rating` is the
current value, always equal to the last change of that player and kind (or
:data:`ratings.elo.ELO_START` with no games). :class:`RatingPool` rows serialize the
writes of one kind. All three are derived data: :mod:`ratings.services` writes them.

The player is ``tournaments.Player``, named by string: this app does not import
``tournaments`` (the dependencies point one way: tournaments -> ratings -> games).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game, game_kind_choices
from ratings.elo import ELO_START, is_provisional

PLAYER_MODEL = "tournaments.Player"


class Rating(models.Model):
    """Current Elo rating of a player for one game kind (across leagues)."""

    player = models.ForeignKey(
        PLAYER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(_("game kind"), max_length=16, choices=game_kind_choices)
    value = models.FloatField(_("rating"), default=ELO_START)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["kind", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_unique_player_kind")
        ]

    def __str__(self) -> str:
        return f"{self.player.handle} {self.kind} {self.value:.0f}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


class RatingChange(models.Model):
    """One player's rating change from one game (for the history chart and audits).

    Derived rows, rewritten whole by a recompute (hundreds of thousands at once): their
    foreign keys carry no database constraint (a recompute of 100,000 games spent 3 s
    of its 7 checking them at commit), and ``player`` no index of its own (the unique
    ``(player, game)`` and the history index start with it). Deleting a game or a
    player through the ORM still deletes their rating changes (``on_delete``)."""

    player = models.ForeignKey(
        PLAYER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
    )
    kind = models.CharField(_("game kind"), max_length=16, choices=game_kind_choices)
    before = models.FloatField(_("rating before"))
    after = models.FloatField(_("rating after"))
    game_finished_at = models.DateTimeField(_("game finished at"))
    result_version = models.PositiveIntegerField(_("result version counted"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["kind", "game_finished_at", "game_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="ratingchange_unique")
        ]
        indexes = [
            models.Index(fields=["kind", "game_finished_at", "game"], name="ratingchange_order"),
            models.Index(fields=["player", "kind", "game_finished_at"], name="ratingchange_hist"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.before:.1f} -> {self.after:.1f} (game {self.game_id})"


class RatingPool(models.Model):
    """One row per game kind; locked (``select_for_update``) to serialize rating writes."""

    kind = models.CharField(_("game kind"), max_length=16, choices=game_kind_choices, unique=True)
    recomputed_at = models.DateTimeField(_("last recomputed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")

    def __str__(self) -> str:
        return self.kind
