"""Results reported by the players of a table (issue 23):

* ``POST /api/games/<id>/reports`` ``{"placements": {handle: place, ...}}``: a signed-in
  player of the game reports its placements (201), or answers the open report: the
  same placements confirm it, different ones dispute it; the reporter may replace their
  pending report. Answers the report's state.
* ``GET /api/games/<id>/reports``: the state of the game's latest report (also once
  accepted), for its players and its staff.
* ``POST /api/games/<id>/reports/accept``: staff who may enter the game's placements
  accept a pending report before every player has answered.

Thin views over :mod:`tournaments.services.reports` and
:mod:`tournaments.selectors.reports` (the rules are there).
"""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import WRITE_ERRORS, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.selectors.reports import ReportState, game_report_for
from tournaments.services.reports import game_report, game_report_accept


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["pending", "accepted", "disputed", "rejected"],
        help_text="pending: waiting for players' confirmations; accepted: recorded as the "
        "result; disputed: players gave different placements, a referee decides; "
        "rejected: a referee turned it down.",
    )
    placements = serializers.DictField(
        child=serializers.IntegerField(), help_text="The reported placements (player -> place)."
    )
    agreed = serializers.ListField(
        child=serializers.CharField(), help_text="Players whose answer is these placements."
    )
    waiting = serializers.ListField(
        child=serializers.CharField(),
        help_text="Players with an account, still in the event, who have not answered.",
    )
    disputed_by = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Players who gave other placements, with theirs.",
    )
    reporter = serializers.CharField(help_text="The player who reported.")
    needed = serializers.ChoiceField(
        choices=["all", "two"],
        help_text="The tournament's rule: every player with an account (all), or the "
        "reporter and one other (two).",
    )

    class Meta:
        ref_name = "ResultReport"


def _answer(state: ReportState, code: int) -> Response:
    return Response(ReportSerializer(asdict(state)).data, status=code)


class GameReportsApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        placements = serializers.DictField(
            child=serializers.IntegerField(),
            help_text='Player handle -> place, e.g. {"ana": 1, "ben": 2, "cy": 2, "dee": 4}.',
        )

        class Meta:
            ref_name = "ResultReportInput"

    @extend_schema(
        tags=["games"],
        summary="The state of the game's latest players' report; its players and staff",
        responses={
            200: ReportSerializer,
            401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
            403: OpenApiResponse(ErrorSerializer, description="Not a player or staff here."),
            404: OpenApiResponse(
                ErrorSerializer, description="Unknown, not visible to you, or never reported."
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        return _answer(game_report_for(game_id=game_id, user=request.user), status.HTTP_200_OK)

    @extend_schema(
        tags=["games"],
        summary="A player of the game reports its placements, confirms or disputes the report",
        request=InputSerializer,
        responses={
            201: ReportSerializer,
            **WRITE_ERRORS,
            403: OpenApiResponse(ErrorSerializer, description="Not a player of this game."),
            409: OpenApiResponse(
                ErrorSerializer,
                description="The game has a result, is recorded live, or a scorekeeper's "
                "proposal is waiting.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        state = game_report(
            game=game_id, placements=data.validated_data["placements"], user=request.user
        )
        return _answer(state, status.HTTP_201_CREATED)


class GameReportAcceptApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["games"],
        summary="Staff accept a pending players' report early: it becomes the result",
        request=None,
        responses={
            200: ReportSerializer,
            **WRITE_ERRORS,
            403: OpenApiResponse(
                ErrorSerializer, description="No role for this game, or you play in it."
            ),
            404: OpenApiResponse(
                ErrorSerializer, description="Unknown, not visible to you, or no report waiting."
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="The report is disputed (a referee decides), or the game has a result.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        return _answer(game_report_accept(game=game_id, user=request.user), status.HTTP_200_OK)
