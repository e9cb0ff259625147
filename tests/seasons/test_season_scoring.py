"""The season table's rules (tournaments.season_scoring), on hand-made examples and by
property: points by final rank, shared ranks, best of N, the tie order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.season_scoring import TournamentRanks, points_for_rank, season_table

POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def t(tid: int, day: str, **ranks: int) -> TournamentRanks:
    return TournamentRanks(id=tid, starts_on=day, ranks=ranks)


def test_points_by_final_rank_and_zero_beyond_the_list():
    assert points_for_rank(1, POINTS) == 25
    assert points_for_rank(10, POINTS) == 1
    assert points_for_rank(11, POINTS) == 0


def test_shared_ranks_each_get_that_ranks_points():
    rows = season_table(tournaments=[t(1, "2026-01-10", ann=1, bob=2, cat=2, dan=4)])
    got = {r.player: r.points for r in rows}
    assert got == {"ann": 25, "bob": 18, "cat": 18, "dan": 12}
    assert [r.rank for r in rows] == [1, 2, 2, 4]


def test_best_of_counts_only_the_best_tournaments():
    events = [
        t(1, "2026-01-10", ann=3, bob=1),
        t(2, "2026-02-10", ann=1, bob=2),
        t(3, "2026-03-10", ann=2, bob=1),
    ]
    rows = {r.player: r for r in season_table(tournaments=events, best_of=2)}
    assert rows["ann"].points == 25 + 18 and rows["ann"].events == 2 and rows["ann"].played == 3
    assert [c.counted for c in rows["ann"].results] == [False, True, True]
    assert rows["bob"].points == 25 + 25


def test_ties_by_wins_then_seconds_then_best_single_then_name():
    custom = [10, 7, 4, 3]
    # equal points (14): ann has a win, bob none -> ann first
    same = [t(1, "2026-01-10", ann=1, bob=2), t(2, "2026-02-10", ann=3, bob=2)]
    rows = season_table(tournaments=same, season_points=custom)
    assert [(r.player, r.points, r.rank) for r in rows] == [("ann", 14, 1), ("bob", 14, 2)]
    # equal points and wins (0): more second places first
    seconds = [t(1, "2026-01-10", ann=2, bob=3), t(2, "2026-02-10", ann=4, bob=3)]
    # ann 7 + 3 = 10 with a second place; bob 5 + 5 = 10 with none -> ann first
    rows = season_table(tournaments=seconds, season_points=[10, 7, 5, 3])
    assert [(r.player, r.points) for r in rows] == [("ann", 10), ("bob", 10)]
    # equal on everything but the name: shared rank, ordered by the name shown
    tied = [t(1, "2026-01-10", bob=2, cat=2)]
    rows = season_table(tournaments=tied, season_points=custom, names={"cat": "Aaron"})
    assert [r.player for r in rows] == ["cat", "bob"] and [r.rank for r in rows] == [1, 1]
    # equal points, wins and places by rank count over counted ones: best single next
    single = [
        t(1, "2026-01-10", ann=1, bob=1),
        t(2, "2026-02-10", ann=2, bob=3),
        t(3, "2026-03-10", bob=2),
    ]
    rows = season_table(tournaments=single, season_points=[10, 6, 6], best_of=2)
    # ann counts (1st, 2nd); bob his best two of (1st, 3rd, 2nd): the 3rd and the 2nd
    # give 6 each, the better rank is kept: (1st, 2nd). Equal on everything: shared.
    assert [(r.player, r.points, r.rank) for r in rows] == [("ann", 16, 1), ("bob", 16, 1)]
    assert [c.counted for c in rows[1].results] == [True, False, True]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["a", "b", "c", "d", "e", "f"]),
            st.integers(min_value=1, max_value=8),
            min_size=1,
        ),
        min_size=1,
        max_size=6,
    ),
    st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
)
def test_the_table_adds_up_and_is_ordered(tournament_ranks, best_of):
    events = [t(i, f"2026-{i + 1:02d}-01", **r) for i, r in enumerate(tournament_ranks)]
    rows = season_table(tournaments=events, season_points=POINTS, best_of=best_of)
    assert sorted(r.player for r in rows) == sorted({p for r in tournament_ranks for p in r})
    for row in rows:
        mine = sorted(
            (points_for_rank(r[row.player], POINTS) for r in tournament_ranks if row.player in r),
            reverse=True,
        )
        kept = mine if best_of is None else mine[:best_of]
        assert row.points == sum(kept) and row.events == len(kept) and row.played == len(mine)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert rows[0].rank == 1
    assert all(a.rank <= b.rank for a, b in zip(rows, rows[1:], strict=False))
    # deterministic
    again = season_table(tournaments=list(reversed(events)), season_points=POINTS, best_of=best_of)
    assert [(r.player, r.rank, r.points) for r in again] == [
        (r.player, r.rank, r.points) for r in rows
    ]
