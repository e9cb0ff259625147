"""``FastJSONField`` stores what ``JSONField`` stores (orjson writes it on PostgreSQL); the
seating request's ``JSONTextField`` too, kept as ``json`` text (migration 0026 moved
the requests kept inside the record to it, and back)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.tournaments.factories import RoundFactory, TournamentFactory
from tournaments.models import RoundSeating
from tournaments.selectors.seating import round_seating_record

RECORD = {
    "seed": "2:4:3",
    "method": "optimise",
    "spread": 0.036,
    "repeats": 0,
    "lower_bound": None,
    "ok": True,
    "request": {
        "players": [{"id": "zoë", "points": 3.5, "seats": [1, 0, 2]}, {"id": "李", "points": 0}],
        "met": [["zoë", "李", 2]],
        "table_sizes": [4, 3],
        "big": 2**53 + 1,
        "tiny": 1e-9,
    },
}


@pytest.mark.django_db
def test_a_record_reads_back_as_written_and_as_the_standard_encoder_stores_it():
    rnd = RoundFactory(tournament=TournamentFactory(status="running"), number=1)
    RoundSeating.objects.create(round=rnd, record=RECORD)
    assert RoundSeating.objects.get(round=rnd).record == RECORD
    if connection.vendor == "postgresql":  # the column's value, as jsonb compares it
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT record = %s::jsonb FROM tournaments_roundseating WHERE round_id = %s",
                [json.dumps(RECORD), rnd.pk],
            )
            assert cursor.fetchone() == (True,)


@pytest.mark.django_db
def test_the_request_reads_back_as_written_from_a_json_column():
    rnd = RoundFactory(tournament=TournamentFactory(status="running"), number=1)
    summary = {k: v for k, v in RECORD.items() if k != "request"}
    RoundSeating.objects.create(round=rnd, record=summary, request=RECORD["request"])
    kept = RoundSeating.objects.get(round=rnd)
    assert (kept.record, kept.request) == (summary, RECORD["request"])
    assert round_seating_record(rnd=rnd) == RECORD  # read back as one record
    if connection.vendor == "postgresql":  # stored as json text, not converted to jsonb
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_typeof(request)::text, request::jsonb = %s::jsonb "
                "FROM tournaments_roundseating WHERE round_id = %s",
                [json.dumps(RECORD["request"]), rnd.pk],
            )
            assert cursor.fetchone() == ("json", True)


BEFORE = [("tournaments", "0025_league_role_known")]
AFTER = [("tournaments", "0026_seating_request_as_json")]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_kept_requests_move_to_their_column_and_back():
    latest = _executor().loader.graph.leaf_nodes()
    try:
        _executor().migrate(BEFORE)
        old = _executor().loader.project_state(BEFORE).apps
        League = old.get_model("tournaments", "League")
        Tournament = old.get_model("tournaments", "Tournament")
        Round = old.get_model("tournaments", "Round")
        OldSeating = old.get_model("tournaments", "RoundSeating")
        league = League.objects.create(slug="m", name="M", kind="tock")
        tournament = Tournament.objects.create(
            league=league, name="M", slug="m", starts_on=dt.date(2026, 1, 1)
        )
        first, second = (Round.objects.create(tournament=tournament, number=n) for n in (1, 2))
        OldSeating.objects.create(round=first, record=RECORD)
        OldSeating.objects.create(round=second, record={"method": "greedy"})  # no request

        _executor().migrate(AFTER)
        new = _executor().loader.project_state(AFTER).apps.get_model("tournaments", "RoundSeating")
        moved = {s.round_id: (s.record, s.request) for s in new.objects.all()}
        assert moved == {
            first.pk: ({k: v for k, v in RECORD.items() if k != "request"}, RECORD["request"]),
            second.pk: ({"method": "greedy"}, {}),
        }

        _executor().migrate(BEFORE)  # and back
        back = {s.round_id: s.record for s in OldSeating.objects.all()}
        assert back == {first.pk: RECORD, second.pk: {"method": "greedy"}}
    finally:
        _executor().migrate(latest)
