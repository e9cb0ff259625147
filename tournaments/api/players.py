"""JSON API: players (``/api/players...``) with their ratings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import BAD_QUERY, NOT_FOUND, PAGINATED_PLAYERS, ApiView, page_response
from tournaments.api.pagination import PAGE_PARAMETERS
from tournaments.api.serializers import PlayerSerializer, RatingHistoryField, RatingSerializer
from tournaments.selectors import player_detail, player_list_with_ratings, player_summaries


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
        return page_response(
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
