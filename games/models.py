"""Games stored as append-only event logs.

Invariants (enforced by :mod:`games.services`, never by ``save()`` or signals):

* A game's log is the ordered list of its :class:`GameEvent` rows. Sequence numbers
  start at **1** (the ``start`` event, line 1 of the JSON Lines log) and have no gaps,
  so the sequence number of an event equals its line number and the engine's
  ``event_count`` after applying it. ``(game, sequence)`` is unique in the database.
* Events are never edited or deleted; a correction is a new event (a referee ruling,
  an adjudicated ``end``; after the end, a ``correction`` event with new placements).
* When the game has a log, its result (``status``, ``placements``) is always what the
  engine derives by replaying that log. ``state``/``summary`` cache the engine state
  after event ``state_sequence``; the cache is valid when
  ``state_sequence == last_sequence``.
* A game without a log can carry a result entered as placements only; it is marked
  ``result_source = "placements"`` (unverified).
* ``result_version`` grows by one every time the result (placements) changes, so that
  consumers (ratings) can tell a changed result from one they already counted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.kinds import game_kind_choices


class GameStatus(models.TextChoices):
    PENDING = "pending", _("Not started")  # no start event yet (e.g. a table just seated)
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    STALEMATE = "stalemate", _("Stalemate")  # over, placements by the rules for a stalemate
    VOID = "void", _("Closed without a result")  # e.g. time up before any event; not rated


#: Statuses of a game that is over (no more events accepted).
OVER_STATUSES = frozenset({GameStatus.FINISHED, GameStatus.STALEMATE, GameStatus.VOID})


class ResultSource(models.TextChoices):
    NONE = "none", _("No result yet")
    LOG = "log", _("Derived from the event log (verified)")
    PLACEMENTS = "placements", _("Placements only (unverified)")


class Game(models.Model):
    """One game of a given kind between players identified by their handles.

    ``players`` is the seat (clockwise) order. For a seated table it is fixed when the
    game is created and the start event must name exactly these players in this order.
    """

    kind = models.CharField(_("game kind"), max_length=16, choices=game_kind_choices)
    status = models.CharField(
        _("status"), max_length=16, choices=GameStatus.choices, default=GameStatus.PENDING
    )
    players = models.JSONField(_("players in seat order"), default=list, blank=True)
    start_event = models.JSONField(_("start event"), null=True, blank=True)
    last_sequence = models.PositiveIntegerField(_("last event sequence"), default=0)

    # Cached derived state (engine.to_state() / game.summary()) after `state_sequence`.
    state = models.JSONField(_("cached engine state"), null=True, blank=True, editable=False)
    summary = models.JSONField(_("cached summary"), null=True, blank=True, editable=False)
    state_sequence = models.PositiveIntegerField(
        _("sequence reflected by the cache"), default=0, editable=False
    )

    # Result.
    placements = models.JSONField(
        _("placements"), null=True, blank=True, help_text=_("Player handle -> place (1-based).")
    )
    result_source = models.CharField(
        _("result source"), max_length=16, choices=ResultSource.choices, default=ResultSource.NONE
    )
    result_version = models.PositiveIntegerField(_("result version"), default=0)
    #: A placements result that the players of the table reported and confirmed
    #: themselves (issue 23): neither verified by a log nor entered by staff alone.
    #: Set only with a placements result, cleared when it is replaced.
    players_confirmed = models.BooleanField(
        _("confirmed by the players"), default=False, db_default=False
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, db_index=True)
    #: When the game was played: set once by the recording services, when its first
    #: event or its result is recorded (whichever comes first), and never moved by a
    #: later correction. ``None``: not played yet, or closed without being played (a
    #: void game; a bye awarded since the field exists).
    played_at = models.DateTimeField(
        _("played on"),
        null=True,
        blank=True,
        help_text=_("When the game was played: its first event or its result was recorded."),
    )

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["id"]
        indexes = [models.Index(fields=["kind", "finished_at", "id"], name="game_kind_finished")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({', '.join(self.players)})"

    @property
    def is_over(self) -> bool:
        return self.status in OVER_STATUSES

    @property
    def has_result(self) -> bool:
        return self.placements is not None

    @property
    def result_verified(self) -> bool:
        return self.result_source == ResultSource.LOG

    @property
    def result_trust(self) -> str:
        """How far the result can be trusted, as pages, the API and the CSV say it:
        ``verified`` (derived from the log), ``players`` (placements the table's
        players confirmed), ``unverified`` (placements entered by staff), ``""`` (no
        result)."""
        if self.placements is None:
            return ""
        if self.result_source == ResultSource.LOG:
            return "verified"
        if self.result_source == ResultSource.PLACEMENTS:
            return "players" if self.players_confirmed else "unverified"
        return ""

    @property
    def cache_is_fresh(self) -> bool:
        return self.state is not None and self.state_sequence == self.last_sequence


class GameEvent(models.Model):
    """One line of a game's log. Immutable: never updated, never deleted."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="events"
    )
    sequence = models.PositiveIntegerField(_("sequence"))
    data = models.JSONField(_("event"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    #: The client's ``Idempotency-Key`` of the request that stored this event (live
    #: scorekeeping from phones that lose answers): a retry with the same key gets this
    #: event back instead of a duplicate or a stale-sequence error. Unique per game.
    idempotency_key = models.CharField(
        _("idempotency key"), max_length=100, null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="gameevent_unique_sequence"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="gameevent_unique_idempotency_key",
            ),
            models.CheckConstraint(
                condition=models.Q(sequence__gte=1), name="gameevent_sequence_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.game_id}/{self.sequence} {self.data.get('type', '?')}"
