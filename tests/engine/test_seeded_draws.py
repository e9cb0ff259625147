"""The shuffle and the choice the seeded kinds and the bots use (``games.engine.common``)
draw exactly as ``random.Random``'s own methods: a seeded log's cards and a bot's moves
never depend on the inlined versions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import common


def test_the_inlined_draws_are_in_use():
    assert common.shuffle is common.fast_shuffle  # the import-time self-check passed
    assert common.choice is common.fast_choice


@given(
    seed=st.one_of(st.integers(), st.text(max_size=12)),
    n=st.integers(min_value=0, max_value=260),
)
def test_shuffle_draws_as_random_shuffle(seed, n):
    fast, ref = list(range(n)), list(range(n))
    a, b = random.Random(seed), random.Random(seed)
    common.fast_shuffle(a, fast)
    b.shuffle(ref)
    assert fast == ref
    assert a.getstate() == b.getstate()  # the generator goes on alike (refills, swaps)


@given(
    seed=st.one_of(st.integers(), st.text(max_size=12)),
    seq=st.lists(st.integers(), min_size=1, max_size=70),
)
def test_choice_draws_as_random_choice(seed, seq):
    a, b = random.Random(seed), random.Random(seed)
    assert [common.fast_choice(a, seq) for _ in range(5)] == [b.choice(seq) for _ in range(5)]
    assert a.getstate() == b.getstate()


def test_choice_from_nothing_is_refused_as_random_does():
    with pytest.raises(IndexError):
        common.fast_choice(random.Random(0), [])
