"""Staff API: ``GET/POST /api/tournaments/<id>/staff``, ``DELETE .../staff/<username>``.

Thin views over :mod:`tournaments.staff.services` and
:func:`tournaments.staff.selectors.tournament_staff`: organizers of the tournament list,
add and remove scorekeepers and referees; organizers of its league (and superusers)
also create accounts (``"create": true``), answered with the one-time set-password link.
Anonymous callers get 401, other users 403, a tournament they may not see 404.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import EVENT_ERRORS, ApiView
from tournaments.selectors import tournament_get_visible
from tournaments.staff.selectors import tournament_staff
from tournaments.staff.services import STAFF_ROLES, staff_account_create, staff_add, staff_remove


class StaffMemberSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The account's full name (may be empty).")
    role = serializers.ChoiceField(choices=["organizer", *STAFF_ROLES])
    via_league = serializers.BooleanField(
        help_text="An organizer of the tournament's league (not removable here)."
    )

    class Meta:
        ref_name = "StaffMember"


class TournamentStaffApi(ApiView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        role = serializers.ChoiceField(choices=list(STAFF_ROLES))
        create = serializers.BooleanField(
            default=False,
            help_text="Create a new account (organizers of the league only); its owner "
            "sets the password with the one-time `set_password_url`.",
        )
        name = serializers.CharField(
            max_length=150,
            required=False,
            default="",
            allow_blank=True,
            help_text="Display name of a created account.",
        )

        class Meta:
            ref_name = "StaffAddInput"

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.CharField()
        created = serializers.BooleanField(help_text="A new account was created.")
        set_password_url = serializers.URLField(
            required=False,
            help_text="Only for a created account: the one-time link to set its password.",
        )

        class Meta:
            ref_name = "StaffAddOutput"

    @extend_schema(
        tags=["events"],
        summary="The tournament's staff and their roles (organizers)",
        responses={200: StaffMemberSerializer(many=True), **EVENT_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        members = tournament_staff(tournament=tournament, user=request.user)
        return Response(StaffMemberSerializer([m.as_dict() for m in members], many=True).data)

    @extend_schema(
        tags=["events"],
        summary="Add a scorekeeper or referee by username, or create their account",
        description=(
            "Organizers add an existing account (idempotent; an unknown username answers "
            "400 `unknown_user`). With `create`, organizers of the league create the "
            "account (409 when the username is taken) and get its one-time "
            "`set_password_url`; no mail is sent."
        ),
        request=InputSerializer,
        responses={201: OutputSerializer, **EVENT_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data["create"]:
            account = staff_account_create(
                tournament=tournament,
                username=data["username"],
                display_name=data["name"],
                role=data["role"],
                user=request.user,
            )
            out = {
                "username": account.user.get_username(),
                "role": account.role,
                "created": True,
                "set_password_url": request.build_absolute_uri(account.set_password_path),
            }
        else:
            member = staff_add(
                tournament=tournament,
                username=data["username"],
                role=data["role"],
                user=request.user,
            )
            out = {"username": member.get_username(), "role": data["role"], "created": False}
        return Response(self.OutputSerializer(out).data, status=status.HTTP_201_CREATED)


class TournamentStaffMemberApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["events"],
        summary="Remove a scorekeeper or referee (organizers)",
        description="Without `role`, every staff role of the account in this tournament.",
        parameters=[
            OpenApiParameter("role", str, enum=list(STAFF_ROLES), required=False),
        ],
        responses={204: None, **EVENT_ERRORS},
    )
    def delete(self, request: Request, tournament_id: int, username: str) -> Response:
        tournament = tournament_get_visible(tournament_id=tournament_id, user=request.user)
        staff_remove(
            tournament=tournament,
            username=username,
            role=request.query_params.get("role") or None,
            user=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
