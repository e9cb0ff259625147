"""One whole event through the API, as a club's script runs it: 40 players, 5 Swiss
rounds, a cut of 8 to an elimination stage and a final table. The script creates the
tournament, registers and checks in the players, starts it, and uploads every table's
log (played by the engine's bots) to the game log endpoint; progression is automatic
(outbox, Celery eager in tests). It ends with the standings and ratings that a
recomputation gives: the standings' points and games from the games' placements
(:func:`tournaments.scoring.table_points`), the ratings from
:func:`ratings.services.ratings_recompute`."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.urls import reverse

import games.engine as engine
from ratings.services import ratings_recompute
from tests.api.conftest import token_client
from tests.tournaments.factories import LeagueFactory, UserFactory
from tournaments.scoring import table_points

pytestmark = pytest.mark.django_db

HANDLES = [f"bot{i:02d}" for i in range(40)]


def _url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def _jsonl(log: list[dict]) -> str:
    import json

    return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in log)


def _ratings(client) -> dict[str, float]:
    rows = client.get(_url("player-list"), {"search": "bot"}).json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    return {
        row["handle"]: rating["rating"]
        for row in rows
        for rating in row["ratings"]
        if rating["kind"] == "tock"
    }


def test_forty_players_swiss_then_cut_to_a_final_table_through_the_api(
    django_capture_on_commit_callbacks,
):
    league = LeagueFactory(slug="bots", kind="tock")
    organizer = UserFactory(username="bot-organizer")
    league.organizers.add(organizer)
    org = token_client(organizer)

    response = org.post(
        _url("league-tournaments", league.slug),
        {
            "name": "Bot Open",
            "format": "swiss_cut",
            "table_sizes": [4, 3, 5],
            "rounds": 5,
            "cut": 8,
            "advance": 2,
            "auto_progress": True,
            "seeding": "rating",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    response = org.post(
        _url("tournament-players", tid), {"handles": HANDLES, "create": True}, format="json"
    )
    assert response.status_code == 201, response.json()
    for handle in HANDLES:
        assert org.post(_url("tournament-player-check-in", tid, handle)).status_code == 200
    response = org.post(_url("tournament-start", tid))
    assert response.status_code == 201, response.json()

    # every table's log, round after round, as the rounds are seated (on commit)
    seed = 0
    for _ in range(12):
        if org.get(_url("tournament-detail", tid)).json()["status"] == "finished":
            break
        newest = org.get(_url("tournament-rounds", tid)).json()[0]
        for table in newest["tables"]:
            assert table["game"]["placements"] is None
            seats = [s["handle"] for s in sorted(table["seats"], key=lambda s: s["position"])]
            seed += 1
            log = engine.simulate(game="tock", players=seats, seed=seed)
            with django_capture_on_commit_callbacks(execute=True):
                response = org.post(
                    _url("game-log", table["game"]["id"]),
                    _jsonl(log),
                    content_type="application/x-ndjson",
                )
            assert response.status_code == 201, response.json()
    detail = org.get(_url("tournament-detail", tid)).json()
    assert detail["status"] == "finished"

    rounds = sorted(org.get(_url("tournament-rounds", tid)).json(), key=lambda r: r["number"])
    assert [r["stage"] for r in rounds] == ["swiss"] * 5 + ["elimination"] * 2
    assert [len(r["tables"]) for r in rounds] == [10] * 5 + [2, 1]
    assert all(r["status"] == "finished" for r in rounds)
    standings = org.get(_url("tournament-standings", tid)).json()
    assert sorted(row["handle"] for row in standings) == HANDLES

    # the standings a recomputation from the games' placements gives
    points: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for rnd in rounds:
        for table in rnd["tables"]:
            placements = table["game"]["placements"]
            for handle, pts in table_points(detail["points_per_place"], placements).items():
                points[handle] += pts
                games[handle] += 1
    for row in standings:
        assert row["points"] == pytest.approx(points[row["handle"]]), row["handle"]
        assert row["games"] == games[row["handle"]]
    # the cut: the top 8 of the Swiss standings play on; the final table decides the top 4,
    # the semi-finals' others follow by their place at their table; then Swiss by points
    assert [row["stage"] for row in standings] == ["elimination"] * 8 + ["swiss"] * 32
    semis, final = rounds[5]["tables"], rounds[6]["tables"][0]["game"]["placements"]
    assert [row["handle"] for row in standings[:4]] == sorted(final, key=final.get)
    out = {h: p for t in semis for h, p in t["game"]["placements"].items() if h not in final}
    assert [out[row["handle"]] for row in standings[4:8]] == sorted(out.values())
    swiss = [row["points"] for row in standings[8:]]
    assert swiss == sorted(swiss, reverse=True)
    assert standings[0]["rank"] == 1

    # the ratings, updated game by game, equal a recomputation from scratch
    live = _ratings(org)
    assert sorted(live) == HANDLES
    ratings_recompute(kind="tock")
    again = _ratings(org)
    assert again.keys() == live.keys()
    assert all(again[h] == pytest.approx(live[h]) for h in live)
