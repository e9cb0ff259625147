"""How many tables, and of which sizes, for ``n`` players."""

from __future__ import annotations

import math

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
