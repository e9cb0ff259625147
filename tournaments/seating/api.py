"""The entry point: one round's seating from plain data (the shape of the JSON the CLI
reads; see the package docstring)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from .errors import SeatingError
from .metrics import measure
from .optimise import (
    DEFAULT_MAX_EVALS,
    Problem,
    greedy_groups,
    optimise_groups,
    seat_order,
)
from .sizes import split_sizes, table_plan
from .slicing import random_tables, slice_tables
from .strict import repeat_lower_bound, strict_groups

#: A player's id: a handle in JSON, anything hashable from Python (the service uses pks).
PlayerId = Any

#: Seating methods :func:`seat_round` knows (see the package docstring):
#:
#: * ``"auto"`` (the default): ``"slice"`` when the request has no history (no ``met``,
#:   no ``seats``, no ``points``: round 1) or ``shuffle``; ``"optimise"`` otherwise
#:   (Swiss from round 2);
#: * ``"optimise"``: issue 9's optimiser (repeat avoidance within the greedy's spread,
#:   seat positions balanced);
#: * ``"slice"``: today's seating (Swiss slices of the standings; random tables when
#:   ``shuffle``), seat order shuffled;
#: * ``"greedy"``: the greedy baseline (for comparison), seat order shuffled;
#: * ``"random"``: random tables (the players shuffled from the seed, then sliced).
METHODS = ("auto", "optimise", "slice", "greedy", "random")

#: ``SeatingRequest.repeats`` values (issue 25): ``"strict"`` (the default: no pair meets
#: again whenever that can be avoided, the rest of the stage included; then the fewest
#: repeats; then the least spread: :mod:`.strict`), ``"balanced"`` (issue 9's rule: the
#: fewest repeats within the greedy baseline's spread) and ``"off"`` (the standings
#: sliced into tables: strict Swiss groups).
REPEAT_RULES = ("strict", "balanced", "off")

#: ``SeatingRequest.size_rule`` values: ``"preferred"`` (issue 9's rule,
#: :func:`~tournaments.seating.table_plan`) and ``"even"`` (today's,
#: :func:`~tournaments.seating.split_sizes`; what :meth:`SeatingRequest.build` asks for).
SIZE_RULES = ("preferred", "even")


@dataclass(frozen=True)
class SeatingPlayer:
    """One player to seat: ``points`` are tournament points so far; ``seats[i]`` counts
    the times the player sat in position ``i`` (0 starts) in this event."""

    id: PlayerId
    points: float = 0.0
    seats: tuple[int, ...] = ()


def _plain_players(players: Sequence[SeatingPlayer]) -> bool:
    """Whether every seat count is a plain ``int`` >= 0 and every points total a finite
    ``float`` (what :class:`SeatingRequest` accepts without looking further); ``False``
    says only "walk them one by one"."""
    try:
        seat_counts = [x for player in players for x in player.seats]
        points = [player.points for player in players]
        return (
            set(map(type, seat_counts)) <= {int}
            and min(seat_counts, default=0) >= 0
            and set(map(type, points)) <= {float}
            and all(map(math.isfinite, points))
        )
    except TypeError:  # not iterable, ...: the walk says which
        return False


def _plain_met(met: Mapping[frozenset[PlayerId], int]) -> bool:
    """Whether every ``met`` entry is a pair with a plain ``int`` >= 0 of times (see
    :func:`_plain_players`)."""
    try:
        return (
            set(map(type, met.values())) <= {int}
            and min(met.values(), default=0) >= 0
            and set(map(len, met)) <= {2}
        )
    except TypeError:
        return False


@dataclass(frozen=True)
class SeatingRequest:
    """Everything one round's seating depends on.

    * ``players``: in standings order, best first (no meaningful order when ``shuffle``);
    * ``table_sizes``: the preferred size first, then the other sizes allowed; the
      ``"slice"`` method uses the preferred size and the range from the smallest to the
      largest allowed size;
    * ``met``: ``{frozenset({a, b}): times}`` for pairs who already shared a table;
    * ``seed``: an ``int`` or a ``str`` (given to :class:`random.Random`); the same
      request and seed always give the same tables;
    * ``shuffle``: shuffle the players from the seed first (random tables; a Swiss
      event's first round without ratings);
    * ``size_rule``: ``"preferred"`` (the default: ``table_sizes`` is the list of the
      allowed sizes, preferred first; as many tables of the preferred size as possible,
      :func:`~tournaments.seating.table_plan`) or ``"even"`` (today's rule, the one
      :meth:`build` uses: tables as even as possible between the smallest and largest
      allowed size, :func:`~tournaments.seating.split_sizes`);
    * ``rounds_left``: the rounds still to seat in this stage, this one included
      (``None``: unknown, the default). With 2 or more, a small event's optimiser
      chooses this round's tables with the next round in view
      (:mod:`~tournaments.seating.lookahead`); 1 or ``None``: this round alone.
    * ``repeats``: one of :data:`REPEAT_RULES` (``"strict"`` by default);
    * ``top_table``: in the stage's last round (``rounds_left == 1``) the leaders sit
      together at the first table (the preferred size), even at a repeat; the others are
      seated by the rules above.
    """

    players: tuple[SeatingPlayer, ...]
    table_sizes: tuple[int, ...]
    met: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    seed: int | str = 0
    shuffle: bool = False
    size_rule: str = "preferred"
    rounds_left: int | None = None
    repeats: str = "strict"
    top_table: bool = False

    def __post_init__(self) -> None:
        if self.repeats not in REPEAT_RULES:
            raise SeatingError("bad_input", f"unknown repeat rule {self.repeats!r}")
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise SeatingError("duplicate_player", "a player is listed twice")
        if not isinstance(self.seed, int | str) or isinstance(self.seed, bool):
            raise SeatingError("bad_input", "the seed must be an integer or a string")
        if not self.table_sizes:
            raise SeatingError("no_table_sizes", "no table size given")
        for size in self.table_sizes:
            if not isinstance(size, int) or isinstance(size, bool) or size < 2:
                raise SeatingError("bad_table_size", f"bad table size {size!r}")
        if self.rounds_left is not None and (
            not isinstance(self.rounds_left, int)
            or isinstance(self.rounds_left, bool)
            or self.rounds_left < 1
        ):
            raise SeatingError(
                "bad_input", f"rounds_left must be a positive integer: {self.rounds_left!r}"
            )
        if self.size_rule not in SIZE_RULES:
            raise SeatingError("bad_input", f"unknown size rule {self.size_rule!r}")
        # A fast check first, in C over all the entries at once (a round of 1,000
        # players: 4,000 seat counts, 4,500 pairs): it passes only requests the walks
        # below accept (plain ints >= 0, finite floats, pairs of two); anything else is
        # walked entry by entry, which raises on the first bad one as it always did.
        players = self.players
        if not _plain_players(players):
            for player in players:
                if any(
                    not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in player.seats
                ):
                    raise SeatingError("bad_input", f"bad seat counts for {player.id!r}")
                if player.points != player.points or player.points in (math.inf, -math.inf):
                    raise SeatingError("bad_input", f"bad points for {player.id!r}")
        met = self.met
        if not _plain_met(met):
            for pair, times in met.items():
                if len(pair) != 2 or not isinstance(times, int) or isinstance(times, bool):
                    raise SeatingError("bad_input", f"bad met entry {sorted(pair, key=str)!r}")
                if times < 0:
                    raise SeatingError(
                        "bad_input", "a pair cannot have met a negative number of times"
                    )

    def sizes(self) -> list[int]:
        """The table sizes of this round, in table order (see ``size_rule``)."""
        n = len(self.players)
        if self.size_rule == "preferred":
            return table_plan(n, self.table_sizes)
        preferred = self.table_sizes[0]
        lo, hi = min(self.table_sizes), max(self.table_sizes)
        sizes = split_sizes(n, preferred, min_size=lo, max_size=hi)
        if not sizes:
            raise SeatingError(
                "too_few_players", f"{n} players cannot fill a table of {lo} or more"
            )
        if any(s not in self.table_sizes for s in sizes):
            raise SeatingError(
                "cannot_split", f"{n} players cannot be seated at tables of {self.table_sizes}"
            )
        return sizes

    def has_history(self) -> bool:
        """Whether anything but the order is known (met pairs, seats, points)."""
        return bool(
            any(t > 0 for t in self.met.values())
            or any(p.points or any(p.seats) for p in self.players)
        )

    @classmethod
    def build(
        cls,
        *,
        players: Sequence[PlayerId | SeatingPlayer],
        size: int,
        min_size: int,
        max_size: int,
        seed: int | str = 0,
        shuffle: bool = False,
        met: Mapping[frozenset[PlayerId], int] | None = None,
        size_rule: str = "even",
    ) -> SeatingRequest:
        """A request from ids (or :class:`SeatingPlayer`) in standings order and a game's
        limits: preferred ``size``, any size from ``min_size`` to ``max_size`` allowed
        (``size`` must be one of them); today's ``"even"`` sizes unless ``size_rule``
        says otherwise."""
        if not (isinstance(size, int) and min_size <= size <= max_size):
            raise SeatingError(
                "bad_table_size", f"the table size must be from {min_size} to {max_size}: {size!r}"
            )
        others = [s for s in range(min_size, max_size + 1) if s != size]
        return cls(
            players=tuple(
                p if isinstance(p, SeatingPlayer) else SeatingPlayer(id=p) for p in players
            ),
            table_sizes=(size, *others),
            met=dict(met or {}),
            seed=seed,
            shuffle=shuffle,
            size_rule=size_rule,
        )

    def to_json(self, labels: Mapping[Any, Any] | None = None) -> dict[str, Any]:
        """The request as the CLI reads it (:meth:`from_json` gives it back): players in
        order, ``met`` as ``[a, b, times]`` sorted (by the ids' text), every setting
        spelled out. With ``labels``: :meth:`relabel_json` of that, in the same pass
        (the same object; a round of 1,000 players records 1,000 ids and 4,500 pairs)."""
        label = labels or {}
        text: dict[Any, str] = {}  # str() of each id, once (the sort key)
        rows = []
        for pair, times in self.met.items():
            if not times:
                continue
            a, b = pair
            ta = text.get(a)
            if ta is None:
                ta = text[a] = str(a)
            tb = text.get(b)
            if tb is None:
                tb = text[b] = str(b)
            # Each pair by its ids' text (equal texts: as the pair iterates), keyed by
            # the two texts joined by a NUL: one string, which compares faster than a
            # tuple of two and orders as the pair of texts does when no text holds a
            # NUL (a text is then below any longer one it begins).
            if tb < ta:
                rows.append((tb + "\0" + ta, b, a, times))
            else:
                rows.append((ta + "\0" + tb, a, b, times))
        if any("\0" in t for t in text.values()):  # then by the texts themselves
            rows.sort(key=lambda row: (text[row[1]], text[row[2]]))
        else:
            rows.sort(key=itemgetter(0))
        return {
            "table_sizes": list(self.table_sizes),
            "players": [
                {"id": label.get(p.id, p.id), "points": p.points, "seats": list(p.seats)}
                for p in self.players
            ],
            "met": [[label.get(a, a), label.get(b, b), times] for _key, a, b, times in rows],
            "seed": self.seed,
            "shuffle": self.shuffle,
            "size_rule": self.size_rule,
            "rounds_left": self.rounds_left,
            "repeats": self.repeats,
            "top_table": self.top_table,
        }

    @staticmethod
    def relabel_json(data: Mapping[str, Any], labels: Mapping[Any, Any]) -> dict[str, Any]:
        """``data`` (:meth:`to_json`'s shape) with each player id found in ``labels``
        replaced by its label, in ``players`` and ``met`` alike; ids are labels only, so
        the request still seats the same tables (under the new names)."""

        def label(pid: Any) -> Any:
            return labels.get(pid, pid)

        return {
            **data,
            "players": [{**p, "id": label(p["id"])} for p in data.get("players", [])],
            "met": [[label(a), label(b), times] for a, b, times in data.get("met", [])],
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatingRequest:
        """Parse the CLI's JSON object (``{"table_sizes", "players", "met", "seed",
        "shuffle", "size_rule", "rounds_left", "repeats", "top_table"}``; ``players``
        items are ``{"id", "points", "seats"}`` or bare ids; all but ``table_sizes``
        and ``players`` optional)."""
        if not isinstance(data, Mapping):
            raise SeatingError("bad_input", "the input must be a JSON object")
        try:
            players = tuple(
                SeatingPlayer(
                    id=_id(p["id"]),
                    points=float(p.get("points", 0)),
                    seats=tuple(int(x) for x in p.get("seats", ())),
                )
                if isinstance(p, Mapping)
                else SeatingPlayer(id=_id(p))
                for p in data.get("players", ())
            )
            met: dict[frozenset[PlayerId], int] = {}
            for a, b, times in data.get("met", ()):
                if isinstance(times, bool) or not isinstance(times, int | float):
                    raise SeatingError("bad_input", f"bad met count {times!r}")
                if _id(a) == _id(b):
                    raise SeatingError("bad_input", f"a player cannot meet themselves: {a!r}")
                pair = frozenset((_id(a), _id(b)))
                met[pair] = met.get(pair, 0) + int(times)
            sizes = data.get("table_sizes")
            if not isinstance(sizes, list):
                raise SeatingError("no_table_sizes", "table_sizes must be a list")
            seed = data.get("seed")
            return cls(
                players=players,
                table_sizes=tuple(sizes),
                met=met,
                seed=0 if seed is None else seed,
                shuffle=bool(data.get("shuffle", False)),
                size_rule=data.get("size_rule", "preferred"),
                rounds_left=data.get("rounds_left"),
                repeats=data.get("repeats", "strict"),
                top_table=bool(data.get("top_table", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SeatingError):
                raise
            raise SeatingError("bad_input", f"malformed input: {exc}") from exc


def _id(value: Any) -> PlayerId:
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise SeatingError("bad_input", f"a player id must be a string or an integer: {value!r}")
    return value


@dataclass(frozen=True)
class SeatingOutcome:
    """One round's seating and what it achieved (stored with the round, issue 25):
    ``tables`` in seat order; ``method`` the one used (``"slice"``, ``"random"``,
    ``"greedy"``, ``"optimise"``); ``repeats`` repeat pairs; ``spread`` the mean table
    spread; ``seat_cost``; ``lower_bound`` the fewest repeat pairs possible, as far as
    the optimiser can show (0 when it found none; ``None`` when not computed: slicing)."""

    tables: list[list[PlayerId]]
    method: str
    repeats: int
    spread: float
    seat_cost: int
    lower_bound: int | None


def seat_round(
    request: SeatingRequest, *, method: str = "auto", max_evals: int = DEFAULT_MAX_EVALS
) -> list[list[PlayerId]]:
    """Seat one round: tables as lists of player ids in seat order (the first starts,
    play goes clockwise), in table order (the first table holds the best-placed
    players). Raises :class:`SeatingError` when the players cannot be seated (fewer
    than the smallest table, or sizes that cannot be met, or bad input).

    ``method``: one of :data:`METHODS` (``"auto"``: ``"optimise"`` once there is a
    history and repeats are not ``"off"``, today's ``"slice"`` before). ``max_evals``
    bounds the optimiser's work (evaluated swaps): the bound is a count, not a clock,
    so the result is the same on every machine.
    """
    return seat_round_explained(request, method=method, max_evals=max_evals).tables


def resolved_method(request: SeatingRequest, method: str = "auto") -> str:
    """The method ``"auto"`` stands for with ``request`` (see :data:`METHODS`)."""
    if method not in METHODS:
        raise SeatingError("bad_input", f"unknown seating method {method!r}")
    if method != "auto":
        return method
    if request.shuffle:
        return "random"
    if request.repeats == "off" or not request.has_history():
        return "slice"
    return "optimise"


def seat_round_explained(
    request: SeatingRequest, *, method: str = "auto", max_evals: int = DEFAULT_MAX_EVALS
) -> SeatingOutcome:
    """:func:`seat_round` with what the seating achieved (:class:`SeatingOutcome`)."""
    method = resolved_method(request, method)
    sizes = request.sizes()
    ids = [p.id for p in request.players]
    rng = random.Random(request.seed)
    players = list(request.players)
    problem = None
    if method == "random" or method == "slice" and request.shuffle:
        tables = random_tables(ids, sizes, rng)
    elif method == "slice":
        tables = slice_tables(ids, sizes, rng)
    else:
        if request.shuffle:
            rng.shuffle(players)
        problem = problem_of(players, request.met)
        if method == "greedy":
            tables = slice_tables(
                [players[i].id for t in greedy_groups(problem, sizes) for i in t], sizes, rng
            )
        else:
            groups = _groups(request, problem, sizes, rng, max_evals)
            tables = [[players[i].id for i in seat_order(t, problem.seats, rng)] for t in groups]
    found = measure(tables, request)
    bound = None
    if problem is not None:
        bound = repeat_lower_bound(problem, sizes, found.repeats)
    return SeatingOutcome(
        tables=tables,
        method=method,
        repeats=found.repeats,
        spread=found.mean_spread,
        seat_cost=found.seat_cost,
        lower_bound=bound,
    )


def _groups(
    request: SeatingRequest,
    problem: Problem,
    sizes: list[int],
    rng: random.Random,
    max_evals: int,
) -> list[list[int]]:
    """The optimiser's tables by index, under the request's repeat rule; with
    ``top_table`` in the last round, the leaders' table first and the others seated
    among themselves."""
    if request.top_table and request.rounds_left == 1 and len(sizes) > 1:
        head = list(range(sizes[0]))
        rest = list(range(sizes[0], problem.n))
        sub = Problem(
            points=[problem.points[i] for i in rest],
            seats=[problem.seats[i] for i in rest],
            adj=[
                {j - sizes[0]: t for j, t in problem.adj[i].items() if j >= sizes[0]} for i in rest
            ],
        )
        inner = _groups_by_rule(request, sub, sizes[1:], rng, max_evals)
        return [head, *[[rest[i] for i in t] for t in inner]]
    return _groups_by_rule(request, problem, sizes, rng, max_evals)


def _groups_by_rule(
    request: SeatingRequest,
    problem: Problem,
    sizes: list[int],
    rng: random.Random,
    max_evals: int,
) -> list[list[int]]:
    if request.repeats == "strict":
        return strict_groups(
            problem,
            sizes,
            rng,
            max_evals=max_evals,
            window=3,
            rounds_left=request.rounds_left,
        )
    return optimise_groups(
        problem, sizes, rng, max_evals=max_evals, rounds_left=request.rounds_left
    )


def problem_of(players: Sequence[SeatingPlayer], met: Mapping[frozenset[PlayerId], int]) -> Problem:
    """The optimiser's view of ``players`` (in this order) and ``met``: indices, not ids;
    pairs with a player not listed (dropped) are ignored."""
    index = {p.id: i for i, p in enumerate(players)}
    adj: list[dict[int, int]] = [{} for _ in players]
    get = index.get
    for pair, times in met.items():
        if times <= 0:
            continue
        a, b = pair  # a frozenset of two
        i, j = get(a), get(b)
        if i is None or j is None:
            continue
        adj[i][j] = times
        adj[j][i] = times
    return Problem(points=[p.points for p in players], seats=[p.seats for p in players], adj=adj)


def slice_baseline(request: SeatingRequest) -> list[list[PlayerId]]:
    """Baseline 1, today's Swiss seating: the standings sliced into the request's
    tables, seat order shuffled from the seed."""
    return seat_round(request, method="slice")


def greedy_baseline(request: SeatingRequest) -> list[list[PlayerId]]:
    """Baseline 2, the greedy: each table takes the best-placed player left, then the
    next players in standings order whom that player has not met; seat order shuffled."""
    return seat_round(request, method="greedy")


def seat_round_json(data: Any, *, method: str = "auto") -> dict[str, Any]:
    """:func:`seat_round_explained` from and to JSON-shaped data: ``{"tables": [[id,
    ...], ...], "method", "repeats", "spread", "seat_cost", "lower_bound"}``."""
    outcome = seat_round_explained(SeatingRequest.from_json(data), method=method)
    return {
        "tables": outcome.tables,
        "method": outcome.method,
        "repeats": outcome.repeats,
        "spread": outcome.spread,
        "seat_cost": outcome.seat_cost,
        "lower_bound": outcome.lower_bound,
    }
