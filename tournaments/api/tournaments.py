"""JSON API: tournaments (``/api/tournaments...``): list, settings, standings, finish, audit."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import (
    BAD_QUERY,
    EVENT_ERRORS,
    FORMAT_CHOICES,
    NOT_FOUND,
    PAGINATED_TOURNAMENTS,
    ApiView,
    page_response,
)
from tournaments.api.pagination import PAGE_PARAMETERS
from tournaments.api.serializers import EventRulesInput, StandingRowSerializer, TournamentSerializer
from tournaments.models import (
    Seeding,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import (
    league_get_visible,
    tournament_audit,
    tournament_get_visible,
    tournament_list_visible,
    tournament_points,
    tournament_user_roles,
)
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.services import tournament_finish, tournament_update


class TournamentDetailOutput(TournamentSerializer):
    points_per_place = serializers.ListField(child=serializers.FloatField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    your_roles = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "TournamentDetail"


def tournament_output(request: Request, tournament: Tournament, code: int = 200) -> Response:
    """The shared tournament output plus the detail's fields (the schema:
    :class:`TournamentDetailOutput`)."""
    data = dict(TournamentSerializer(tournament).data)
    data["points_per_place"] = tournament_points(tournament)
    data["tiebreaks"] = list(tournament.tiebreaks or [])
    data["your_roles"] = tournament_user_roles(tournament=tournament, user=request.user)
    return Response(data, status=code)


class TournamentListApi(ApiView):
    class FilterSerializer(serializers.Serializer):
        league = serializers.SlugField(required=False)
        status = serializers.ChoiceField(
            choices=TournamentStatus.choices, required=False, allow_blank=True
        )

        class Meta:
            ref_name = "TournamentFilter"

    @extend_schema(
        tags=["tournaments"],
        summary="Tournaments you may see",
        operation_id="tournaments_list",
        parameters=[FilterSerializer, *PAGE_PARAMETERS],
        responses={200: PAGINATED_TOURNAMENTS, 400: BAD_QUERY, 404: NOT_FOUND},
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        league = None
        if "league" in filters.validated_data:
            league = league_get_visible(slug=filters.validated_data["league"], user=request.user)
        tournaments = tournament_list_visible(
            user=request.user, league=league, status=filters.validated_data.get("status")
        )
        return page_response(self, request, tournaments, TournamentSerializer)


class TournamentDetailApi(ApiView):
    OutputSerializer = TournamentDetailOutput

    class InputSerializer(EventRulesInput):
        """Every field optional: only what is sent changes."""

        name = serializers.CharField(max_length=120, required=False)
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
        starts_on = serializers.DateField(required=False)
        ends_on = serializers.DateField(required=False, allow_null=True)
        is_public = serializers.BooleanField(required=False)
        format = serializers.ChoiceField(choices=FORMAT_CHOICES, required=False)
        table_sizes = serializers.ListField(
            child=serializers.IntegerField(), min_length=1, max_length=10, required=False
        )
        rounds = serializers.IntegerField(required=False)
        cut = serializers.IntegerField(required=False)
        advance = serializers.IntegerField(required=False)
        round_minutes = serializers.IntegerField(required=False, allow_null=True)
        auto_progress = serializers.BooleanField(required=False)
        seeding = serializers.ChoiceField(choices=Seeding.choices, required=False)
        points_per_place = serializers.ListField(
            child=serializers.FloatField(), max_length=10, required=False
        )
        tiebreaks = serializers.ListField(
            child=serializers.CharField(), max_length=10, required=False
        )

        class Meta:
            ref_name = "TournamentUpdate"

    @extend_schema(
        tags=["tournaments"],
        summary="A tournament's settings (and your roles in it)",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        return tournament_output(request, tournament)

    @extend_schema(
        tags=["events"],
        summary="Change a tournament's settings (organizers)",
        description=(
            "Only the fields sent change; the names are those of the output. The rule is "
            "the service's (tournament_update): once a round is seated the table sizes, "
            "format and seeding are fixed (409); the rounds, cut, advance, round clock and "
            "automatic progression may still change (from the next round); once the "
            "tournament is over nothing changes (409)."
        ),
        request=InputSerializer,
        responses={200: OutputSerializer, **EVENT_ERRORS},
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # The rule of what may change when is the service's alone (tournament_update).
        tournament = tournament_update(
            tournament=tournament, user=request.user, **serializer.validated_data
        )
        return tournament_output(request, tournament)


class TournamentStandingsApi(ApiView):
    @extend_schema(
        tags=["tournaments"],
        summary="Standings: points, then the tournament's tiebreaks",
        responses={200: StandingRowSerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        # Cached until something of the tournament changes (big events: see the module).
        rows = tournament_standings_cached(tournament=tournament, user=request.user)
        # What StandingRowSerializer(rows, many=True).data holds, as a plain list: that
        # one (a ReturnList) points back at its serializer, a reference cycle keeping
        # every row and dict of a big event alive after the answer (see ``_let_go``).
        row = StandingRowSerializer()
        return Response([row.to_representation(r) for r in rows])


class TournamentFinishApi(ApiView):
    @extend_schema(
        tags=["events"],
        summary="End the tournament now (organizers)",
        description="A running last round is closed as it stands. 409 when it is over.",
        request=None,
        responses={200: TournamentDetailOutput, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        tournament = tournament_finish(tournament=tournament, user=request.user)
        return tournament_output(request, tournament)


class AuditEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    action = serializers.CharField(
        help_text="created, settings_changed, registered, checked_in, checked_out, dropped, "
        "reinstated, "
        "started, round_seated, "
        "round_finished, round_reseated, time_up, no_show, finished, progress_failed."
    )
    actor = serializers.CharField(allow_null=True, help_text="Username; null for the system.")
    round = serializers.IntegerField(allow_null=True, help_text="Round number.")
    details = serializers.DictField()

    class Meta:
        ref_name = "AuditEntry"


class TournamentAuditApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["events"],
        summary="The tournament's audit log, oldest first (organizers)",
        responses={
            200: AuditEntrySerializer(many=True),
            401: EVENT_ERRORS[401],
            403: EVENT_ERRORS[403],
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        entries = tournament_audit(tournament=tournament, user=request.user)
        return Response(AuditEntrySerializer(entries, many=True).data)
