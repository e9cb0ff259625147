"""JSON API: a league's seasons and the season table (issue 24).

* ``GET /api/leagues/<slug>/seasons``: the seasons, earliest first;
* ``POST /api/leagues/<slug>/seasons`` ``{"name", "starts_on", "ends_on",
  "season_points"?, "best_of"?}``: a new season (the league's organizers; 201 with its
  ``id``); overlapping seasons are refused with 409 ``invalid_state``;
* ``GET /api/leagues/<slug>/standings?season=<id>``: the season table (without
  ``season``: the season that contains today, else the latest that has started).

Thin views over :mod:`tournaments.services.seasons` and
:mod:`tournaments.selectors.seasons`.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, NOT_FOUND, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.errors import NotFound
from tournaments.selectors import league_get_visible
from tournaments.selectors.seasons import (
    SeasonStanding,
    league_seasons,
    season_current,
    season_get,
    season_standings,
)
from tournaments.services.seasons import season_create


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    season_points = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Season points by final rank in a tournament (1st, 2nd, ...); 0 beyond.",
    )
    best_of = serializers.IntegerField(
        allow_null=True, help_text="Only a player's N best tournaments count; null: all."
    )

    class Meta:
        ref_name = "Season"


class SeasonResultSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="The player's final rank in that tournament.")
    points = serializers.FloatField(help_text="The season points it gave.")
    counted = serializers.BooleanField(help_text="Among the player's best N (best_of).")


class SeasonRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    handle = serializers.CharField(source="player")
    name = serializers.CharField()
    points = serializers.FloatField()
    events = serializers.IntegerField(help_text="Tournaments counted.")
    played = serializers.IntegerField(help_text="Tournaments played in the season.")
    results = SeasonResultSerializer(many=True)


class SeasonStandingsSerializer(serializers.Serializer):
    season = SeasonSerializer()
    rows = SeasonRowSerializer(many=True)

    class Meta:
        ref_name = "SeasonStandings"


class LeagueSeasonsApi(ApiView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        starts_on = serializers.DateField()
        ends_on = serializers.DateField()
        season_points = serializers.ListField(
            child=serializers.FloatField(min_value=0),
            min_length=1,
            max_length=100,
            required=False,
            help_text="Default [25, 18, 15, 12, 10, 8, 6, 4, 2, 1].",
        )
        best_of = serializers.IntegerField(
            min_value=1, max_value=100, required=False, allow_null=True
        )

        class Meta:
            ref_name = "SeasonInput"

    @extend_schema(
        tags=["leagues"],
        summary="The league's seasons",
        operation_id="leagues_seasons_list",
        responses={200: SeasonSerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        return Response(SeasonSerializer(league_seasons(league=league), many=True).data)

    @extend_schema(
        tags=["leagues"],
        summary="A new season (the league's organizers)",
        request=InputSerializer,
        responses={
            201: SeasonSerializer,
            **EVENT_ERRORS,
            403: OpenApiResponse(ErrorSerializer, description="Not an organizer of the league."),
            409: OpenApiResponse(
                ErrorSerializer, description="The season overlaps another (invalid_state)."
            ),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_create(league=league, user=request.user, **data.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


def season_answer(standing: SeasonStanding) -> dict:
    return SeasonStandingsSerializer(standing).data


class LeagueStandingsApi(ApiView):
    @extend_schema(
        tags=["leagues"],
        summary="A season's table (default: the current season)",
        parameters=[
            OpenApiParameter(
                "season",
                int,
                required=False,
                description="A season's id; default: the season containing today, else "
                "the latest that has started.",
            )
        ],
        responses={200: SeasonStandingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        wanted = request.query_params.get("season")
        season = (
            season_get(league=league, season_id=wanted) if wanted else season_current(league=league)
        )
        if season is None:
            raise NotFound()
        return Response(season_answer(season_standings(season=season, user=request.user)))
