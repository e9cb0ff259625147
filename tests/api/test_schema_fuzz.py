"""Property-based fuzzing of the JSON API from its own OpenAPI schema (schemathesis).

Every operation of ``/api/schema/`` gets a few generated requests, valid and invalid,
sent in-process to the WSGI app (no network), as an anonymous visitor and as the
tournament's scorekeeper. Whatever is sent, the answer must not be a server error and
must match the documented responses (status code, body schema).
Deterministic (``derandomize``) and small, so the whole file stays well under a minute.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())

#: Content-type conformance is left out: an id that is not a number (``/api/games/x``)
#: does not match the URL pattern, and Django's own 404 page (HTML) answers it.
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]

FUZZ_SETTINGS = settings(
    max_examples=5,  # every operation stays covered; fewer examples each (suite time)
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Like Django's test client: the WSGI handler must not close the database connection
    (and so the test's transaction) at the end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _path_fit(case, game, tournament) -> None:
    """Point most generated ids at the real tournament and game, so that requests reach
    the views' validation and the recording services, not only the 404 of an unknown id."""
    params = case.path_parameters or {}
    if "game_id" in params and params["game_id"] == 0:
        params["game_id"] = game.pk
    if "tournament_id" in params and params["tournament_id"] == 0:
        params["tournament_id"] = tournament.pk


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_anonymous_requests_never_break_the_api(case, game, tournament):
    # Given any request the schema allows (and some it does not), anonymously
    _path_fit(case, game, tournament)
    # When it is sent; Then it is answered as documented, never with a 5xx
    case.call_and_validate(checks=CHECKS)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_scorekeeper_requests_never_break_the_api(case, game, tournament, staff):
    # Given any request, sent with the token of the tournament's scorekeeper
    _path_fit(case, game, tournament)
    token, _ = Token.objects.get_or_create(user=staff["scorekeeper"])
    # When it is sent; Then it is answered as documented, never with a 5xx
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
