"""Rules and helpers that several game kinds share, stated once (pure Python).

What is here is the same rule in every kind that uses it: how the fields of a start
event common to the kinds are checked, how a round (UNO: a hand) of a seeded game gets
its generator, how totals become places, how the hands are hidden from a spectator,
and the common steps of the series-of-rounds games (UNO and Casino: the event-type
checks of ``push``, a mapping naming every player), and the bots' set-up. The ``end``
and ``correction`` events, which every kind shares, are methods of
:class:`~games.engine.base.Game`, and how unknown event fields are refused is
:func:`~games.engine.base.check_keys` (re-exported here).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .base import IN_PROGRESS, Game, check_keys
from .errors import IllegalMove, InvalidEvent, shown

__all__ = [
    "all_in",
    "bot_players",
    "check_event_type",
    "choice",
    "check_keys",
    "competition_places",
    "every_player",
    "fmt_cards",
    "hide_hands",
    "is_int",
    "logging_push",
    "placements_line",
    "places_text",
    "public_deal_event",
    "run_tables",
    "round_rng",
    "seeded_mismatch",
    "shuffle",
    "start_dealer",
    "start_seed",
    "start_sheet_and_seed",
    "start_target",
]


def is_int(value: object) -> bool:
    """An integer that is not a ``bool`` (JSON's whole numbers)."""
    return type(value) is int


_STR = frozenset({str})


def all_in(codes: frozenset[str], value: list[Any]) -> bool:
    """Every item of the list ``value`` is a ``str`` (not a subclass) in ``codes`` (a
    card list: UNO's and Casino's card codes). Two set tests at C speed, no loop in
    Python; an unhashable item is in no set of codes."""
    try:
        return codes.issuperset(value) and _STR.issuperset(map(type, value))
    except TypeError:
        return False


def fmt_cards(cards: Iterable[str]) -> str:
    """Cards in an error message: codes separated by spaces, ``none`` for no card."""
    return " ".join(cards) or "none"


# ---------------------------------------------------------------------- start events
def start_seed(event: Mapping[str, Any]) -> int | str | None:
    """The optional ``seed`` of a start event: an integer or a string (``None``: the
    log names every card), else ``InvalidEvent``."""
    seed = event.get("seed")
    if seed is not None and not (is_int(seed) or isinstance(seed, str)):
        raise InvalidEvent("'seed' must be an integer or a string")
    return seed


def start_dealer(event: Mapping[str, Any], players: Sequence[str]) -> str:
    """The ``dealer`` of a start event (default: the first player), one of ``players``."""
    dealer = event.get("dealer", players[0])
    if type(dealer) is not str or dealer not in players:
        raise InvalidEvent(f"'dealer' must be one of the players, not {shown(dealer)}")
    return dealer


def start_target(event: Mapping[str, Any], default: int) -> int:
    """The ``target`` score of a start event (a positive integer; ``default`` if absent)."""
    target = event.get("target", default)
    if not is_int(target) or target < 1:
        raise InvalidEvent(f"'target' must be a positive integer, not {shown(target)}")
    return target


def start_sheet_and_seed(event: Mapping[str, Any]) -> tuple[bool, int | str | None]:
    """The ``sheet`` flag (default false) and then the ``seed`` (:func:`start_seed`) of a
    start event; a score sheet names no cards, so it refuses a seed."""
    sheet = event.get("sheet", False)
    if type(sheet) is not bool:
        raise InvalidEvent("'sheet' must be true or false")
    seed = start_seed(event)
    if sheet and seed is not None:
        raise InvalidEvent("a score sheet has no cards to shuffle: 'seed' is refused")
    return sheet, seed


# ---------------------------------------------------------------------- seeded draws
def fast_shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)`` with the same random draws: the same order and the same
    generator state after (a seeded log's cards depend on it).

    ``Random.shuffle`` swaps ``items[i]`` with ``items[_randbelow(i + 1)]`` for ``i``
    from the end down to 1, and ``_randbelow(m)`` draws ``getrandbits(m.bit_length())``
    until the value is below ``m``. Inlining that (bit lengths precomputed per length)
    saves two Python calls an item: a seeded UNO deal shuffles 108 cards in 10 µs
    instead of 19. Checked against ``Random.shuffle`` at import (:data:`shuffle` is the
    reference on a Python whose ``Random`` draws differently) and in the tests.
    """
    n = len(items)
    steps = _SHUFFLE_STEPS.get(n)
    if steps is None:
        steps = _SHUFFLE_STEPS[n] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, n))
        )
    getrandbits = rng.getrandbits
    for i, m, k in steps:
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def fast_choice(rng: random.Random, seq: Sequence[Any]) -> Any:
    """``rng.choice(seq)`` with the same random draws (``_randbelow`` inlined, as in
    :func:`fast_shuffle`): the bots choose a move several times a hand."""
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return seq[j]


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _reference_shuffle(rng: random.Random, items: list[Any]) -> None:
    rng.shuffle(items)


def _reference_choice(rng: random.Random, seq: Sequence[Any]) -> Any:
    return rng.choice(seq)


def _same_draws_as_random() -> bool:
    """:func:`fast_shuffle` and :func:`fast_choice` draw as this Python's ``Random``."""
    for seed in (0, 1, 7, 2**40 + 3, "uno/1", ""):
        for n in (1, 2, 3, 52, 108, 121, 200):
            fast, ref = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            fast_shuffle(a, fast)
            b.shuffle(ref)
            if fast != ref or fast_choice(a, fast) != b.choice(ref):  # pragma: no cover
                return False
            if a.getstate() != b.getstate():  # pragma: no cover
                return False
    return True


#: The shuffle and the choice in use: the inlined ones unless this Python's ``Random``
#: draws differently (then its own methods, so cards never depend on the optimisation).
shuffle, choice = (
    (fast_shuffle, fast_choice)
    if _same_draws_as_random()
    else (_reference_shuffle, _reference_choice)
)


def round_rng(seed: int | str, number: int) -> random.Random:
    """The generator of round (UNO: hand) ``number`` (1-based) of a game seeded with
    ``seed``: ``random.Random(f"{seed}/{number}")``. Its first use shuffles that round's
    deck from the kind's canonical order, so each round's cards depend on the seed and
    the round only."""
    return random.Random(f"{seed}/{number}")


# ---------------------------------------------------------------------- results
def competition_places(totals: list[int]) -> dict[int, int]:
    """Seat -> place by total, highest first; equal totals share a place and the next
    place is skipped (1, 2, 2, 4)."""
    return {p: 1 + sum(1 for t in totals if t > mine) for p, mine in enumerate(totals)}


def places_text(placements: Mapping[str, int]) -> str:
    """Placements as text, best place first: ``ana (1), ben (2)``."""
    ordered = sorted(placements.items(), key=lambda kv: kv[1])
    return ", ".join(f"{name} ({place})" for name, place in ordered)


def placements_line(placements: Mapping[str, int]) -> str:
    """The ``placements: ana (1), ben (2)`` line of a text summary (:func:`places_text`)."""
    return "placements: " + places_text(placements)


def hide_hands(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``summary`` as a spectator sees it: while a deal is being played
    (``turn`` is not ``null``) nobody sees another player's cards, so every ``hands``
    list is emptied and ``hand_sizes`` (``{player: number of cards}``) is added."""
    shown = dict(summary)
    hands = summary.get("hands")
    if summary.get("turn") is not None and isinstance(hands, Mapping):
        shown["hand_sizes"] = {p: len(h) for p, h in hands.items()}
        shown["hands"] = {p: [] for p in hands}
    return shown


def public_deal_event(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """A start or deal event as a spectator of a game in progress sees it, in every kind
    that deals hidden hands (UNO, Casino): the start without its ``seed`` (it fixes every
    deal) and a deal without its ``hands``; anything else as it is."""
    if not isinstance(event, Mapping):
        return event
    kind = event.get("type")
    if kind == "start" and "seed" in event:
        return {k: v for k, v in event.items() if k != "seed"}
    if kind == "deal" and "hands" in event:
        return {k: v for k, v in event.items() if k != "hands"}
    return event


# ---------------------------------------------------------------------- series of rounds
def apply_other_type(
    game: Any, event: object, keys_by_type: Mapping[str, frozenset[str]], sheet_line: str
) -> None:
    """UNO's and Casino's batch loop (``_run``) for an event that is not one of the types
    its game takes: one of the kind's own types out of place (a ``sheet_line`` line in a
    played game, a move on a score sheet) is refused by :func:`check_event_type`; an
    ``end`` or a ``correction`` is applied by the base class (``Game._event_type``,
    which refuses anything else, then ``Game._apply_shared``) and counted. ``game``: a
    :class:`Game` with a ``sheet`` flag. Off the hot path: the usual event is one of the
    game's own."""
    kind = event.get("type") if type(event) is dict else None
    if type(kind) is str and kind != "end" and kind in keys_by_type:
        check_event_type(event, keys_by_type, game._status, game.sheet, sheet_line)
    game._apply_shared(event, game._event_type(event))  # type: ignore[arg-type]
    game._events += 1


#: One entry of a ``_run`` table: the type's fields, its handler, a flag of the kind's.
RunEntry = tuple[frozenset[str], Any, bool]


def run_tables(
    keys_by_type: Mapping[str, frozenset[str]],
    handlers: Mapping[str, Any],
    flagged: frozenset[str],
    sheet_line: str,
) -> tuple[dict[str, RunEntry], dict[str, RunEntry]]:
    """The two tables of UNO's and Casino's ``_run`` (one lookup an event), for a played
    game and for a score sheet: each own type the game takes to ``(its fields, its
    handler, whether it is in flagged)``. ``end`` is the base class's; the
    ``sheet_line`` type only on a sheet, every other type only in a played game."""
    played = {
        kind: (keys, handlers[kind], kind in flagged)
        for kind, keys in keys_by_type.items()
        if kind not in ("end", sheet_line)
    }
    sheet = {sheet_line: (keys_by_type[sheet_line], handlers[sheet_line], False)}
    return played, sheet


def check_event_type(
    event: dict[str, Any],
    keys_by_type: Mapping[str, frozenset[str]],
    status: str,
    sheet: bool,
    sheet_line: str,
) -> str:
    """The checks UNO and Casino make of every event but a ``correction`` before their
    own rules, in this order: a known type (a ``start`` only as the first line), no
    unknown field (:func:`check_keys`), the game still in progress (``status``), and,
    for any type but ``end``, a score sheet (``sheet``) holding only ``sheet_line``
    lines, which only a score sheet holds. Returns the type."""
    kind = event.get("type")
    keys = keys_by_type.get(kind) if type(kind) is str else None
    if keys is None:
        if kind == "start":
            raise InvalidEvent("a 'start' event may only be the first line")
        raise InvalidEvent(f"unknown event type {shown(kind)}")
    check_keys(event, keys)
    if status != IN_PROGRESS:
        raise IllegalMove(f"the game is over ({status}); no events after the end")
    if kind != "end":
        if sheet and kind != sheet_line:
            raise IllegalMove(
                f"a score sheet holds only {shown(sheet_line)} lines, not {shown(kind)}"
            )
        if kind == sheet_line and not sheet:
            raise IllegalMove(
                f"{shown(sheet_line)} lines belong to a score sheet (start with sheet: true)"
            )
    return kind  # type: ignore[return-value]


def every_player(value: object, field: str, seats: Mapping[str, int], what: str) -> dict[str, Any]:
    """Check that ``value`` is an object naming every seated player (``seats``: name ->
    seat, in seat order) and nobody else, each mapped to ``what`` (words for the error
    message); ``InvalidEvent`` naming the missing and unknown players otherwise."""
    if not isinstance(value, dict):
        raise InvalidEvent(f"'{field}' must be an object mapping every player to {what}")
    if value.keys() != seats.keys():
        missing = [p for p in seats if p not in value]
        unknown = [str(k) for k in value if k not in seats]
        raise InvalidEvent(
            f"'{field}' must name every player (missing: {', '.join(missing) or '-'}; "
            f"not seated: {', '.join(unknown) or '-'})"
        )
    return value


def seeded_mismatch(
    what: str, names: Sequence[str], want: list[list[str]], given: list[list[str]]
) -> IllegalMove:
    """The error for cards ``given`` per seat that differ from the seeded ``want``: the
    first seat that differs, ``the seeded WHAT gives NAME CARDS, not CARDS``."""
    bad = next(p for p in range(len(want)) if given[p] != want[p])
    return IllegalMove(
        f"the seeded {what} gives {names[bad]} {fmt_cards(want[bad])}, not {fmt_cards(given[bad])}"
    )


# ---------------------------------------------------------------------- bots
def bot_players(
    cls: type[Game], game: str, players: Sequence[str] | int, defaults: Sequence[str]
) -> Sequence[str]:
    """The players of a bots' game of kind ``cls``, every simulator's rule: ``game``
    must be ``cls.kind``; a number of players (``min_players`` to ``max_players``) takes
    that many of ``defaults`` (ana, ben, ...), a list of names is kept as given (the
    start event checks it). ``InvalidEvent`` otherwise."""
    if game != cls.kind:
        raise InvalidEvent(f"the {cls.title} simulator cannot play {shown(game)}")
    if isinstance(players, int):
        lo, hi = cls.min_players, cls.max_players
        if not lo <= players <= hi:
            raise InvalidEvent(f"{cls.title} needs {lo} to {hi} players, not {players}")
        return defaults[:players]
    return players


def logging_push(game: Any, log: list[dict[str, Any]]) -> Callable[[dict[str, Any]], None]:
    """The bots' push for a kind that names dealt and drawn cards (UNO, Casino): push
    ``event`` to ``game``, fill in the cards the push named (``game._named``: a seeded
    deal's or draw's cards) and append it to ``log``, so the log replays without its
    seed."""

    def push(event: dict[str, Any]) -> None:
        game.push(event)
        named = game._named
        if named:
            event.update(named)
        log.append(event)

    return push
