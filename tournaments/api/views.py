"""JSON API: one thin APIView per endpoint (HackSoft style).

Reads call the visibility-aware selectors (:mod:`tournaments.selectors`): what the
user may not see answers 404; the serializers render what the selectors return (plain
data for the detail endpoints, never attributes added to model objects). Writes call
the recording services (:mod:`tournaments.services.recording`) or, to run an event, the
registration and progression services (:mod:`tournaments.services`), which check the
user's role on every request and raise domain errors that
:mod:`tock_site.api_errors` maps to 4xx responses (nothing stored on any error).

Authentication: a token (``Authorization: Token <key>``, scorekeeping devices) or the
browser session (CSRF enforced). Anonymous writes get 401.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import MalformedInput
from games.selectors import BadStatePoint, game_derived_state
from games.services import MAX_LOG_BYTES
from tock_site.accounts.client import client_ip
from tock_site.accounts.lockout import lock_retry_after, lockout_message
from tock_site.accounts.throttling import ResilientScopedRateThrottle
from tournaments.api.pagination import PAGE_PARAMETERS, BoundedLimitOffsetPagination
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
    LeaderboardEntrySerializer,
    LeagueSerializer,
    PlayerSerializer,
    RatingHistoryField,
    RatingSerializer,
    RecordOutcomeSerializer,
    RejectedErrorSerializer,
    RoundSerializer,
    StaleSequenceErrorSerializer,
    StandingRowSerializer,
    TournamentSerializer,
)
from tournaments.errors import InvalidState, NotFound
from tournaments.models import (
    Registration,
    Round,
    Seeding,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.selectors import (
    LAST_EVENT,
    game_events_for,
    game_log_text_for,
    game_view_for,
    league_detail,
    league_get_visible,
    league_list,
    player_detail,
    player_list_with_ratings,
    player_summaries,
    registration_list,
    round_list,
    table_for_game,
    tournament_audit,
    tournament_get_visible,
    tournament_list_visible,
    tournament_points,
    tournament_rounds_detail,
    tournament_user_roles,
    visible_tournaments_q,
)
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.services import (
    game_record_event,
    game_record_log,
    game_record_placements,
    registration_check_in,
    registration_create_many,
    registration_drop,
    registration_no_show,
    registration_reinstate,
    round_create_next,
    round_reseat,
    round_time_up,
    tournament_create,
    tournament_finish,
    tournament_start,
    tournament_update,
)

# --------------------------------------------------------------------------- helpers


@csrf_exempt  # it changes nothing, so a POST gets the JSON 404 too, not the CSRF page
def api_not_found(request: HttpRequest) -> JsonResponse:
    """404 for any path under ``/api/`` that names no endpoint, whatever the method:
    JSON, as everywhere else."""
    return JsonResponse({"detail": _("No such API endpoint."), "code": "not_found"}, status=404)


class ApiView(APIView):
    """Token first (so that anonymous callers get 401 with ``WWW-Authenticate: Token``),
    then the browser session (which enforces CSRF on writes)."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]


def _paginated(serializer_class: type[serializers.Serializer], name: str) -> Any:
    """Schema of a LimitOffsetPagination page of ``serializer_class`` items."""
    return inline_serializer(
        name=name,
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )


def _page(
    view: APIView,
    request: Request,
    queryset: Any,
    serializer_class: Any,
    present: Callable[[list[Any]], list[Any]] | None = None,
) -> Response:
    """One page of ``queryset``; ``present`` turns the page's objects into what the
    serializer renders (e.g. a selector building plain data)."""
    paginator = BoundedLimitOffsetPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    items = present(page) if present is not None else page
    return paginator.get_paginated_response(serializer_class(items, many=True).data)


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


NOT_FOUND = OpenApiResponse(ErrorSerializer, description="Unknown, or not visible to you.")
BAD_QUERY = OpenApiResponse(ErrorSerializer, description="A malformed query parameter.")
WRITE_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Malformed input or result mismatch."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="No role for this game's tournament."),
    404: NOT_FOUND,
    415: OpenApiResponse(
        ErrorSerializer, description="A body of a type this endpoint does not read."
    ),
}

#: Input formats: today's three, and the former ``random`` (deprecated: it is stored as
#: Swiss with ``"seeding": "random"``).
FORMAT_CHOICES = [
    *TournamentFormat.choices,
    ("random", "Deprecated: Swiss with seeding random"),
]

EVENT_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Malformed input or invalid settings."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organizer of this tournament."),
    404: NOT_FOUND,
    409: OpenApiResponse(
        ErrorSerializer,
        description="Not possible in the tournament's current state; nothing changed.",
    ),
    415: OpenApiResponse(
        ErrorSerializer, description="A body of a type this endpoint does not read."
    ),
}

PAGINATED_LEAGUES = _paginated(LeagueSerializer, "PaginatedLeagueList")
PAGINATED_TOURNAMENTS = _paginated(TournamentSerializer, "PaginatedTournamentList")
PAGINATED_PLAYERS = _paginated(PlayerSerializer, "PaginatedPlayerList")

# --------------------------------------------------------------------------- auth


class LockedOut(APIException):
    """429 for a (username, address) pair locked by axes (see tock_site.accounts.lockout)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self, *, wait: int) -> None:
        # A dict detail is the body as it is: the API's error shape with its code.
        super().__init__(detail={"detail": lockout_message(), "code": "locked_out"})
        self.wait = wait  # DRF's handler turns it into Retry-After


@extend_schema(
    tags=["auth"],
    summary="Obtain an API token with username and password",
    responses={
        200: inline_serializer(name="AuthTokenResponse", fields={"token": serializers.CharField()}),
        400: OpenApiResponse(ErrorSerializer, description="Missing or wrong credentials."),
        429: OpenApiResponse(
            ErrorSerializer,
            description=(
                "Too many attempts from this address (code `throttled`), or this account "
                "is locked for this address after repeated wrong passwords (code "
                "`locked_out`, at most 15 minutes); see Retry-After."
            ),
        ),
    },
)
class TokenObtainApi(ObtainAuthToken):
    """``{"username": ..., "password": ...}`` -> ``{"token": ...}`` (for scorekeeping
    devices: send ``Authorization: Token <token>``)."""

    authentication_classes: list[Any] = []  # credentials are in the body; no CSRF needed
    renderer_classes = [JSONRenderer]
    # Password guessing: a few tries a minute per client address (429 beyond), the
    # address as configured (TRUSTED_PROXIES); open while the cache is unreachable.
    throttle_classes = [ResilientScopedRateThrottle]
    throttle_scope = "auth-token"

    class InputSerializer(serializers.Serializer):
        # DRF's AuthTokenSerializer authenticates in validate() with the DRF request,
        # which axes cannot flag: only the fields here, the check in post().
        username = serializers.CharField(label=gettext_lazy("Username"), write_only=True)
        password = serializers.CharField(
            label=gettext_lazy("Password"),
            style={"input_type": "password"},
            trim_whitespace=False,
            write_only=True,
        )

        class Meta:
            ref_name = "AuthToken"

    serializer_class = InputSerializer

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # The password check goes through the login lock (axes) with the Django request,
        # like the login forms: a locked (username, address) pair gets 429 even with the
        # right password.
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(
            request=django_request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if getattr(django_request, "axes_locked_out", False):
            raise LockedOut(
                wait=lock_retry_after(
                    username=serializer.validated_data["username"],
                    ip_address=client_ip(django_request),
                )
            )
        if user is None:
            raise serializers.ValidationError(
                _("Unable to log in with provided credentials."), code="authorization"
            )
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class TournamentDetailOutput(TournamentSerializer):
    points_per_place = serializers.ListField(child=serializers.FloatField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    your_roles = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "TournamentDetail"


# --------------------------------------------------------------------------- leagues


class LeagueListApi(ApiView):
    @extend_schema(
        tags=["leagues"],
        summary="Leagues you may see",
        operation_id="leagues_list",
        parameters=PAGE_PARAMETERS,
        responses=PAGINATED_LEAGUES,
    )
    def get(self, request: Request) -> Response:
        return _page(self, request, league_list(user=request.user), LeagueSerializer)


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
        return _page(self, request, tournaments, TournamentSerializer)

    class InputSerializer(serializers.Serializer):
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
        return TournamentDetailApi._output(request, tournament, code=status.HTTP_201_CREATED)


# --------------------------------------------------------------------------- tournaments


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
        return _page(self, request, tournaments, TournamentSerializer)


class TournamentDetailApi(ApiView):
    OutputSerializer = TournamentDetailOutput

    class InputSerializer(serializers.Serializer):
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

    @staticmethod
    def _output(request: Request, tournament: Tournament, code: int = 200) -> Response:
        # The shared tournament output plus the detail's fields (the schema: OutputSerializer).
        data = dict(TournamentSerializer(tournament).data)
        data["points_per_place"] = tournament_points(tournament)
        data["tiebreaks"] = list(tournament.tiebreaks or [])
        data["your_roles"] = tournament_user_roles(tournament=tournament, user=request.user)
        return Response(data, status=code)

    @extend_schema(
        tags=["tournaments"],
        summary="A tournament's settings (and your roles in it)",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        return self._output(request, tournament)

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
        return self._output(request, tournament)


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
        return Response(StandingRowSerializer(rows, many=True).data)


class TournamentRoundsApi(ApiView):
    @extend_schema(
        tags=["tournaments"],
        summary="Rounds (newest first) with tables, seats and their games",
        responses={200: RoundSerializer(many=True), 404: NOT_FOUND},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        rounds = tournament_rounds_detail(tournament=tournament, user=request.user)
        return Response(RoundSerializer(rounds, many=True).data)


# --------------------------------------------------------------------------- players


class PlayerListApi(ApiView):
    class FilterSerializer(serializers.Serializer):
        q = serializers.CharField(
            required=False, allow_blank=True, help_text="Part of a handle or name."
        )

        class Meta:
            ref_name = "PlayerFilter"

    @extend_schema(
        tags=["players"],
        summary="Players with their ratings",
        operation_id="players_list",
        parameters=[FilterSerializer, *PAGE_PARAMETERS],
        responses={200: PAGINATED_PLAYERS, 400: BAD_QUERY},
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = player_list_with_ratings(
            search=filters.validated_data.get("q"), user=request.user
        )
        return _page(
            self,
            request,
            players,
            PlayerSerializer,
            present=lambda page: player_summaries(players=page),
        )


class PlayerDetailApi(ApiView):
    class OutputSerializer(serializers.Serializer):
        handle = serializers.SlugField()
        display_name = serializers.CharField()
        ratings = RatingSerializer(many=True)
        history = RatingHistoryField(
            child=serializers.ListField(child=serializers.DictField()),
            help_text="Game kind -> rating changes in order (game_id, before, after, "
            "game_finished_at).",
        )

        class Meta:
            ref_name = "PlayerDetail"

    @extend_schema(
        tags=["players"],
        summary="A player: rating per game kind (provisional flag) and rating history",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, handle: str) -> Response:
        return Response(self.OutputSerializer(player_detail(handle=handle, user=request.user)).data)


# --------------------------------------------------------------------------- games


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
        sequence = serializers.IntegerField(
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


# --------------------------------------------------------------------------- running an event
#
# Organizer actions over the progression and registration services. Every view finds the
# tournament (or round) as the user may see it (404 otherwise), validates the body, and
# calls one service, which checks the role (403) and the state (409) under its locks;
# anonymous callers are refused with 401 before anything (IsAuthenticatedOrReadOnly).


class RegistrationSerializer(serializers.Serializer):
    handle = serializers.SlugField(source="player.handle")
    display_name = serializers.CharField(source="player.display_name")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()

    class Meta:
        ref_name = "Registration"


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


def _round_output(*, rnd: Round, user: Any, code: int = 200) -> Response:
    """The round as ``GET /api/tournaments/<id>/rounds`` shows it (names masked as the
    user may see them)."""
    rounds = tournament_rounds_detail(tournament=rnd.tournament, user=user)
    shown = next(r for r in rounds if r.pk == rnd.pk)
    return Response(RoundSerializer(shown).data, status=code)


def _round_get_visible(*, round_id: int, user: Any) -> Round:
    """The round if the user may see its tournament, else 404."""
    rnd = (
        Round.objects.select_related("tournament__league")
        .filter(visible_tournaments_q(user=user, prefix="tournament__"), pk=round_id)
        .first()
    )
    if rnd is None:
        raise NotFound()
    return rnd


def _registration_get(*, tournament: Tournament, handle: str) -> Registration:
    registration = registration_list(tournament=tournament).filter(player__handle=handle).first()
    if registration is None:
        raise NotFound()
    return registration


class TournamentPlayersApi(ApiView):
    class InputSerializer(serializers.Serializer):
        handles = serializers.ListField(
            child=serializers.SlugField(max_length=40), min_length=1, max_length=1000
        )
        create = serializers.BooleanField(
            default=False, help_text="Create players for handles that are not known yet."
        )

        class Meta:
            ref_name = "RegisterPlayersInput"

    class OutputSerializer(serializers.Serializer):
        registered = RegistrationSerializer(many=True)
        created = serializers.ListField(
            child=serializers.SlugField(), help_text="Handles of the players created."
        )

        class Meta:
            ref_name = "RegisterPlayersOutput"

    @extend_schema(
        tags=["events"],
        summary="Register players by handle (organizers), all or nothing",
        description=(
            "Registering again is harmless (and un-drops a dropped player). Unknown handles "
            "answer 400 naming them unless `create` is true, in which case they become new "
            "players. On any error nobody is registered or created."
        ),
        request=InputSerializer,
        responses={201: OutputSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        batch = registration_create_many(
            tournament=tournament,
            user=request.user,
            entries=[(h, None) for h in serializer.validated_data["handles"]],
            create=serializer.validated_data["create"],
        )
        data = {"registered": batch.registered, "created": batch.created}
        return Response(self.OutputSerializer(data).data, status=status.HTTP_201_CREATED)


class _RegistrationActionApi(ApiView):
    """POST ``/api/tournaments/<id>/players/<handle>/<action>``."""

    def _registration(self, request: Request, tournament_id: int, handle: str) -> Registration:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        return _registration_get(tournament=tournament, handle=handle)


class PlayerCheckInApi(_RegistrationActionApi):
    @extend_schema(
        tags=["events"],
        summary="Check a registered player in (organizers); idempotent",
        request=None,
        responses={200: RegistrationSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        registration = self._registration(request, tournament_id, handle)
        registration = registration_check_in(registration=registration, user=request.user)
        return Response(RegistrationSerializer(registration).data)


class PlayerDropApi(_RegistrationActionApi):
    @extend_schema(
        tags=["events"],
        summary="Drop a player from later rounds (organizers, or the player); results stay",
        request=None,
        responses={200: RegistrationSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        registration = self._registration(request, tournament_id, handle)
        registration = registration_drop(registration=registration, user=request.user)
        return Response(RegistrationSerializer(registration).data)


class PlayerReinstateApi(_RegistrationActionApi):
    @extend_schema(
        tags=["events"],
        summary="Undo a drop (organizers): the player is seated again from the next round",
        request=None,
        responses={200: RegistrationSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        registration = self._registration(request, tournament_id, handle)
        registration = registration_reinstate(registration=registration, user=request.user)
        return Response(RegistrationSerializer(registration).data)


class PlayerNoShowApi(_RegistrationActionApi):
    class OutputSerializer(serializers.Serializer):
        handle = serializers.SlugField(source="player.handle")
        round = serializers.IntegerField(source="round.number")
        table = serializers.IntegerField(source="table.number")

        class Meta:
            ref_name = "NoShow"

    @extend_schema(
        tags=["events"],
        summary="Mark a seated player absent in the current round (organizers)",
        description=(
            "Before the game's first event: the game goes on without the player, one "
            "short (a single player left gets a bye). 409 when there is no running round, "
            "the player is not seated in it, or the game has started."
        ),
        request=None,
        responses={200: OutputSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        registration = self._registration(request, tournament_id, handle)
        current = round_list(tournament=registration.tournament).last()
        if current is None:
            ensure_can_manage_tournament(user=request.user, tournament=registration.tournament)
            raise InvalidState(_("The round is not running."))
        no_show = registration_no_show(registration=registration, round=current, user=request.user)
        return Response(self.OutputSerializer(no_show).data)


class TournamentStartApi(ApiView):
    @extend_schema(
        tags=["events"],
        summary="Start the tournament: seat round 1 (organizers)",
        description=(
            "Seats the checked-in players. 409 with nothing changed: started already, over, "
            "too few checked-in players, or a count the table sizes cannot seat."
        ),
        request=None,
        responses={201: RoundSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        rnd = tournament_start(tournament=tournament, user=request.user)
        return _round_output(rnd=rnd, user=request.user, code=status.HTTP_201_CREATED)


class TournamentNextRoundApi(ApiView):
    @extend_schema(
        tags=["events"],
        summary="Seat the next round by hand (organizers; manual progression)",
        description=(
            "The next Swiss round, the elimination stage after the cut, or the next "
            "elimination round. 409: the last round is not finished, all rounds were "
            "played, or the tournament is over."
        ),
        request=None,
        responses={201: RoundSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        rnd = round_create_next(tournament=tournament, user=request.user)
        return _round_output(rnd=rnd, user=request.user, code=status.HTTP_201_CREATED)


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
        return TournamentDetailApi._output(request, tournament)


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


class RoundReseatApi(ApiView):
    @extend_schema(
        tags=["events"],
        summary="Seat the last round again (organizers), while no table has an event",
        request=None,
        responses={200: RoundSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, round_id: int) -> Response:
        rnd = _round_get_visible(round_id=round_id, user=request.user)
        rnd = round_reseat(round=rnd, user=request.user)
        return _round_output(rnd=rnd, user=request.user)


class RoundTimeUpApi(ApiView):
    @extend_schema(
        tags=["events"],
        summary="End a running round whose time is up (organizers)",
        description=(
            'Unfinished games with events get `{"type": "end", "reason": "time"}` (the '
            "engine places the players); games with no event are closed without a result. "
            "The round completes; progression follows as after any last result."
        ),
        request=None,
        responses={200: RoundSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, round_id: int) -> Response:
        rnd = _round_get_visible(round_id=round_id, user=request.user)
        rnd = round_time_up(round=rnd, user=request.user)
        return _round_output(rnd=rnd, user=request.user)
