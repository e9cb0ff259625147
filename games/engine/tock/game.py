"""The TOCK ruleset as the engine plays it (``docs/rules/tock.md`` is the reference).

State, in seat order ``0..n-1`` (clockwise):

* ``_deck``/``_pos`` (seeded games): the shuffled table in draw order, ``_deck[_pos]`` next;
  ``_counts`` (unseeded games): the multiset of face-down table cards by value.
* ``_center``: top card of each open series, in opening order; ``_fit`` is derived from
  it (card -> the series it fits, or -1) and kept in step by ``_put_center``.
* ``_piles[p]``: p's face-up discard, bottom first (``[-1]`` is the top card).
* ``_stocks[p]``: p's own face-down stock, bottom first (``[-1]`` is drawn next).
  Both are ``bytearray`` (cards are 1..21): they behave like lists of ints, and the
  stalemate key of a position is then one ``bytes.join`` of them (see ``_repeated``).
* ``_active``: seat to move (``None`` once over); ``_acted``: it has acted this turn.
* ``_cur``/``_prev``: unpenalised infraction indices of the current turn and of the turn
  that just ended (``_prev_player``), which is what a knock is judged against.

Invariant: the 121 cards are always in exactly one of table, center (a series with top
``t`` holds ``t`` cards), piles and stocks.

Replaying logs fast is a product requirement (see ``bench/bench_engine.py``): ``push``
validates with direct type checks instead of building event objects, and ``push_many``
(used by ``replay``) applies the common clean events inline, falling back to ``push``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..base import FINISHED, IN_PROGRESS, STALEMATE, Game, register
from ..errors import EngineError, IllegalMove, InvalidEvent, LogError
from .rules import (
    DECK_SIZE,
    END_REASONS,
    FORGOT_CENTER,
    FORGOT_DISCARD,
    MODES,
    SERIES,
    TOP,
    TRAVIESO,
    WRONG_DISCARD,
    card_counts,
    shuffled_deck,
)

_NOBODY = object()  # push_many(): the player to move once the game is over
START_KEYS = frozenset({"type", "game", "players", "first", "mode", "seed"})
PLAY_KEYS = frozenset({"type", "player", "card", "to", "series"})
DRAW_KEYS = frozenset({"type", "player", "card", "to", "series"})
FLIP_KEYS = frozenset({"type", "player"})
TOCK_KEYS = frozenset({"type", "player", "ruling", "referee"})
END_KEYS = frozenset({"type", "reason", "referee", "placements"})
RULINGS = ("correct", "incorrect")
STATE_VERSION = 1


def _unknown_fields(event: dict[str, Any], allowed: frozenset[str]) -> InvalidEvent:
    extra = sorted(k for k in event if k not in allowed and not k.startswith("_"))
    return InvalidEvent(f"unknown field(s) for {event.get('type')!r} event: {', '.join(extra)}")


def _check_keys(event: dict[str, Any], allowed: frozenset[str]) -> None:
    # Keys starting with "_" are reserved for callers' metadata and ignored.
    if not event.keys() <= allowed and any(
        k not in allowed and not k.startswith("_") for k in event
    ):
        raise _unknown_fields(event, allowed)


def _is_int(value: object) -> bool:
    return type(value) is int


def _competition_places(order: list[int], counts: list[int], base: int) -> dict[int, int]:
    """Places ``base+1..`` for seats in ``order`` by fewest ``counts``; equal counts share."""
    places: dict[int, int] = {}
    for p in order:
        places[p] = base + 1 + sum(1 for q in order if counts[q] < counts[p])
    return places


_SEP = b"\0"
_SEAT_BYTE = [bytes((p,)) for p in range(256)]  # seat p as one byte


def _position_key(p: int, parts: Iterable[Iterable[int]]) -> bytes:
    """Stalemate key of a position: seat ``p`` to move, then each card sequence (every
    discard, then every stock) preceded by a 0 byte (cards are 1..21, so the 0 bytes
    separate unambiguously). ``TockGame._repeated`` joins the same from its bytearrays."""
    return _SEP.join([_SEAT_BYTE[p], *map(bytes, parts)])


def _fit_table(center: list[int]) -> list[int]:
    """``fit[v]`` for cards ``v`` = 0..21: the series ``v`` fits given the series tops
    ``center`` (the first whose top is ``v - 1``; a 1 opens series ``len(center)``),
    -1 if none. ``TockGame._put_center`` keeps it up to date incrementally."""
    fit = [-1] * (TRAVIESO + 1)
    if len(center) < SERIES:
        fit[1] = len(center)
    for k in reversed(range(len(center))):  # reversed: the first series wins
        if center[k] < TOP:
            fit[center[k] + 1] = k
    return fit


def _ordinal(i: int) -> str:
    """1st, 2nd, 3rd, 4th, 5th (at most five players go out before the game ends)."""
    return f"{i}{('th', 'st', 'nd', 'rd')[i] if i < 4 else 'th'}"


@register
class TockGame(Game):
    """One game of TOCK. Build it with :meth:`start` (or ``games.engine.start``)."""

    kind = "tock"
    title = "TOCK"
    min_players = 2
    max_players = 6
    #: ``"center"`` is a destination (``"to": "center"``), so no player may be named so.
    reserved_names = frozenset({"center"})

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:  # use start() / from_state()
        self._names: tuple[str, ...] = ()
        self._idx: dict[str, int] = {}
        self._n = 0
        self.mode = "table"
        self.seed: int | str | None = None
        self._deck: list[int] | None = None
        self._pos = 0
        self._counts: list[int] | None = None
        self._table = DECK_SIZE
        self._center: list[int] = []
        self._piles: list[bytearray] = []
        self._stocks: list[bytearray] = []
        self._in: list[bool] = []
        self._out: list[int] = []
        self._active: int | None = 0
        self._acted = False
        self._cur: list[int] = []
        self._prev_player: int | None = None
        self._prev: list[int] = []
        self._infractions: list[dict[str, Any]] = []
        self._knocks: list[dict[str, Any]] = []
        self._status = IN_PROGRESS
        self._placements: dict[int, int] | None = None
        self._end: dict[str, Any] | None = None
        # Derived from _center (kept in step by _put_center): _fit[v] = the series a
        # card v fits without an explicit "series" (the first whose top is v - 1;
        # len(_center) for a 1 opening a new one), -1 if none. Index 0 is unused.
        self._fit: list[int] = _fit_table([])
        # Stalemate detection: positions (player to move, then every discard and every
        # stock) seen at turn starts since the center last changed, with their counts;
        # _seen_center = the number of cards in the center then.
        self._seen: dict[bytes, int] = {}
        self._seen_center = -1
        self._events = 1
        self._turns = 1

    @classmethod
    def start(cls, event: dict[str, Any]) -> TockGame:
        """Create a game from ``{"type":"start","game":"tock","players":[...],...}``.

        ``first`` defaults to the first player, ``mode`` to ``"table"``; ``seed``
        (an int or a string) shuffles the table, see :func:`.rules.shuffled_deck`.
        """
        if not isinstance(event, dict):
            raise InvalidEvent("the start event must be a JSON object")
        if event.get("type") != "start":
            raise InvalidEvent("the first event must have type 'start'")
        if event.get("game") != cls.kind:
            raise InvalidEvent(f"start event is for game {event.get('game')!r}, not {cls.kind!r}")
        _check_keys(event, START_KEYS)
        players = event.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InvalidEvent("'players' must be a list of player names")
        if not cls.min_players <= len(players) <= cls.max_players:
            raise InvalidEvent(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players, "
                f"not {len(players)}"
            )
        if any(not p.strip() for p in players):
            raise InvalidEvent("player names must not be empty")
        if len(set(players)) != len(players):
            raise InvalidEvent("player names must be unique")
        for name in players:
            if name in cls.reserved_names:
                raise InvalidEvent(f"{name!r} is reserved and cannot be a player name")
        first = event.get("first", players[0])
        if first not in players:
            raise InvalidEvent(f"'first' must be one of the players, not {first!r}")
        mode = event.get("mode", "table")
        if mode not in MODES:
            raise InvalidEvent(f"'mode' must be 'table' or 'strict', not {mode!r}")
        seed = event.get("seed")
        if seed is not None and not (_is_int(seed) or isinstance(seed, str)):
            raise InvalidEvent("'seed' must be an integer or a string")

        g = cls()
        g._names = tuple(players)
        g._idx = {p: i for i, p in enumerate(players)}
        g._n = len(players)
        g.mode = mode
        g.seed = seed
        if seed is None:
            g._counts = card_counts()
        else:
            g._deck = shuffled_deck(seed)
        g._piles = [bytearray() for _ in players]
        g._stocks = [bytearray() for _ in players]
        g._in = [True] * g._n
        g._active = g._idx[first]
        return g

    @classmethod
    def event_needs_referee(cls, event: Mapping[str, Any]) -> bool:
        """A knock carrying a ``ruling``, or an ``end`` for any reason but ``"time"``
        (an adjudication), is the referee's."""
        if not isinstance(event, Mapping):
            return False
        return "ruling" in event or (event.get("type") == "end" and event.get("reason") != "time")

    # ------------------------------------------------------------------ public API
    @property
    def status(self) -> str:
        return self._status

    @property
    def players(self) -> tuple[str, ...]:
        return self._names

    @property
    def event_count(self) -> int:
        return self._events

    @property
    def turn(self) -> str | None:
        """The player to move, ``None`` once the game is over."""
        return None if self._active is None else self._names[self._active]

    @property
    def table_count(self) -> int:
        """Face-down cards left on the table."""
        return self._table

    def placements(self) -> dict[str, int] | None:
        if self._placements is None:
            return None
        names = self._names
        return {names[p]: place for p, place in sorted(self._placements.items())}

    def push(self, event: dict[str, Any]) -> None:
        """Validate ``event`` and apply it; on error nothing changes.

        Raises ``InvalidEvent`` for malformed events, ``IllegalMove`` for broken rules.
        """
        if type(event) is not dict:
            raise InvalidEvent("an event must be a JSON object")
        t = event.get("type")
        handler = _HANDLERS.get(t) if type(t) is str else None
        if handler is None:
            if t == "start":
                raise InvalidEvent("a 'start' event may only be the first line")
            raise InvalidEvent(f"unknown event type {t!r}")
        if self._status != IN_PROGRESS:
            raise IllegalMove(f"the game is over ({self._status}); no events after the end")
        handler(self, event)
        self._events += 1

    def push_many(self, events: Iterable[dict[str, Any]]) -> None:
        """Push events in order; raises ``LogError`` whose line is the failing event's.

        Same result as calling :meth:`push` for each event, only faster: the common
        events (a ``draw`` or a ``play`` that breaks no priority, a clean ``flip``) are
        validated and applied inline here. Anything else (knocks, ``end``, ``series``,
        ``_`` metadata keys, infractions, errors) goes through :meth:`push`, which is the
        reference; a property test checks that both paths agree on valid and corrupted
        logs.

        The loop keeps the hot counters in local variables (``me``, ``table``, ``pos``,
        ``acted``, ``done``) and writes them back to ``self`` before anything that reads
        ``self`` (the slow path, :meth:`_settle`, :meth:`_finish`) and when it stops, so
        the object is consistent whenever code outside the loop runs. Fast events cannot
        fail once validated, so an error always comes from the slow path, which is atomic.

        Invariant the fast path relies on: with the table empty, every player still in
        has own cards (``_settle`` puts out anyone who has none after every event), so
        only the events flagged ``settle`` below can make someone go out.
        """
        names, idx, piles, stocks = self._names, self._idx, self._piles, self._stocks
        center, deck, counts, fit, inn = self._center, self._deck, self._counts, self._fit, self._in
        n = self._n
        # Top card of each discard; -9 for an empty one, so ``c ± 1 in tops`` never
        # matches it (cards are 1..21).
        tops = [q[-1] if q else -9 for q in piles]
        slow = self.push
        me = self._active
        # Name of the player to move; _NOBODY (equal to no event's "player") once the
        # game is over, so that every later event goes to the slow path, which rejects it.
        myname = names[me] if self._status == IN_PROGRESS else _NOBODY  # type: ignore[index]
        table, pos, acted, done = self._table, self._pos, self._acted, self._events
        try:
            for ev in events:
                # Decide whether ``ev`` is a clean fast event; j = its destination
                # (-1 center, else a seat), None = hand it to the slow path.
                j = None
                if type(ev) is not dict:
                    player = None
                elif len(ev) == 4:
                    # The usual shape: exactly type, player, card and to (subscripts
                    # are cheaper than .get(); a KeyError means another key, which
                    # the slow path judges).
                    try:
                        kind = ev["type"]
                        player = ev["player"]
                        card = ev["card"]
                        to = ev["to"]
                    except KeyError:
                        player = None
                else:
                    # A draw naming no card (3 keys) or a flip (2 keys): the count
                    # must match the keys found, so that none is unknown.
                    kind, player, to = ev.get("type"), ev.get("player"), ev.get("to")
                    card = None
                    if len(ev) != (2 if to is None else 3):
                        player = None
                if player == myname:
                    if to is not None:
                        if kind == "draw":
                            own = tops[me]  # type: ignore[index]
                            if own > 0 and (fit[own] >= 0 or own - 1 in tops or own + 1 in tops):
                                pass  # forgot_discard: the own top card fits somewhere
                            else:
                                # c = the drawn card, or 0 if the event names another one.
                                if table:
                                    if deck is not None:
                                        c = deck[pos]
                                        if card is not None and (
                                            type(card) is not int or card != c
                                        ):
                                            c = 0
                                    elif type(card) is int and 0 < card <= TRAVIESO:
                                        c = card if counts[card] else 0  # type: ignore[index]
                                    else:
                                        c = 0
                                else:
                                    stock = stocks[me]  # type: ignore[index]
                                    c = stock[-1] if stock else 0
                                    if card is not None and (type(card) is not int or card != c):
                                        c = 0
                                if not c:
                                    pass
                                elif to == myname:  # the most common destination
                                    # Own discard: only if c fits nowhere else (the own
                                    # top blanked for the question), else wrong_discard.
                                    if fit[c] < 0:
                                        tops[me] = -9  # type: ignore[index]
                                        if c - 1 not in tops and c + 1 not in tops:
                                            j = me
                                        tops[me] = own  # type: ignore[index]
                                elif to == "center":
                                    if fit[c] >= 0:
                                        j = -1
                                elif type(to) is str and to in idx:
                                    # Another player (not forgot_center, and it fits).
                                    t = idx[to]
                                    if fit[c] < 0 and tops[t] - c in (1, -1):
                                        j = t
                        elif kind == "play":
                            c = tops[me]  # type: ignore[index]
                            if c > 0 and type(card) is int and card == c:
                                if to == "center":
                                    if fit[c] >= 0:
                                        j = -1
                                elif type(to) is str and to in idx:
                                    t = idx[to]
                                    if t != me and fit[c] < 0 and tops[t] - c in (1, -1):
                                        j = t
                    elif kind == "flip" and len(ev) == 2 and not table:
                        own = tops[me]  # type: ignore[index]
                        pile = piles[me]  # type: ignore[index]
                        if (
                            pile
                            and not stocks[me]  # type: ignore[index]
                            and not (fit[own] >= 0 or own - 1 in tops or own + 1 in tops)
                        ):
                            # Turned over as one block: the old bottom card ends on top.
                            # Nobody's own cards change, so no one goes out (no _settle).
                            pile.reverse()
                            stocks[me] = pile  # type: ignore[index]
                            piles[me] = bytearray()  # type: ignore[index]
                            tops[me] = -9  # type: ignore[index]
                            if not acted:
                                acted = True
                                self._prev_player = None
                                self._prev = []
                            done += 1
                            continue
                if j is None:
                    self._table, self._pos, self._acted, self._events = table, pos, acted, done
                    slow(ev)
                    me = self._active
                    myname = names[me] if self._status == IN_PROGRESS else _NOBODY  # type: ignore[index]
                    table, pos, acted, done = self._table, self._pos, self._acted, self._events
                    tops = [q[-1] if q else -9 for q in piles]
                    continue
                # -- apply: the event is legal and breaks no priority
                settle = False
                if kind == "draw":
                    if table:
                        if deck is not None:
                            pos += 1
                        else:
                            counts[c] -= 1  # type: ignore[index]
                        table -= 1
                        settle = not table  # the table just ran out
                    else:
                        stock.pop()
                        settle = not stock and not piles[me]  # type: ignore[index]
                else:
                    pile = piles[me]  # type: ignore[index]
                    pile.pop()
                    if pile:
                        tops[me] = pile[-1]  # type: ignore[index]
                    else:
                        tops[me] = -9  # type: ignore[index]
                        # Only the active player loses own cards here: maybe goes out.
                        settle = not table and not stocks[me]  # type: ignore[index]
                if j == -1:
                    # Inline _put_center(): the card goes on series k; refresh fit[].
                    k = fit[c]
                    if c == 1:
                        center.append(1)
                        fit[1] = len(center) if len(center) < SERIES else -1
                        if fit[2] < 0:
                            fit[2] = k
                    else:
                        center[k] = c
                        fit[c] = center.index(c - 1) if c - 1 in center else -1
                        if c == TOP:
                            settle = True  # maybe all six series are complete
                        elif fit[c + 1] < 0 or fit[c + 1] > k:
                            fit[c + 1] = k
                else:
                    piles[j].append(c)
                    tops[j] = c
                if not acted:
                    acted = True
                    self._prev_player = None
                    self._prev = []
                done += 1
                if settle:
                    self._table, self._pos, self._acted, self._events = table, pos, acted, done
                    self._settle(j == me)
                    me = self._active
                    myname = names[me] if self._status == IN_PROGRESS else _NOBODY  # type: ignore[index]
                    acted = self._acted
                    tops = [q[-1] if q else -9 for q in piles]
                elif j == me:
                    # The turn ends: the same steps as _next_turn().
                    self._prev_player = me
                    self._prev = self._cur
                    self._cur = []
                    acted = False
                    self._turns += 1
                    me += 1  # type: ignore[operator]
                    if me == n:
                        me = 0
                    while not inn[me]:
                        me = me + 1 if me + 1 < n else 0
                    myname = names[me]
                    self._active = me
                    if not table and self._repeated(me):
                        self._finish(STALEMATE)
                        myname = _NOBODY
        except EngineError as exc:
            # Only slow() and _settle() raise, after the locals were written back.
            raise LogError(self._events + 1, str(exc), exc) from None
        finally:
            # Also on errors: a failed push() changed nothing, so the locals are current.
            self._table, self._pos, self._acted, self._events = table, pos, acted, done

    # ------------------------------------------------------------------ rule helpers
    def _center_slot(self, card: int) -> int:
        """Series index the card fits in the center (``len`` means a new series), or -1."""
        return self._fit[card] if 0 < card <= TRAVIESO else -1

    def _put_center(self, card: int, k: int) -> None:
        """Put ``card`` on series ``k`` (``k == len`` opens one) and keep ``_fit`` in step.

        Only two entries can change: who takes ``card`` next (the series that had
        ``card - 1`` on top) and ``card + 1`` (which now fits series ``k``, unless an
        earlier series already had ``card`` on top). ``push_many`` inlines this.
        """
        c, fit = self._center, self._fit
        if card == 1:
            c.append(1)
            fit[1] = len(c) if len(c) < SERIES else -1
            if fit[2] < 0:
                fit[2] = k
        else:
            c[k] = card
            fit[card] = c.index(card - 1) if card - 1 in c else -1
            if card < TOP and (fit[card + 1] < 0 or fit[card + 1] > k):
                fit[card + 1] = k

    def _fits_other(self, card: int, me: int) -> bool:
        """Whether ``card`` fits the face-up discard of a player other than ``me``."""
        for p, pile in enumerate(self._piles):
            if pile and p != me:
                d = pile[-1] - card
                if d == 1 or d == -1:
                    return True
        return False

    def _fits(self, card: int, me: int) -> bool:
        return self._center_slot(card) >= 0 or self._fits_other(card, me)

    def _where(self, card: int, me: int) -> str:
        """Human description of where a card fits, for error messages."""
        if self._center_slot(card) >= 0:
            return "the center"
        names = [
            self._names[p]
            for p, pile in enumerate(self._piles)
            if p != me and pile and abs(pile[-1] - card) == 1
        ]
        return ", ".join(names) if names else "nowhere"

    def _actor(self, event: dict[str, Any]) -> int:
        name = event.get("player")
        i = self._idx.get(name) if type(name) is str else None
        if i is None:
            raise InvalidEvent(f"unknown player {name!r}")
        if i != self._active:
            if not self._in[i]:
                raise IllegalMove(f"{name} has gone out and cannot act")
            raise IllegalMove(f"{name} acted out of turn (it is {self.turn}'s turn)")
        return i

    def _card_field(self, event: dict[str, Any], required: bool) -> int | None:
        card = event.get("card")
        if card is None:
            if required:
                raise InvalidEvent("'card' is required")
            return None
        if type(card) is not int or not 1 <= card <= TRAVIESO:
            raise InvalidEvent(f"'card' must be an integer from 1 to 21, not {card!r}")
        return card

    def _target(self, event: dict[str, Any], me: int, own_ok: bool) -> int:
        """Decode ``to``: -1 for the center, else a seat index."""
        to = event.get("to")
        if to == "center":
            return -1
        j = self._idx.get(to) if type(to) is str else None
        if j is None:
            raise InvalidEvent(f"'to' must be 'center' or a player's name, not {to!r}")
        if j == me and not own_ok:
            raise IllegalMove("a face-up card cannot be played onto your own discard")
        return j

    def _series(self, event: dict[str, Any], card: int, to: int) -> int:
        """Series index for a placement to the center (validates fit and ``series``)."""
        k = event.get("series")
        if to != -1:
            if k is not None:
                raise InvalidEvent("'series' only applies to a card placed in the center")
            return -1
        c = self._center
        if k is None:
            s = self._center_slot(card)
            if s >= 0:
                return s
            raise IllegalMove(self._no_fit_center(card))
        if type(k) is not int or k < 0:
            raise InvalidEvent(f"'series' must be a non-negative integer, not {k!r}")
        if card == 1 or card == TRAVIESO:
            if card == 1 and k == len(c) < SERIES:
                return k
            if card == 1 and len(c) < SERIES:
                raise IllegalMove(f"a 1 opens a new series (number {len(c)}), not series {k}")
            raise IllegalMove(self._no_fit_center(card))
        if k >= len(c):
            raise IllegalMove(f"there is no series {k} (only {len(c)} open)")
        if c[k] != card - 1:
            raise IllegalMove(f"{card} does not fit series {k} (its top is {c[k]})")
        return k

    def _no_fit_center(self, card: int) -> str:
        if card == TRAVIESO:
            return "21 (El Travieso) never fits the center"
        if card == 1:
            return "a 1 cannot open a seventh series"
        return f"{card} does not fit the center (tops: {self._tops()})"

    def _tops(self) -> str:
        return " ".join(map(str, self._center)) or "none open"

    def _infraction(self, kind: str, me: int, detail: str) -> None:
        if self.mode == "strict":
            raise IllegalMove(f"{kind}: {detail}")

    def _record(self, kinds: list[str], me: int) -> None:
        n = self._events + 1
        for kind in kinds:
            self._cur.append(len(self._infractions))
            self._infractions.append(
                {"event": n, "player": self._names[me], "kind": kind, "penalized": False}
            )

    def _place(self, card: int, to: int, series: int, me: int) -> None:
        if to == -1:
            self._put_center(card, series)
        else:
            self._piles[to].append(card)

    def _act(self) -> None:
        # First action of a turn: the previous turn can no longer be knocked on.
        if not self._acted:
            self._acted = True
            self._prev_player = None
            self._prev = []

    # ------------------------------------------------------------------ event handlers
    def _on_play(self, event: dict[str, Any]) -> None:
        _check_keys(event, PLAY_KEYS)
        me = self._actor(event)
        card = self._card_field(event, True)
        pile = self._piles[me]
        if not pile:
            raise IllegalMove(f"{self._names[me]} has no face-up card to play")
        if pile[-1] != card:
            raise IllegalMove(f"{self._names[me]}'s top card is {pile[-1]}, not {card}")
        to = self._target(event, me, own_ok=False)
        assert card is not None
        series = self._series(event, card, to)
        kinds = []
        if to != -1:
            top = self._piles[to]
            if not top or abs(top[-1] - card) != 1:
                raise IllegalMove(self._no_fit_player(card, to))
            if self._center_slot(card) >= 0:
                self._infraction(FORGOT_CENTER, me, f"{card} fits the center")
                kinds.append(FORGOT_CENTER)
        pile.pop()
        self._place(card, to, series, me)
        self._act()
        if kinds:
            self._record(kinds, me)
        self._settle(False)

    def _no_fit_player(self, card: int, to: int) -> str:
        top = self._piles[to]
        name = self._names[to]
        if not top:
            return f"{card} cannot go to {name}: their face-up discard is empty"
        return f"{card} does not fit {name}'s top card {top[-1]}"

    def _on_draw(self, event: dict[str, Any]) -> None:
        _check_keys(event, DRAW_KEYS)
        me = self._actor(event)
        name = self._names[me]
        deck = self._deck
        from_table = self._table > 0
        if from_table:
            card = self._card_field(event, deck is None)
            if deck is not None:
                nxt = deck[self._pos]
                if card is not None and card != nxt:
                    raise IllegalMove(f"the next face-down table card is {nxt}, not {card}")
                card = nxt
            elif self._counts[card] == 0:  # type: ignore[index]
                raise IllegalMove(f"no {card} is left face down on the table")
        else:
            card = self._card_field(event, False)
            stock = self._stocks[me]
            if not stock:
                if self._piles[me]:
                    raise IllegalMove(
                        f"the table is empty and {name}'s stock is empty: flip the discard first"
                    )
                raise IllegalMove(f"{name} has no face-down card to draw")
            if card is not None and card != stock[-1]:
                raise IllegalMove(f"the top of {name}'s stock is {stock[-1]}, not {card}")
            card = stock[-1]
        to = self._target(event, me, own_ok=True)
        series = self._series(event, card, to)
        kinds = []
        pile = self._piles[me]
        if pile and self._fits(pile[-1], me):
            self._infraction(
                FORGOT_DISCARD, me, f"top card {pile[-1]} fits {self._where(pile[-1], me)}"
            )
            kinds.append(FORGOT_DISCARD)
        if to == me:
            if self._fits(card, me):
                self._infraction(WRONG_DISCARD, me, f"drawn {card} fits {self._where(card, me)}")
                kinds.append(WRONG_DISCARD)
        elif to != -1:
            top = self._piles[to]
            if not top or abs(top[-1] - card) != 1:
                raise IllegalMove(self._no_fit_player(card, to))
            if self._center_slot(card) >= 0:
                self._infraction(FORGOT_CENTER, me, f"drawn {card} fits the center")
                kinds.append(FORGOT_CENTER)
        # -- apply
        if from_table:
            if deck is not None:
                self._pos += 1
            else:
                self._counts[card] -= 1  # type: ignore[index]
            self._table -= 1
        else:
            self._stocks[me].pop()
        self._place(card, to, series, me)
        self._act()
        if kinds:
            self._record(kinds, me)
        self._settle(to == me)

    def _on_flip(self, event: dict[str, Any]) -> None:
        _check_keys(event, FLIP_KEYS)
        me = self._actor(event)
        name = self._names[me]
        if self._table:
            raise IllegalMove(f"cannot flip while {self._table} face-down table cards remain")
        if self._stocks[me]:
            raise IllegalMove(f"cannot flip: {name}'s stock is not empty yet")
        pile = self._piles[me]
        if not pile:
            raise IllegalMove(f"cannot flip: {name}'s discard is empty")
        kinds = []
        if self._fits(pile[-1], me):
            self._infraction(
                FORGOT_DISCARD, me, f"top card {pile[-1]} fits {self._where(pile[-1], me)}"
            )
            kinds.append(FORGOT_DISCARD)
        # Turned over as one block: the old bottom card ends on top of the stock.
        pile.reverse()
        self._stocks[me] = pile
        self._piles[me] = bytearray()
        self._act()
        if kinds:
            self._record(kinds, me)
        self._settle(False)

    def _on_tock(self, event: dict[str, Any]) -> None:
        _check_keys(event, TOCK_KEYS)
        name = event.get("player")
        k = self._idx.get(name) if type(name) is str else None
        if k is None:
            raise InvalidEvent(f"unknown player {name!r}")
        ruling = event.get("ruling")
        if ruling is not None and ruling not in RULINGS:
            raise InvalidEvent(f"'ruling' must be 'correct' or 'incorrect', not {ruling!r}")
        referee = event.get("referee")
        if referee is not None and not isinstance(referee, str):
            raise InvalidEvent("'referee' must be a string")
        if not self._in[k]:
            raise IllegalMove(f"{name} has gone out and cannot knock")
        current = self._acted
        target = self._active if current else self._prev_player
        if target is None:
            raise IllegalMove("no turn to knock on: the first turn has not begun")
        if not self._in[target]:
            raise IllegalMove(f"{self._names[target]} has gone out; going out is final")
        if target == k:
            raise IllegalMove(f"{name} cannot knock on their own turn")
        pending = self._cur if current else self._prev
        verdict = bool(pending)
        applied = verdict if ruling is None else ruling == "correct"
        entry: dict[str, Any] = {
            "event": self._events + 1,
            "by": name,
            "against": self._names[target],
            "correct": applied,
        }
        if ruling is not None:
            entry["ruling"] = ruling
            entry["engine_correct"] = verdict
            if referee is not None:
                entry["referee"] = referee
        self._knocks.append(entry)
        if applied:
            self._penalize(target)
            for i in pending:
                self._infractions[i]["penalized"] = True
            pending.clear()
            self._settle(current)
        else:
            self._penalize(k)
            self._settle(False)

    def _penalize(self, who: int) -> None:
        """``who`` takes the bottom card of every other discard, clockwise from their left,
        each put under their own discard (the last one received ends at the very bottom)."""
        piles = self._piles
        mine = piles[who]
        n = self._n
        for step in range(1, n):
            src = piles[(who + step) % n]
            if src:
                mine.insert(0, src.pop(0))

    def _on_end(self, event: dict[str, Any]) -> None:
        _check_keys(event, END_KEYS)
        reason = event.get("reason")
        if reason not in END_REASONS:
            raise InvalidEvent(f"'reason' must be 'time' or 'adjudicated', not {reason!r}")
        referee = event.get("referee")
        if referee is not None and not isinstance(referee, str):
            raise InvalidEvent("'referee' must be a string")
        given = event.get("placements")
        places: dict[int, int] | None = None
        if given is not None:
            idx = self._idx
            places = {idx[p]: v for p, v in self.check_placements(self._names, given).items()}
            # Going out is final (rule 2): whoever went out keeps their place.
            out = self._out
            for i, p in enumerate(out, 1):
                if places[p] != i:
                    raise IllegalMove(
                        f"{self._names[p]} went out {_ordinal(i)} and keeps place {i}, "
                        f"not {places[p]}"
                    )
            for p, v in places.items():
                if p not in out and v <= len(out):
                    raise IllegalMove(
                        f"{self._names[p]} cannot share or precede place {v}: "
                        f"places 1 to {len(out)} belong to the players who went out"
                    )
        self._end = {"event": self._events + 1, "reason": reason}
        if referee is not None:
            self._end["referee"] = referee
        if places is not None:
            self._end["placements_given"] = True
        self._finish(FINISHED, places)

    # ------------------------------------------------------------------ turn machinery
    def _own(self, p: int) -> int:
        return len(self._piles[p]) + len(self._stocks[p])

    def _settle(self, turn_over: bool) -> None:
        """After an event: players going out, end of game, end of turn, stalemate."""
        active = self._active
        assert active is not None
        n = self._n
        if self._table == 0:
            piles, stocks, inn = self._piles, self._stocks, self._in
            for step in range(n):
                p = (active + step) % n
                if inn[p] and not piles[p] and not stocks[p]:
                    inn[p] = False
                    self._out.append(p)
                    if p == active:
                        turn_over = True
        c = self._center
        if len(c) == SERIES and c.count(TOP) == SERIES:
            self._finish(FINISHED)
            return
        if sum(self._in) <= 1:
            self._finish(FINISHED)
            return
        if turn_over:
            self._next_turn()

    def _next_turn(self) -> None:
        active = self._active
        assert active is not None
        self._prev_player = active
        self._prev = self._cur
        self._cur = []
        self._acted = False
        self._turns += 1
        n = self._n
        inn = self._in
        p = (active + 1) % n
        while not inn[p]:
            p = (p + 1) % n
        self._active = p
        if self._table == 0 and self._repeated(p):
            self._finish(STALEMATE)

    def _repeated(self, p: int) -> bool:
        """Count the position at the start of ``p``'s turn (table empty); whether it is
        now the third occurrence (stalemate, rule 3).

        The key is one bytes object, built by a single C-level join of the discards and
        stocks (bytearrays) and hashed once (see :func:`_position_key`). With the table
        empty, the cards not in the center are exactly the ones in the key, so
        ``len(key)`` gives the center's card count: ``_seen`` restarts when it changes,
        as positions seen with another center never recur.
        """
        key = _SEP.join([_SEAT_BYTE[p], *self._piles, *self._stocks])
        center = DECK_SIZE - (len(key) - 1 - 2 * self._n)  # p, 2n separators, the cards
        if center != self._seen_center:
            self._seen = {}
            self._seen_center = center
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        return seen >= 3

    def _finish(self, status: str, places: dict[int, int] | None = None) -> None:
        self._status = status
        self._active = None
        self._acted = False
        if places is None:
            places = {p: i + 1 for i, p in enumerate(self._out)}
            rest = [p for p in range(self._n) if p not in places]
            counts = [self._own(p) for p in range(self._n)]
            places.update(_competition_places(rest, counts, len(self._out)))
        self._placements = places

    # ------------------------------------------------------------------ queries
    def own_cards(self, player: str) -> int:
        """A player's own cards: face-up discard plus face-down stock."""
        return self._own(self._idx[player])

    def knock_target(self) -> str | None:
        """Whom a knock would be judged against now (``None`` if no knock is possible)."""
        if self._status != IN_PROGRESS:
            return None
        t = self._active if self._acted else self._prev_player
        return None if t is None or not self._in[t] else self._names[t]

    def pending_infractions(self) -> list[dict[str, Any]]:
        """Unpenalised infractions a knock made now would be judged on."""
        if self.knock_target() is None:
            return []
        pending = self._cur if self._acted else self._prev
        return [dict(self._infractions[i]) for i in pending]

    def next_table_card(self) -> int | None:
        """The next face-down table card of a seeded game (``None`` if unknown/empty)."""
        if self._deck is None or self._table == 0:
            return None
        return self._deck[self._pos]

    def legal_moves(self) -> list[dict[str, Any]]:
        """Moves of the player to move that break no rule (priority respected).

        In an unseeded game a draw lists every card value still face down; knocks are
        not listed (any other player may knock, see :meth:`knock_target`).
        """
        if self._active is None:
            return []
        me = self._active
        name = self._names[me]
        pile = self._piles[me]
        if pile:
            moves = self._placements_for(pile[-1], me, "play", own=False)
            if moves:
                return moves
        if self._table:
            if self._deck is not None:
                cards = [self._deck[self._pos]]
            else:
                cards = [v for v, c in enumerate(self._counts or []) if c]
        elif self._stocks[me]:
            cards = [self._stocks[me][-1]]
        else:
            return [{"type": "flip", "player": name}]
        moves = []
        for card in cards:
            moves.extend(self._placements_for(card, me, "draw", own=True))
        return moves

    def _placements_for(self, card: int, me: int, kind: str, own: bool) -> list[dict[str, Any]]:
        name = self._names[me]
        c = self._center
        if card == 1 and len(c) < SERIES:
            return [{"type": kind, "player": name, "card": 1, "to": "center"}]
        if 1 < card <= TOP:
            series = [k for k, top in enumerate(c) if top == card - 1]
            if len(series) == 1:
                return [{"type": kind, "player": name, "card": card, "to": "center"}]
            if series:
                return [
                    {"type": kind, "player": name, "card": card, "to": "center", "series": k}
                    for k in series
                ]
        moves = [
            {"type": kind, "player": name, "card": card, "to": self._names[p]}
            for p, pile in enumerate(self._piles)
            if p != me and pile and abs(pile[-1] - card) == 1
        ]
        if not moves and own:
            moves = [{"type": kind, "player": name, "card": card, "to": name}]
        return moves

    # ------------------------------------------------------------------ serialisation
    def summary(self) -> dict[str, Any]:
        names = self._names
        return {
            "game": self.kind,
            "mode": self.mode,
            "seed": self.seed,
            "players": list(names),
            "status": self._status,
            "turn": self.turn,
            "events": self._events,
            "table": self._table,
            "center": list(self._center),
            "piles": {names[p]: list(pile) for p, pile in enumerate(self._piles)},
            "stocks": {names[p]: list(stock) for p, stock in enumerate(self._stocks)},
            "out": [names[p] for p in self._out],
            "placements": self.placements(),
            "infractions": [dict(i) for i in self._infractions],
            "knocks": [dict(k) for k in self._knocks],
            "end": dict(self._end) if self._end is not None else None,
        }

    def to_state(self) -> dict[str, Any]:
        return {
            "game": self.kind,
            "version": STATE_VERSION,
            "players": list(self._names),
            "mode": self.mode,
            "seed": self.seed,
            "deck": None if self._deck is None else list(self._deck),
            "pos": self._pos,
            "counts": None if self._counts is None else list(self._counts),
            "table": self._table,
            "center": list(self._center),
            "piles": [list(p) for p in self._piles],
            "stocks": [list(s) for s in self._stocks],
            "in": list(self._in),
            "out": list(self._out),
            "active": self._active,
            "acted": self._acted,
            "cur": list(self._cur),
            "prev_player": self._prev_player,
            "prev": list(self._prev),
            "infractions": [dict(i) for i in self._infractions],
            "knocks": [dict(k) for k in self._knocks],
            "status": self._status,
            "placements": None
            if self._placements is None
            else [[p, v] for p, v in self._placements.items()],
            "end": None if self._end is None else dict(self._end),
            "seen_center": self._seen_center,
            "seen": [
                [key[0], [list(x) for x in key[2:].split(_SEP)], count]
                for key, count in self._seen.items()
            ],
            "events": self._events,
            "turns": self._turns,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> TockGame:
        if state.get("game") != cls.kind or state.get("version") != STATE_VERSION:
            raise InvalidEvent("not a TOCK state of a supported version")
        try:
            g = cls()
            g._names = tuple(state["players"])
            g._idx = {p: i for i, p in enumerate(g._names)}
            g._n = len(g._names)
            g.mode = state["mode"]
            g.seed = state["seed"]
            g._deck = None if state["deck"] is None else list(state["deck"])
            g._pos = state["pos"]
            g._counts = None if state["counts"] is None else list(state["counts"])
            g._table = state["table"]
            g._center = list(state["center"])
            g._fit = _fit_table(g._center)
            g._piles = [bytearray(p) for p in state["piles"]]
            g._stocks = [bytearray(s) for s in state["stocks"]]
            g._in = list(state["in"])
            g._out = list(state["out"])
            g._active = state["active"]
            g._acted = state["acted"]
            g._cur = list(state["cur"])
            g._prev_player = state["prev_player"]
            g._prev = list(state["prev"])
            g._infractions = [dict(i) for i in state["infractions"]]
            g._knocks = [dict(k) for k in state["knocks"]]
            g._status = state["status"]
            pl = state["placements"]
            g._placements = None if pl is None else {p: v for p, v in pl}
            g._end = None if state["end"] is None else dict(state["end"])
            g._seen_center = state["seen_center"]
            g._seen = {_position_key(p, rest): count for p, rest, count in state["seen"]}
            g._events = state["events"]
            g._turns = state["turns"]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidEvent(f"corrupt TOCK state: {exc!r}") from None
        return g


_HANDLERS = {
    "play": TockGame._on_play,
    "draw": TockGame._on_draw,
    "flip": TockGame._on_flip,
    "tock": TockGame._on_tock,
    "end": TockGame._on_end,
}
