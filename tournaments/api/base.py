"""JSON API, what its modules share: the base view, pagination and the error responses.

One thin APIView per endpoint (HackSoft style), one module per resource (``auth``,
``leagues``, ``tournaments``, ``registrations``, ``rounds``, ``players``, ``games``,
``staff``, ``rulings``; ``urls`` mounts them).

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

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tock_site.compiled import CompiledQuery
from tournaments.api.pagination import BoundedLimitOffsetPagination
from tournaments.api.parsers import SafeJSONParser
from tournaments.api.serializers import (
    ErrorSerializer,
    LeagueSerializer,
    PlayerSerializer,
    TournamentSerializer,
)
from tournaments.models import TournamentFormat


@csrf_exempt  # it changes nothing, so a POST gets the JSON 404 too, not the CSRF page
def api_not_found(request: HttpRequest) -> JsonResponse:
    """404 for any path under ``/api/`` that names no endpoint, whatever the method:
    JSON, as everywhere else."""
    return JsonResponse({"detail": _("No such API endpoint."), "code": "not_found"}, status=404)


def _let_go(response: Response) -> None:
    """Once a response is rendered, break the reference cycles DRF leaves around it (the
    view keeps the response, the response's renderer context keeps the view and the
    response itself): with them, its data and its rendered bytes (a 1,000-player
    standings: some 2 MB) outlived the request until the cyclic collector ran, which
    the web processes do rarely (``tock_site/serve.py``), and a worker answering such
    requests in its threads grew by hundreds of MB (``bench/bench_page.py``)."""
    view = (response.renderer_context or {}).get("view")
    if view is not None and view.__dict__.get("response") is response:
        del view.response
    response.renderer_context = {}


def _token_with_user(*, key: str) -> Any:
    return Token.objects.select_related("user").filter(key=key)[:1]


#: The token a request names, with its user (every API write reads it), compiled once.
_TOKEN_WITH_USER = CompiledQuery(_token_with_user, "key", text=("key",))


class CompiledTokenAuthentication(TokenAuthentication):
    """DRF's token authentication (same header, errors and checks) reading the token
    with a query compiled once per process (:class:`~tock_site.compiled.CompiledQuery`)
    instead of on every request."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if self.get_model() is not Token:  # a custom token model: DRF's own way
            return super().authenticate_credentials(key)
        found = _TOKEN_WITH_USER.run(key=key)
        if not found or not found[0].user.is_active:
            # Refused: DRF's own way, for its very errors and their translations.
            return super().authenticate_credentials(key)
        return (found[0].user, found[0])


class ApiView(APIView):
    """Token first (so that anonymous callers get 401 with ``WWW-Authenticate: Token``),
    then the browser session (which enforces CSRF on writes). A rendered response is
    let go of at once (:func:`_let_go`)."""

    authentication_classes = [CompiledTokenAuthentication, SessionAuthentication]
    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response):
            response.add_post_render_callback(_let_go)
        return response


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


def page_response(
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
