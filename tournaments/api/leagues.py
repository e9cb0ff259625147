"""JSON API: leagues (``/api/leagues...``), and creating a tournament in a league."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import (
    EVENT_ERRORS,
    FORMAT_CHOICES,
    NOT_FOUND,
    PAGINATED_LEAGUES,
    PAGINATED_TOURNAMENTS,
    ApiView,
    page_response,
)
from tournaments.api.pagination import PAGE_PARAMETERS
from tournaments.api.serializers import (
    EventRulesInput,
    LeaderboardEntrySerializer,
    LeagueSerializer,
    TournamentSerializer,
)
from tournaments.api.tournaments import (
    AuditEntrySerializer,
    TournamentDetailOutput,
    tournament_output,
)
from tournaments.models import Seeding
from tournaments.selectors import (
    league_detail,
    league_get_visible,
    league_list,
    tournament_list_visible,
)
from tournaments.selectors.audit import league_audit
from tournaments.services import tournament_create


class LeagueListApi(ApiView):
    @extend_schema(
        tags=["leagues"],
        summary="Leagues you may see",
        operation_id="leagues_list",
        parameters=PAGE_PARAMETERS,
        responses=PAGINATED_LEAGUES,
    )
    def get(self, request: Request) -> Response:
        return page_response(self, request, league_list(user=request.user), LeagueSerializer)


class LeagueDetailApi(ApiView):
    class OutputSerializer(LeagueSerializer):
        top_ratings = LeaderboardEntrySerializer(many=True)

        class Meta:
            ref_name = "LeagueDetail"

    @extend_schema(
        tags=["leagues"],
        summary="A league with its best-rated players",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_detail(slug=slug, user=request.user)
        return Response(self.OutputSerializer(league).data)


class LeagueTournamentListApi(ApiView):
    @extend_schema(
        tags=["leagues"],
        summary="Tournaments of a league",
        operation_id="leagues_tournaments_list",
        parameters=PAGE_PARAMETERS,
        responses={200: PAGINATED_TOURNAMENTS, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        tournaments = tournament_list_visible(user=request.user, league=league)
        return page_response(self, request, tournaments, TournamentSerializer)

    class InputSerializer(EventRulesInput):
        """Only ``name`` is required; the rest default as the services say (Swiss, tables
        of 4 then the other sizes the game allows, 5 rounds, cut 8, advance 2, no time
        limit, automatic progression, seeded by rating, starting today, public)."""

        name = serializers.CharField(max_length=120)
        slug = serializers.SlugField(max_length=60, required=False)
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
        starts_on = serializers.DateField(required=False)
        ends_on = serializers.DateField(required=False, allow_null=True)
        is_public = serializers.BooleanField(required=False)
        format = serializers.ChoiceField(choices=FORMAT_CHOICES, required=False)
        table_sizes = serializers.ListField(
            child=serializers.IntegerField(),
            min_length=1,
            max_length=10,
            required=False,
            help_text="Preferred size first, then the sizes allowed when the count does not "
            "divide.",
        )
        rounds = serializers.IntegerField(required=False, help_text="Swiss rounds.")
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
            ref_name = "TournamentCreate"

    @extend_schema(
        tags=["events"],
        summary="Create a tournament in the league (league organizers)",
        request=InputSerializer,
        responses={201: TournamentDetailOutput, **EVENT_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.setdefault("starts_on", timezone.localdate())
        tournament = tournament_create(league=league, user=request.user, **data)
        return tournament_output(request, tournament, code=status.HTTP_201_CREATED)


class LeagueAuditEntrySerializer(AuditEntrySerializer):
    action = serializers.CharField(
        help_text="season_created, season_changed, season_deleted, league_staff_added, "
        "league_staff_removed."
    )
    round = serializers.IntegerField(allow_null=True, help_text="Always null for a league.")

    class Meta:
        ref_name = "LeagueAuditEntry"


class LeagueAuditApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["leagues"],
        summary="The league's audit log (seasons, league staff), oldest first (organizers)",
        responses={
            200: LeagueAuditEntrySerializer(many=True),
            401: EVENT_ERRORS[401],
            403: EVENT_ERRORS[403],
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        entries = league_audit(league=league, user=request.user)
        return Response(LeagueAuditEntrySerializer(entries, many=True).data)
