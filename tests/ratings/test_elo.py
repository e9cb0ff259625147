"""Elo against hand-computed numbers."""

from __future__ import annotations

import pytest

from ratings.elo import elo_game


def test_elo_two_players_equal():
    assert elo_game({"a": 1500, "b": 1500}, {"a": 1, "b": 2}, 32) == {"a": 1516, "b": 1484}


def test_elo_two_players_different():
    # E_a = 1 / (1 + 10^(-200/400)) = 0.7597469; a wins: 1600 + 32 * 0.2402531
    after = elo_game({"a": 1600, "b": 1400}, {"a": 1, "b": 2}, 32)
    assert after["a"] == pytest.approx(1607.688098, abs=1e-6)
    assert after["b"] == pytest.approx(1392.311902, abs=1e-6)
    # the upset
    after = elo_game({"a": 1600, "b": 1400}, {"a": 2, "b": 1}, 32)
    assert after["b"] == pytest.approx(1400 + 32 * 0.7597469, abs=1e-5)


def test_elo_three_players_with_tie():
    # K/(N-1) = 16; a beats b and c (1 - 0.5 each); b and c lose to a, tie each other.
    after = elo_game({"a": 1500, "b": 1500, "c": 1500}, {"a": 1, "b": 2, "c": 2}, 32)
    assert after == {"a": 1516, "b": 1492, "c": 1492}


def test_elo_four_players_with_tie():
    # b 1st, a and c share 2nd, d 4th. K/(N-1) = 32/3.
    # E(1600 v 1500) = 0.6400650, E(1600 v 1400) = 0.7597469, E(1500 v 1400) = 0.6400650
    # a: (0 - .6400650) + (.5 - .6400650) + (1 - .7597469) = -.5398770 -> 1594.241313
    # b: (1 - .3599350) + (1 - .5) + (1 - .6400650) = 1.5 -> 1516
    # c: (.5 - .3599350) + (0 - .5) + (1 - .6400650) = 0 -> 1500
    # d: -(.2402531 + .3599350 + .3599350) = -.9601230 -> 1389.758687
    before = {"a": 1600, "b": 1500, "c": 1500, "d": 1400}
    after = elo_game(before, {"a": 2, "b": 1, "c": 2, "d": 4}, 32)
    assert after["a"] == pytest.approx(1594.241313, abs=1e-6)
    assert after["b"] == pytest.approx(1516, abs=1e-9)
    assert after["c"] == pytest.approx(1500, abs=1e-9)
    assert after["d"] == pytest.approx(1389.758687, abs=1e-6)
    assert sum(after.values()) == pytest.approx(sum(before.values()))


def test_elo_k_factor_scales():
    assert elo_game({"a": 1500, "b": 1500}, {"a": 1, "b": 2}, 16) == {"a": 1508, "b": 1492}
