"""Issue 9's seating optimiser, its table plan, baselines and metrics (no database)."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    SeatingError,
    SeatingPlayer,
    SeatingRequest,
    greedy_baseline,
    mean_spread,
    measure,
    repeat_pairs,
    seat_cost,
    seat_order,
    seat_round,
    slice_baseline,
    table_plan,
    weighted_repeats,
)

SIZE_LISTS = [(4, 3), (4, 3, 5), (4, 5), (3,), (4,), (5, 4, 6), (4, 2, 3, 5, 6), (6, 5), (2, 3)]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _flat(tables):
    return [p for t in tables for p in t]


def _plannable(n, sizes):
    """Whether ``n`` is a sum of ``sizes`` (repetition allowed)."""
    ok = [True] + [False] * n
    for r in range(1, n + 1):
        ok[r] = any(s <= r and ok[r - s] for s in sizes)
    return ok[n]


# -- table_plan ------------------------------------------------------------------------------


@given(n=st.integers(min_value=0, max_value=400), sizes=st.sampled_from(SIZE_LISTS))
def test_plan_seats_everyone_with_as_many_preferred_tables_as_possible(n, sizes):
    preferred, others = sizes[0], [s for s in sizes[1:] if s != sizes[0]]
    try:
        plan = table_plan(n, sizes)
    except SeatingError as exc:
        assert exc.code in ("too_few_players", "cannot_split")
        assert not _plannable(n, sizes) or n == 0
        return
    assert sum(plan) == n
    assert all(s in sizes for s in plan)
    count = plan.count(preferred)
    assert plan[:count] == [preferred] * count  # preferred tables first
    # no plan has more tables of the preferred size
    for more in range(count + 1, n // preferred + 1):
        assert not _plannable(n - more * preferred, others)


@pytest.mark.parametrize(
    ("n", "sizes", "plan"),
    [
        (16, [4, 3], [4, 4, 4, 4]),
        (10, [4, 3], [4, 3, 3]),
        (11, [4, 3], [4, 4, 3]),
        (10, [4, 2, 3, 5, 6], [4, 4, 2]),
        (13, [4, 3, 5], [4, 4, 5]),
        (13, [4, 3, 5, 2], [4, 4, 5]),  # a 5 is closer to 4 than a 3 and a 2
        (6, [4, 3], [3, 3]),
        (9, [4, 3], [3, 3, 3]),
        (7, [6, 5, 4, 3], [4, 3]),
    ],
)
def test_plan_examples(n, sizes, plan):
    assert table_plan(n, sizes) == plan


@pytest.mark.parametrize(("n", "sizes"), [(1, [4, 3]), (5, [4, 3]), (2, [4, 3]), (0, [2])])
def test_no_plan_is_a_clear_error(n, sizes):
    with pytest.raises(SeatingError) as exc:
        table_plan(n, sizes)
    assert exc.value.code in ("too_few_players", "cannot_split")
    request = SeatingRequest(
        players=tuple(SeatingPlayer(f"p{i}", 1.0) for i in range(n)), table_sizes=tuple(sizes)
    )
    with pytest.raises(SeatingError):
        seat_round(request, method="optimise")


# -- random rounds with a history --------------------------------------------------------------


@st.composite
def histories(draw, max_players=48, min_players=0, repeats=None):
    """A round to seat: players in standings order (points not increasing), random seat
    counts, random met pairs (some with players who dropped), allowed sizes; at least
    ``min_players`` players (drawn, not filtered: a filter would discard most inputs);
    the repeat rule ``repeats``, else drawn (``strict`` or ``balanced``)."""
    sizes = draw(st.sampled_from(SIZE_LISTS))
    n = draw(st.integers(min_value=max(min(sizes), min_players), max_value=max_players))
    dropped = draw(st.integers(min_value=0, max_value=3))
    ids = [f"p{i}" for i in range(n + dropped)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    points = sorted(rng.randrange(0, 16) * draw(st.sampled_from([1.0, 0.5])) for _ in ids)
    points.reverse()
    everyone = [
        SeatingPlayer(p, pts, tuple(rng.randrange(3) for _ in range(max(sizes))))
        for p, pts in zip(ids, points, strict=True)
    ]
    density = draw(st.floats(min_value=0.0, max_value=0.6))
    met = {}
    for a, b in itertools.combinations(ids, 2):
        if rng.random() < density:
            met[frozenset((a, b))] = rng.choice([1, 1, 1, 2, 3])
    gone = set(rng.sample(ids, dropped))  # dropped: not in the input, still in ``met``
    players = tuple(p for p in everyone if p.id not in gone)
    seed = draw(st.one_of(st.integers(), st.text(max_size=6)))
    rule = repeats or draw(st.sampled_from(["strict", "balanced"]))
    return SeatingRequest(players=players, table_sizes=sizes, met=met, seed=seed, repeats=rule)


def _seat(request, method="optimise"):
    try:
        return seat_round(request, method=method)
    except SeatingError as exc:
        assert exc.code == "cannot_split"
        assert not _plannable(len(request.players), request.table_sizes)
        return None


@FAST
@given(request=histories())
def test_everyone_once_at_allowed_sizes_and_nobody_else(request):
    tables = _seat(request)
    if tables is None:
        return
    ids = [p.id for p in request.players]
    assert sorted(_flat(tables)) == sorted(ids)  # dropped players absent, nobody twice
    assert [len(t) for t in tables] == table_plan(len(ids), request.table_sizes)


@FAST
@given(request=histories())
def test_never_more_repeats_than_the_greedy_at_no_more_spread(request):
    """Both rules: never more repeat pairs (nor weighted repeats) than the greedy;
    ``balanced`` also never more spread (``strict`` spends spread to avoid repeats)."""
    tables = _seat(request)
    if tables is None:
        return
    ours, greedy = measure(tables, request), measure(greedy_baseline(request), request)
    assert ours.repeats <= greedy.repeats
    assert ours.weighted_repeats <= greedy.weighted_repeats
    if request.repeats == "balanced":
        assert ours.mean_spread <= greedy.mean_spread + 1e-9


@settings(FAST, max_examples=20)  # three seatings an example: the slowest test of the file
@given(request=histories(max_players=30))
def test_deterministic_for_a_seed(request):
    tables = _seat(request)
    assert tables == _seat(request)
    # the same request built again (another dict order for ``met``) gives the same tables
    again = SeatingRequest(
        players=request.players,
        table_sizes=request.table_sizes,
        met=dict(reversed(list(request.met.items()))),
        seed=request.seed,
        repeats=request.repeats,
    )
    assert _seat(again) == tables


@FAST
@given(request=histories(max_players=30))
def test_seat_order_avoids_overused_positions_then_minimises_the_seat_cost(request):
    tables = _seat(request)
    if tables is None:
        return
    seats = {p.id: p.seats for p in request.players}

    def key(order):
        # first the players put where they sat more than in their least-used position
        # at this table, then the plain seat cost
        over = 0
        for pos, p in enumerate(order):
            counts = [seats[p][i] if i < len(seats[p]) else 0 for i in range(len(order))]
            over += counts[pos] > min(counts)
        return over, seat_cost([list(order)], seats)

    for table in tables:
        assert key(table) == min(key(perm) for perm in itertools.permutations(table))


def test_seat_order_breaks_ties_from_the_seed():
    seats = [(0, 0, 0, 0)] * 4
    orders = {tuple(seat_order([0, 1, 2, 3], seats, random.Random(s))) for s in range(40)}
    assert len(orders) > 5  # not always the same player first
    assert seat_order([0, 1, 2, 3], seats, random.Random(7)) == seat_order(
        [0, 1, 2, 3], seats, random.Random(7)
    )
    # someone who always started does not start again
    seats = [(3, 0, 0, 0), (0, 3, 0, 0), (0, 0, 3, 0), (0, 0, 0, 3)]
    for s in range(10):
        order = seat_order([0, 1, 2, 3], seats, random.Random(s))
        assert all(order[pos] != pos for pos in range(4))


# -- simulated events ---------------------------------------------------------------------------


def _simulate(
    n, rounds, seed, sizes=(4, 3), repeats="balanced", *, rounds_left=False, top_table=False
):
    """A simulated event (random results, 3-2-1-0 points by a random order): the seat
    counts, and each round's request with the tables it got. ``rounds_left``: each
    request says how many rounds are left, as the round services do."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(n)]
    points = dict.fromkeys(ids, 0.0)
    seats = {p: [0] * max(sizes) for p in ids}
    met: dict[frozenset, int] = {}
    history = []
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda p: (-points[p], p))
        request = SeatingRequest(
            players=tuple(SeatingPlayer(p, points[p], tuple(seats[p])) for p in order),
            table_sizes=sizes,
            met=dict(met),
            seed=f"{seed}:{number}",
            shuffle=number == 1,
            repeats=repeats,
            rounds_left=rounds - number + 1 if rounds_left else None,
            top_table=top_table,
        )
        tables = seat_round(request)
        history.append((request, tables))
        for table in tables:
            for pos, p in enumerate(table):
                seats[p][pos] += 1
            for a, b in itertools.combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            for place, p in enumerate(rng.sample(table, len(table))):
                points[p] += len(table) - 1 - place
    return seats, history


@settings(max_examples=12, deadline=None)
@given(
    n=st.sampled_from([8, 12, 16, 20, 24, 40]),
    rounds=st.integers(min_value=2, max_value=8),
    seed=st.integers(0, 1000),
)
def test_seat_positions_balanced_over_an_event(n, rounds, seed):
    seats, _ = _simulate(n, rounds, seed)
    bound = math.ceil(rounds / 4) + 1
    for counts in seats.values():
        assert counts[0] <= bound  # nobody keeps starting
        assert counts[3] <= bound  # nor keeps sitting last


@settings(max_examples=10, deadline=None)
@given(
    n=st.sampled_from([8, 12, 16, 20, 24]),
    rounds=st.integers(min_value=2, max_value=6),
    seed=st.integers(0, 10_000),
    sizes=st.sampled_from([(4, 3), (4,), (3, 4, 5)]),
)
# The seat polish once traded a pair who met twice for two who met once here.
@example(n=8, rounds=4, seed=152, sizes=(4, 3))
def test_every_round_of_a_small_event_beats_or_ties_the_greedy(n, rounds, seed, sizes):
    """Random small events, seated round after round by the optimiser (its own history):
    every round has no more repeat pairs than the greedy on the same input, at no more
    mean spread (the per-round bound, see :mod:`tournaments.seating.optimise`)."""
    _, history = _simulate(n, rounds, seed, sizes)
    for request, tables in history[1:]:
        ours, greedy = measure(tables, request), measure(greedy_baseline(request), request)
        assert ours.repeats <= greedy.repeats
        assert ours.mean_spread <= greedy.mean_spread + 1e-9


def test_an_event_avoids_repeats_better_than_the_greedy():
    ours = greedy = 0
    for seed in range(3):
        _, history = _simulate(40, 5, seed)
        for request, tables in history[1:]:
            ours += measure(tables, request).repeats
            greedy += measure(greedy_baseline(request), request).repeats
    assert ours * 3 <= greedy


def test_auto_is_the_optimiser_with_a_history_and_slices_without():
    players = tuple(SeatingPlayer(f"p{i}") for i in range(8))
    plain = SeatingRequest(players=players, table_sizes=(4,), seed=3)
    assert seat_round(plain) == seat_round(plain, method="slice")
    met = {frozenset(("p0", "p1")): 1, frozenset(("p2", "p3")): 1}
    request = SeatingRequest(players=players, table_sizes=(4,), met=met, seed=3)
    assert seat_round(request) == seat_round(request, method="optimise")
    assert repeat_pairs(seat_round(request), met) == 0
    assert repeat_pairs(seat_round(request, method="slice"), met) == 2


def test_build_accepts_a_history():
    request = SeatingRequest.build(
        players=[SeatingPlayer("a", 3.0, (1, 0)), "b", "c", "d"],
        size=2,
        min_size=2,
        max_size=4,
        met={frozenset(("a", "b")): 1},
    )
    assert request.size_rule == "even" and request.has_history()
    tables = seat_round(request)
    assert [len(t) for t in tables] == [2, 2]
    assert not any({"a", "b"} <= set(t) for t in tables)


# -- baselines and metrics ---------------------------------------------------------------------


def test_baselines_and_metrics_on_a_small_round():
    players = tuple(SeatingPlayer(f"p{i}", float(8 - i)) for i in range(8))
    met = {frozenset(("p0", "p1")): 2, frozenset(("p0", "p2")): 1}
    request = SeatingRequest(players=players, table_sizes=(4,), met=met, seed=1)
    sliced = slice_baseline(request)
    assert [sorted(t) for t in sliced] == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]
    greedy = greedy_baseline(request)
    assert sorted(greedy[0]) == ["p0", "p3", "p4", "p5"]
    assert repeat_pairs(sliced, met) == 2 and weighted_repeats(sliced, met) == 3
    assert repeat_pairs(greedy, met) == 0
    points = {p.id: p.points for p in players}
    assert mean_spread(sliced, points) == 3.0
    assert mean_spread(greedy, points) == (5 + 6) / 2
    m = measure(seat_round(request), request)
    assert m.repeats == 0 and m.mean_spread <= 5.5


# -- the CLI ---------------------------------------------------------------------------------------

ISSUE_ROUND = {
    "table_sizes": [4, 3],
    "players": [
        {"id": "ana", "points": 7.5, "seats": [1, 2, 0, 2]},
        {"id": "ben", "points": 7, "seats": [2, 1, 1, 1]},
        {"id": "cai", "points": 6, "seats": [0, 1, 2, 2]},
        {"id": "dan", "points": 6, "seats": [2, 2, 1, 0]},
        {"id": "eve", "points": 4, "seats": [1, 1, 2, 1]},
        {"id": "fay", "points": 3, "seats": [1, 0, 1, 3]},
        {"id": "gus", "points": 1, "seats": [3, 1, 0, 1]},
    ],
    "met": [["ana", "ben", 2], ["cai", "dan", 1]],
    "seed": 1,
}


def _cli(stdin, *args):
    return subprocess.run(
        [sys.executable, "-m", "tournaments.seating", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_issue_shape():
    run = _cli(json.dumps(ISSUE_ROUND))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert set(out) == {"tables", "method", "repeats", "spread", "seat_cost", "lower_bound"}
    assert sorted(_flat(out["tables"])) == sorted(p["id"] for p in ISSUE_ROUND["players"])
    assert [len(t) for t in out["tables"]] == [4, 3]
    # ana and ben (met twice) apart; cai and dan may sit together: seating all four
    # apart costs more spread than the greedy's (it seats ana, cai, dan, eve together)
    assert not any({"ana", "ben"} <= set(t) for t in out["tables"])
    request = SeatingRequest.from_json(ISSUE_ROUND)
    assert measure(out["tables"], request).repeats <= 1
    assert measure(greedy_baseline(request), request).repeats == 1
    assert _cli(json.dumps(ISSUE_ROUND)).stdout == run.stdout
    for method in ("optimise", "slice", "greedy", "random"):
        again = _cli(json.dumps(ISSUE_ROUND), "--method", method)
        assert again.returncode == 0, again.stderr
        assert sorted(_flat(json.loads(again.stdout)["tables"])) == sorted(_flat(out["tables"]))


@pytest.mark.parametrize(
    "stdin",
    [
        "not json",
        "[]",
        json.dumps({**ISSUE_ROUND, "players": ISSUE_ROUND["players"][:1]}),  # one player
        json.dumps({**ISSUE_ROUND, "players": ISSUE_ROUND["players"][:5]}),  # 5 at [4, 3]
        json.dumps({**ISSUE_ROUND, "table_sizes": [0]}),
        json.dumps({**ISSUE_ROUND, "table_sizes": "4"}),
        json.dumps({**ISSUE_ROUND, "met": [["ana", "ana", 1]]}),
        json.dumps({**ISSUE_ROUND, "met": [["ana", "ben", "x"]]}),
        json.dumps({**ISSUE_ROUND, "met": [["ana", "ben", -1]]}),
        json.dumps({**ISSUE_ROUND, "players": [{"id": "a", "seats": [-1]}, "b"]}),
        json.dumps({**ISSUE_ROUND, "players": [{"id": "a", "points": "x"}, "b"]}),
        json.dumps({**ISSUE_ROUND, "players": ["a", "a"]}),
        json.dumps({**ISSUE_ROUND, "size_rule": "odd"}),
    ],
)
def test_cli_bad_input_is_a_clear_error(stdin):
    run = _cli(stdin)
    assert run.returncode == 2
    assert run.stderr.startswith("seating:") and "Traceback" not in run.stderr
    assert run.stdout == ""
