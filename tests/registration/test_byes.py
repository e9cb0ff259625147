"""Players who do not fill the tables (issue 24, "Byes and awkward counts"): 5 players at
tables of 4 only. ``refuse`` says which settings would seat them (today's rule);
``resize`` seats them at a table of 5; ``byes`` lets the lowest-standing player sit
out, never the same one twice while others have had none, scored with the bye points
(a table win by default), shown as such in the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import Seat, Table, TournamentAudit

pytestmark = pytest.mark.django_db

FIVE = ["ann", "bob", "cat", "dan", "eve"]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


@pytest.fixture
def org():
    league = LeagueFactory(slug="odd", kind="tock")
    organizer = UserFactory(username="odd-org")
    league.organizers.add(organizer)
    return league, token_client(organizer)


def _tournament(org, uneven: str, rounds: int = 1, **more) -> int:
    league, client = org
    made = client.post(
        _url("league-tournaments", league.slug),
        {
            "name": f"Odd {uneven}",
            "rounds": rounds,
            "table_sizes": [4],
            "uneven_players": uneven,
            **more,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    tid = made.json()["id"]
    assert (
        client.post(
            _url("tournament-players", tid), {"handles": FIVE, "create": True}, format="json"
        ).status_code
        == 201
    )
    for h in FIVE:
        client.post(_url("tournament-player-check-in", tid, h))
    return tid


def _sizes(tid: int) -> list[int]:
    tables = Table.objects.filter(round__tournament_id=tid).order_by("round__number", "number")
    return [Seat.objects.filter(table=t).count() for t in tables]


def test_refuse_names_the_settings_that_would_seat_them(org):
    _, client = org
    tid = _tournament(org, "refuse")
    answer = client.post(_url("tournament-start", tid))
    assert answer.status_code == 409
    assert "5 players cannot be seated at tables of 4" in answer.json()["detail"]
    assert "Settings that would seat them" in answer.json()["detail"]


def test_resize_seats_five_at_one_table(org):
    _, client = org
    tid = _tournament(org, "resize")
    assert client.post(_url("tournament-start", tid)).status_code == 201
    assert _sizes(tid) == [5]


def test_byes_go_to_the_lowest_standing_never_twice_while_others_have_none(
    org, django_capture_on_commit_callbacks
):
    _, client = org
    tid = _tournament(org, "byes", rounds=5, bye_points=3)
    assert client.post(_url("tournament-start", tid)).status_code == 201
    bye_of_round = {}
    for number in range(1, 6):
        rounds = client.get(_url("tournament-rounds", tid)).json()
        newest = rounds[0]
        assert newest["number"] == number
        tables = newest["tables"]
        sizes = sorted(len(t["seats"]) for t in tables)
        assert sizes == [1, 4]
        alone = next(t for t in tables if len(t["seats"]) == 1)
        assert alone["game"]["placements"] == {alone["seats"][0]["handle"]: 1}  # closed at once
        bye_of_round[number] = alone["seats"][0]["handle"]
        table = next(t for t in tables if len(t["seats"]) == 4)
        seats = [s["handle"] for s in table["seats"]]
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                _url("game-placements", table["game"]["id"]),
                {"placements": {h: i + 1 for i, h in enumerate(sorted(seats))}},
                format="json",
            )
    # five rounds, five players: everyone had exactly one bye
    assert sorted(bye_of_round.values()) == sorted(FIVE)
    standings = client.get(_url("tournament-standings", tid)).json()
    for row in standings:
        assert len(row["byes"]) == 1
        assert row["places"][str(row["byes"][0])] == 1
    # the bye scores the tournament's bye points (3); the games their places' points
    expected = {h: 3.0 for h in FIVE}
    for rnd in client.get(_url("tournament-rounds", tid)).json():
        for t in rnd["tables"]:
            if len(t["seats"]) == 4:
                for h, place in t["game"]["placements"].items():
                    expected[h] += [4, 2, 1, 0][place - 1]
    assert {row["handle"]: row["points"] for row in standings} == expected
    assert TournamentAudit.objects.filter(tournament_id=tid, action="byes").count() == 5
    page = client.get(reverse("tournaments:tournament-detail", args=[tid]))
    assert page.status_code == 200


def test_the_first_bye_goes_to_the_bottom_of_the_standings(org, django_capture_on_commit_callbacks):
    _, client = org
    tid = _tournament(org, "byes", rounds=2)
    assert client.post(_url("tournament-start", tid)).status_code == 201
    first = client.get(_url("tournament-rounds", tid)).json()[0]
    table = next(t for t in first["tables"] if len(t["seats"]) == 4)
    alone = next(t for t in first["tables"] if len(t["seats"]) == 1)["seats"][0]["handle"]
    seats = [s["handle"] for s in table["seats"]]
    order = sorted(seats)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            _url("game-placements", table["game"]["id"]),
            {"placements": {h: i + 1 for i, h in enumerate(order)}},
            format="json",
        )
    second = client.get(_url("tournament-rounds", tid)).json()[0]
    assert second["number"] == 2
    now_alone = next(t for t in second["tables"] if len(t["seats"]) == 1)["seats"][0]["handle"]
    # the last of round 1's table (0 points) sits out; not the one who had the bye
    assert now_alone == order[-1] and now_alone != alone
