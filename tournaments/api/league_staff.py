"""League staff API (issue 24): ``GET /api/leagues/<slug>/staff`` (the league's
organizers), ``POST`` ``{"username", "role"}`` (201), ``DELETE
/api/leagues/<slug>/staff/<id>`` (204). Thin views over
:mod:`tournaments.services.league_staff`."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, NOT_FOUND, ApiView
from tournaments.api.serializers import ErrorSerializer
from tournaments.models import LeagueRole
from tournaments.permissions import ensure_can_manage_league
from tournaments.selectors import league_get_visible
from tournaments.services.league_staff import LEAGUE_ROLES, league_role_add, league_role_remove


class LeagueRoleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=[r.value for r in LEAGUE_ROLES])

    class Meta:
        ref_name = "LeagueRole"


class LeagueStaffApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        role = serializers.ChoiceField(choices=[r.value for r in LEAGUE_ROLES])

        class Meta:
            ref_name = "LeagueRoleInput"

    @extend_schema(
        tags=["leagues"],
        summary="The league's scorekeepers and referees (its organizers)",
        responses={
            200: LeagueRoleSerializer(many=True),
            401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
            403: OpenApiResponse(ErrorSerializer, description="Not an organizer of the league."),
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        ensure_can_manage_league(user=request.user, league=league)
        roles = LeagueRole.objects.filter(league=league).select_related("user")
        return Response(LeagueRoleSerializer(roles, many=True).data)

    @extend_schema(
        tags=["leagues"],
        summary="Make an account a scorekeeper or referee of every tournament of the league",
        request=InputSerializer,
        responses={201: LeagueRoleSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = league_role_add(league=league, user=request.user, **data.validated_data)
        return Response(LeagueRoleSerializer(made).data, status=status.HTTP_201_CREATED)


class LeagueStaffDetailApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["leagues"],
        summary="Remove a league role",
        request=None,
        responses={204: None, **EVENT_ERRORS},
    )
    def delete(self, request: Request, slug: str, role_id: int) -> Response:
        league = league_get_visible(slug=slug, user=request.user)
        league_role_remove(league=league, role_id=role_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
