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
from hypothesis import HealthCheck, Phase, settings
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


#: An anonymous write is refused before its body is read (DRF authenticates and checks
#: permissions first; ``IsAuthenticatedOrReadOnly`` is the default): every case of the
#: coverage phase (each boundary of each body field, run as Hypothesis's explicit
#: examples: 5 to 10 times the generated ones) would meet the same 401. Those operations
#: get the generated requests only; reads, and the token endpoint that reads its body
#: without a user, get everything.
WRITES = ["POST", "PUT", "PATCH", "DELETE"]
PUBLIC_WRITES = "^/api/auth/"
ANONYMOUS_WRITE_SETTINGS = settings(FUZZ_SETTINGS, phases=[Phase.generate])


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


def _anonymous(case, game, tournament) -> None:
    # Given any request the schema allows (and some it does not), anonymously
    _path_fit(case, game, tournament)
    # When it is sent; Then it is answered as documented, never with a 5xx
    case.call_and_validate(checks=CHECKS)


@pytest.mark.django_db
@schema.exclude(method=WRITES).parametrize()
@FUZZ_SETTINGS
def test_anonymous_requests_never_break_the_api(case, game, tournament):
    _anonymous(case, game, tournament)


@pytest.mark.django_db
@schema.include(method=WRITES, path_regex=PUBLIC_WRITES).parametrize()
@FUZZ_SETTINGS
def test_anonymous_public_writes_never_break_the_api(case, game, tournament):
    _anonymous(case, game, tournament)


@pytest.mark.django_db
@schema.include(method=WRITES).exclude(path_regex=PUBLIC_WRITES).parametrize()
@ANONYMOUS_WRITE_SETTINGS
def test_anonymous_writes_are_refused_not_broken(case, game, tournament):
    _anonymous(case, game, tournament)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_scorekeeper_requests_never_break_the_api(case, game, tournament, staff):
    # Given any request, sent with the token of the tournament's scorekeeper
    _path_fit(case, game, tournament)
    token, _ = Token.objects.get_or_create(user=staff["scorekeeper"])
    # When it is sent; Then it is answered as documented, never with a 5xx
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
