"""Linking an account to its player (issue 23): ``POST /api/players/link`` ``{"code"}``
(the signed-in person becomes that player: 201 with the player), ``POST
/api/players/<handle>/unlink`` (the player themself or an organizer of a tournament they
are registered in). Thin views over :mod:`tournaments.services.links`."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.errors import NotFound
from tournaments.models import Player
from tournaments.selectors import tournament_get_visible
from tournaments.services.links import player_link, player_link_by_code, player_unlink


class LinkedPlayerSerializer(serializers.Serializer):
    handle = serializers.SlugField()
    display_name = serializers.CharField()
    linked = serializers.BooleanField()

    class Meta:
        ref_name = "LinkedPlayer"


def _answer(player: Player, code: int) -> Response:
    data = {
        "handle": player.handle,
        "display_name": player.display_name,
        "linked": bool(player.user_id),
    }
    return Response(LinkedPlayerSerializer(data).data, status=code)


class PlayerLinkApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        code = serializers.CharField(max_length=32)

        class Meta:
            ref_name = "PlayerLinkInput"

    @extend_schema(
        tags=["players"],
        summary="Link your account to your player with the organizer's one-time code",
        request=InputSerializer,
        responses={
            201: LinkedPlayerSerializer,
            **EVENT_ERRORS,
            404: OpenApiResponse(ErrorSerializer, description="Wrong, used or expired code."),
            429: OpenApiResponse(ErrorSerializer, description="Too many wrong codes."),
        },
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_link_by_code(
            code=data.validated_data["code"],
            user=request.user,
            address=request.META.get("REMOTE_ADDR", ""),
        )
        return _answer(player, status.HTTP_201_CREATED)


class PlayerUnlinkApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["players"],
        summary="Unlink the player's account (the player, or an organizer)",
        request=None,
        responses={200: LinkedPlayerSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, handle: str) -> Response:
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            raise NotFound()
        return _answer(player_unlink(player=player, user=request.user), status.HTTP_200_OK)


class TournamentPlayerLinkApi(ApiView):
    """``POST /api/tournaments/<id>/players/<handle>/link`` ``{"username"}``: an organizer
    links a registered player to an account (without a code)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)

        class Meta:
            ref_name = "PlayerLinkByOrganizerInput"

    @extend_schema(
        tags=["events"],
        summary="Link a registered player to an account (organizers)",
        request=InputSerializer,
        responses={200: LinkedPlayerSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, handle: str) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            raise NotFound()
        linked = player_link(
            player=player,
            tournament=tournament,
            username=data.validated_data["username"],
            user=request.user,
        )
        return _answer(linked, status.HTTP_200_OK)
