"""Players, leagues, tournaments (events), registrations, rounds, tables, seats.

Invariants (enforced by :mod:`tournaments.services`, never by ``save()`` or signals):

* A :class:`Player` is identified in game logs by its ``handle``; handles are unique
  and never change once the player has played a game.
* A :class:`Table` points at its :class:`games.models.Game` (``games`` knows nothing
  about tournaments). Its :class:`Seat` rows, in ``position`` order, are the game's
  clockwise order; the game's ``players`` equal the seats' handles in that order.
* Ratings (per player and game kind, across leagues) are the :mod:`ratings` app's; a
  player's are ``player.ratings`` and ``player.rating_changes``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.fields import FastJSONField, JSONTextField
from games.models import Game, game_kind_choices

#: Tiebreak keys understood by the standings selector, in the default order.
TIEBREAK_BUCHHOLZ = "buchholz"
TIEBREAK_FIRSTS = "firsts"
TIEBREAK_PLACEMENT_SUM = "placement_sum"
TIEBREAK_RATING = "rating"
TIEBREAK_OPPONENTS_PERCENTAGE = "opponents_percentage"
TIEBREAK_BEST_FINISH = "best_finish"
TIEBREAK_HEAD_TO_HEAD = "head_to_head"
#: Every tiebreak an organizer may choose (docs/rules/standings.*.md gives the formulas).
TIEBREAK_CHOICES = {
    TIEBREAK_BUCHHOLZ: _("Opponents' average points"),
    TIEBREAK_OPPONENTS_PERCENTAGE: _("Opponents' points percentage"),
    TIEBREAK_FIRSTS: _("Number of first places"),
    TIEBREAK_PLACEMENT_SUM: _("Sum of placements (lower is better)"),
    TIEBREAK_BEST_FINISH: _("Best finish"),
    TIEBREAK_HEAD_TO_HEAD: _("Head-to-head"),
    TIEBREAK_RATING: _("Rating"),
}
DEFAULT_TIEBREAKS = [TIEBREAK_BUCHHOLZ, TIEBREAK_FIRSTS, TIEBREAK_PLACEMENT_SUM, TIEBREAK_RATING]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Player(models.Model):
    handle = models.SlugField(_("handle"), max_length=40, unique=True)
    display_name = models.CharField(_("display name"), max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    hidden = models.BooleanField(
        _("hidden from public pages"),
        default=False,
        help_text=_(
            "Public pages and the API show this player under a neutral name; results stay."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["handle"]

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"


class League(models.Model):
    """A league plays one game kind; its organizers may run all its tournaments."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    kind = models.CharField(_("game kind"), max_length=16, choices=game_kind_choices)
    description = models.TextField(_("description"), blank=True, default="")
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizers"),
        blank=True,
        related_name="organized_leagues",
    )
    k_factor = models.FloatField(_("Elo K factor"), default=32.0)
    rate_unverified = models.BooleanField(
        _("rate unverified results"),
        default=True,
        help_text=_("Count results entered as placements only in the ratings."),
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(k_factor__gt=0), name="league_k_positive")
        ]

    def __str__(self) -> str:
        return self.name


class TournamentFormat(models.TextChoices):
    SWISS = "swiss", _("Swiss (tables by standings)")
    ELIMINATION = "elimination", _("Elimination (each table's top players advance)")
    SWISS_CUT = "swiss_cut", _("Swiss, then the top players play an elimination stage")


class Seeding(models.TextChoices):
    """How round 1 is ordered before seating."""

    RATING = "rating", _("By rating")
    RANDOM = "random", _("Random")


class Stage(models.TextChoices):
    """The stage a round belongs to."""

    SWISS = "swiss", _("Swiss")
    ELIMINATION = "elimination", _("Elimination")


#: Preferred table size first, then the sizes allowed when the count does not divide.
DEFAULT_TABLE_SIZES = [4, 3, 5, 2, 6]


def default_table_sizes() -> list[int]:
    return list(DEFAULT_TABLE_SIZES)


def table_sizes_around(size: int, lo: int, hi: int) -> list[int]:
    """``size`` first, then every other size from ``lo`` to ``hi``, nearest first
    (smaller before larger): what a single legacy ``table_size`` means."""
    others = [s for s in range(lo, hi + 1) if s != size]
    return [size, *sorted(others, key=lambda s: (abs(s - size), s))]


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class ReportAgreement(models.TextChoices):
    ALL = "all", _("Every player of the table with an account")
    TWO = "two", _("The reporter and one other player")


class LateEntryPoints(models.TextChoices):
    LAST = "last", _("Last place at a full table, for each round missed")
    NONE = "none", _("Nothing")


class RepeatAvoidance(models.TextChoices):
    """How Swiss rounds avoid seating players together again (issue 25,
    :mod:`tournaments.seating.strict`)."""

    STRICT = "strict", _("Never meet again whenever it can be avoided, then the closest standings")
    BALANCED = "balanced", _("Fewest repeats without spreading tables more than the greedy")
    OFF = "off", _("Off: tables are slices of the standings")


class UnevenPlayers(models.TextChoices):
    REFUSE = "refuse", _("Refuse to seat them (change the table sizes)")
    BYES = "byes", _("Byes: the lowest-standing players sit out")
    RESIZE = "resize", _("Tables one larger or one smaller")


class Tournament(models.Model):
    """An event of a league."""

    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.PROTECT, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, default="")
    format = models.CharField(
        _("format"), max_length=16, choices=TournamentFormat.choices, default=TournamentFormat.SWISS
    )
    table_sizes = models.JSONField(
        _("table sizes"),
        default=default_table_sizes,
        help_text=_("The preferred table size first, then the other sizes allowed."),
    )
    #: ``rounds`` in the services and the API (``Tournament.rounds`` is the reverse
    #: accessor of :class:`Round`, so the field is named ``swiss_rounds``).
    swiss_rounds = models.PositiveSmallIntegerField(
        _("number of Swiss rounds"), default=5, help_text=_("Swiss rounds only.")
    )
    cut = models.PositiveSmallIntegerField(
        _("cut"), default=8, help_text=_("Swiss with a cut: the top N play the elimination stage.")
    )
    advance = models.PositiveSmallIntegerField(
        _("players advancing per table"),
        default=2,
        help_text=_("Elimination: the top K of every table advance."),
    )
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), null=True, blank=True)
    auto_progress = models.BooleanField(
        _("automatic progression"),
        default=True,
        help_text=_(
            "Seat the next round (or finish the tournament) as soon as a round is complete, "
            "and end the games of a round whose time is up."
        ),
    )
    seeding = models.CharField(
        _("seeding of round 1"), max_length=16, choices=Seeding.choices, default=Seeding.RATING
    )
    points_per_place = models.JSONField(
        _("points per placement"),
        default=list,
        blank=True,
        help_text=_("Points for 1st, 2nd, ... place at a full table; empty for the default."),
    )
    tiebreaks = models.JSONField(_("tiebreak order"), default=default_tiebreaks, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    #: Players check themselves in from their phones while this is on (the organizer
    #: opens and closes it on the dashboard).
    check_in_open = models.BooleanField(_("check-in from the phone open"), default=False)
    #: Swiss seating: how repeat meetings are avoided (issue 25).
    repeat_avoidance = models.CharField(
        _("repeat meetings"),
        max_length=16,
        choices=RepeatAvoidance.choices,
        default=RepeatAvoidance.STRICT,
    )
    #: The stage's last round seats the leaders together at the first table, even at a
    #: repeat (the title decided at one table).
    top_table_final = models.BooleanField(_("leaders together in the last round"), default=False)
    #: When the players do not fill tables of the allowed sizes (5 at tables of 4):
    #: :func:`tournaments.services.draw.seat_tables`.
    uneven_players = models.CharField(
        _("when the players do not fill the tables"),
        max_length=16,
        choices=UnevenPlayers.choices,
        default=UnevenPlayers.REFUSE,
    )
    #: Late entry: players may still join until this round is seated (they join the
    #: next round seated); empty: until the last round.
    late_entry_until = models.PositiveSmallIntegerField(
        _("late entry until round"),
        null=True,
        blank=True,
        help_text=_("Players may still join until this round is seated. Empty: any round."),
    )
    #: What a late player scores for each round they missed.
    late_entry_points = models.CharField(
        _("points for the rounds a late player missed"),
        max_length=16,
        choices=LateEntryPoints.choices,
        default=LateEntryPoints.LAST,
    )
    #: The points of a bye; empty: the points of a table win.
    bye_points = models.FloatField(
        _("points of a bye"),
        null=True,
        blank=True,
        help_text=_("Empty: the points of a win at a table."),
    )
    #: The most players registered at once (organizers' registrations included); the
    #: others wait on a waitlist, in order (:mod:`tournaments.services.signup`).
    max_players = models.PositiveIntegerField(
        _("maximum number of players"),
        null=True,
        blank=True,
        help_text=_("Empty: no limit. Registrations past it join a waitlist, in order."),
    )
    #: Results reported by the players (issue 23): who must agree before a report is
    #: the result (:mod:`tournaments.services.reports`).
    report_agreement = models.CharField(
        _("players' reports need"),
        max_length=16,
        choices=ReportAgreement.choices,
        default=ReportAgreement.ALL,
        help_text=_(
            "Who must agree before placements reported by a player of a table become its "
            "result (players without an account, dropped and absent players are not "
            "waited for)."
        ),
    )
    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff"),
        through="TournamentRole",
        related_name="staffed_tournaments",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="tournament_unique_slug"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def kind(self) -> str:
        return self.league.kind

    # Derived names kept for today's API output and pages (``table_size``: the preferred
    # size; ``rounds_count``: the Swiss rounds). Assigning them updates the real fields.
    @property
    def table_size(self) -> int:
        return int(self.table_sizes[0]) if self.table_sizes else DEFAULT_TABLE_SIZES[0]

    @table_size.setter
    def table_size(self, value: int) -> None:
        self.table_sizes = [value, *[s for s in (self.table_sizes or []) if s != value]]

    @property
    def rounds_count(self) -> int:
        return self.swiss_rounds

    @rounds_count.setter
    def rounds_count(self, value: int) -> None:
        self.swiss_rounds = value


class Role(models.TextChoices):
    ORGANIZER = "organizer", _("Organizer")
    REFEREE = "referee", _("Referee")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")


class TournamentRole(models.Model):
    """A user's role in one tournament (a user may hold several roles)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournamentrole_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} – {self.tournament}"


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="registrations"
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    dropped = models.BooleanField(_("dropped"), default=False)  # never seated again
    #: Past the tournament's ``max_players``: waiting for a place, in order of
    #: ``registered_at`` (never checked in, never seated, not in the standings).
    waitlisted = models.BooleanField(_("on the waitlist"), default=False)
    #: When the player moved up from the waitlist (their page says so).
    promoted_at = models.DateTimeField(_("moved up from the waitlist"), null=True, blank=True)
    #: A late entry: the first round the player could be seated in (``None``: from
    #: the start). The rounds before it score as the tournament's late entry says.
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), null=True, blank=True)
    #: The player signed up themselves (organizers see it on the dashboard).
    self_signup = models.BooleanField(_("signed up themselves"), default=False)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class RoundStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.RUNNING
    )
    stage = models.CharField(_("stage"), max_length=16, choices=Stage.choices, default=Stage.SWISS)
    deadline = models.DateTimeField(_("time limit"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('round')} {self.number}"


class RoundSeating(models.Model):
    """How a round was seated (issue 25): ``record`` holds ``method``, ``seed``,
    ``repeats``, ``spread``, ``seat_cost`` and ``lower_bound``, ``request`` the seating
    request (handles as ids): ``python -m tournaments.seating`` on it gives the same
    tables. No row for rounds seated before it was kept.

    A table of its own rather than a column of :class:`Round`: the request names every
    player and every pair that has met, so it grows with the event (hundreds of
    kilobytes at 1,000 players by the last round), and a round is read on every
    recorded result and every page; kept apart, only the seating's readers pay for it.
    """

    round = models.OneToOneField(
        Round,
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="seating_record",
    )
    # what the rounds list reads of every round (``jsonb``: its keys are looked up)
    record = FastJSONField(_("seating"), default=dict, blank=True)
    # The largest JSON document a progression writes, read only whole (by the seating
    # page and the API): ``json``, not ``jsonb``, which converts it at every write.
    request = JSONTextField(_("seating request"), default=dict, blank=True)

    class Meta:
        verbose_name = _("round seating")
        verbose_name_plural = _("round seatings")

    def __str__(self) -> str:
        return str(self.round)


class Table(models.Model):
    """A table of a round; it points at the game played there."""

    # No index of its own: ``table_unique_number``'s (round, number) serves the lookups
    # by round, and a progression inserts a round's tables at once (issue 26).
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        related_name="tables",
        db_index=False,
    )
    number = models.PositiveSmallIntegerField(_("number"))
    game = models.OneToOneField(
        Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="table"
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} – {_('table')} {self.number}"


class Seat(models.Model):
    """A player's seat at a table; ``position`` 0, 1, ... is the clockwise order."""

    # No index of its own: ``seat_unique_position``'s (table, position) serves the
    # lookups by table; one index less to fill for the 1,000 seats of a large round.
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,
    )
    position = models.PositiveSmallIntegerField(_("position"))
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="seats"
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.position}: {self.player.handle}"


class NoShow(models.Model):
    """A player seated in a round who did not come (marked before the game's first
    event): the game was started without them; in the standings they take the last
    place of ``table`` (one below its last seat), unrated."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="no_shows"
    )
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="no_shows"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="no_shows"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("no-show")
        verbose_name_plural = _("no-shows")
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="noshow_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.round} – {_('no-show')}: {self.player.handle}"


class TournamentAudit(models.Model):
    """One step of a tournament's life: who (``actor``; empty for the system: a task or
    the automatic progression), when, which round, what (``action``) and the details."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="audit"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit",
    )
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
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["tournament", "at", "id"]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.action}"


class RulingChoice(models.TextChoices):
    """What a referee did: with a knock, confirm the engine's verdict or override it;
    after the end of a game, correct its result (a ``correction`` event)."""

    CONFIRM = "confirm", _("Confirmed the engine's verdict")
    CORRECT = "correct", _("Ruled the knock correct")
    INCORRECT = "incorrect", _("Ruled the knock wrong")
    CORRECTION = "correction", _("Corrected the result")
    #: A scorekeeper's proposed result (:class:`ResultProposal`), decided by a referee.
    PROPOSAL_CONFIRMED = "proposal_ok", _("Confirmed the proposed result")
    PROPOSAL_REPLACED = "proposal_replaced", _("Replaced the proposed result")
    PROPOSAL_REJECTED = "proposal_rejected", _("Rejected the proposed result")


#: The rulings on a referee's decision about a proposed result.
PROPOSAL_RULINGS = frozenset(
    {
        RulingChoice.PROPOSAL_CONFIRMED,
        RulingChoice.PROPOSAL_REPLACED,
        RulingChoice.PROPOSAL_REJECTED,
    }
)


class Ruling(models.Model):
    """A referee's ruling: the record beside the event (at ``sequence`` in the game's
    log) that carries it. Two kinds:

    * on a TOCK knock (the ``tock`` event): ``engine_verdict``/``engine_code`` are what
      the engine judged (:func:`games.engine.knock_preview`), ``applied`` what the event
      applied (``correct``/``incorrect``); an override (``applied`` differs from the
      engine's verdict) always has a ``note``. Written only by
      :func:`tournaments.services.rulings.knock_ruling_record`;
    * a correction of a finished game's result (the ``correction`` event, any kind):
      ``ruling`` and ``applied`` are ``correction``, no knock and no engine verdict
      (empty), ``placements`` the new places, ``previous_placements`` those it
      replaced, ``note`` the event's (always given). Written by the recording choke
      point for every stored ``correction`` event, however it arrived
      (:mod:`tournaments.services.recording`);
    * a decision on a proposed result (:class:`ResultProposal`): ``ruling`` and
      ``applied`` are ``proposal_ok`` (confirmed: ``placements`` the proposal's),
      ``proposal_replaced`` (``placements`` the referee's, ``previous_placements`` the
      proposal's) or ``proposal_rejected`` (no result recorded: ``placements`` empty,
      ``previous_placements`` the proposal's); ``sequence`` the ``end`` event that
      recorded the result, 0 when no event did. Written by
      :mod:`tournaments.services.proposals`."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="rulings"
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rulings",
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referee"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)
    sequence = models.PositiveIntegerField(_("event"))
    knocker = models.CharField(_("knocked by"), max_length=64, blank=True)
    against = models.CharField(_("knocked on"), max_length=64, blank=True)
    engine_verdict = models.CharField(_("engine verdict"), max_length=16)
    engine_code = models.CharField(_("engine reason"), max_length=32)
    ruling = models.CharField(_("ruling"), max_length=20, choices=RulingChoice.choices)
    applied = models.CharField(_("applied"), max_length=20)
    note = models.TextField(_("note"), blank=True)
    #: A correction: the new placements (player -> place) and the ones they replaced.
    placements = models.JSONField(_("corrected placements"), null=True, blank=True)
    previous_placements = models.JSONField(_("placements before"), null=True, blank=True)
    #: A knock judged from the table's position (a game without a log): the facts the
    #: referee entered, as the engine checked them (``sequence`` 0: no event).
    position = models.JSONField(_("position judged"), null=True, blank=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["at", "id"]
        constraints = [
            # One ruling per event; a correction of a placements-only result has no
            # event (sequence 0), and a game may have several of those.
            models.UniqueConstraint(
                fields=["game", "sequence"],
                condition=models.Q(sequence__gt=0),
                name="ruling_unique_event",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.sequence}: {self.applied}"

    @property
    def is_correction(self) -> bool:
        """A correction of a finished game's result (not a ruling on a knock)."""
        return self.ruling == RulingChoice.CORRECTION

    @property
    def is_proposal(self) -> bool:
        """A decision on a proposed result (confirmed, replaced or rejected)."""
        return self.ruling in PROPOSAL_RULINGS

    @property
    def is_override(self) -> bool:
        """A knock ruled against the engine's verdict (never a correction or a decision
        on a proposed result)."""
        if self.is_correction or self.is_proposal:
            return False
        return self.applied != self.engine_verdict


# Proposed results live in their own module (this one holds the event's structure);
# imported here so that Django finds them as models of this app.
from tournaments.models_calls import RefereeCall as RefereeCall  # noqa: E402
from tournaments.models_league_audit import LeagueAudit as LeagueAudit  # noqa: E402
from tournaments.models_league_staff import LeagueRole as LeagueRole  # noqa: E402
from tournaments.models_links import PlayerLinkCode as PlayerLinkCode  # noqa: E402
from tournaments.models_proposals import OPEN_STATUSES as OPEN_STATUSES  # noqa: E402
from tournaments.models_proposals import ProposalOrigin as ProposalOrigin  # noqa: E402
from tournaments.models_proposals import ProposalStatus as ProposalStatus  # noqa: E402
from tournaments.models_proposals import ResultProposal as ResultProposal  # noqa: E402
from tournaments.models_seasons import Season as Season  # noqa: E402
