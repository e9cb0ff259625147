"""Standings: points, shared places, tiebreaks, and a bounded number of queries."""

from __future__ import annotations

import random

import pytest

from ratings.models import Rating
from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import play_round
from tournaments.models import Registration
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def _by_handle(rows):
    return {r.handle: r for r in rows}


def test_points_shared_places_and_buchholz(tournament, players):
    a, b, c, d = players
    play_round(tournament, 1, [[(a, 1), (b, 2), (c, 3), (d, 4)]])
    play_round(tournament, 2, [[(b, 1), (a, 2), (c, 2), (d, 4)]])
    rows = tournament_standings(tournament=tournament)
    assert [r.handle for r in rows] == ["bob", "ann", "cat", "dan"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    s = _by_handle(rows)
    assert (s["ann"].points, s["bob"].points, s["cat"].points, s["dan"].points) == (
        5.5,
        6,
        2.5,
        0,
    )
    # ann met bob, cat and dan twice: (6 + 2.5 + 0) * 2 / 6
    assert s["ann"].buchholz == pytest.approx(8.5 / 3)
    assert s["ann"].firsts == 1 and s["ann"].placement_sum == 3 and s["ann"].games == 2
    assert s["bob"].places == {1: 2, 2: 1}


def test_tiebreak_order_and_shared_ranks(tournament):
    p = {h: PlayerFactory(handle=h) for h in "abcdefgh"}
    for player in p.values():
        RegistrationFactory(tournament=tournament, player=player)
    play_round(
        tournament,
        1,
        [
            [(p["a"], 1), (p["b"], 2), (p["c"], 3), (p["d"], 4)],
            [(p["e"], 1), (p["f"], 2), (p["g"], 3), (p["h"], 4)],
        ],
    )
    Rating.objects.create(player=p["e"], kind="tock", value=1600, games=12)
    Rating.objects.create(player=p["a"], kind="tock", value=1550, games=3)
    rows = tournament_standings(tournament=tournament)
    assert [r.handle for r in rows[:2]] == ["e", "a"]  # decided by rating, the last tiebreak
    assert rows[0].rating == 1600 and not rows[0].provisional and rows[1].provisional
    tournament.tiebreaks = ["placement_sum"]
    rows = tournament_standings(tournament=tournament)
    assert [(r.handle, r.rank) for r in rows[:3]] == [("a", 1), ("e", 1), ("b", 3)]
    assert rows[-1].points == 0 and rows[-1].rank == 7


def test_unplayed_and_dropped_players_are_listed(tournament, players):
    a, b, c, d = players
    Registration.objects.filter(player=d).update(dropped=True)
    late = PlayerFactory(handle="zed")
    RegistrationFactory(tournament=tournament, player=late)
    play_round(tournament, 1, [[(a, 1), (b, 2), (c, 2)]])
    s = _by_handle(tournament_standings(tournament=tournament))
    # a table of 3 with [4, 2, 1, 0]: 4, then places 2 and 3 (1.5 and 0) shared
    assert (s["ann"].points, s["bob"].points, s["cat"].points) == (4, 0.75, 0.75)
    assert s["dan"].dropped and s["dan"].games == 0
    assert s["zed"].games == 0 and s["zed"].points == 0


def _big_tournament(n_players: int, rounds: int):
    tournament = TournamentFactory()
    players = [PlayerFactory() for _ in range(n_players)]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    rng = random.Random(n_players)
    for number in range(1, rounds + 1):
        rng.shuffle(players)
        tables = [players[i : i + 4] for i in range(0, n_players, 4)]
        play_round(
            tournament, number, [[(p, place) for place, p in enumerate(t, 1)] for t in tables]
        )
    return tournament


@pytest.mark.parametrize("n_players", [8, 64])
def test_standings_query_count_is_bounded(n_players, django_assert_max_num_queries):
    tournament = _big_tournament(n_players, rounds=3)
    with django_assert_max_num_queries(4):  # no no-shows: their query is skipped
        rows = tournament_standings(tournament=tournament)
    assert len(rows) == n_players
    assert sum(r.points for r in rows) == pytest.approx(n_players // 4 * 7 * 3)
    assert all(r.games == 3 for r in rows)
