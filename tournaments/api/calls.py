"""Referee calls (issue 23): ``POST /api/games/<id>/calls`` (a player of the game or its
staff; ``{"reason"}`` optional; 201 with the call, or the table's open call again),
``GET /api/tournaments/<id>/calls?status=open|all`` (the tournament's referees and
organizers), ``POST /api/calls/<id>/claim`` and ``POST /api/calls/<id>/close``
(``{"ruling": id}`` optional). Thin views over :mod:`tournaments.services.calls`."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, NOT_FOUND, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.models import RefereeCall
from tournaments.permissions import ensure_can_referee_tournament
from tournaments.selectors import tournament_get_visible
from tournaments.selectors.calls import call_row, tournament_calls
from tournaments.services.calls import (
    MAX_REASON,
    referee_call,
    referee_call_claim,
    referee_call_close,
)


class CallSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=["open", "claimed", "closed"])
    called_by = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    waited_seconds = serializers.IntegerField(help_text="From the call to its claim (or now).")
    claimed_by = serializers.CharField(allow_blank=True)
    claimed_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "RefereeCall"


def _one(call: RefereeCall) -> dict:
    return CallSerializer(asdict(call_row(call=call))).data


class GameCallsApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=MAX_REASON, required=False, allow_blank=True)

        class Meta:
            ref_name = "RefereeCallInput"

    @extend_schema(
        tags=["games"],
        summary="Call a referee to this table (its players and staff)",
        request=InputSerializer,
        responses={201: CallSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        call = referee_call(
            game=game_id, user=request.user, reason=data.validated_data.get("reason", "")
        )
        return Response(_one(call), status=status.HTTP_201_CREATED)


class TournamentCallsApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["events"],
        summary="The tournament's referee calls, oldest first (referees and organizers)",
        parameters=[
            OpenApiParameter("status", str, enum=["open", "all"], required=False),
        ],
        responses={
            200: CallSerializer(many=True),
            401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
            403: OpenApiResponse(ErrorSerializer, description="Not a referee here."),
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        ensure_can_referee_tournament(user=request.user, tournament=tournament)
        wanted = "all" if request.query_params.get("status") == "all" else "open"
        rows = tournament_calls(tournament=tournament, status=wanted)
        return Response(CallSerializer([asdict(r) for r in rows], many=True).data)


class CallClaimApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["events"],
        summary="A referee is on the way",
        request=None,
        responses={200: CallSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, call_id: int) -> Response:
        return Response(_one(referee_call_claim(call=call_id, user=request.user)))


class CallCloseApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        ruling = serializers.IntegerField(required=False, allow_null=True)

        class Meta:
            ref_name = "RefereeCallCloseInput"

    @extend_schema(
        tags=["events"],
        summary="Close the call (optionally with the ruling made there)",
        request=InputSerializer,
        responses={200: CallSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, call_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        call = referee_call_close(
            call=call_id, user=request.user, ruling=data.validated_data.get("ruling")
        )
        return Response(_one(call))
