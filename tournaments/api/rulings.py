"""Rulings API (issue 12): ``GET /api/games/<id>/knock-preview?by=P``,
``POST /api/games/<id>/rulings``, ``GET /api/tournaments/<id>/rulings``.

Thin views over :mod:`tournaments.selectors.rulings` and
:func:`tournaments.services.rulings.knock_ruling_record`. Preview and ruling: the
tournament's organizers and referees (and superusers); anonymous callers get 401, other
users 403, a game they may not see 404. The rulings list: whoever sees the tournament.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import NOT_FOUND, WRITE_ERRORS, ApiView
from tournaments.api.serializers import ErrorSerializer, StaleSequenceErrorSerializer
from tournaments.selectors import tournament_get_visible
from tournaments.selectors.rulings import knock_preview_for, ruling_row, tournament_rulings
from tournaments.services.rulings import MAX_NOTE, knock_ruling_record


class PenaltyMoveSerializer(serializers.Serializer):
    card = serializers.IntegerField(help_text="The card (1-21) that moves.")
    # "from" is a Python keyword: declared below under its JSON name
    to = serializers.CharField(help_text="Who receives it, under their own discard.")

    class Meta:
        ref_name = "PenaltyMove"


PenaltyMoveSerializer._declared_fields["from"] = serializers.CharField(
    help_text="Whose discard gives its bottom card."
)


class KnockPreviewSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(choices=["correct", "incorrect", "invalid"])
    against = serializers.CharField(
        allow_null=True, help_text="The player whose turn is judged (null when invalid)."
    )
    code = serializers.CharField(help_text="The engine's reason code (see docs/api.md).")
    params = serializers.DictField(help_text="The reason's parameters.")
    explanation = serializers.CharField(help_text="The reason in the request's language.")
    sentence = serializers.CharField(help_text="The engine's English sentence.")
    penalty = PenaltyMoveSerializer(many=True, help_text="The cards that move, in order.")
    goes_out = serializers.ListField(
        child=serializers.CharField(), help_text="Players the penalty puts out, in order."
    )
    sequence = serializers.IntegerField(
        help_text="The log's length the preview was made on; rule with sequence + 1."
    )

    class Meta:
        ref_name = "KnockPreview"


class RulingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()
    referee = serializers.CharField()
    sequence = serializers.IntegerField(
        help_text="The ruling's event in the log: a `tock`, or a `correction`; 0: no event "
        "(a knock judged from the table's position, a placements-only correction)."
    )
    judged_from = serializers.ChoiceField(
        choices=["log", "position"],
        help_text="What a knock was judged on: the recorded log, or the table's position "
        "entered by the referee at a game nobody recorded (then `position`).",
    )
    position = serializers.DictField(
        allow_null=True,
        help_text="The position judged: center tops, each discard (top, bottom cards, "
        "count), face-down counts, table, whose move and the move.",
    )
    knocker = serializers.CharField()
    against = serializers.CharField()
    engine_verdict = serializers.CharField(
        allow_null=True, help_text="Hidden (null) from the public while the game runs."
    )
    engine_code = serializers.CharField(allow_null=True)
    ruling = serializers.ChoiceField(
        choices=[
            "confirm",
            "correct",
            "incorrect",
            "correction",
            "proposal_ok",
            "proposal_replaced",
            "proposal_rejected",
        ],
        help_text="`proposal_ok`, `proposal_replaced`, `proposal_rejected`: a referee's "
        "decision on a scorekeeper's proposed result (see `proposal`).",
    )
    applied = serializers.ChoiceField(
        choices=[
            "correct",
            "incorrect",
            "correction",
            "proposal_ok",
            "proposal_replaced",
            "proposal_rejected",
        ]
    )
    note = serializers.CharField(allow_blank=True)
    override = serializers.BooleanField(help_text="The ruling differs from the engine's verdict.")
    withdrawn_by = serializers.IntegerField(
        allow_null=True,
        help_text="The `undo` line that withdrew the ruling's event: the ruling no longer "
        "applies (the record stays, as the line stays in the log); null otherwise.",
    )
    correction = serializers.BooleanField(
        help_text="A correction of the result after the end (a `correction` event): no "
        "knock, no engine verdict; `placements` replaced `previous_placements`."
    )
    placements = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="A correction's new placements (player -> place); null for a knock.",
    )
    previous_placements = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The placements a correction replaced (a decision on a proposed result: "
        "the proposal's); null for a knock.",
    )
    proposal = serializers.BooleanField(
        help_text="A decision on a proposed result: `placements` were recorded as the "
        "result (null when only rejected), `previous_placements` were proposed."
    )

    class Meta:
        ref_name = "Ruling"


REFEREE_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Missing or malformed `by`."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not a referee or organizer here."),
    404: NOT_FOUND,
}


class KnockPreviewApi(ApiView):
    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer):
        by = serializers.CharField(max_length=64, help_text="The player who knocks.")

        class Meta:
            ref_name = "KnockPreviewQuery"

    @extend_schema(
        tags=["games"],
        summary="The engine's verdict on a knock made now, with its penalty (stores nothing)",
        parameters=[
            OpenApiParameter("by", OpenApiTypes.STR, OpenApiParameter.QUERY, required=True)
        ],
        responses={
            200: KnockPreviewSerializer,
            **REFEREE_ERRORS,
            404: OpenApiResponse(
                ErrorSerializer,
                description="Unknown, not visible to you, or a kind without knocks (not TOCK).",
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = self.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        preview = knock_preview_for(
            game_id=game_id, by=query.validated_data["by"], user=request.user
        )
        return Response(KnockPreviewSerializer(preview).data)


class GameRulingsApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        by = serializers.CharField(max_length=64, help_text="The player who knocked.")
        ruling = serializers.ChoiceField(
            choices=["confirm", "correct", "incorrect"],
            help_text="`confirm` applies the engine's verdict; the others override it.",
        )
        note = serializers.CharField(
            max_length=MAX_NOTE,
            required=False,
            allow_blank=True,
            default="",
            help_text="Required when the ruling differs from the engine's verdict.",
        )
        sequence = serializers.IntegerField(
            min_value=1, help_text="The sequence number to write: the log's length + 1."
        )

        class Meta:
            ref_name = "RulingInput"

    @extend_schema(
        tags=["games"],
        summary="Rule on a knock made now: one `tock` event with the ruling and a record",
        request=InputSerializer,
        responses={
            201: RulingSerializer,
            **WRITE_ERRORS,
            409: OpenApiResponse(
                StaleSequenceErrorSerializer,
                description="Stale sequence (another ruling or event came first), or over.",
            ),
            422: OpenApiResponse(
                ErrorSerializer, description="The engine refuses this knock (and why)."
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = knock_ruling_record(
            game=game_id,
            by=data.validated_data["by"],
            ruling=data.validated_data["ruling"],
            note=data.validated_data["note"],
            expected_sequence=data.validated_data["sequence"],
            user=request.user,
        )
        return Response(
            RulingSerializer(ruling_row(ruling=ruling)).data, status=status.HTTP_201_CREATED
        )


class TournamentRulingsApi(ApiView):
    @extend_schema(
        tags=["tournaments"],
        summary="The tournament's rulings on knocks and corrections of results, in time order",
        responses={200: RulingSerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        rows = tournament_rulings(tournament=tournament, user=request.user)
        return Response(RulingSerializer(rows, many=True).data)
