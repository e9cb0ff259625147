"""Swiss seating as the organizer sets it and explains it (issue 25): repeat avoidance
``strict`` by default (16 players at tables of 4 play 5 rounds and meet everyone exactly
once), ``off`` and the top table as settings; each round keeps its request, seed, method
and what it achieved, read through ``GET /api/rounds/<id>/seating`` (hidden players
masked for the public) and in words on the dashboard; the CLI seats the stored request
into the same tables."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import Player, Round

pytestmark = pytest.mark.django_db

SIXTEEN = [f"s{i:02d}" for i in range(16)]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _event(org, league, commit, *, rounds: int = 5, rng_seed: int = 1, **settings) -> int:
    made = org.post(
        _url("league-tournaments", league.slug),
        {"name": "Sixteen", "rounds": rounds, "table_sizes": [4], **settings},
        format="json",
    )
    assert made.status_code == 201, made.json()
    tid = made.json()["id"]
    org.post(_url("tournament-players", tid), {"handles": SIXTEEN, "create": True}, format="json")
    for h in SIXTEEN:
        org.post(_url("tournament-player-check-in", tid, h))
    assert org.post(_url("tournament-start", tid)).status_code == 201
    rng = random.Random(rng_seed)
    while org.get(_url("tournament-detail", tid)).json()["status"] != "finished":
        newest = org.get(_url("tournament-rounds", tid)).json()[0]
        for table in newest["tables"]:
            seats = [s["handle"] for s in table["seats"]]
            places = rng.sample(range(1, len(seats) + 1), len(seats))
            with commit(execute=True):
                org.post(
                    _url("game-placements", table["game"]["id"]),
                    {"placements": dict(zip(seats, places, strict=True))},
                    format="json",
                )
    return tid


@pytest.fixture
def club(django_capture_on_commit_callbacks):
    league = LeagueFactory(slug="sixteen", kind="tock")
    organizer = UserFactory(username="sixteen-org")
    league.organizers.add(organizer)
    return league, organizer, token_client(organizer), django_capture_on_commit_callbacks


def _tables(org, tid):
    """Every round's tables, oldest first (handles in seat order)."""
    rounds = sorted(org.get(_url("tournament-rounds", tid)).json(), key=lambda r: r["number"])
    return [(r, [[s["handle"] for s in t["seats"]] for t in r["tables"]]) for r in rounds]


def test_sixteen_players_meet_everyone_exactly_once_and_each_round_explains_itself(club):
    league, organizer, org, commit = club
    tid = _event(org, league, commit)
    met: dict[frozenset, int] = {}
    for _r, tables in _tables(org, tid):
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert len(met) == 120 and set(met.values()) == {1}

    (second, tables), *_ = _tables(org, tid)[1:]
    seating = org.get(_url("round-seating", second["id"])).json()
    assert seating["method"] == "optimise"
    assert seating["repeats"] == 0 and seating["lower_bound"] == 0
    assert seating["request"]["repeats"] == "strict" and seating["request"]["rounds_left"] == 4
    assert {p["id"] for p in seating["request"]["players"]} == set(SIXTEEN)
    run = subprocess.run(
        [sys.executable, "-m", "tournaments.seating"],
        input=json.dumps(seating["request"]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["tables"] == tables

    first = _tables(org, tid)[0][0]
    assert org.get(_url("round-seating", first["id"])).json()["method"] == "slice"

    page = Client()
    page.force_login(organizer)
    html = page.get(reverse("tournaments:organize", args=[tid])).content.decode()
    assert "No one meets anyone again; mean spread" in html


def test_hidden_players_are_masked_in_the_stored_request_for_the_public(club):
    league, organizer, org, commit = club
    tid = _event(org, league, commit, rounds=2)
    Player.objects.filter(handle="s03").update(hidden=True)
    second = Round.objects.get(tournament_id=tid, number=2)
    public = APIClient().get(_url("round-seating", second.pk)).json()
    ids = {p["id"] for p in public["request"]["players"]}
    assert "s03" not in ids and len(ids) == 16
    assert all("s03" not in row[:2] for row in public["request"]["met"])
    staff = org.get(_url("round-seating", second.pk)).json()
    assert "s03" in {p["id"] for p in staff["request"]["players"]}


def test_off_slices_the_standings_and_the_setting_is_checked(club):
    league, _organizer, org, commit = club
    tid = _event(org, league, commit, rounds=3, repeat_avoidance="off")
    for rnd, _tables_of in _tables(org, tid):
        assert org.get(_url("round-seating", rnd["id"])).json()["method"] == "slice"
    made = org.post(
        _url("league-tournaments", league.slug),
        {"name": "Bad", "repeat_avoidance": "sometimes"},
        format="json",
    )
    assert made.status_code == 400
    detail = org.get(_url("tournament-detail", tid)).json()
    assert detail["repeat_avoidance"] == "off" and detail["top_table_final"] is False


def test_the_leaders_share_the_top_table_in_the_last_round(club):
    league, _organizer, org, commit = club
    tid = _event(org, league, commit, rounds=3, top_table_final=True, rng_seed=4)
    last = Round.objects.get(tournament_id=tid, number=3)
    request = last.seating_record.request
    order = [p["id"] for p in request["players"]]
    assert request["top_table"] is True
    first_table = last.tables.get(number=1)
    assert {s.player.handle for s in first_table.seats.all()} == set(order[:4])
