"""JSON API: ``POST /api/auth/token`` (username and password -> API token)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from tock_site.accounts.client import client_ip
from tock_site.accounts.lockout import lock_retry_after, lockout_message
from tock_site.accounts.throttling import ResilientScopedRateThrottle
from tournaments.api.serializers import ErrorSerializer


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
