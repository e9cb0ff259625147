"""The TOCK ruleset as the engine plays it (``docs/rules/tock.md`` is the reference).

State, in seat order ``0..n-1`` (clockwise):

* ``_deck``/``_pos`` (seeded games): the shuffled table in draw order, ``_deck[_pos]`` next;
  ``_counts`` (unseeded games): the multiset of face-down table cards by value.
* ``_center``: top card of each open series, in opening order; ``_fit`` is derived from
  it (card -> the series it fits, or -1: the center rule as data, see :func:`_fit_table`)
  and kept in step where cards reach the center (``TockGame._place_on_center``).
* ``_piles[p]``: p's face-up discard, bottom first (``[-1]`` is the top card).
* ``_stocks[p]``: p's own face-down stock, bottom first (``[-1]`` is drawn next).
  Both are ``bytearray`` (cards are 1..21): they behave like lists of ints, and the
  stalemate key of a position is then one ``bytes.join`` of them (see ``_run``).
* ``_still_in[p]``: p has not gone out; ``_out``: who went out, in order.
* ``_active``: seat to move (``None`` once over); ``_acted``: it has acted this turn.
* ``_pending_this_turn``/``_pending_last_turn``: unpenalised infraction indices of the
  current turn and of the turn that just ended (``_last_turn_player``'s). A knock is
  judged on the current turn once its player has acted, else on the last one.

Invariant: the 121 cards are always in exactly one of table, center (a series with top
``t`` holds ``t`` cards), piles and stocks.

One rule, one place: :meth:`TockGame._run` is the only code that judges and applies a
move and ends a turn; ``push`` runs it for one event and ``push_many`` (used by
``replay``) for a whole log, so both give the same results by construction. The rules
it consults are data where that is cheaper than code: ``_fit`` (the center) and
``_FITS_ON`` (another player's discard). Replaying logs fast is a product requirement
(see ``bench/bench_engine.py``): the common event shapes are recognised without the
field-by-field checks, and the hot counters stay in local variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..base import FINISHED, IN_PROGRESS, STALEMATE, Game, check_keys, register
from ..common import start_seed
from ..errors import IllegalMove, InvalidEvent, shown
from .rules import (
    DECK_SIZE,
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

_NOBODY = object()  # push_many(): the name to move once the game is over (no one's)
START_KEYS = frozenset({"type", "game", "players", "first", "mode", "seed"})
PLAY_KEYS = frozenset({"type", "player", "card", "to", "series"})
DRAW_KEYS = frozenset({"type", "player", "card", "to", "series"})
FLIP_KEYS = frozenset({"type", "player"})
TOCK_KEYS = frozenset({"type", "player", "ruling", "referee"})
_EVENT_KEYS = {
    "play": PLAY_KEYS,
    "draw": DRAW_KEYS,
    "flip": FLIP_KEYS,
    "tock": TOCK_KEYS,
}
_CARD_REQUIRED = "'card' is required"
DRAW, PLAY, FLIP = 1, 2, 3  # the moves, as TockGame._run() codes them
_MOVES = {"draw": DRAW, "play": PLAY, "flip": FLIP}
RULINGS = ("correct", "incorrect")
STATE_VERSION = 1


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
    separate unambiguously). ``TockGame._run`` joins the same from its bytearrays."""
    return _SEP.join([_SEAT_BYTE[p], *map(bytes, parts)])


def _fit_table(center: list[int]) -> list[int]:
    """The center rule as data: ``fit[v]`` for cards ``v`` = 1..21 is the series ``v``
    fits given the series tops ``center`` (the first whose top is ``v - 1``; a 1 opens
    series ``len(center)`` while fewer than six are open), -1 if none; ``fit[0]`` and
    ``fit[EMPTY]`` are -1. ``TockGame._run`` keeps it up to date incrementally."""
    fit = [-1] * (EMPTY + 1)
    if len(center) < SERIES:
        fit[1] = len(center)
    for k in reversed(range(len(center))):  # reversed: the first series wins
        if center[k] < TOP:
            fit[center[k] + 1] = k
    return fit


#: The top of an empty discard in ``tops`` (see :func:`_tops_of`): no card is
#: next to it (cards are 1..21), and as a card it fits nowhere (``_fit[EMPTY]`` is -1,
#: ``_FITS_ON[EMPTY]`` holds no card), so "does the top card fit" needs no special case.
EMPTY = TRAVIESO + 2

#: The discard rule as data: ``_FITS_ON[c]`` are the two top cards on which a card
#: ``c`` fits another player's discard, the ones that differ from it by exactly 1 (a 4
#: or a 6 on a 5; the 21 on a 20, and a 20 on the 21; 0 and 22 are no cards).
_FITS_ON = tuple((c - 1, c + 1) for c in range(EMPTY + 1))


def _tops_of(piles: list[bytearray]) -> bytearray:
    """The top card of every discard, ``EMPTY`` for an empty one (a ``bytearray``, like
    the piles: ``card in tops`` is then one ``memchr``)."""
    return bytearray([q[-1] if q else EMPTY for q in piles])


def _strict_refusal(kind: str, detail: str) -> IllegalMove:
    """The error for an infraction in mode ``strict``, which refuses it (mode ``table``
    accepts and records it)."""
    return IllegalMove(f"{kind}: {detail}")


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
    #: Its own event types (``end`` and ``correction`` are the base class's).
    event_types = frozenset(_EVENT_KEYS)
    #: Players knock, and a referee may rule on a knock while the game is in progress.
    has_knocks = True

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:  # use start() / from_state()
        # At most 29 instance attributes: CPython 3.11 (shared keys: 30 at most, the
        # 30th already fails) keeps up to 29 of them in the fast inline layout; beyond
        # that every ``self._x`` is a dict lookup and replay slows down by a few
        # percent. (So the player count is ``len(self._names)``, not an attribute.)
        self._names: tuple[str, ...] = ()
        self._idx: dict[str, int] = {}
        self.mode = "table"
        self.seed: int | str | None = None
        self._deck: list[int] | None = None
        self._pos = 0
        self._counts: list[int] | None = None
        self._table = DECK_SIZE
        self._center: list[int] = []
        self._piles: list[bytearray] = []
        self._stocks: list[bytearray] = []
        self._still_in: list[bool] = []
        self._out: list[int] = []
        self._active: int | None = 0
        self._acted = False
        # Unpenalised infractions (indices into _infractions) of this turn and of the last
        # one (played by _last_turn_player); () for none. A knock is judged on this turn
        # once its player has acted (_acted), else on the last one.
        self._pending_this_turn: Sequence[int] = ()
        self._last_turn_player: int | None = None
        self._pending_last_turn: Sequence[int] = ()
        self._infractions: list[dict[str, Any]] = []
        self._knocks: list[dict[str, Any]] = []
        self._status = IN_PROGRESS
        self._placements: dict[int, int] | None = None
        self._end: dict[str, Any] | None = None
        # Derived from _center (kept in step by _run): _fit[v] = the series a
        # card v fits without an explicit "series" (the first whose top is v - 1;
        # len(_center) for a 1 opening a new one), -1 if none. Index 0 is unused.
        self._fit: list[int] = _fit_table([])
        # The "to" of a placement: a player's name -> seat, "center" (reserved) -> -1.
        self._dest: dict[str, int] = {}
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
        players = cls._check_start(event, START_KEYS)
        first = event.get("first", players[0])
        if first not in players:
            raise InvalidEvent(f"'first' must be one of the players, not {shown(first)}")
        mode = event.get("mode", "table")
        if mode not in MODES:
            raise InvalidEvent(f"'mode' must be 'table' or 'strict', not {shown(mode)}")
        seed = start_seed(event)

        g = cls()
        g._names = tuple(players)
        g._idx = {p: i for i, p in enumerate(players)}
        g._dest = {**g._idx, "center": -1}
        g.mode = mode
        g.seed = seed
        if seed is None:
            g._counts = card_counts()
        else:
            g._deck = shuffled_deck(seed)
        g._piles = [bytearray() for _ in players]
        g._stocks = [bytearray() for _ in players]
        g._still_in = [True] * len(players)
        g._active = g._idx[first]
        g._log = [event]
        return g

    @classmethod
    def event_needs_referee(cls, event: Mapping[str, Any]) -> bool:
        """A knock carrying a ``ruling``, an ``end`` for any reason but ``"time"`` (an
        adjudication), and any ``end`` that gives ``placements`` are the referee's: a
        scorekeeper's time-up ``end`` carries none and the engine places the players
        from the position (rule 3)."""
        if isinstance(event, Mapping) and "ruling" in event:
            return True
        return super().event_needs_referee(event)

    # ------------------------------------------------------------------ public API
    @property
    def turn(self) -> str | None:
        """The player to move, ``None`` once the game is over."""
        return None if self._active is None else self._names[self._active]

    @property
    def table_count(self) -> int:
        """Face-down cards left on the table."""
        return self._table

    def _apply(self, event: dict[str, Any]) -> None:
        """One move or knock (``Game.push``'s step for TOCK's own events): :meth:`_run`
        over one event, so that ``push`` and ``push_many`` judge with the same code."""
        self._run((event,))

    def _apply_many(self, events: Iterable[dict[str, Any]]) -> None:
        """A whole log (``Game.push_many``'s batch path): :meth:`_run`, which counts
        each event as it applies it, without the set-up cost per event."""
        self._run(events)

    def _run(self, events: Iterable[dict[str, Any]]) -> None:
        """Validate and apply events in order: the one place where a move (``play``,
        ``draw``, ``flip``) is judged and applied and where a turn ends. It reads as the
        outline of a turn; each rule is a step of its own whose docstring states it
        (citing ``docs/rules/tock.md``). In the order that decides which error an event
        with several faults gets:

        1. *Which move.* The usual shapes (a ``draw``/``play`` of exactly ``type``,
           ``player``, ``card`` (an int) and ``to`` (a name or ``"center"``), a
           ``draw`` without ``card``, a ``flip`` of ``type`` and ``player``, by the
           player to move) are recognised by their shape; anything else is checked
           field by field (:meth:`_move_by_fields`), which also applies a knock
           (:meth:`_on_tock`), an ``end`` or a ``correction``.
        2. *The card*: the draw from the table (:meth:`_table_card`) or, once the
           table is empty, from the own stock (:meth:`_stock_card`); a play's card is
           the own top card (:meth:`_top_card`); a flip must be allowed
           (:meth:`_check_turn_over`).
        3. *Where it goes* (:meth:`_destination`): ``to`` and, for the center, the
           series.
        4. *The own top card first*: drawing or flipping while it fits somewhere is a
           ``forgot_discard`` (:meth:`_forgot_discard`).
        5. *Placing*: on a center series (:meth:`_place_on_center`), on another
           player's discard (:meth:`_place_on_player`: the 21 only on a 20; a card
           that fits the center is a ``forgot_center``) or, a drawn card, on the own
           discard (:meth:`_place_on_own_discard`: a ``wrong_discard`` if it fits
           elsewhere; the turn ends). Then the card leaves its source: the table, the
           stock or the discard; a flip turns the discard over
           (:meth:`_turn_over_discard`). The first action of a turn closes the previous
           turn to knocks, and the event's infractions are recorded (:meth:`_record`).
        6. *Going out and the end of the game* (:meth:`_settle`, only when the move may
           put a player out or complete the center: the table ran out, the mover's last
           own card went, a 20 reached the center), then *the end of the turn*
           (:meth:`_next_turn`: after a drawn card on the own discard, a correct knock,
           the mover going out) and, with the table empty, *the stalemate*
           (:meth:`_third_repetition`).

        Mode ``strict`` refuses an infraction where it is judged (:func:`_strict_refusal`),
        mode ``table`` records it. Nothing changes until an event has passed all its
        checks (the last ones run first in step 5), so a failing event leaves the game
        as it was.

        Speed (``bench/bench_engine.py``; a replay is some 400 events a game, and each
        method call per event costs about 5% of the benchmark): the usual case of steps
        1 to 4 and leaving the source are decided in clearly marked inline blocks, which
        give the answer the step's method gives; the method handles every other case
        and every refusal, so one method call per move remains (the placement). The hot
        counters live in locals (``table``, ``pos``, ``acted``, ``done``) and ``tops``
        mirrors the top card of every discard (``EMPTY`` for none); both are passed to
        the steps that read them and written back to (or reloaded from) ``self`` around
        anything that reads or changes ``self`` (the handlers, :meth:`_settle`), and
        the counters in ``finally``.
        """
        names, piles, stocks = self._names, self._piles, self._stocks
        fit, dest, deck, counts = self._fit, self._dest, self._deck, self._counts
        fits_on = _FITS_ON
        tops = _tops_of(piles)
        parts = [b"", *piles, *stocks]  # the stalemate key's parts (_third_repetition)
        me = self._active
        myname = names[me] if self._status == IN_PROGRESS else _NOBODY  # type: ignore[index]
        table, pos, acted, done = self._table, self._pos, self._acted, self._events
        to: object = None  # the raw "to" of a move checked field by field (j None)
        try:
            for ev in events:
                # -- 1. which move: the usual shapes, recognised inline (the hot path) --
                move = 0  # DRAW, PLAY or FLIP once recognised; j: its destination
                series = None
                if type(ev) is dict:
                    size = len(ev)
                    if size == 4 or size == 3:
                        # (subscripts are cheaper than .get(); a KeyError means another key
                        # or an unknown "to", a TypeError an unhashable "to": push() then
                        # judges the event field by field)
                        try:
                            kind, player = ev["type"], ev["player"]
                            named = ev["card"] if size == 4 else None
                            j = dest[ev["to"]]
                        except (KeyError, TypeError):
                            player = None
                        # (a card out of range is caught where it makes a check fail)
                        if player == myname and (type(named) is int or named is None):
                            if kind == "draw":
                                move = DRAW
                            elif kind == "play" and size == 4:
                                move = PLAY
                    elif size == 2 and ev.get("player") == myname and ev.get("type") == "flip":
                        move, named, j = FLIP, None, None
                if not move:
                    j = None
                    self._table, self._pos, self._acted, self._events = table, pos, acted, done
                    move, named, to, series, turn_over = self._move_by_fields(ev)
                    if not move:  # applied already: a knock, an end or a correction
                        acted = self._acted
                        done += 1
                        tops = _tops_of(piles)  # a penalty moves bottom cards
                        if self._status != IN_PROGRESS:
                            me, myname = None, _NOBODY
                if move:
                    # -- 2. the card. Inline (the hot path): the usual case of each
                    # source; any other case, and every refusal, by the step's method,
                    # which gives the same card or the error -----------------------------
                    if move == DRAW:
                        if not table:  # from the own stock: its top card
                            stock = stocks[me]  # type: ignore[index]
                            c = stock[-1] if stock else 0
                            if not c or (named is not None and named != c):
                                c = self._stock_card(ev, named, me)  # type: ignore[arg-type]
                        elif deck is None or (named is not None and named != deck[pos]):
                            c = self._table_card(ev, named, pos)
                        else:  # from a seeded table: its next card
                            c = deck[pos]
                    elif move == PLAY:  # from the own discard: its top card, named
                        c = tops[me]  # type: ignore[index]
                        if named != c or c == EMPTY:
                            c = self._top_card(ev, named, me, tops)  # type: ignore[arg-type]
                    else:
                        self._check_turn_over(me, table)  # type: ignore[arg-type]
                    # -- 3. where it goes. Inline: ``to`` known and no ``series`` (the
                    # center's is then the first the card fits, ``_fit``); any other
                    # case by _destination ---------------------------------------------
                    if move != FLIP:
                        if j is None or series is not None or (j == me and move == PLAY):
                            j, series = self._destination(c, j, to, series, move, me)  # type: ignore[arg-type]
                        elif j < 0:
                            series = fit[c]
                            if series < 0:
                                raise IllegalMove(self._no_fit_center(c))
                    # -- 4. the own top card first. Inline: whether it fits (``_fit``,
                    # ``_FITS_ON``); the infraction by _forgot_discard -------------------
                    kinds = None
                    if move != PLAY:
                        own = tops[me]  # type: ignore[index]
                        # (``own`` is never next to itself: no need to leave it out of
                        # ``tops``; an EMPTY top fits nowhere)
                        below, above = fits_on[own]
                        if fit[own] >= 0 or below in tops or above in tops:
                            kinds = self._forgot_discard(own, me)  # type: ignore[arg-type]
                    # -- 5. placing (each method checks first), then the card leaves its
                    # source (inline: the hot counters) ---------------------------------
                    if j is None:  # a flip
                        may_settle = False
                    elif j < 0:
                        may_settle = self._place_on_center(c, series)  # type: ignore[arg-type]
                    elif j == me:
                        kinds = self._place_on_own_discard(c, me, tops, kinds)  # type: ignore[arg-type]
                        may_settle = False
                    else:
                        kinds = self._place_on_player(c, j, move, tops, kinds)
                        may_settle = False
                    if move == DRAW:
                        turn_over = j == me  # a drawn card on the own discard ends the turn
                        if table:
                            # Leaving the table (hot counters, inline): the next card of a
                            # seeded table, or one of the face-down cards counted.
                            if deck is not None:
                                pos += 1
                            else:
                                counts[c] -= 1  # type: ignore[index]
                            table -= 1
                            if not table:
                                may_settle = True  # empty players go out
                        else:
                            # Leaving the stock (inline): its top card.
                            stock = stocks[me]  # type: ignore[index]
                            stock.pop()
                            if not stock and not piles[me]:  # type: ignore[index]
                                may_settle = True  # me's last own card
                    elif move == PLAY:
                        # Leaving the discard (inline): the card under it is the new top.
                        turn_over = False
                        pile = piles[me]  # type: ignore[index]
                        pile.pop()
                        if pile:
                            tops[me] = pile[-1]  # type: ignore[index]
                        else:
                            tops[me] = EMPTY  # type: ignore[index]
                            if not table and not stocks[me]:  # type: ignore[index]
                                may_settle = True  # me's last own card
                    else:
                        turn_over = False
                        self._turn_over_discard(me, tops, parts)  # type: ignore[arg-type]
                    acted = True  # the previous turn can no longer be knocked on
                    if kinds:
                        self._record(kinds, me, done + 1)  # type: ignore[arg-type]
                    done += 1
                    # -- 6. going out and the end of the game ----------------------------
                    if may_settle:
                        self._table, self._pos, self._acted, self._events = table, pos, acted, done
                        turn_over = self._settle(turn_over)
                        acted = self._acted
                        if self._status != IN_PROGRESS:
                            me, myname = None, _NOBODY
                # -- 6. the end of the turn, and the stalemate ---------------------------
                if turn_over:
                    me = self._next_turn(me)  # type: ignore[arg-type]
                    acted = False
                    myname = names[me]
                    if not table and self._third_repetition(me, parts):
                        self._acted = False
                        self._finish(STALEMATE)
                        me, myname = None, _NOBODY
        finally:
            # Also on errors: a failing event changed nothing, so the locals are current.
            self._table, self._pos, self._acted, self._events = table, pos, acted, done

    # ------------------------------------------------------------------ steps of _run
    def _move_by_fields(self, ev: object) -> tuple[int, int | None, object, object, bool]:
        """Step 1 of :meth:`_run` for an event of no common shape, field by field, in
        this order: a JSON object of a known type (:meth:`Game._event_type`); an ``end``
        or a ``correction`` goes to :meth:`Game._apply_shared`; then the game is not
        over, no unknown field, and a knock goes to :meth:`_on_tock`; a move then has
        the player to move (:meth:`_actor`) and a valid ``card``.

        Returns ``(move, card, to, series, turn_over)``: ``move`` 0 when the event is
        applied already (a knock, an end, a correction; ``turn_over``: the knocked turn
        is over), else DRAW, PLAY or FLIP with its fields for the next steps. The
        caller has written its counters back to ``self``."""
        kind = self._event_type(ev)
        assert type(ev) is dict
        if kind == "correction" or kind == "end":  # every kind's (Game)
            self._apply_shared(ev, kind)
            return 0, None, None, None, False
        self._refuse_after_end()
        check_keys(ev, _EVENT_KEYS[kind])
        move = _MOVES.get(kind, 0)
        if not move:  # a knock
            return 0, None, None, None, self._on_tock(ev)
        self._actor(ev)  # the player to move, or an error
        if move == FLIP:
            return move, None, None, None, False
        needs_card = move == PLAY or (self._table > 0 and self._deck is None)
        named = self._card_field(ev, needs_card)
        return move, named, ev.get("to"), ev.get("series"), False

    def _table_card(self, ev: dict[str, Any], named: int | None, pos: int) -> int:
        """The draw from the table (*A turn*, 2: "draw one face-down card"): the card
        drawn. A seeded table is known (``_deck[pos]``, ``pos`` being :meth:`_run`'s):
        a ``card`` given must be that one; an unseeded table is the multiset of cards
        still face down (``_counts``), and the draw names one of them (*Dealing from a
        seed*). Changes nothing (:meth:`_run` takes the card off the table)."""
        deck = self._deck
        if deck is not None:
            c = deck[pos]
            if named is not None and named != c:
                self._card_field(ev, False)
                raise IllegalMove(f"the next face-down table card is {c}, not {named}")
            return c
        if named is not None and 0 < named <= TRAVIESO and self._counts[named]:  # type: ignore[index]
            return named
        self._card_field(ev, True)
        raise IllegalMove(f"no {named} is left face down on the table")

    def _stock_card(self, ev: dict[str, Any], named: int | None, me: int) -> int:
        """The draw from the own stock (interpretation 1: with the table empty, "draw
        from your stock, one card at a time from the top, exactly as from the table"):
        the stock's top card (its last); a ``card`` given must be that one. An empty
        stock has nothing to draw: flip the discard first. Changes nothing."""
        stock = self._stocks[me]
        if not stock:
            self._card_field(ev, False)
            raise IllegalMove(self._nothing_to_draw(me))
        c = stock[-1]
        if named is not None and named != c:
            self._card_field(ev, False)
            raise IllegalMove(f"the top of {self._names[me]}'s stock is {c}, not {named}")
        return c

    def _top_card(self, ev: dict[str, Any], named: int | None, me: int, tops: bytearray) -> int:
        """A play (*A turn*, 1: "look at the top card of your own discard ... you must
        play it"): only the top face-up card of the own discard is played, and the
        event names it. Changes nothing."""
        c = tops[me]
        if named != c or c == EMPTY:
            self._card_field(ev, True)
            name = self._names[me]
            if c == EMPTY:
                raise IllegalMove(f"{name} has no face-up card to play")
            raise IllegalMove(f"{name}'s top card is {c}, not {named}")
        return c

    def _check_turn_over(self, me: int, table: int) -> None:
        """When the discard may be turned over (interpretation 1: "when no face-down
        cards remain on the table ... you flip your whole discard as one block";
        "you flip again only when your stock is empty"): the table empty (``table``
        is :meth:`_run`'s count), the own stock empty, a discard to turn over."""
        name = self._names[me]
        if table:
            raise IllegalMove(f"cannot flip while {table} face-down table cards remain")
        if self._stocks[me]:
            raise IllegalMove(f"cannot flip: {name}'s stock is not empty yet")
        if not self._piles[me]:
            raise IllegalMove(f"cannot flip: {name}'s discard is empty")

    def _destination(
        self, c: int, j: int | None, to: object, series: object, move: int, me: int
    ) -> tuple[int, int | None]:
        """Where the card goes (*Where a card fits*; the event log: ``to`` is
        ``"center"``, another player or, a drawn card only, the own name; ``series``
        only for the center): the seat (``-1`` for the center) and, for the center, the
        series: the one named (:meth:`_series`), else the first the card fits
        (``_fit``; *Center*: "when a card fits several series the player may choose
        ..., otherwise the first is used"). ``j``: the seat :meth:`_run` decoded
        already, ``None`` if not yet (from ``to``). Changes nothing."""
        if j is None:
            j = self._target(to)
        if j == me and move == PLAY:
            raise IllegalMove("a face-up card cannot be played onto your own discard")
        if j < 0:
            if series is None:
                k = self._fit[c]
                if k < 0:
                    raise IllegalMove(self._no_fit_center(c))
                return j, k
            return j, self._series(c, series)
        if series is not None:
            raise InvalidEvent("'series' only applies to a card placed in the center")
        return j, None

    def _forgot_discard(self, own: int, me: int) -> list[str]:
        """The own top card first (*A turn*, 1-2: "while it fits somewhere you must play
        it ... When it fits nowhere (or your discard is empty) draw"): drawing or
        flipping while the own top card ``own`` fits the center (``_fit``) or another
        player's discard (``_FITS_ON``) is a ``forgot_discard`` (interpretation 4).
        :meth:`_run` tests the fit inline (the hot path) and calls this for an
        infraction: refused in mode ``strict``, else the event's infractions so far."""
        if self.mode == "strict":
            raise _strict_refusal(FORGOT_DISCARD, f"top card {own} fits {self._where(own, me)}")
        return [FORGOT_DISCARD]

    def _place_on_center(self, c: int, series: int) -> bool:
        """Placing on a center series (*Where a card fits*, Center: "a 1 opens a new
        series if fewer than six series are open. Any other card fits a series whose top
        card is exactly one lower (never above 20). The 21 never fits the center"; the
        series was judged in step 3 of :meth:`_run`): the card becomes the top of
        ``series`` and ``_fit`` follows. Returns whether all six series may now be
        complete (a 20 arrived): then :meth:`_run` settles."""
        center, fit = self._center, self._fit
        if c == 1:  # opens series ``series`` (= len(center)); _fit follows
            center.append(1)
            fit[1] = len(center) if len(center) < SERIES else -1
            if fit[2] < 0:
                fit[2] = series
            return False
        # Only two entries of _fit change: who takes c now (the first series with
        # c - 1 on top, if any) and c + 1 (series ``series`` now, unless an earlier
        # series had c on top).
        center[series] = c
        fit[c] = center.index(c - 1) if c - 1 in center else -1
        if c == TOP:
            return True  # maybe all six series are complete
        if fit[c + 1] < 0 or fit[c + 1] > series:
            fit[c + 1] = series
        return False

    def _place_on_player(
        self, c: int, j: int, move: int, tops: bytearray, kinds: list[str] | None
    ) -> list[str] | None:
        """Placing on another player's discard (*Where a card fits*, Another player: its
        top card "differs by exactly 1 (a 4 or a 6 on a 5). So the 21 fits only on a
        20, and a 20 fits on a 21"; an empty discard takes nothing: ``_FITS_ON``), with
        the center's priority (*Priority: center first*): a card that fits the center
        is a ``forgot_center`` (interpretation 4), refused in mode ``strict``. Returns
        the event's infractions; ``tops`` (:meth:`_run`'s) follows."""
        if tops[j] not in _FITS_ON[c]:
            raise IllegalMove(self._no_fit_player(c, j))
        if self._fit[c] >= 0:
            if self.mode == "strict":
                drawn = "drawn " if move == DRAW else ""
                raise _strict_refusal(FORGOT_CENTER, f"{drawn}{c} fits the center")
            kinds = [*(kinds or ()), FORGOT_CENTER]
        self._piles[j].append(c)
        tops[j] = c
        return kinds

    def _place_on_own_discard(
        self, c: int, me: int, tops: bytearray, kinds: list[str] | None
    ) -> list[str] | None:
        """A drawn card on the own discard (*Where a card fits*, Priority: "then (drawn
        cards only) your own discard, which ends your turn"): putting it there although
        it fits the center or another player's discard is a ``wrong_discard``
        (interpretation 4; the turn still ends), refused in mode ``strict``. Returns
        the event's infractions; ``tops`` (:meth:`_run`'s) follows."""
        fits = self._fit[c] >= 0
        if not fits:
            below, above = _FITS_ON[c]
            own = tops[me]
            tops[me] = EMPTY  # the own discard left out
            fits = below in tops or above in tops
            tops[me] = own
        if fits:
            if self.mode == "strict":
                raise _strict_refusal(WRONG_DISCARD, f"drawn {c} fits {self._where(c, me)}")
            kinds = [*(kinds or ()), WRONG_DISCARD]
        self._piles[me].append(c)
        tops[me] = c
        return kinds

    def _turn_over_discard(self, me: int, tops: bytearray, parts: list[Any]) -> None:
        """Turning the discard over (interpretation 1: "you flip your whole discard as
        one block: it becomes your own face-down stock, its old bottom card on top"; no
        shuffling). Nobody's own cards change, so nothing settles; ``tops`` and the
        stalemate key's ``parts`` (:meth:`_run`'s) follow."""
        piles, stocks = self._piles, self._stocks
        pile = piles[me]
        pile.reverse()
        stocks[me] = pile
        piles[me] = bytearray()
        tops[me] = EMPTY
        parts[1 + me] = piles[me]
        parts[1 + len(piles) + me] = pile

    def _next_turn(self, me: int) -> int:
        """The end of ``me``'s turn (*A turn*; interpretation 2: a player who went out
        "leaves the turn order"): its unpenalised infractions stay open to a knock until
        the next player acts (interpretation 5), and the next player still in,
        clockwise, is to move (returned, and in ``_active``)."""
        self._last_turn_player = me
        self._pending_last_turn = self._pending_this_turn
        self._pending_this_turn = ()
        self._turns += 1
        n, still_in = len(self._names), self._still_in
        me = me + 1 if me + 1 < n else 0
        while not still_in[me]:
            me = me + 1 if me + 1 < n else 0
        self._active = me
        return me

    def _third_repetition(self, me: int, parts: list[Any]) -> bool:
        """The stalemate (interpretation 3: "with the table empty, the same position --
        the center, every discard and stock in order, and the player to move -- occurs
        at the start of a turn for the third time"), asked at the start of ``me``'s turn
        with the table empty: whether this position occurs for the third time.
        ``parts``: ``_run``'s key parts (a slot for the seat, then every discard and
        every stock); the key is one C-level join (see :func:`_position_key`). With the
        table empty the key holds every card not in the center, so its length tells the
        center's size: ``_seen`` restarts when that changes (those positions never
        recur)."""
        parts[0] = _SEAT_BYTE[me]
        key = _SEP.join(parts)
        in_center = DECK_SIZE - (len(key) - 1 - 2 * len(self._names))
        if in_center != self._seen_center:
            self._seen = {}
            self._seen_center = in_center
        seen = self._seen
        count = seen.get(key, 0) + 1
        seen[key] = count
        return count >= 3

    # ------------------------------------------------------------------ field checks
    def _actor(self, event: dict[str, Any]) -> int:
        name = event.get("player")
        i = self._idx.get(name) if type(name) is str else None
        if i is None:
            raise InvalidEvent(f"unknown player {shown(name)}")
        if i != self._active:
            if not self._still_in[i]:
                raise IllegalMove(f"{name} has gone out and cannot act")
            raise IllegalMove(f"{name} acted out of turn (it is {self.turn}'s turn)")
        return i

    def _card_field(self, event: dict[str, Any], required: bool) -> int | None:
        card = event.get("card")
        if card is None:
            if required:
                raise InvalidEvent(_CARD_REQUIRED)
            return None
        if type(card) is not int or not 1 <= card <= TRAVIESO:
            raise InvalidEvent(f"'card' must be an integer from 1 to 21, not {shown(card)}")
        return card

    def _target(self, to: object) -> int:
        """Decode ``to``: -1 for the center, else a seat index."""
        j = self._dest.get(to) if type(to) is str else None
        if j is None:
            raise InvalidEvent(f"'to' must be 'center' or a player's name, not {shown(to)}")
        return j

    def _series(self, card: int, k: object) -> int:
        """Check an explicit ``series`` for ``card`` placed in the center; return it.

        Six 1s exist and each opens a series unless it is placed elsewhere, so a 1 never
        meets six open series: a 1 always fits the center (as series ``len``).
        """
        c = self._center
        if type(k) is not int or k < 0:
            raise InvalidEvent(f"'series' must be a non-negative integer, not {shown(k)}")
        if card == 1:
            if k == len(c):
                return k
            raise IllegalMove(f"a 1 opens a new series (number {len(c)}), not series {k}")
        if card == TRAVIESO:
            raise IllegalMove(self._no_fit_center(card))
        if k >= len(c):
            raise IllegalMove(f"there is no series {k} (only {len(c)} open)")
        if c[k] != card - 1:
            raise IllegalMove(f"{card} does not fit series {k} (its top is {c[k]})")
        return k

    # ------------------------------------------------------------------ messages
    def _no_fit_center(self, card: int) -> str:
        if card == TRAVIESO:
            return "21 (El Travieso) never fits the center"
        return f"{card} does not fit the center (tops: {self._center_tops()})"

    def _center_tops(self) -> str:
        return " ".join(map(str, self._center)) or "none open"

    def _no_fit_player(self, card: int, to: int) -> str:
        top = self._piles[to]
        name = self._names[to]
        if not top:
            return f"{card} cannot go to {name}: their face-up discard is empty"
        return f"{card} does not fit {name}'s top card {top[-1]}"

    def _nothing_to_draw(self, me: int) -> str:
        name = self._names[me]
        if self._piles[me]:
            return f"the table is empty and {name}'s stock is empty: flip the discard first"
        return f"{name} has no face-down card to draw"

    def _where(self, card: int, me: int) -> str:
        """Where a card fits, for error messages."""
        if self._center_slot(card) >= 0:
            return "the center"
        names = [self._names[p] for p in self._seats_taking(card, me)]
        return ", ".join(names) if names else "nowhere"

    # ------------------------------------------------------------------ rule queries
    def _center_slot(self, card: int) -> int:
        """Series index the card fits in the center (``len`` means a new series), or -1."""
        return self._fit[card] if 0 < card <= TRAVIESO else -1

    def _seats_taking(self, card: int, me: int) -> list[int]:
        """The seats other than ``me`` whose discard ``card`` fits."""
        return [
            p for p, top in enumerate(_tops_of(self._piles)) if p != me and top in _FITS_ON[card]
        ]

    def _fits(self, card: int, me: int) -> bool:
        """Whether ``card`` fits the center or the discard of a player other than ``me``
        (a query for bots; :meth:`_run` judges moves)."""
        return self._center_slot(card) >= 0 or bool(self._seats_taking(card, me))

    def _record(self, kinds: list[str], me: int, event: int) -> None:
        """Record the infractions of event ``event`` (its log line), pending this turn:
        in mode ``table`` an infraction is accepted and recorded, and a knock may
        penalize it (interpretations 4 and 5)."""
        for kind in kinds:
            self._pending_this_turn = [*self._pending_this_turn, len(self._infractions)]
            self._infractions.append(
                {"event": event, "player": self._names[me], "kind": kind, "penalized": False}
            )

    # ------------------------------------------------------------------ knocks and the end
    def _on_tock(self, event: dict[str, Any]) -> bool:
        """The knock, TOCK! (interpretation 5: "any player still in the turn order other
        than the one knocked on may knock"; it is judged against the current turn once
        its player has acted, else against the turn that just ended; "it is correct if
        that turn holds an infraction not yet penalized", and a referee's ``ruling``
        overrides the engine's verdict): judged, recorded, and the penalty given
        (:meth:`_penalize`) to the offender (correct) or to the knocker (incorrect).
        Returns whether the knocked turn is now over (a correct knock ends the
        offender's turn; for :meth:`_run` to end it)."""
        check_keys(event, TOCK_KEYS)
        name = event.get("player")
        k = self._idx.get(name) if type(name) is str else None
        if k is None:
            raise InvalidEvent(f"unknown player {shown(name)}")
        ruling = event.get("ruling")
        if ruling is not None and ruling not in RULINGS:
            raise InvalidEvent(f"'ruling' must be 'correct' or 'incorrect', not {shown(ruling)}")
        referee = event.get("referee")
        if referee is not None and not isinstance(referee, str):
            raise InvalidEvent("'referee' must be a string")
        if not self._still_in[k]:
            raise IllegalMove(f"{name} has gone out and cannot knock")
        current = self._acted
        target = self._active if current else self._last_turn_player
        if target is None:
            raise IllegalMove("no turn to knock on: the first turn has not begun")
        if not self._still_in[target]:
            raise IllegalMove(f"{self._names[target]} has gone out; going out is final")
        if target == k:
            raise IllegalMove(f"{name} cannot knock on their own turn")
        pending = self._pending_this_turn if current else self._pending_last_turn
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
            if current:
                self._pending_this_turn = ()
            else:
                self._pending_last_turn = ()
            return self._settle(current)
        self._penalize(k)
        return self._settle(False)

    def _penalize(self, who: int) -> None:
        """The penalty of a knock (interpretation 5: "receives the bottom card of each
        other player's discard (if any), going clockwise from the offender's left, each
        card put *under* the offender's discard"): ``who`` takes them, so the last one
        received ends at the very bottom."""
        piles = self._piles
        mine = piles[who]
        n = len(self._names)
        for step in range(1, n):
            src = piles[(who + step) % n]
            if src:
                mine.insert(0, src.pop(0))

    def _check_end_placements(self, places: dict[int, int]) -> None:
        """Going out is final (rule 2): whoever went out keeps their place, whatever
        an ``end`` event gives."""
        out = self._out
        for i, p in enumerate(out, 1):
            if places[p] != i:
                raise IllegalMove(
                    f"{self._names[p]} went out {_ordinal(i)} and keeps place {i}, not {places[p]}"
                )
        for p, v in places.items():
            if p not in out and v <= len(out):
                raise IllegalMove(
                    f"{self._names[p]} cannot share or precede place {v}: "
                    f"places 1 to {len(out)} belong to the players who went out"
                )

    def _finish_by_end(self, places: dict[int, int] | None) -> None:
        """After an ``end`` event (the game is over: no turn to end); without
        placements the players are placed from the position (rule 3)."""
        self._finish(FINISHED, places)

    # ------------------------------------------------------------------ turn machinery
    def _own(self, p: int) -> int:
        return len(self._piles[p]) + len(self._stocks[p])

    def _settle(self, turn_over: bool) -> bool:
        """Going out and the end of the game, after an event that may put players out or
        complete the center. Going out (interpretation 2: "only once the table is empty:
        a player with no own cards goes out at once ... If several go out by the same
        event, the active player comes first, then the others clockwise"); the end
        (interpretation 3: "when all six series reach 20, or when at most one player is
        left"). Returns whether the turn is over (``turn_over``, or the active player
        went out; ``False`` once the game is)."""
        active = self._active
        assert active is not None
        n = len(self._names)
        if self._table == 0:
            piles, stocks, still_in = self._piles, self._stocks, self._still_in
            for step in range(n):
                p = (active + step) % n
                if still_in[p] and not piles[p] and not stocks[p]:
                    still_in[p] = False
                    self._out.append(p)
                    if p == active:
                        turn_over = True
        c = self._center
        if (len(c) == SERIES and c.count(TOP) == SERIES) or sum(self._still_in) <= 1:
            self._finish(FINISHED)
            return False
        return turn_over

    def _finish(self, status: str, places: dict[int, int] | None = None) -> None:
        if self._acted:  # the last turn was closed to knocks (see to_state())
            self._last_turn_player = None
            self._pending_last_turn = ()
        self._status = status
        self._active = None
        self._acted = False
        if places is None:
            places = {p: i + 1 for i, p in enumerate(self._out)}
            rest = [p for p in range(len(self._names)) if p not in places]
            counts = [self._own(p) for p in range(len(self._names))]
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
        t = self._active if self._acted else self._last_turn_player
        return None if t is None or not self._still_in[t] else self._names[t]

    @classmethod
    def ruling_event(cls, by: str, ruling: str, referee: str) -> dict[str, Any]:
        """A knock by ``by`` carrying the referee's ``ruling`` (``"correct"`` or
        ``"incorrect"``), which the engine applies instead of its own verdict."""
        return {"type": "tock", "player": by, "ruling": ruling, "referee": referee}

    @classmethod
    def ruling_of(cls, event: Any) -> tuple[str, str] | None:
        """A knock carrying a ``ruling``: its knocker and the ruling applied."""
        if (
            isinstance(event, Mapping)
            and event.get("type") == "tock"
            and isinstance(event.get("player"), str)
            and event.get("ruling") in RULINGS
        ):
            return event["player"], event["ruling"]
        return None

    def pending_infractions(self) -> list[dict[str, Any]]:
        """Unpenalised infractions a knock made now would be judged on."""
        if self.knock_target() is None:
            return []
        pending = self._pending_this_turn if self._acted else self._pending_last_turn
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

    def infraction_moves(self) -> list[dict[str, Any]]:
        """In mode ``table``, the moves of the player to move that :meth:`_run` records
        as infractions: drawing or flipping while the top card fits (forgot_discard), a
        card put on another player although it fits the center (forgot_center), a drawn
        card put on the own discard although it fits (wrong_discard). Every place the
        card physically goes (the same fit rules as :meth:`_run`), minus
        :meth:`legal_moves`; in an unseeded game, for every card value still face down.
        Empty in mode ``strict`` (it refuses them) and once the game is over."""
        if self._active is None or self.mode != "table":
            return []
        me = self._active
        name = self._names[me]
        pile = self._piles[me]
        candidates: list[dict[str, Any]] = []
        if pile:
            candidates += self._destinations(pile[-1], me, "play", own=False)
        if self._table:
            if self._deck is not None:
                cards = [self._deck[self._pos]]
            else:
                cards = [v for v, c in enumerate(self._counts or []) if c]
        elif self._stocks[me]:
            cards = [self._stocks[me][-1]]
        else:
            cards = []
            if pile:
                candidates.append({"type": "flip", "player": name})
        for card in cards:
            candidates += self._destinations(card, me, "draw", own=True)
        legal = self.legal_moves()
        return [m for m in candidates if m not in legal]

    def table_moves(self) -> list[dict[str, Any]]:
        """A knock (``{"type": "tock", "player": ...}``) by each player still in who may
        knock now: everyone but the player it would be judged against
        (:meth:`knock_target`); none before the first turn has begun or once over."""
        target = self.knock_target()
        if target is None:
            return []
        return [
            {"type": "tock", "player": self._names[p]}
            for p in range(len(self._names))
            if self._still_in[p] and self._names[p] != target
        ]

    @classmethod
    def start_events(cls, players: Sequence[str]) -> list[dict[str, Any]]:
        """One start event per player who may begin, mode ``table`` and no seed (a game
        played with real cards: draws name the card drawn)."""
        names = list(players)
        return [
            {"type": "start", "game": cls.kind, "players": names, "first": first, "mode": "table"}
            for first in names
        ]

    def _destinations(self, card: int, me: int, kind: str, own: bool) -> list[dict[str, Any]]:
        """Every place ``card`` physically goes, priority aside: the center (each series
        it fits), each other player whose discard it fits and, with ``own``, the own
        discard (a drawn card)."""
        name = self._names[me]
        moves = []
        if self._center_slot(card) >= 0:
            if card == 1:
                moves.append({"type": kind, "player": name, "card": card, "to": "center"})
            else:
                series = [k for k, top in enumerate(self._center) if top == card - 1]
                for k in series:
                    where: dict[str, Any] = {"to": "center"}
                    if len(series) > 1:
                        where["series"] = k
                    moves.append({"type": kind, "player": name, "card": card, **where})
        for p in self._seats_taking(card, me):
            moves.append({"type": kind, "player": name, "card": card, "to": self._names[p]})
        if own:
            moves.append({"type": kind, "player": name, "card": card, "to": name})
        return moves

    def _placements_for(self, card: int, me: int, kind: str, own: bool) -> list[dict[str, Any]]:
        """Where ``card`` may go without an infraction, by the same fit rules that
        :meth:`_run` judges with (``_fit`` for the center, :meth:`_seats_taking` for the
        discards); several series with the same top are listed one by one."""
        name = self._names[me]

        def move(**where: Any) -> dict[str, Any]:
            return {"type": kind, "player": name, "card": card, **where}

        if self._center_slot(card) >= 0:
            series = [k for k, top in enumerate(self._center) if top == card - 1]
            if card > 1 and len(series) > 1:
                return [move(to="center", series=k) for k in series]
            return [move(to="center")]
        moves = [move(to=self._names[p]) for p in self._seats_taking(card, me)]
        if not moves and own:
            moves = [move(to=name)]
        return moves

    # ------------------------------------------------------------------ public view
    @classmethod
    def public_summary(cls, summary: Mapping[str, Any]) -> dict[str, Any]:
        """A spectator's view of a game in progress: an infraction nobody has knocked on
        (``penalized: false``) would tell the table when to knock, so it is left out,
        and so is the engine's own verdict on a knock a referee ruled on
        (``engine_correct``: it tells whether the knocked turn had an infraction)."""
        shown = dict(summary)
        if isinstance(summary.get("infractions"), list):
            shown["infractions"] = [
                dict(i) for i in summary["infractions"] if i.get("penalized") is not False
            ]
        if isinstance(summary.get("knocks"), list):
            shown["knocks"] = [
                {k: v for k, v in knock.items() if k != "engine_correct"}
                for knock in summary["knocks"]
            ]
        return shown

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
            "corrections": self.corrections,
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
            "in": list(self._still_in),
            "out": list(self._out),
            "active": self._active,
            "acted": self._acted,
            "cur": list(self._pending_this_turn),
            # Once the player to move has acted, the last turn is closed to knocks.
            "prev_player": None if self._acted else self._last_turn_player,
            "prev": [] if self._acted else list(self._pending_last_turn),
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
            "corrections": self._corrections_state(),
            "log": self._log_state(),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> TockGame:
        if state.get("game") != cls.kind or state.get("version") != STATE_VERSION:
            raise InvalidEvent("not a TOCK state of a supported version")
        try:
            g = cls()
            g._names = tuple(state["players"])
            g._idx = {p: i for i, p in enumerate(g._names)}
            g._dest = {**g._idx, "center": -1}
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
            g._still_in = list(state["in"])
            g._out = list(state["out"])
            g._active = state["active"]
            g._acted = state["acted"]
            g._pending_this_turn = tuple(state["cur"])
            g._last_turn_player = state["prev_player"]
            g._pending_last_turn = tuple(state["prev"])
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
            g._restore_corrections(state)
            g._restore_log(state)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidEvent(f"corrupt TOCK state: {exc!r}") from None
        return g
