"""Output serializers shared by several endpoints (pure data shaping, no queries of their
own: the selectors fetch everything with select_related/prefetch_related, or return
plain data such as :class:`ratings.selectors.RatingEntry`)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import LateEntryPoints, RepeatAvoidance, ReportAgreement, UnevenPlayers


class LeagueSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    kind = serializers.CharField()
    description = serializers.CharField()
    is_public = serializers.BooleanField()


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.SlugField(source="league.slug")
    kind = serializers.CharField(source="league.kind")
    name = serializers.CharField()
    slug = serializers.SlugField()
    status = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    format = serializers.CharField(help_text="`swiss`, `elimination` or `swiss_cut`.")
    table_sizes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Preferred table size first."
    )
    rounds = serializers.IntegerField(source="swiss_rounds", help_text="Swiss rounds.")
    cut = serializers.IntegerField(help_text="`swiss_cut`: the top N play the elimination.")
    advance = serializers.IntegerField(help_text="Elimination: the top K of every table advance.")
    round_minutes = serializers.IntegerField(allow_null=True)
    auto_progress = serializers.BooleanField()
    seeding = serializers.CharField(help_text="`rating` or `random` (round 1).")
    table_size = serializers.IntegerField(
        help_text="Deprecated: the preferred table size (`table_sizes[0]`)."
    )
    rounds_count = serializers.IntegerField(help_text="Deprecated: same as `rounds`.")
    is_public = serializers.BooleanField()
    max_players = serializers.IntegerField(
        allow_null=True, help_text="The most players registered; past it, a waitlist."
    )
    uneven_players = serializers.CharField(
        help_text="When the players do not fill the tables: `refuse`, `byes` (the "
        "lowest-standing players sit out) or `resize` (tables one larger or smaller)."
    )
    bye_points = serializers.FloatField(
        allow_null=True, help_text="The points of a bye; null: a table win's."
    )
    late_entry_until = serializers.IntegerField(
        allow_null=True,
        help_text="Players may still join until this round is seated; null: any round.",
    )
    late_entry_points = serializers.CharField(
        help_text="A late player's missed rounds: `last` (last place at a full table) or `none`."
    )
    repeat_avoidance = serializers.CharField(
        help_text="Swiss seating: `strict`, `balanced` or `off` (see the input's help)."
    )
    top_table_final = serializers.BooleanField(
        help_text="The leaders sit together in the stage's last round."
    )
    report_agreement = serializers.CharField(
        help_text="Who must agree on a players' report before it is the result: `all` "
        "(every player of the table with an account still in the event) or `two` (the "
        "reporter and one other)."
    )


# Renders a :class:`ratings.selectors.RatingEntry` (comment, not docstring: no schema change).
class RatingSerializer(serializers.Serializer):
    kind = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


# Renders a :class:`tournaments.selectors.PlayerSummary` (comment, not docstring: no schema change).
class PlayerSerializer(serializers.Serializer):
    handle = serializers.SlugField()
    display_name = serializers.CharField()
    ratings = RatingSerializer(many=True)


class RatingHistoryEntrySerializer(serializers.Serializer):
    """A :class:`ratings.selectors.RatingHistoryEntry`."""

    game_id = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    game_finished_at = serializers.DateTimeField()

    class Meta:
        ref_name = "RatingHistoryEntry"


class RatingHistoryField(serializers.DictField):
    """Game kind -> the player's rating changes in order, each rendered by
    :class:`RatingHistoryEntrySerializer` (documented as declared: a dict field)."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        return {
            str(kind): RatingHistoryEntrySerializer(changes, many=True).data
            for kind, changes in value.items()
        }


# Renders a :class:`ratings.selectors.LeaderboardEntry` (comment, not docstring: no schema change).
class LeaderboardEntrySerializer(serializers.Serializer):
    handle = serializers.SlugField()
    display_name = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(read_only=True)


class GameBriefSerializer(serializers.Serializer):
    """A game as listed under its table (no derived state)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    placements = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    result_source = serializers.CharField()
    verified = serializers.BooleanField(source="result_verified")
    players_confirmed = serializers.BooleanField(
        help_text="Placements reported and confirmed by the table's players."
    )
    result_trust = serializers.ChoiceField(
        choices=["verified", "players", "unverified", ""],
        help_text="verified: from the log; players: confirmed by the players; "
        "unverified: placements entered by staff; empty: no result.",
    )
    last_sequence = serializers.IntegerField()


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    handle = serializers.SlugField(source="player.handle")
    display_name = serializers.CharField(source="player.display_name")


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seats = SeatSerializer(many=True, source="seats.all")
    game = GameBriefSerializer()


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="For `/api/rounds/<id>/...`.")
    number = serializers.IntegerField()
    stage = serializers.CharField(help_text="`swiss` or `elimination`.")
    status = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    tables = TableSerializer(many=True, source="tables.all")


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    handle = serializers.SlugField()
    display_name = serializers.CharField()
    points = serializers.FloatField()
    games = serializers.IntegerField()
    firsts = serializers.IntegerField()
    placement_sum = serializers.IntegerField()
    buchholz = serializers.FloatField(
        help_text="Opponents' average points (the page's \"Opp. avg.\", the standings CSV's "
        "opponents_average): the average, over every opponent met at every table, of that "
        "opponent's points; higher is better. Named after the tiebreak key `buchholz`, but "
        "an average, not a Buchholz sum."
    )
    opponents_percentage = serializers.FloatField(
        help_text="Opponents' points percentage (the page's \"Opp. %\", from 0 to 1): "
        "for every opponent met at every table, that opponent's points over the most they "
        "could have had in the games they played, floored at 1/3, averaged; byes are no "
        "opponent. Higher is better."
    )
    best_finish = serializers.IntegerField(
        allow_null=True,
        help_text="The best place the player finished a game in (byes are no finish); "
        "lower is better.",
    )
    head_to_head = serializers.IntegerField(
        allow_null=True,
        help_text="Only with the head_to_head tiebreak: among the players tied with this "
        "one when that tiebreak is reached, +1 for each game finished ahead of one of "
        "them, -1 for each behind; null when tied with nobody there.",
    )
    rating = serializers.FloatField()
    provisional = serializers.BooleanField()
    dropped = serializers.BooleanField()
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Round numbers the player sat out alone (a bye: the tournament's bye points).",
    )
    late = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="A late entry: the rounds played before the player joined (scored as "
        "the tournament's late_entry_points says).",
    )
    places = serializers.DictField(
        child=serializers.IntegerField(), help_text="Round number -> place in that round."
    )
    stage = serializers.ChoiceField(
        choices=["swiss", "elimination"],
        help_text="The stage the player reached: elimination for those who played it "
        "(the cut of swiss_cut; everyone in elimination); they rank first.",
    )
    reached_round = serializers.IntegerField(
        allow_null=True, help_text="Elimination: the last elimination round the player sat in."
    )
    no_shows = serializers.ListField(
        child=serializers.IntegerField(), help_text="Rounds the player was marked a no-show in."
    )


class EventSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    event = serializers.DictField(source="data")
    recorded_at = serializers.DateTimeField()


class TableRefSerializer(serializers.Serializer):
    """Where a game is played: tournament, round and table."""

    tournament_id = serializers.IntegerField(source="round.tournament_id")
    tournament = serializers.CharField(source="round.tournament.name")
    league = serializers.SlugField(source="round.tournament.league.slug")
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(source="number")


class GameStateSerializer(serializers.Serializer):
    """A game's derived state (``games.selectors.game_derived_state``) and its table."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    sequence = serializers.IntegerField(help_text="Number of events in the log.")
    next_sequence = serializers.IntegerField(help_text="The sequence number to write next.")
    placements = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    result_source = serializers.CharField()
    verified = serializers.BooleanField()
    players_confirmed = serializers.BooleanField(
        help_text="Placements reported and confirmed by the table's players."
    )
    result_trust = serializers.ChoiceField(
        choices=["verified", "players", "unverified", ""],
        help_text="verified: from the log; players: confirmed by the players; "
        "unverified: placements entered by staff; empty: no result.",
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    played_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the game was played (its first event or its result was recorded).",
    )
    summary = serializers.DictField(
        allow_null=True, help_text="The engine's summary (TOCK: turn, center, piles, ...)."
    )
    sheet = serializers.BooleanField(
        help_text="A score sheet (UNO, Casino: results line by line, no cards)."
    )
    table = TableRefSerializer(allow_null=True)


class RecordOutcomeSerializer(serializers.Serializer):
    """What a recording request did (``games.services.RecordOutcome``) and the new state."""

    events_added = serializers.IntegerField()
    result_changed = serializers.BooleanField()
    game = GameStateSerializer()


class EventRecordOutcomeSerializer(RecordOutcomeSerializer):
    """``POST /api/games/<id>/events``: the outcome plus the stored event. A retry with
    the ``Idempotency-Key`` of a stored event (200) has ``replayed`` true,
    ``events_added`` 0, ``result_changed`` false, and ``event`` is the one stored then."""

    event = EventSerializer(help_text="The stored event (sequence, event, recorded_at).")
    replayed = serializers.BooleanField(
        help_text="True when this request repeated an earlier one (same Idempotency-Key): "
        "nothing new was stored."
    )


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(required=False)


class StaleSequenceErrorSerializer(ErrorSerializer):
    """409: a stale sequence (with ``current_sequence``), or the game is over (without)."""

    current_sequence = serializers.IntegerField(required=False)


class RejectedErrorSerializer(ErrorSerializer):
    reason = serializers.CharField()
    line = serializers.IntegerField(required=False)
    sequence = serializers.IntegerField(required=False)


class EventRulesInput(serializers.Serializer):
    """The settings of how an event runs at the venue, as a new tournament and a change
    of settings take them (both input serializers inherit them): players' reports,
    capacity, uneven counts, late entry (the rules: ``tournaments.services.core``)."""

    report_agreement = serializers.ChoiceField(choices=ReportAgreement.choices, required=False)
    max_players = serializers.IntegerField(
        required=False, allow_null=True, help_text="Empty: no limit; past it, a waitlist."
    )
    uneven_players = serializers.ChoiceField(
        choices=UnevenPlayers.choices,
        required=False,
        help_text="When the players do not fill the tables: refuse, byes or resize.",
    )
    bye_points = serializers.FloatField(
        required=False, allow_null=True, help_text="Empty: the points of a table win."
    )
    late_entry_until = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Players may still join until this round is seated; null: any round.",
    )
    late_entry_points = serializers.ChoiceField(choices=LateEntryPoints.choices, required=False)
    repeat_avoidance = serializers.ChoiceField(
        choices=RepeatAvoidance.choices,
        required=False,
        help_text="Swiss seating: strict (the default: never meet again whenever it can be "
        "avoided, the rest of the stage included, then the closest standings), balanced "
        "(the fewest repeats within the greedy's spread) or off (slices of the standings).",
    )
    top_table_final = serializers.BooleanField(
        required=False, help_text="The leaders sit together in the stage's last round."
    )
