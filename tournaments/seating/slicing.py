"""Today's seating: consecutive slices of an order, each table's seat order shuffled."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .errors import SeatingError

T = TypeVar("T")


def slice_tables(players: Sequence[T], sizes: Sequence[int], rng: random.Random) -> list[list[T]]:
    """Cut ``players`` into consecutive groups of ``sizes`` (in that order), then shuffle
    the seat order at each table with ``rng`` (table by table, first table first).

    Swiss: ``players`` in standings order, best first, so the best sit together.
    """
    if sum(sizes) != len(players):
        raise SeatingError(
            "cannot_split", f"table sizes {list(sizes)} do not add up to {len(players)} players"
        )
    tables: list[list[T]] = []
    start = 0
    for size in sizes:
        table = list(players[start : start + size])
        rng.shuffle(table)
        tables.append(table)
        start += size
    return tables


def random_tables(players: Sequence[T], sizes: Sequence[int], rng: random.Random) -> list[list[T]]:
    """Random tables: shuffle ``players`` with ``rng``, then :func:`slice_tables` with the
    same ``rng`` (one stream, so a seed gives one seating)."""
    order = list(players)
    rng.shuffle(order)
    return slice_tables(order, sizes, rng)
