"""How many tables, and of which sizes, for ``n`` players."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .errors import SeatingError


def split_sizes(n: int, size: int, *, min_size: int = 2, max_size: int | None = None) -> list[int]:
    """Table sizes for ``n`` players at tables of ``size``, largest first.

    ``ceil(n / size)`` tables, as even as possible (sizes differ by at most one, so some
    tables are one seat short), fewer tables when that would make a table smaller than
    ``min_size`` (so a table may then exceed ``size``; never a table of one). Fewer than
    ``min_size`` players: ``[]`` (nobody can be seated). A table above ``max_size``
    (``None``: no limit) raises :class:`SeatingError` (``"cannot_split"``).

    ``min_size``/``max_size`` are the game's limits (its ``min_players`` and
    ``max_players``); the caller passes them, this package knows no game.
    """
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise SeatingError("bad_table_size", f"the table size must be a positive integer: {size!r}")
    if min_size < 1 or (max_size is not None and max_size < min_size):
        raise SeatingError("bad_table_size", f"bad table size limits {min_size}..{max_size}")
    if n < max(min_size, 2):
        return []
    k = math.ceil(n / size)
    while k > 1 and n // k < min_size:
        k -= 1
    base, extra = divmod(n, k)
    sizes = [base + 1] * extra + [base] * (k - extra)
    if max_size is not None and sizes[0] > max_size:
        raise SeatingError(
            "cannot_split", f"{n} players cannot be seated at tables of {min_size} to {max_size}"
        )
    return sizes


def table_plan(n: int, table_sizes: Sequence[int]) -> list[int]:
    """Table sizes for ``n`` players under issue 9's rule: every player seated exactly
    once, at tables whose sizes are in ``table_sizes`` (the preferred size first, then
    the other sizes allowed), with as many tables of the preferred size as possible.

    Among the plans with that many preferred tables, the other tables are as close to
    the preferred size as possible (least total ``|size - preferred|``), then use the
    sizes listed earlier (a ``[4, 3, 5]`` event prefers a 3 to a 5 when both fit).
    The preferred tables come first, then the others, largest first (the odd tables
    go to the bottom of the standings). No plan (1 player, or 5 players at ``[4, 3]``):
    :class:`SeatingError` ``"cannot_split"`` (``"too_few_players"`` below the smallest
    size).

    >>> table_plan(10, [4, 3])
    [4, 3, 3]
    >>> table_plan(10, [4, 2, 3, 5, 6])
    [4, 4, 2]
    """
    if not table_sizes:
        raise SeatingError("no_table_sizes", "no table size given")
    for size in table_sizes:
        if not isinstance(size, int) or isinstance(size, bool) or size < 2:
            raise SeatingError("bad_table_size", f"bad table size {size!r}")
    if not isinstance(n, int) or n < 0:
        raise SeatingError("bad_input", f"bad number of players {n!r}")
    preferred = table_sizes[0]
    others: list[int] = []
    for size in table_sizes[1:]:
        if size != preferred and size not in others:
            others.append(size)
    if n < min(table_sizes):
        raise SeatingError(
            "too_few_players", f"{n} players cannot fill a table of {min(table_sizes)} or more"
        )
    rest = _RestPlans(preferred, others)
    for count in range(n // preferred, -1, -1):
        plan = rest.get(n - count * preferred)
        if plan is not None:
            return [preferred] * count + sorted(plan, reverse=True)
    raise SeatingError(
        "cannot_split", f"{n} players cannot be seated at tables of {list(table_sizes)}"
    )


class _RestPlans:
    """For each ``r``: the best multiset of ``others`` adding up to ``r`` (least total
    distance to ``preferred``, then fewest tables, then the earliest-listed sizes), or
    ``None``. A dynamic programme over ``r``, extended only as far as asked: the plan
    needs the rest after the most preferred tables, which is small (below a few times
    the largest size) whenever the count can be seated, so a 20,000-player round no
    longer pays for a plan of every count up to 20,000."""

    def __init__(self, preferred: int, others: list[int]) -> None:
        self.preferred = preferred
        self.others = others
        self.best: list[tuple[int, int, tuple[int, ...]] | None] = [(0, 0, ())]
        self.plans: list[list[int] | None] = [[]]

    def get(self, r: int) -> list[int] | None:
        best, plans = self.best, self.plans
        while len(best) <= r:
            m = len(best)
            found: tuple[int, int, tuple[int, ...]] | None = None
            plan: list[int] | None = None
            for rank, size in enumerate(self.others):
                prev = best[m - size] if size <= m else None
                if prev is None:
                    continue
                ranks = tuple(sorted((*prev[2], rank)))
                key = (prev[0] + abs(size - self.preferred), prev[1] + 1, ranks)
                if found is None or key < found:
                    found = key
                    plan = [*plans[m - size], size]  # type: ignore[misc]
            best.append(found)
            plans.append(plan)
        return plans[r]


def _seats(n: int, sizes: Sequence[int]) -> bool:
    try:
        table_plan(n, sizes)
    except SeatingError:
        return False
    return True


def _nearest_first(preferred: int, lo: int, hi: int) -> list[int]:
    """``preferred`` then every size from ``lo`` to ``hi``, nearest first (the smaller
    one first on a tie), as a table-sizes setting lists them."""
    others = sorted(
        (s for s in range(lo, hi + 1) if s != preferred), key=lambda s: (abs(s - preferred), s)
    )
    return [preferred, *others]


def sizes_that_seat(
    n: int, table_sizes: Sequence[int], *, min_size: int, max_size: int
) -> list[list[int]]:
    """Table-size settings that would seat ``n`` players when ``table_sizes`` (preferred
    first) cannot (:func:`table_plan`), for a game of ``min_size`` to ``max_size``
    players: at most two, each a whole range of sizes listed preferred first, then
    nearest first (``[4, 5]``, ``[4, 3, 2]``).

    The preferred size is kept; the first suggestion keeps the smallest size allowed now
    and raises the largest as little as possible, the second keeps the largest and
    lowers the smallest as little as possible (left out when the same or none). Nothing
    seats ``n`` (fewer players than the game's minimum): ``[]``.

    >>> sizes_that_seat(5, [4], min_size=2, max_size=6)
    [[4, 5], [4, 3, 2]]
    >>> sizes_that_seat(1, [4], min_size=2, max_size=6)
    []
    """
    preferred = table_sizes[0]
    low = max(min(min(table_sizes), preferred), min_size)
    high = min(max(max(table_sizes), preferred), max_size)
    found: list[list[int]] = []
    for top in range(high, max_size + 1):
        plan = _nearest_first(preferred, low, top)
        if _seats(n, plan):
            found.append(plan)
            break
    for bottom in range(low, min_size - 1, -1):
        plan = _nearest_first(preferred, bottom, high)
        if _seats(n, plan):
            if plan not in found:
                found.append(plan)
            break
    return found
