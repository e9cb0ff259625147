"""The seating package on its own: no Django, no database."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    SeatingError,
    SeatingPlayer,
    SeatingRequest,
    random_tables,
    seat_round,
    seat_round_json,
    sizes_that_seat,
    slice_tables,
    split_sizes,
    table_plan,
)


@st.composite
def limits(draw):
    """(size, min_size, max_size) with min <= size <= max, as a game class gives them."""
    lo = draw(st.integers(min_value=2, max_value=5))
    hi = draw(st.integers(min_value=lo, max_value=10))
    size = draw(st.integers(min_value=lo, max_value=hi))
    return size, lo, hi


players_count = st.integers(min_value=0, max_value=300)
seeds = st.one_of(st.integers(), st.text(max_size=20))


# -- split_sizes ------------------------------------------------------------------------


@given(n=players_count, lim=limits())
def test_sizes_seat_everyone_evenly_within_the_limits(n, lim):
    size, lo, hi = lim
    try:
        sizes = split_sizes(n, size, min_size=lo, max_size=hi)
    except SeatingError as exc:
        assert exc.code == "cannot_split"
        # only when no number of tables k can hold them: k * lo <= n <= k * hi
        assert not any(k * lo <= n <= k * hi for k in range(1, n + 1))
        return
    if n < lo:
        assert sizes == []
        return
    assert sum(sizes) == n
    assert all(lo <= s <= hi for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    # as many tables as ceil(n / size), unless that would leave a table below the minimum
    assert len(sizes) <= math.ceil(n / size)
    if len(sizes) < math.ceil(n / size):
        assert n // (len(sizes) + 1) < lo
    if len(sizes) == math.ceil(n / size):
        assert max(sizes) <= size


@pytest.mark.parametrize(
    ("n", "size", "lo", "hi", "sizes"),
    [
        (8, 4, 2, 6, [4, 4]),
        (10, 4, 2, 6, [4, 3, 3]),
        (5, 4, 2, 6, [3, 2]),
        (3, 2, 2, 6, [3]),
        (5, 4, 3, 4, None),  # 5 players, tables of 3 or 4: impossible
        (7, 4, 3, 4, [4, 3]),
        (2, 4, 3, 6, []),
        (7, 6, 2, 6, [4, 3]),
    ],
)
def test_split_sizes_examples(n, size, lo, hi, sizes):
    if sizes is None:
        with pytest.raises(SeatingError):
            split_sizes(n, size, min_size=lo, max_size=hi)
    else:
        assert split_sizes(n, size, min_size=lo, max_size=hi) == sizes


def test_split_sizes_max_comes_from_the_caller():
    # three players of a two-player game: one table of three is the only split
    assert split_sizes(3, 2, min_size=2, max_size=3) == [3]
    with pytest.raises(SeatingError) as exc:
        split_sizes(3, 2, min_size=2, max_size=2)
    assert exc.value.code == "cannot_split"
    with pytest.raises(SeatingError):
        split_sizes(8, 0)


# -- grouping ---------------------------------------------------------------------------


@st.composite
def rounds(draw):
    size, lo, hi = draw(limits())
    n = draw(st.integers(min_value=lo, max_value=120))
    try:
        sizes = split_sizes(n, size, min_size=lo, max_size=hi)
    except SeatingError:
        sizes = [n]
    ids = draw(st.permutations([f"p{i}" for i in range(n)]))
    return ids, sizes


def _flat(tables):
    return [p for t in tables for p in t]


@given(case=rounds(), seed=seeds)
def test_swiss_tables_are_contiguous_slices_of_the_standings(case, seed):
    ids, sizes = case
    tables = slice_tables(ids, sizes, random.Random(seed))
    assert [len(t) for t in tables] == sizes
    start = 0
    for table, size in zip(tables, sizes, strict=True):
        assert sorted(table) == sorted(ids[start : start + size])
        start += size
    assert tables == slice_tables(ids, sizes, random.Random(seed))


@given(case=rounds(), seed=seeds)
def test_random_tables_seat_everyone_once_and_repeat_for_a_seed(case, seed):
    ids, sizes = case
    tables = random_tables(ids, sizes, random.Random(seed))
    assert sorted(_flat(tables)) == sorted(ids)
    assert [len(t) for t in tables] == sizes
    assert tables == random_tables(ids, sizes, random.Random(seed))


def test_grouping_refuses_sizes_that_do_not_add_up():
    with pytest.raises(SeatingError):
        slice_tables(["a", "b", "c"], [2], random.Random(0))


# -- seat_round -------------------------------------------------------------------------


@given(n=st.integers(min_value=0, max_value=150), lim=limits(), seed=seeds, shuffle=st.booleans())
@settings(max_examples=200)
def test_seat_round_invariants(n, lim, seed, shuffle):
    size, lo, hi = lim
    ids = list(range(1000, 1000 + n))
    request = SeatingRequest.build(
        players=ids, size=size, min_size=lo, max_size=hi, seed=seed, shuffle=shuffle
    )
    try:
        tables = seat_round(request)
    except SeatingError as exc:
        assert exc.code in ("too_few_players", "cannot_split")
        assert not any(k * lo <= n <= k * hi for k in range(1, n + 1))
        return
    assert sorted(_flat(tables)) == ids  # everyone exactly once, nobody else
    lengths = [len(t) for t in tables]
    assert all(lo <= s <= hi for s in lengths) and max(lengths) - min(lengths) <= 1
    assert lengths == split_sizes(n, size, min_size=lo, max_size=hi)
    assert tables == seat_round(request)  # deterministic for a seed
    if not shuffle:  # Swiss: contiguous slices of the standings
        start = 0
        for t in tables:
            assert sorted(t) == ids[start : start + len(t)]
            start += len(t)


def _legacy(players, table_size, seed_text, swiss):
    """The seating of ``tournaments.services.rounds`` before the move (the oracle)."""
    n = len(players)
    k = math.ceil(n / table_size)
    while k > 1 and n // k < 2:
        k -= 1
    base, extra = divmod(n, k)
    sizes = [base + 1] * extra + [base] * (k - extra)
    rng = random.Random(seed_text)
    players = list(players)
    if not swiss:
        rng.shuffle(players)
    groups, start = [], 0
    for size in sizes:
        group = players[start : start + size]
        rng.shuffle(group)
        groups.append(group)
        start += size
    return groups


@given(
    n=st.integers(min_value=2, max_value=200),
    size=st.integers(min_value=2, max_value=6),
    pk=st.integers(min_value=1, max_value=10_000),
    number=st.integers(min_value=1, max_value=20),
    seed=st.one_of(st.none(), st.integers(), st.text(max_size=8)),
    swiss=st.booleans(),
)
@settings(max_examples=300)
def test_same_seating_as_before_the_move(n, size, pk, number, seed, swiss):
    ids = [f"h{i:03d}" for i in range(n)]
    seed_text = f"{pk}:{number}:{seed}"
    request = SeatingRequest.build(
        players=ids, size=size, min_size=2, max_size=6, seed=seed_text, shuffle=not swiss
    )
    assert seat_round(request) == _legacy(ids, size, seed_text, swiss)


def test_request_checks():
    with pytest.raises(SeatingError):
        SeatingRequest(players=(SeatingPlayer("a"), SeatingPlayer("a")), table_sizes=(4,))
    with pytest.raises(SeatingError):
        SeatingRequest(players=(), table_sizes=())
    with pytest.raises(SeatingError):
        SeatingRequest.build(players=["a"], size=7, min_size=2, max_size=6)
    with pytest.raises(SeatingError):
        seat_round(
            SeatingRequest.build(players=["a", "b"], size=2, min_size=2, max_size=6), method="magic"
        )


def test_sizes_outside_the_allowed_list_are_refused():
    # 5 players, tables of 4 preferred, 2 allowed: [3, 2] would need a 3
    request = SeatingRequest(players=tuple(SeatingPlayer(i) for i in "abcde"), table_sizes=(4, 2))
    with pytest.raises(SeatingError) as exc:
        seat_round(request)
    assert exc.value.code == "cannot_split"


# -- JSON and the CLI ---------------------------------------------------------------------

ROUND = {
    "table_sizes": [4, 3],
    "players": [
        {"id": "ana", "points": 7.5, "seats": [1, 2, 0, 2]},
        {"id": "ben", "points": 7},
        "cai",
        {"id": "dan"},
        {"id": "eve"},
        {"id": "fay"},
        {"id": "gus"},
    ],
    "met": [["ana", "ben", 2]],
    "seed": 1,
}


def test_json_round_trip():
    result = seat_round_json(ROUND, method="slice")
    assert [len(t) for t in result["tables"]] == [4, 3]
    assert sorted(result["tables"][0]) == ["ana", "ben", "cai", "dan"]
    assert result == seat_round_json(json.loads(json.dumps(ROUND)), method="slice")
    # the default (a history is given: the optimiser) keeps ana and ben apart
    result = seat_round_json(ROUND)
    assert [len(t) for t in result["tables"]] == [4, 3]
    assert not any({"ana", "ben"} <= set(t) for t in result["tables"])
    assert result == seat_round_json(json.loads(json.dumps(ROUND)))
    request = SeatingRequest.from_json(ROUND)
    assert request.players[0] == SeatingPlayer("ana", 7.5, (1, 2, 0, 2))
    assert request.met == {frozenset({"ana", "ben"}): 2}


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"players": ["a", "b"]},
        {"table_sizes": [4], "players": [{"name": "a"}]},
        {"table_sizes": [4], "players": [True]},
        {"table_sizes": [4], "players": ["a", "b"], "seed": 1.5},
        {"table_sizes": [4], "players": ["a", "b"], "met": [["a"]]},
        {"table_sizes": [1], "players": ["a", "b"]},
    ],
)
def test_bad_json_is_a_seating_error(bad):
    with pytest.raises(SeatingError):
        seat_round_json(bad)


def test_cli():
    run = subprocess.run(
        [sys.executable, "-m", "tournaments.seating"],
        input=json.dumps(ROUND),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == seat_round_json(ROUND)
    run = subprocess.run(
        [sys.executable, "-m", "tournaments.seating"],
        input="{}",
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and run.stderr.startswith("seating:")


def test_no_django():
    code = (
        "import sys, tournaments.seating, tournaments.seating.__main__; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_sizes_that_seat_five_at_tables_of_four():
    assert sizes_that_seat(5, [4], min_size=2, max_size=6) == [[4, 5], [4, 3, 2]]
    assert sizes_that_seat(5, [4, 3], min_size=2, max_size=6) == [[4, 3, 5], [4, 3, 2]]
    assert sizes_that_seat(7, [6], min_size=2, max_size=6) == [[6, 5, 4, 3]]
    assert sizes_that_seat(1, [4], min_size=2, max_size=6) == []


@settings(max_examples=200, deadline=None)
@given(limits(), st.integers(min_value=0, max_value=40))
def test_every_suggested_setting_seats_them_within_the_games_limits(lim, n):
    size, lo, hi = lim
    for plan in sizes_that_seat(n, [size], min_size=lo, max_size=hi):
        assert plan[0] == size and lo <= min(plan) and max(plan) <= hi
        assert sum(table_plan(n, plan)) == n
    # Whenever some sizes of the game seat them, a suggestion is made.
    if not _plans(n, [size]) and _plans(n, list(range(lo, hi + 1))):
        assert sizes_that_seat(n, [size], min_size=lo, max_size=hi)


def _plans(n, sizes):
    try:
        return table_plan(n, sizes)
    except SeatingError:
        return None
