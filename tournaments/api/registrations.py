"""JSON API: registrations (``/api/tournaments/<id>/players...``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, ApiView
from tournaments.errors import InvalidState, NotFound
from tournaments.models import Registration, Tournament
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.selectors import registration_list, round_list, tournament_get_visible
from tournaments.services import (
    registration_check_in,
    registration_create_many,
    registration_drop,
    registration_no_show,
    registration_reinstate,
)
from tournaments.services.signup import signup, signup_withdraw


class RegistrationSerializer(serializers.Serializer):
    handle = serializers.SlugField(source="player.handle")
    display_name = serializers.CharField(source="player.display_name")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    waitlisted = serializers.BooleanField(
        help_text="Past the tournament's maximum: waiting for a place, in order."
    )
    self_signup = serializers.BooleanField(help_text="The player signed up themselves.")

    class Meta:
        ref_name = "Registration"


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


@dataclass(frozen=True)
class RegistrationAction:
    """One of the actions on a registration that answer with the registration."""

    service: Callable[..., Registration]  # (registration=, user=) -> the registration
    summary: str


#: ``RegistrationActionApi.as_view(registration_action=<key>)``: the path's last segment.
REGISTRATION_ACTIONS = {
    "check-in": RegistrationAction(
        registration_check_in, "Check a registered player in (organizers); idempotent"
    ),
    "drop": RegistrationAction(
        registration_drop,
        "Drop a player from later rounds (organizers, or the player); results stay",
    ),
    "reinstate": RegistrationAction(
        registration_reinstate,
        "Undo a drop (organizers): the player is seated again from the next round",
    ),
}


def _registration_visible(*, user: Any, tournament_id: int, handle: str) -> Registration:
    """The registration in a tournament the user may see, else 404."""
    tournament = tournament_get_visible(tournament_id=tournament_id, user=user)
    return _registration_get(tournament=tournament, handle=handle)


class _RegistrationActionSchema(AutoSchema):
    def get_summary(self) -> str:
        return REGISTRATION_ACTIONS[self.view.registration_action].summary


class RegistrationActionApi(ApiView):
    """POST ``/api/tournaments/<id>/players/<handle>/<action>``."""

    schema = _RegistrationActionSchema()
    #: A key of :data:`REGISTRATION_ACTIONS`, given to ``as_view``.
    registration_action = ""

    @extend_schema(
        tags=["events"],
        request=None,
        responses={200: RegistrationSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        action = REGISTRATION_ACTIONS[self.registration_action]
        registration = _registration_visible(
            user=request.user, tournament_id=tournament_id, handle=handle
        )
        registration = action.service(registration=registration, user=request.user)
        return Response(RegistrationSerializer(registration).data)


class PlayerNoShowApi(ApiView):
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
        registration = _registration_visible(
            user=request.user, tournament_id=tournament_id, handle=handle
        )
        current = round_list(tournament=registration.tournament).last()
        if current is None:
            ensure_can_manage_tournament(user=request.user, tournament=registration.tournament)
            raise InvalidState(_("The round is not running."))
        no_show = registration_no_show(registration=registration, round=current, user=request.user)
        return Response(self.OutputSerializer(no_show).data)


class TournamentSignupApi(ApiView):
    """``POST /api/tournaments/<id>/signup``: sign yourself up while registration is
    open (a player is made from your account if you have none); ``DELETE``: withdraw
    (:mod:`tournaments.services.signup`)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["events"],
        summary="Sign yourself up (registration open); past the maximum: the waitlist",
        request=None,
        responses={201: RegistrationSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        reg = signup(tournament=tournament, user=request.user)
        return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=["events"],
        summary="Withdraw your own registration (before the start: the waitlist moves up)",
        request=None,
        responses={200: RegistrationSerializer, **EVENT_ERRORS},
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        reg = signup_withdraw(tournament=tournament, user=request.user)
        return Response(RegistrationSerializer(reg).data)
