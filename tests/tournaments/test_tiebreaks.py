"""The tiebreaks players know (opponents' points percentage with its 1/3 floor, best
finish, head-to-head): hand-computed examples through the standings, the page, the API
and the CSV, and properties of the pure functions."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import play_round
from tournaments.models import Registration
from tournaments.selectors import tournament_standings
from tournaments.tiebreaks import OPPONENT_FLOOR, head_to_head, opponents_percentage

THIRD = Fraction(1, 3)


def _event(tiebreaks: list[str]):
    """Eight players, default points [4, 2, 1, 0] at tables of four (3 players: 4, 1.5,
    0). dan drops after round 1. Totals: eve 8, ann 6, bob 6, fay 3, cat 2.5, gus 1,
    dan 0, hal 0."""
    tournament = TournamentFactory(tiebreaks=tiebreaks)
    p = {}
    for handle in ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"):
        p[handle] = PlayerFactory(handle=handle)
        RegistrationFactory(tournament=tournament, player=p[handle])
    play_round(
        tournament,
        1,
        [
            [(p["ann"], 1), (p["bob"], 2), (p["cat"], 3), (p["dan"], 4)],
            [(p["eve"], 1), (p["fay"], 2), (p["gus"], 3), (p["hal"], 4)],
        ],
    )
    Registration.objects.filter(tournament=tournament, player=p["dan"]).update(dropped=True)
    play_round(
        tournament,
        2,
        [
            [(p["eve"], 1), (p["ann"], 2), (p["fay"], 3), (p["gus"], 4)],
            [(p["bob"], 1), (p["cat"], 2), (p["hal"], 3)],
        ],
    )
    return tournament


def _rows(tournament):
    return {r.handle: r for r in tournament_standings(tournament=tournament)}


@pytest.mark.django_db
def test_opponents_percentage_by_hand_with_a_dropped_opponent():
    rows = _rows(_event(["opponents_percentage"]))
    # Points percentages (earned / most possible in the games played, at least 1/3):
    # ann 6/8, bob 6/8, cat 2.5/8 -> 1/3, eve 8/8, fay 3/8, gus 1/8 -> 1/3, hal 0 -> 1/3,
    # and dan, who dropped after one game, 0/4 -> 1/3 (his one round counts, not two).
    pct = {"ann": Fraction(3, 4), "bob": Fraction(3, 4), "cat": THIRD, "dan": THIRD}
    pct |= {"eve": Fraction(1), "fay": Fraction(3, 8), "gus": THIRD, "hal": THIRD}
    met = {
        "ann": ["bob", "cat", "dan", "eve", "fay", "gus"],
        "bob": ["ann", "cat", "dan", "cat", "hal"],
        "dan": ["ann", "bob", "cat"],
    }
    for handle, opponents in met.items():
        expected = sum(pct[o] for o in opponents) / len(opponents)
        assert rows[handle].opponents_percentage == pytest.approx(float(expected))
    assert rows["ann"].opponents_percentage == pytest.approx(25 / 48)
    assert rows["bob"].opponents_percentage == pytest.approx(5 / 12)
    # ann and bob share 6 points; ann met the stronger field.
    assert (rows["ann"].rank, rows["bob"].rank) == (2, 3)
    assert rows["dan"].dropped and rows["dan"].head_to_head is None


@pytest.mark.django_db
def test_a_dropped_opponent_counts_with_the_rounds_he_played():
    """dan scores 2 of 4 in round 1 and drops: 50%, not 2 of 8 (25%, floored to 1/3)."""
    tournament = TournamentFactory(tiebreaks=["opponents_percentage"])
    p = {h: PlayerFactory(handle=h) for h in ("ann", "bob", "cat", "dan", "eve")}
    for player in p.values():
        RegistrationFactory(tournament=tournament, player=player)
    play_round(tournament, 1, [[(p["ann"], 1), (p["dan"], 2), (p["bob"], 3), (p["cat"], 4)]])
    Registration.objects.filter(tournament=tournament, player=p["dan"]).update(dropped=True)
    play_round(tournament, 2, [[(p["eve"], 1), (p["ann"], 2)]])
    rows = _rows(tournament)
    # ann met dan (2/4), bob (1/4 -> 1/3), cat (0 -> 1/3) and eve (4/4).
    assert rows["ann"].opponents_percentage == pytest.approx((0.5 + 1 / 3 + 1 / 3 + 1) / 4)


@pytest.mark.django_db
def test_head_to_head_by_hand():
    rows = _rows(_event(["head_to_head", "rating"]))
    # ann and bob are tied on 6 points; ann finished ahead of bob in round 1.
    assert (rows["ann"].head_to_head, rows["bob"].head_to_head) == (1, -1)
    assert (rows["ann"].rank, rows["bob"].rank) == (2, 3)
    assert rows["eve"].head_to_head is None  # tied with nobody
    assert rows["dan"].head_to_head == 0 and rows["hal"].head_to_head == 0  # 0 points each
    assert rows["hal"].rank == rows["dan"].rank == 7  # never met, same rating: shared


@pytest.mark.django_db
def test_best_finish_by_hand():
    rows = _rows(_event(["best_finish"]))
    assert (rows["ann"].best_finish, rows["bob"].best_finish) == (1, 1)
    assert rows["ann"].rank == rows["bob"].rank == 2  # equal on both: a shared rank
    assert (rows["cat"].best_finish, rows["dan"].best_finish, rows["hal"].best_finish) == (
        2,
        4,
        3,
    )
    assert rows["hal"].rank < rows["dan"].rank  # 0 points each; hal's best finish is 3rd


@pytest.mark.django_db
def test_head_to_head_among_three_tied_players():
    """Three players on 5.5 points: the head-to-head counts only games between them."""
    tournament = TournamentFactory(tiebreaks=["head_to_head"])
    handles = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
    p = {h: PlayerFactory(handle=h) for h in handles}
    for player in p.values():
        RegistrationFactory(tournament=tournament, player=player)
    # Tables of 3 ([4, 2, 1, 0] scaled: 4, 1.5, 0). ann ahead of bob, bob ahead of cat;
    # ann and cat never meet.
    play_round(tournament, 1, [[(p["ann"], 1), (p["bob"], 2), (p["dan"], 3)]])
    play_round(tournament, 2, [[(p["bob"], 1), (p["cat"], 2), (p["eve"], 3)]])
    play_round(
        tournament,
        3,
        [
            [(p["cat"], 1), (p["dan"], 2), (p["fay"], 3)],
            [(p["eve"], 1), (p["ann"], 2), (p["gus"], 3)],
        ],
    )
    rows = _rows(tournament)
    tied = {h: rows[h] for h in ("ann", "bob", "cat")}
    assert {r.points for r in tied.values()} == {5.5}
    assert {h: r.head_to_head for h, r in tied.items()} == {"ann": 1, "bob": 0, "cat": -1}
    assert [tied[h].rank for h in ("ann", "bob", "cat")] == [1, 2, 3]
    assert rows["eve"].head_to_head is None  # 4 points: tied with nobody


def test_head_to_head_in_a_cycle_is_even():
    """ann ahead of bob, bob ahead of cat, cat ahead of ann: nobody wins the tie."""
    games = [{1: 1, 2: 2, 9: 3}, {2: 1, 3: 2}, {3: 1, 1: 2}]
    meetings_of = {pid: [g for g in games if pid in g] for pid in (1, 2, 3, 9)}
    assert head_to_head(group={1, 2, 3}, meetings_of=meetings_of) == {1: 0, 2: 0, 3: 0}
    assert head_to_head(group={1, 2}, meetings_of=meetings_of) == {1: 1, 2: -1}


@pytest.mark.django_db
def test_the_chosen_tiebreaks_are_columns_of_page_api_and_csv(client):
    tournament = _event(["opponents_percentage", "best_finish", "head_to_head"])
    page = client.get(reverse("tournaments:tournament-detail", args=[tournament.pk]))
    text = page.content.decode()
    for heading in ("Opp. %", "Best", "H2H"):
        assert f">{heading}</th>" in text
    assert "52.1" in text  # ann's 25/48 as a percentage
    assert reverse("tournaments:rules-standings") in text
    spanish = client.get(
        reverse("tournaments:tournament-detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    for heading in ("% riv.", "Mejor", "Directo"):
        assert f">{heading}</th>" in spanish

    api = client.get(f"/api/tournaments/{tournament.pk}/standings").json()
    ann = next(r for r in api if r["handle"] == "ann")
    assert ann["opponents_percentage"] == pytest.approx(25 / 48)
    assert ann["best_finish"] == 1
    assert ann["head_to_head"] is None  # opp % already split ann and bob

    response = client.get(reverse("tournaments:tournament-standings-csv", args=[tournament.pk]))
    reader = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    assert reader.fieldnames[4:7] == ["opponents_percentage", "best_finish", "head_to_head"]
    by_handle = {row["handle"]: row for row in reader}
    assert by_handle["ann"]["opponents_percentage"] == "0.5208"
    assert by_handle["bob"]["best_finish"] == "1" and by_handle["bob"]["head_to_head"] == ""


@pytest.mark.django_db
def test_the_rules_page_gives_every_formula(client):
    for language, words in (
        ("en", ["Opponents' points percentage", "1/3", "Head-to-head", "Best finish"]),
        ("es", ["Porcentaje de puntos de los rivales", "1/3", "Enfrentamiento directo"]),
        ("de", ["Punkteprozentsatz der Gegner", "1/3", "Direkter Vergleich"]),
    ):
        response = client.get(reverse("tournaments:rules-standings"), HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        text = response.content.decode()
        for word in words:
            assert word.replace("'", "&#x27;") in text or word in text, (language, word)


_games = st.lists(
    st.dictionaries(st.integers(0, 7), st.integers(1, 4), min_size=2, max_size=4),
    max_size=12,
)


@given(games=_games, group=st.sets(st.integers(0, 7), min_size=2))
def test_head_to_head_scores_sum_to_zero_and_ignore_outsiders(games, group):
    meetings_of: dict[int, list[dict[int, int]]] = {}
    for game in games:
        for pid in game:
            meetings_of.setdefault(pid, []).append(game)
    scores = head_to_head(group=group, meetings_of=meetings_of)
    assert set(scores) == group
    assert sum(scores.values()) == 0
    # Games with fewer than two of the group change nothing.
    kept = [g for g in games if len(set(g) & group) >= 2]
    only = {}
    for game in kept:
        for pid in game:
            only.setdefault(pid, []).append(game)
    assert head_to_head(group=group, meetings_of=only) == scores


@given(st.lists(st.floats(0, 1), max_size=10))
def test_opponents_percentage_stays_between_the_floor_and_one(raw):
    percentage = {i: max(OPPONENT_FLOOR, p) for i, p in enumerate(raw)}
    value = opponents_percentage(opponents=list(percentage), percentage=percentage)
    assert value == 0.0 if not raw else OPPONENT_FLOOR - 1e-12 <= value <= 1 + 1e-12
