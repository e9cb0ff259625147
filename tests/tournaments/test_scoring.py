"""Points per placement against hand-computed numbers (Elo: tests/ratings/test_elo.py)."""

from __future__ import annotations

from tournaments.scoring import default_points, table_points


def test_default_points():
    assert default_points(2) == [1, 0]
    assert default_points(3) == [2, 1, 0]
    assert default_points(4) == [4, 2, 1, 0]
    assert default_points(6) == [16, 8, 4, 2, 1, 0]


def test_table_points_full_table_and_ties():
    pts = [4, 2, 1, 0]
    assert table_points(pts, {"a": 1, "b": 2, "c": 3, "d": 4}) == {"a": 4, "b": 2, "c": 1, "d": 0}
    # tie for 2nd shares (2 + 1) / 2
    assert table_points(pts, {"a": 1, "b": 2, "c": 2, "d": 4}) == {
        "a": 4,
        "b": 1.5,
        "c": 1.5,
        "d": 0,
    }
    # everybody tied shares the whole list
    assert table_points(pts, dict.fromkeys("abcd", 1)) == dict.fromkeys("abcd", 1.75)


def test_table_points_other_table_sizes_interpolate():
    pts = [4, 2, 1, 0]
    assert table_points(pts, {"a": 1, "b": 2, "c": 3}) == {"a": 4, "b": 1.5, "c": 0}
    assert table_points(pts, {"a": 1, "b": 2}) == {"a": 4, "b": 0}
    five = table_points(pts, {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})
    assert five == {"a": 4, "b": 2.5, "c": 1.5, "d": 0.75, "e": 0}
