"""JSON API: games (``/api/games/<id>...``): state, events, log, placements."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import MalformedInput
from games.selectors import BadStatePoint, game_derived_state
from games.services import MAX_LOG_BYTES
from tournaments.api.base import BAD_QUERY, NOT_FOUND, WRITE_ERRORS, ApiView
from tournaments.api.fields import StrictIntegerField
from tournaments.api.parsers import (
    JSONLinesParser,
    JSONLinesRenderer,
    JSONLLogParser,
    PlainTextLogParser,
    SafeJSONParser,
)
from tournaments.api.serializers import (
    ErrorSerializer,
    EventRecordOutcomeSerializer,
    EventSerializer,
    GameStateSerializer,
    RecordOutcomeSerializer,
    RejectedErrorSerializer,
    StaleSequenceErrorSerializer,
)
from tournaments.selectors import (
    LAST_EVENT,
    game_events_for,
    game_log_text_for,
    game_view_for,
    table_for_game,
)
from tournaments.services import game_record_event, game_record_log, game_record_placements


def _game_payload(*, game: Any, table: Any, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's derived state and table. ``state``: the state as the visitor may see
    it (:func:`~tournaments.selectors.game_view_for`); default: the full derived state
    (for whoever just recorded the game, who may see it all)."""
    return {**(state if state is not None else game_derived_state(game=game)), "table": table}


def _record_response(*, outcome: Any, created: bool) -> Response:
    # The service returns the game as it stored it (no second read); whoever may record a
    # game's result may also see it, so there is no visibility check to repeat.
    data = {
        "events_added": outcome.events_added,
        "result_changed": outcome.result_changed,
        "game": _game_payload(game=outcome.game, table=table_for_game(game=outcome.game)),
    }
    return Response(
        RecordOutcomeSerializer(data).data,
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
    )


class GameDetailApi(ApiView):
    @extend_schema(
        tags=["games"],
        summary="A game: status, result, verified flag and derived state (from the cache)",
        responses={200: GameStateSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: int) -> Response:
        shown = game_view_for(user=request.user, game_id=game_id)
        payload = _game_payload(game=shown.game, table=shown.table, state=shown.state)
        return Response(GameStateSerializer(payload).data)


class GameStateApi(ApiView):
    @extend_schema(
        tags=["games"],
        summary="The engine's state after event N (replay viewer)",
        description=(
            "Exactly the object `python -m games.engine replay --json` prints for the "
            "game's log cut after its N-th line (`at`, from 1 to the number of events; "
            "default: the last). While the game is in progress, visitors who are not staff "
            "of its tournament get the public view (TOCK: without the infractions nobody "
            "has knocked on). Hidden players appear under their neutral names."
        ),
        parameters=[
            OpenApiParameter(
                "at",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                required=False,
                description="Event number, 1 to the game's `sequence` (default: the last).",
            )
        ],
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The engine's summary."),
            400: OpenApiResponse(
                ErrorSerializer, description="`at` is not an event of the log, or no log."
            ),
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        at = request.query_params.get("at") or LAST_EVENT  # absent: the last (400 without a log)
        try:
            shown = game_view_for(user=request.user, game_id=game_id, at=at)
        except BadStatePoint as exc:
            return Response({"detail": str(exc), "code": "bad_event_number"}, status=400)
        return Response(shown.summary)


class GameEventsApi(ApiView):
    class FilterSerializer(serializers.Serializer):
        after = serializers.IntegerField(
            required=False, min_value=0, default=0, help_text="Only events after this sequence."
        )

        class Meta:
            ref_name = "GameEventsFilter"

    class OutputSerializer(serializers.Serializer):
        game = serializers.IntegerField()
        sequence = serializers.IntegerField(help_text="Number of events in the log.")
        events = EventSerializer(many=True)

        class Meta:
            ref_name = "GameEventList"

    class InputSerializer(serializers.Serializer):
        event = serializers.DictField(help_text="One event object (see the engine's log format).")
        sequence = StrictIntegerField(
            min_value=1, help_text="The sequence number to write: the log's length + 1."
        )

        class Meta:
            ref_name = "GameEventAppend"

    @extend_schema(
        tags=["games"],
        summary="The game's events (optionally only those after a sequence number)",
        parameters=[FilterSerializer],
        responses={200: OutputSerializer, 400: BAD_QUERY, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game, events = game_events_for(
            game_id=game_id, user=request.user, after=filters.validated_data["after"]
        )
        data = {"game": game.pk, "sequence": game.last_sequence, "events": events}
        return Response(self.OutputSerializer(data).data)

    @extend_schema(
        tags=["games"],
        summary="Append one event (live scorekeeping)",
        description=(
            "The engine validates the event against the game so far. Illegal: 422 with the "
            "engine's one-line reason. Another client wrote first (stale `sequence`): 409 "
            "with `current_sequence`. Nothing is stored on any error. Ending a game by "
            "adjudication or recording a ruling needs a referee or organizer.\n\n"
            "After the end the only event accepted is a `correction` (referees and "
            'organizers; any game kind): `{"type": "correction", "referee": R, '
            '"placements": {player: place, ...}, "note": "why"}` replaces the result '
            "(standings and ratings follow; the last correction wins) and is listed on the "
            "tournament's rulings. While the game is in progress it is refused (422).\n\n"
            "`Idempotency-Key` (optional, 1-100 visible ASCII characters, e.g. a UUID; "
            "else 400): stored with the event. A retry with the key of a stored event and "
            "the same body answers **200** with that event (`replayed: true`) and stores "
            "nothing; the key with another body answers 422 `idempotency_key_reused`."
        ),
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description=(
                    "A key of the client's choosing (1-100 visible ASCII characters), new "
                    "for each new event and the same for each retry of it."
                ),
            )
        ],
        request=InputSerializer,
        responses={
            201: EventRecordOutcomeSerializer,
            200: OpenApiResponse(
                EventRecordOutcomeSerializer,
                description="A retry (same Idempotency-Key and body): the stored event.",
            ),
            **WRITE_ERRORS,
            409: OpenApiResponse(
                StaleSequenceErrorSerializer,
                description="Stale sequence, or game over (anything but a `correction`).",
            ),
            422: OpenApiResponse(
                RejectedErrorSerializer,
                description="Illegal event, or an Idempotency-Key used for another event.",
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = game_record_event(
            game=game_id,
            event=serializer.validated_data["event"],
            expected_sequence=serializer.validated_data["sequence"],
            user=request.user,
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        data = {
            "events_added": outcome.events_added,
            "result_changed": outcome.result_changed,
            "game": _game_payload(game=outcome.game, table=table_for_game(game=outcome.game)),
            "event": outcome.event,
            "replayed": outcome.replayed,
        }
        return Response(
            EventRecordOutcomeSerializer(data).data,
            status=status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED,
        )


class GameLogApi(ApiView):
    """GET the log as JSON Lines; POST a whole log (validated completely, all or nothing)."""

    parser_classes = [
        SafeJSONParser,
        JSONLinesParser,
        PlainTextLogParser,
        JSONLLogParser,
        MultiPartParser,
        FormParser,
    ]
    renderer_classes = [JSONRenderer, JSONLinesRenderer]

    class InputSerializer(serializers.Serializer):
        log = serializers.JSONField(
            help_text="The log as JSON Lines text, or a list of event objects."
        )

        class Meta:
            ref_name = "GameLogUpload"

        def validate_log(self, value: Any) -> Any:
            if not isinstance(value, str | list):
                raise serializers.ValidationError(
                    _("Expected JSON Lines text or a list of event objects.")
                )
            return value

    class FileSerializer(serializers.Serializer):
        file = serializers.FileField(help_text="A JSON Lines file.")

        class Meta:
            ref_name = "GameLogFile"

    @extend_schema(
        tags=["games"],
        summary="The game's log as JSON Lines",
        responses={(200, "application/x-ndjson"): OpenApiTypes.STR, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return HttpResponse(
            game_log_text_for(game_id=game_id, user=request.user),
            content_type="application/x-ndjson; charset=utf-8",
        )

    def _log_from_request(self, request: Request) -> Any:
        if isinstance(request.data, str):
            return request.data
        upload = request.FILES.get("file") or request.FILES.get("log")
        if upload is not None:
            if upload.size > MAX_LOG_BYTES:
                raise MalformedInput(_("The log is too large."))
            return upload.read()
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data["log"]

    @extend_schema(
        tags=["games"],
        summary="Upload a whole log (JSON Lines), all or nothing",
        description=(
            "Send the log as a `text/plain` or `application/x-ndjson` body, as a multipart "
            '`file`, or as JSON `{"log": "..."}`. It is parsed and replayed completely '
            "before anything is stored; a bad line answers 422 naming the line (`line`). "
            "Its players must be the seated players in seat order (400). A log that "
            "completes the events already recorded is accepted; one that contradicts them "
            "answers 409."
        ),
        request={
            "application/json": InputSerializer,
            "application/x-ndjson": OpenApiTypes.STR,
            "text/plain": OpenApiTypes.STR,
            "multipart/form-data": FileSerializer,
        },
        responses={
            201: RecordOutcomeSerializer,
            200: RecordOutcomeSerializer,
            **WRITE_ERRORS,
            409: OpenApiResponse(ErrorSerializer, description="Conflicts with recorded events."),
            422: OpenApiResponse(RejectedErrorSerializer, description="A bad line."),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        log = self._log_from_request(request)
        outcome = game_record_log(game=game_id, log=log, user=request.user)
        return _record_response(outcome=outcome, created=outcome.events_added > 0)


class GamePlacementsApi(ApiView):
    class InputSerializer(serializers.Serializer):
        placements = serializers.DictField(
            child=serializers.IntegerField(),
            help_text='Player handle -> place, e.g. {"ana": 1, "ben": 2, "cy": 2, "dee": 4}.',
        )

        class Meta:
            ref_name = "GamePlacementsInput"

    @extend_schema(
        tags=["games"],
        summary="Enter placements only (unverified result) for a game without a log",
        request=InputSerializer,
        responses={
            200: RecordOutcomeSerializer,
            **WRITE_ERRORS,
            409: OpenApiResponse(ErrorSerializer, description="The game has a log."),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = game_record_placements(
            game=game_id, placements=serializer.validated_data["placements"], user=request.user
        )
        return _record_response(outcome=outcome, created=False)
