"""Proposed results API (issue 22, "No dead ends"):

* ``GET /api/games/<id>/proposal``: the game's latest proposal (pending or decided);
* ``POST /api/games/<id>/proposal``: a scorekeeper proposes placements (``201``; the
  proposer may replace their own pending proposal; anyone else gets 409 while one is
  pending);
* ``POST /api/games/<id>/proposal/confirm``: a referee or organizer confirms the pending
  proposal: its placements become the result (an ``end`` event by the referee when the
  game has a log);
* ``POST /api/games/<id>/proposal/reject``: a referee or organizer rejects it with a
  ``note``, optionally replacing it with ``placements``.

Thin views over :mod:`tournaments.services.proposals` and
:mod:`tournaments.selectors.proposals` (the rules are there). Anonymous callers get 401,
users without the role 403, a game they may not see 404.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import WRITE_ERRORS, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.selectors.proposals import game_proposal_for
from tournaments.services.proposals import (
    MAX_NOTE,
    result_proposal_confirm,
    result_proposal_reject,
    result_propose,
)


class ProposalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "disputed", "confirmed", "rejected"])
    placements = serializers.DictField(
        child=serializers.IntegerField(), help_text="The proposed placements (player -> place)."
    )
    sequence = serializers.IntegerField(help_text="The log's length when it was proposed.")
    proposed_by = serializers.CharField(help_text="The proposer's username (empty: unknown).")
    created_at = serializers.DateTimeField()
    decided_by = serializers.CharField(help_text="Who decided it (empty: nobody yet).")
    decided_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField(allow_blank=True, help_text="A rejection's note.")

    class Meta:
        ref_name = "ResultProposal"


DECIDE_ERRORS = {
    **WRITE_ERRORS,
    403: OpenApiResponse(
        ErrorSerializer,
        description="Not a referee or organizer here, or you play in this game.",
    ),
    404: OpenApiResponse(
        ErrorSerializer, description="Unknown, not visible to you, or no proposal waiting."
    ),
    409: OpenApiResponse(ErrorSerializer, description="The game has a result already."),
    422: OpenApiResponse(
        ErrorSerializer,
        description="The engine refuses these placements for the position (e.g. TOCK: a "
        "player who went out keeps their place).",
    ),
}


def _proposal_response(*, game_id: int, user: object, code: int) -> Response:
    row = game_proposal_for(game_id=game_id, user=user)
    return Response(ProposalSerializer(row).data, status=code)


class GameProposalApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        placements = serializers.DictField(
            child=serializers.IntegerField(),
            help_text='Player handle -> place, e.g. {"ana": 1, "ben": 2, "cy": 2, "dee": 4}.',
        )

        class Meta:
            ref_name = "ResultProposalInput"

    @extend_schema(
        tags=["games"],
        summary="The game's latest proposed result (pending or decided); game staff",
        responses={
            200: ProposalSerializer,
            401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
            403: OpenApiResponse(ErrorSerializer, description="No role for this game."),
            404: OpenApiResponse(
                ErrorSerializer, description="Unknown, not visible to you, or never proposed."
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        return _proposal_response(game_id=game_id, user=request.user, code=status.HTTP_200_OK)

    @extend_schema(
        tags=["games"],
        summary="Stop live scoring: propose placements for a referee to confirm",
        request=InputSerializer,
        responses={
            201: ProposalSerializer,
            **WRITE_ERRORS,
            409: OpenApiResponse(
                ErrorSerializer,
                description="The game has a result, or someone else's proposal is waiting.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result_propose(
            game=game_id, placements=data.validated_data["placements"], user=request.user
        )
        return _proposal_response(game_id=game_id, user=request.user, code=status.HTTP_201_CREATED)


class GameProposalConfirmApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["games"],
        summary="Confirm the pending proposed result: it becomes the game's result",
        request=None,
        responses={200: ProposalSerializer, **DECIDE_ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        result_proposal_confirm(game=game_id, user=request.user)
        return _proposal_response(game_id=game_id, user=request.user, code=status.HTTP_200_OK)


class GameProposalRejectApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=MAX_NOTE, help_text="Why (required).")
        placements = serializers.DictField(
            child=serializers.IntegerField(),
            required=False,
            allow_null=True,
            help_text="The referee's placements replacing the proposal (recorded as the "
            "result); omit to reject only.",
        )

        class Meta:
            ref_name = "ResultProposalRejectInput"

    @extend_schema(
        tags=["games"],
        summary="Reject the pending proposed result, optionally replacing its placements",
        request=InputSerializer,
        responses={200: ProposalSerializer, **DECIDE_ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result_proposal_reject(
            game=game_id,
            note=data.validated_data["note"],
            placements=data.validated_data.get("placements"),
            user=request.user,
        )
        return _proposal_response(game_id=game_id, user=request.user, code=status.HTTP_200_OK)
