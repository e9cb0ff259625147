"""A season as clubs run it (issue 24), played entirely through the API: four monthly
tournaments, one with a late entry, one with byes, one with a waitlist promotion. The
season table is compared with a computation made here from each tournament's final
standings, order included (points; then more wins, more second places, ...; then the
best single tournament; then the name)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
EIGHT = [f"p{i}" for i in range(8)]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _tournament(org, league, *, name: str, starts_on: str, **settings) -> int:
    made = org.post(
        _url("league-tournaments", league.slug),
        {"name": name, "starts_on": starts_on, "rounds": 2, "table_sizes": [4], **settings},
        format="json",
    )
    assert made.status_code == 201, made.json()
    return made.json()["id"]


def _register(org, tid: int, handles: list[str]) -> None:
    answer = org.post(
        _url("tournament-players", tid), {"handles": handles, "create": True}, format="json"
    )
    assert answer.status_code == 201, answer.json()


def _check_in_and_start(org, tid: int) -> None:
    for row in org.get(_url("tournament-standings", tid)).json():
        org.post(_url("tournament-player-check-in", tid, row["handle"]))
    assert org.post(_url("tournament-start", tid)).status_code == 201


def _finish_round(org, tid: int, commit, rng: random.Random) -> None:
    """Random placements at every table of the newest round still without a result
    (a bye's table has one already)."""
    newest = org.get(_url("tournament-rounds", tid)).json()[0]
    for table in newest["tables"]:
        if table["game"]["placements"] is not None:
            continue
        seats = [s["handle"] for s in table["seats"]]
        places = list(range(1, len(seats) + 1))
        rng.shuffle(places)
        with commit(execute=True):  # progression runs on commit
            answer = org.post(
                _url("game-placements", table["game"]["id"]),
                {"placements": dict(zip(seats, places, strict=True))},
                format="json",
            )
        assert answer.status_code in (200, 201), answer.json()


def _finish(org, tid: int, commit, rng: random.Random) -> None:
    while org.get(_url("tournament-detail", tid)).json()["status"] != "finished":
        _finish_round(org, tid, commit, rng)


def _expected_table(org, tids: list[int]) -> list[tuple[str, float]]:
    """(handle, season points) best first, computed from the standings API."""
    ranks: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for tid in tids:
        for row in org.get(_url("tournament-standings", tid)).json():
            if not row["games"]:  # never played there: nothing for the season
                continue
            ranks.setdefault(row["handle"], []).append(row["rank"])
            names[row["handle"]] = row["display_name"]
    deepest = max(r for rs in ranks.values() for r in rs)

    def points(rank: int) -> float:
        return POINTS[rank - 1] if rank <= len(POINTS) else 0

    def key(handle: str) -> tuple:
        rs = ranks[handle]
        return (
            -sum(points(r) for r in rs),
            *[-rs.count(place) for place in range(1, deepest + 1)],
            -max(points(r) for r in rs),
            names[handle].casefold(),
        )

    order = sorted(ranks, key=key)
    return [(h, float(sum(points(r) for r in ranks[h]))) for h in order]


def test_a_season_with_a_late_entry_byes_and_a_waitlist_promotion(
    django_capture_on_commit_callbacks,
):
    commit = django_capture_on_commit_callbacks
    rng = random.Random(24)
    league = LeagueFactory(slug="monthly", kind="tock")
    organizer = UserFactory(username="monthly-org")
    league.organizers.add(organizer)
    org = token_client(organizer)
    season = org.post(
        _url("league-seasons", league.slug),
        {"name": "2026 spring", "starts_on": "2026-03-01", "ends_on": "2026-06-30"},
        format="json",
    )
    assert season.status_code == 201, season.json()
    season_id = season.json()["id"]

    # March: eight players, nothing unusual.
    march = _tournament(org, league, name="March", starts_on="2026-03-06")
    _register(org, march, EIGHT)
    _check_in_and_start(org, march)
    _finish(org, march, commit, rng)

    # April: a late entry. "lena" signs up herself during round 1 and joins round 2.
    april = _tournament(
        org,
        league,
        name="April",
        starts_on="2026-04-03",
        table_sizes=[4, 3, 5],
        late_entry_until=2,
        late_entry_points="last",
    )
    _register(org, april, EIGHT)
    _check_in_and_start(org, april)
    lena = token_client(UserFactory(username="lena"))
    assert lena.post(f"/api/tournaments/{april}/signup").status_code == 201
    _finish(org, april, commit, rng)
    april_rows = {r["handle"]: r for r in org.get(_url("tournament-standings", april)).json()}
    assert april_rows["lena"]["late"] == [1] and april_rows["lena"]["games"] == 1

    # May: nine players at tables of four only, so one bye a round.
    may = _tournament(org, league, name="May", starts_on="2026-05-01", uneven_players="byes")
    _register(org, may, [*EIGHT, "p8"])
    _check_in_and_start(org, may)
    _finish(org, may, commit, rng)
    may_rows = org.get(_url("tournament-standings", may)).json()
    assert sorted(n for r in may_rows for n in r["byes"]) == [1, 2]  # one bye a round
    assert len({r["handle"] for r in may_rows if r["byes"]}) == 2  # never the same twice

    # June: at most eight. The organizer registers seven; "wim" takes the last place,
    # "wes" waits; wim withdraws before the start and wes moves up and plays.
    june = _tournament(org, league, name="June", starts_on="2026-06-05", max_players=8)
    _register(org, june, EIGHT[:7])
    wim = token_client(UserFactory(username="wim"))
    wes = token_client(UserFactory(username="wes"))
    assert wim.post(f"/api/tournaments/{june}/signup").json()["waitlisted"] is False
    assert wes.post(f"/api/tournaments/{june}/signup").json()["waitlisted"] is True
    assert wim.delete(f"/api/tournaments/{june}/signup").status_code == 200
    promoted = Registration.objects.get(tournament_id=june, player__handle="wes")
    assert not promoted.waitlisted and promoted.promoted_at
    _check_in_and_start(org, june)
    _finish(org, june, commit, rng)
    june_rows = {r["handle"]: r for r in org.get(_url("tournament-standings", june)).json()}
    assert june_rows["wes"]["games"] == 2
    # wim withdrew before the start: listed last (dropped) with no game.
    assert june_rows["wim"]["dropped"] and june_rows["wim"]["games"] == 0

    # A tournament of the next season does not count.
    july = _tournament(org, league, name="July", starts_on="2026-07-03")
    _register(org, july, EIGHT)
    _check_in_and_start(org, july)
    _finish(org, july, commit, rng)

    table = org.get(_url("league-standings", league.slug), {"season": season_id}).json()
    assert table["season"]["name"] == "2026 spring"
    rows = table["rows"]
    expected = _expected_table(org, [march, april, may, june])
    assert [(r["handle"], r["points"]) for r in rows] == expected
    played = {r["handle"]: r["played"] for r in rows}
    assert played == {**dict.fromkeys(EIGHT[:7], 4), "p7": 3, "p8": 1, "lena": 1, "wes": 1}
    assert all(r["events"] == r["played"] for r in rows)  # best_of empty: all count
    # Each counted tournament carries the player's rank and points there.
    lena_row = next(r for r in rows if r["handle"] == "lena")
    (only,) = lena_row["results"]
    assert only["tournament"] == april and only["rank"] == april_rows["lena"]["rank"]
    assert only["points"] == (POINTS[only["rank"] - 1] if only["rank"] <= 10 else 0)
