"""The entry point: one round's seating from plain data (the shape of the JSON the CLI
reads; see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import SeatingError
from .sizes import split_sizes
from .slicing import random_tables, slice_tables

#: A player's id: a handle in JSON, anything hashable from Python (the service uses pks).
PlayerId = Any

#: Seating methods :func:`seat_round` knows. ``"slice"``: today's (Swiss slices of the
#: standings, random tables when ``shuffle``). Issue 9's optimiser goes next to it.
METHODS = ("slice",)


@dataclass(frozen=True)
class SeatingPlayer:
    """One player to seat: ``points`` are tournament points so far; ``seats[i]`` counts
    the times the player sat in position ``i`` (0 starts) in this event."""

    id: PlayerId
    points: float = 0.0
    seats: tuple[int, ...] = ()


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
      event's first round without ratings).
    """

    players: tuple[SeatingPlayer, ...]
    table_sizes: tuple[int, ...]
    met: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    seed: int | str = 0
    shuffle: bool = False

    def __post_init__(self) -> None:
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

    @classmethod
    def build(
        cls,
        *,
        players: Sequence[PlayerId],
        size: int,
        min_size: int,
        max_size: int,
        seed: int | str = 0,
        shuffle: bool = False,
    ) -> SeatingRequest:
        """A request from ids in standings order and a game's limits: preferred ``size``,
        any size from ``min_size`` to ``max_size`` allowed (``size`` must be one of them)."""
        if not (isinstance(size, int) and min_size <= size <= max_size):
            raise SeatingError(
                "bad_table_size", f"the table size must be from {min_size} to {max_size}: {size!r}"
            )
        others = [s for s in range(min_size, max_size + 1) if s != size]
        return cls(
            players=tuple(SeatingPlayer(id=p) for p in players),
            table_sizes=(size, *others),
            seed=seed,
            shuffle=shuffle,
        )

    @classmethod
    def from_json(cls, data: Any) -> SeatingRequest:
        """Parse the CLI's JSON object (``{"table_sizes", "players", "met", "seed",
        "shuffle"}``; ``players`` items are ``{"id", "points", "seats"}`` or bare ids)."""
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
                met[frozenset((_id(a), _id(b)))] = int(times)
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
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SeatingError):
                raise
            raise SeatingError("bad_input", f"malformed input: {exc}") from exc


def _id(value: Any) -> PlayerId:
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise SeatingError("bad_input", f"a player id must be a string or an integer: {value!r}")
    return value


def seat_round(request: SeatingRequest, *, method: str = "slice") -> list[list[PlayerId]]:
    """Seat one round: tables as lists of player ids in seat order (the first starts,
    play goes clockwise). Raises :class:`SeatingError` when the players cannot be seated
    (fewer than the smallest table, or sizes that cannot be met).

    The place for issue 9's optimiser: a new ``method`` (and, once it is the better
    seating, the default) taking the same request, ``met`` and ``seats`` included.
    """
    if method not in METHODS:
        raise SeatingError("bad_input", f"unknown seating method {method!r}")
    preferred = request.table_sizes[0]
    lo, hi = min(request.table_sizes), max(request.table_sizes)
    ids = [p.id for p in request.players]
    sizes = split_sizes(len(ids), preferred, min_size=lo, max_size=hi)
    if not sizes:
        raise SeatingError(
            "too_few_players", f"{len(ids)} players cannot fill a table of {lo} or more"
        )
    if any(s not in request.table_sizes for s in sizes):
        raise SeatingError(
            "cannot_split",
            f"{len(ids)} players cannot be seated at tables of {request.table_sizes}",
        )
    rng = random.Random(request.seed)
    if request.shuffle:
        return random_tables(ids, sizes, rng)
    return slice_tables(ids, sizes, rng)


def seat_round_json(data: Any, *, method: str = "slice") -> dict[str, Any]:
    """:func:`seat_round` from and to JSON-shaped data: ``{"tables": [[id, ...], ...]}``."""
    return {"tables": seat_round(SeatingRequest.from_json(data), method=method)}
