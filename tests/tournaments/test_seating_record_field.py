"""``FastJSONField`` stores what ``JSONField`` stores (orjson writes it on PostgreSQL)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.tournaments.factories import RoundFactory, TournamentFactory
from tournaments.models import RoundSeating

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
