"""JSON API: rounds: list, start (round 1), next round, reseat, time up.

Running an event: organizer actions over the progression and registration services
(here, in :mod:`tournaments.api.registrations` and :mod:`tournaments.api.tournaments`).
Every view finds the tournament (or round) as the user may see it (404 otherwise),
validates the body, and calls one service, which checks the role (403) and the state
(409) under its locks; anonymous callers are refused with 401 before anything.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, NOT_FOUND, ApiView
from tournaments.api.serializers import RoundSerializer
from tournaments.errors import NotFound
from tournaments.models import Round
from tournaments.selectors import (
    tournament_get_visible,
    tournament_rounds_detail,
    visible_tournaments_q,
)
from tournaments.selectors.seating import round_seating
from tournaments.services import round_create_next, round_reseat, round_time_up, tournament_start


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


class RoundSeatingOutput(serializers.Serializer):
    method = serializers.CharField(
        allow_null=True,
        help_text="slice (cut from the standings), random, or optimise; null for a round "
        "seated before this was kept.",
    )
    seed = serializers.CharField(allow_null=True)
    repeats = serializers.IntegerField(allow_null=True, help_text="Pairs who met before.")
    spread = serializers.FloatField(
        allow_null=True, help_text="Mean over tables of highest minus lowest points."
    )
    seat_cost = serializers.IntegerField(
        allow_null=True, help_text="Times the players had already sat in the positions given."
    )
    lower_bound = serializers.IntegerField(
        allow_null=True,
        help_text="Fewest repeat pairs possible, as far as the optimiser could show "
        "(0 when it found none); null for a slice or a random draw.",
    )
    request = serializers.DictField(
        allow_null=True,
        help_text="The seating request (python -m tournaments.seating < request.json gives "
        "the same tables); hidden players' handles masked for the public.",
    )

    class Meta:
        ref_name = "RoundSeating"


class RoundSeatingApi(ApiView):
    @extend_schema(
        tags=["tournaments"],
        summary="How the round was seated: method, seed, what it achieved and its request",
        responses={200: RoundSeatingOutput, 404: NOT_FOUND},
    )
    def get(self, request: Request, round_id: int) -> Response:
        rnd = _round_get_visible(round_id=round_id, user=request.user)
        return Response(RoundSeatingOutput(round_seating(rnd=rnd, user=request.user)).data)
