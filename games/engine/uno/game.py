"""UNO as the engine plays it (``docs/rules/uno.en.md`` is the players' reference).

A game is a series of hands played until a player's total reaches the target (500 by
default). Every card that moves is named in the log (``deal``: ``hands`` and ``up``;
``draw``: ``cards``; a ``WS`` play: ``hands``), so an unseeded log is checked card by
card; with a ``seed`` the cards are fixed by the seeded shuffles of :mod:`.cards` and a
log may leave those fields out (when given they must match).

State, in seat order ``0..n-1`` (clockwise; a player's left is the next seat):

* ``_hands[p]``: p's cards in the order received (a play removes the first occurrence).
* ``_pile``: the draw pile. Seeded: a list whose *last* item is drawn next (so a draw
  is a ``pop``); unseeded: ``None``, and ``_counts`` (a ``Counter``) holds it as a
  multiset with ``_pile_n`` cards.
* ``_discard``: the discard pile, bottom first (``[-1]`` is the top card).
* ``_phase`` and ``_active`` say who must do what (see the phase constants): the
  engine is a small state machine, one handler per event type, each of which checks
  everything before it changes anything (``push`` is atomic).
* ``_catchable``: the seat that may be caught for not calling UNO by the very next
  event (``None`` otherwise); ``_catch_draw``: the seat that was caught and must draw
  two as the very next event (the main state machine waits meanwhile; ``turn`` shows
  the normal next player throughout).

Invariant (checked by the property tests): the cards of the deck are always in exactly
one of the hands, the draw pile and the discard pile while a hand runs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain
from types import MappingProxyType
from typing import Any

from ..base import FINISHED, IN_PROGRESS, Game, register
from ..common import (
    _STR,
    all_in,
    apply_other_type,
    check_event_type,
    competition_places,
    every_player,
    fmt_cards,
    hide_hands,
    is_int,
    placements_line,
    public_deal_event,
    round_rng,
    run_tables,
    seeded_mismatch,
    shuffle,
    start_dealer,
    start_sheet_and_seed,
    start_target,
)
from ..errors import IllegalMove, InvalidEvent, shown
from .cards import (
    ALL_CARDS,
    CANONICAL,
    COLOR_OF,
    COLORS,
    DECK_COUNTS,
    DECK_VALUE,
    DECKS,
    POINTS,
    VALUE_OF,
    VALUES,
)

STATE_VERSION = 1
HAND_SIZE = 7

# Phases: what the player to move (``_active``) must do.
IDLE = "idle"  # no hand running: a ``deal`` (or a sheet's ``hand``) comes next
COLOR = "color"  # after a wild up card: the dealer's left chooses the colour
TURN = "turn"  # a normal turn: play a matching card or draw one
DRAWN = "drawn"  # after drawing one in the own turn: play that card or pass
FACING_W4 = "w4"  # a Wild Draw Four was played on you: challenge or draw four
PENALTY = "penalty"  # draw ``_need`` cards, then ``_after``
OVER = "over"

# What follows a penalty draw.
NEXT = "next"  # the drawer loses the turn: the next player plays
RESUME = "resume"  # (the bluffer drew four) the challenger plays normally
SCORE = "score"  # (after a final D or W4) the hand is scored

START_KEYS = frozenset({"type", "game", "players", "dealer", "deck", "target", "seed", "sheet"})
_KEYS = {
    "deal": frozenset({"type", "hands", "up"}),
    "color": frozenset({"type", "player", "color"}),
    "play": frozenset({"type", "player", "card", "color", "uno", "hands"}),
    "draw": frozenset({"type", "player", "cards"}),
    "pass": frozenset({"type", "player"}),
    "challenge": frozenset({"type", "player"}),
    "catch": frozenset({"type", "by", "against"}),
    "hand": frozenset({"type", "winner", "points"}),
    "end": frozenset({"type", "reason", "referee", "placements"}),
}


#: ``_named`` after an event that names no card (shared and read-only: no dict per event).
_NOTHING_NAMED: Mapping[str, Any] = MappingProxyType({})


def _matching(color: str | None, top: str | None) -> frozenset[str]:
    """The matching rule, stated once: the cards that may be played on a top card of
    value ``top`` with ``color`` in force: a card of that colour, a card of that value,
    or a wild. (``None``: no colour or value, as after a wild up card.)"""
    return frozenset(
        c for c in ALL_CARDS if COLOR_OF[c] is None or COLOR_OF[c] == color or VALUE_OF[c] == top
    )


#: The values of the number cards (a play of one only passes the turn on).
_NUMBERS = frozenset("0123456789")

#: Each card code to the deck's own string for it, its value, its colour (both ``None``
#: for a wild) and whether it is a number card, which ``_on_play`` reads in one lookup
#: (speed: a lookup a play instead of three). A play's card, read from the event, is
#: another string object than the one in the hand; replaced by the deck's, it is found
#: in the hand and in the tables by identity, without comparing characters.
_CARDS: dict[str, tuple[str, str | None, str | None, bool]] = {
    c: (c, VALUE_OF[c], COLOR_OF[c], VALUE_OF[c] in _NUMBERS) for c in ALL_CARDS
}
#: ``_CARDS``' entry for anything that is not a card code.
_NOT_A_CARD: tuple[None, None, None, bool] = (None, None, None, False)

#: The type of a list of cards (:meth:`UnoGame._on_deal` compares only lists).
_LIST = frozenset({list})


def _matching_by_top(color: str | None) -> dict[str | None, frozenset[str]]:
    """:func:`_matching` with ``color`` in force, for each top card (``None``: no
    discard pile, nothing on top), the sets shared by the cards of one value."""
    by_value = {top: _matching(color, top) for top in (*VALUES, None)}
    return {None: by_value[None]} | {c: by_value[VALUE_OF[c]] for c in ALL_CARDS}


#: :func:`_matching` of every colour in force and top card, looked up as
#: ``_MATCHING[color][top]`` by ``_on_play`` and ``playable`` (a play is checked and a
#: bot's candidates found with one set test a card instead of the rule's comparisons;
#: keyed by the top card itself, not its value: one lookup a play less).
_MATCHING = {color: _matching_by_top(color) for color in (*COLORS, None)}


def _card_list(value: object, field: str, player: str | None = None) -> list[str]:
    """``value``, a list of card codes (``InvalidEvent`` naming ``field``, or
    ``field.player`` for a player's list, otherwise)."""
    if not (isinstance(value, list) and all_in(ALL_CARDS, value)):
        name = field if player is None else f"{field}.{player}"
        raise InvalidEvent(f"'{name}' must be a list of card codes like 'R7', 'GS' or 'W4'")
    return value


@register
class UnoGame(Game):
    """One game of UNO to the target score. Build it with :meth:`start`."""

    kind = "uno"
    title = "UNO"
    min_players = 2
    max_players = 10
    #: Whether :meth:`_run` applies the usual play, draw and pass inline (the tests turn
    #: it off to compare with the handlers alone).
    _INLINE = True
    #: Its own event types (``end`` and ``correction`` are the base class's).
    event_types = frozenset(_KEYS) - {"end"}

    # Speed (``bench/bench_uno.py``): the state is in slots, read and written by every
    # event. A plain instance dict holds 39 attributes, past the 30 for which CPython
    # 3.11 shares an instance's keys with its class, so each access would look its key
    # up in the dict; a slot is read at a fixed offset. ``__init__`` sets every slot;
    # what the base class may add later (``_corrections``) goes to the instance dict,
    # which :meth:`copy` and :meth:`_take_over` carry along with the slots.
    __slots__ = (
        *("_names", "_idx", "_n", "seed", "deck", "target", "sheet"),
        *("_dealer0", "_hand_no", "_dealer", "_direction", "_hands", "_pile", "_counts"),
        *("_pile_n", "_discard", "_color", "_rng", "_phase", "_active", "_need", "_after"),
        *("_resume", "_winner", "_drawn", "_w4_player", "_w4_legal", "_catchable"),
        *("_catch_draw", "_results", "_scores", "_challenges", "_catches", "_status"),
        *("_placements", "_end", "_events", "_named_by", "_log"),
    )

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:  # use start() / from_state()
        self._names: tuple[str, ...] = ()
        self._idx: dict[str, int] = {}
        self._n = 0
        self.seed: int | str | None = None
        self.deck = "classic"
        self.target = 500
        self.sheet = False
        self._dealer0 = 0
        self._hand_no = 0
        self._dealer = 0
        self._direction = 1
        self._hands: list[list[str]] = []
        self._pile: list[str] | None = None
        self._counts: Counter[str] | None = None
        self._pile_n = 0
        self._discard: list[str] = []
        self._color: str | None = None
        self._rng: random.Random | None = None
        self._phase = IDLE
        self._active: int | None = None
        self._need = 0
        self._after = NEXT
        self._resume: int | None = None
        self._winner: int | None = None
        self._drawn: str | None = None
        self._w4_player: int | None = None
        self._w4_legal = True
        self._catchable: int | None = None
        self._catch_draw: int | None = None
        self._results: list[dict[str, Any]] = []
        self._scores: list[int] = []
        self._challenges: list[dict[str, Any]] = []
        self._catches: list[dict[str, Any]] = []
        self._status = IN_PROGRESS
        self._placements: dict[int, int] | None = None
        self._end: dict[str, Any] | None = None
        self._events = 1
        # What the last applied event named, if anything: see _named.
        self._named_by: list[str] | dict[str, Any] | None = None
        self._log: list[dict[str, Any]] | None = None  # (start sets it)

    @classmethod
    def start(cls, event: dict[str, Any]) -> UnoGame:
        """Create a game from ``{"type":"start","game":"uno","players":[...],...}``.

        ``dealer`` defaults to the first player, ``deck`` to ``"classic"``, ``target``
        to 500; ``seed`` (an int or a string) fixes every hand's cards; ``sheet: true``
        makes it a score sheet of ``hand`` lines (no seed then).
        """
        players = cls._check_start(event, START_KEYS)
        dealer = start_dealer(event, players)
        deck = event.get("deck", "classic")
        if deck not in DECKS:
            raise InvalidEvent(f"'deck' must be 'classic' or '2018', not {shown(deck)}")
        target = start_target(event, 500)
        sheet, seed = start_sheet_and_seed(event)
        g = cls()
        g._names = tuple(players)
        g._idx = {p: i for i, p in enumerate(players)}
        g._n = len(players)
        g.seed, g.deck, g.target, g.sheet = seed, deck, target, sheet
        g._dealer0 = g._dealer = g._idx[dealer]
        g._hands = [[] for _ in players]
        g._scores = [0] * g._n
        g._pile_n = len(CANONICAL[deck])
        g._log = [event]
        return g

    # ------------------------------------------------------------------ public API
    @property
    def turn(self) -> str | None:
        """Who must act next; ``None`` before the first deal, between hands and when
        over. While a caught player draws their two cards it still names the player
        who acts after that (the game goes on as it would have)."""
        if self._active is None or self._phase in (IDLE, OVER):
            return None
        return self._names[self._active]

    @property
    def direction(self) -> int:
        return self._direction

    @property
    def _named(self) -> Mapping[str, Any]:
        """The cards named by the last applied event, as the fields of a complete log
        name them (a seeded deal's ``hands`` and ``up``, a draw's ``cards``, a ``WS``
        play's ``hands``); empty after any other event (an ``end`` or a ``correction``
        included). For the bots, which push events without cards to a seeded game and
        write them into the log named, and for :meth:`named_event`. Kept in
        ``_named_by``, which ``_run`` clears before each of UNO's own events (and
        :meth:`_apply_shared` after an end or a correction) and their handlers set:
        the mapping of a deal or a swap as the handler built it, or the list of the
        cards drawn, whose mapping is built here when read (speed: a replay never reads
        it, and a third of its events are draws, which build no mapping)."""
        named = self._named_by
        if named is None:
            return _NOTHING_NAMED
        if type(named) is list:
            return {"cards": named}
        return named

    def _apply_shared(self, event: dict[str, Any], kind: str) -> None:
        """The base's end or correction; neither names a card (:attr:`_named`)."""
        super()._apply_shared(event, kind)
        self._named_by = None

    def hand_of(self, player: str) -> list[str]:
        """A player's cards, in the order received."""
        return list(self._hands[self._idx[player]])

    def _apply(self, event: dict[str, Any]) -> None:
        """One of UNO's own events (``Game.push``'s step): :meth:`_run` over that one
        event, so that ``push``, ``push_many`` and the bots judge with the same code."""
        self._run((event,))

    def _apply_many(self, events: Iterable[dict[str, Any]]) -> None:
        """A whole log (``Game.push_many``'s batch path): :meth:`_run`, which counts each
        event as it applies it, without a call per event to get there."""
        self._run(events)

    def _run(self, events: Iterable[dict[str, Any]]) -> None:
        """Validate and apply events in order, each counted as it is applied; on error
        nothing of that event changes (each handler checks everything before it changes
        anything) and the game stays after the last good one. The one loop ``push``
        (through :meth:`_apply`), ``push_many`` and the bots (a generator of events)
        share: an event of another type than UNO's own goes to the base class
        (:meth:`Game._event_type`: ``end`` and ``correction`` to ``_apply_shared``, an
        ``undo`` raises before anything changes); every own event gets the checks
        every event gets (:func:`~games.engine.common.check_event_type`: no unknown
        field, the game in progress, score-sheet lines only on a sheet), the caught
        player's draw first, the player to move (:meth:`_actor`) for the events that
        only they may send (``color``, ``play``, ``draw``, ``pass``, ``challenge``);
        then the event type's handler (``_on_<type>``, given that seat), which states
        its rules and returns the seat that may be caught next.

        Speed (``bench/bench_uno.py``): nine events in ten are one of three usual
        events, which a clearly marked inline block recognises by their shape and
        applies when every check passes, as TOCK's ``_run`` does: a ``play`` of exactly
        ``type``, ``player`` and a coloured ``card`` that is in the hand and matches
        (:data:`_MATCHING`, the matching rule's table, which ``_on_play`` reads too),
        and maybe ``uno``; a ``draw`` from a seeded pile that holds the cards (named or
        not) of one card in the own turn, or of a penalty after which the turn passes
        on (a Wild Draw Four's four, a Draw Two's two, a failed challenge's six); a
        ``pass`` after drawing; each by the player to move, in a game in progress with
        nobody caught. It gives the state the handler gives; anything else, and every
        refusal, falls through to the shared checks and the handler, so each refusal
        has one place (``test_the_inline_usual_events_judge_as_the_handlers`` compares
        both ways, event by event, over many games and their corruptions). On that
        path the usual event passes the shared checks in one condition, and the player
        to move in another, without a call (the call is made only to find the
        refusal); one lookup an event finds the type's fields, handler and whether the
        player to move sends it (:data:`_PLAYED_TYPES`); the fields are read by
        subscript (a missing one is the rare case: a ``KeyError`` caught costs nothing
        until it happens, a ``get`` is a method call every time)."""
        table = _SHEET_TYPES if self.sheet else _PLAYED_TYPES  # the types this game takes
        names = self._names
        sheet = self.sheet
        running = IN_PROGRESS
        inline = self._INLINE and not sheet
        n = self._n
        for event in events:
            # -- the usual events, inline (the hot path: see the docstring) -------------
            if inline and type(event) is dict and self._catch_draw is None:
                size = len(event)
                try:
                    kind, name = event["type"], event["player"]
                except KeyError:
                    kind = name = None
                p = self._active
                if (
                    2 <= size <= 4
                    and p is not None
                    and type(name) is str
                    and name == names[p]
                    and self._status == running
                ):  # by the player to move; the fields are checked below, type by type
                    if kind == "play" and (
                        size == 3 or (size == 4 and type(event.get("uno")) is bool)
                    ):  # a coloured card of the hand that matches, with or without UNO
                        try:
                            card, value, colour, number = _CARDS[event["card"]]
                        except (KeyError, TypeError):
                            value = None  # (no card, or not a card code: _on_play says)
                        if value is not None:
                            phase = self._phase
                            hand = self._hands[p]
                            discard = self._discard
                            if (
                                (phase == TURN or (phase == DRAWN and card == self._drawn))
                                and card in _MATCHING[self._color][discard[-1]]
                                and card in hand
                            ):
                                hand.remove(card)
                                discard.append(card)
                                self._drawn = None
                                self._color = colour
                                self._named_by = None
                                left = len(hand)
                                uno = size == 4 and event["uno"]
                                if number and left:  # the turn passes on, one seat
                                    self._phase = TURN
                                    self._active = (p + self._direction) % n
                                    self._catchable = p if left == 1 and not uno else None
                                else:
                                    self._catchable = self._after_play(
                                        p, card, value, hand, uno, True
                                    )
                                self._events += 1
                                continue
                    elif kind == "draw" and size <= 3:  # from a seeded pile, as it is
                        pile = self._pile
                        phase = self._phase
                        # (one card in the own turn, a third of all events, by itself: a
                        # pop and a comparison; the same as the penalty's slices below,
                        # which cost it 10% of the two-player benchmark's replay)
                        if phase == TURN and pile:  # one card in the own turn
                            card = pile[-1]
                            given = event.get("cards") if size == 3 else None
                            if size == 2 or (
                                type(given) is list
                                and len(given) == 1
                                and given[0] == card
                                and type(given[0]) is str
                            ):
                                pile.pop()
                                self._hands[p].append(card)
                                self._named_by = [card]
                                self._phase, self._drawn = DRAWN, card
                                self._catchable = None
                                self._events += 1
                                continue
                        elif pile is not None and (
                            phase == FACING_W4 or (phase == PENALTY and self._after == NEXT)
                        ):  # a penalty after which the turn passes on: four, or _need
                            need = 4 if phase == FACING_W4 else self._need
                            drawn = pile[: -need - 1 : -1]  # (the last need, last first)
                            given = event.get("cards") if size == 3 else None
                            if len(drawn) == need and (
                                size == 2
                                or (
                                    type(given) is list
                                    and given == drawn
                                    and _STR.issuperset(map(type, given))
                                )
                            ):
                                del pile[-need:]
                                self._hands[p] += drawn
                                self._named_by = drawn
                                self._phase = TURN
                                self._active = (p + self._direction) % n
                                self._catchable = None
                                self._events += 1
                                continue
                    elif kind == "pass" and size == 2 and self._phase == DRAWN:
                        self._drawn = None
                        self._phase = TURN
                        self._active = (p + self._direction) % n
                        self._named_by = None
                        self._catchable = None
                        self._events += 1
                        continue
            # -- every event: the shared checks, then the type's handler ----------------
            try:
                kind = event["type"] if type(event) is dict else None
                entry = table[kind] if type(kind) is str else None
            except KeyError:  # no type, or not one of the types this game takes
                entry = None
            if entry is None:  # not one of UNO's own types that this game takes
                apply_other_type(self, event, _KEYS, "hand")
                continue
            keys, handler, by_mover = entry
            if (
                not keys.issuperset(event)  # (no keys view: C-level, per key)
                or self._status != running
            ):  # all but the common case; refusals are there
                check_event_type(event, _KEYS, self._status, sheet, "hand")
            caught = self._catch_draw
            if caught is not None:
                if not (kind == "draw" and event.get("player") == names[caught]):
                    if kind == "catch":
                        raise IllegalMove(f"{names[caught]} was already caught")
                    raise IllegalMove(
                        f"{names[caught]} was caught without UNO and must draw two cards first"
                    )
                p = caught
            elif by_mover:
                # the usual case of _actor (the player to move) inline; it gives the refusal
                try:
                    name = event["player"]
                except KeyError:
                    name = None
                p = self._active
                if p is None or type(name) is not str or name != names[p]:
                    p = self._actor(event)
            else:
                p = None
            self._named_by = None
            self._catchable = handler(self, event, p)
            self._events += 1

    # ------------------------------------------------------------------ field checks
    def _actor(self, event: dict[str, Any], field: str = "player") -> int:
        """The seat of ``event[field]``, which must be the player to move."""
        name = event.get(field)
        i = self._idx.get(name) if type(name) is str else None
        if i is None:
            raise InvalidEvent(f"unknown player {shown(name)}")
        if self._phase == IDLE:
            raise IllegalMove(f"no hand is running: the next event is a deal, not {name}'s")
        if i != self._active:
            raise IllegalMove(f"{name} acted out of turn (it is {self.turn}'s turn)")
        return i

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self._direction) % self._n

    # ------------------------------------------------------------------ deal
    def _on_deal(self, event: dict[str, Any], _p: None = None) -> None:
        """Open a hand: seven cards each, dealt one at a time from the front of the
        draw pile clockwise from the dealer's left, then the up cards (every ``W4`` is
        returned to the bottom of the draw pile and the next card turned).

        The ``hands`` and ``up`` given are checked (:meth:`_given_deal`), then, seeded,
        compared with the seeded deal; unseeded, they are the deal."""
        if self._phase != IDLE:
            raise IllegalMove("a hand is running: no deal until it ends")
        n = self._n
        hand_no = self._hand_no + 1
        dealer = self._dealer0 if hand_no == 1 else (self._dealer + 1) % n
        given_hands = event.get("hands")
        given_up = event.get("up")
        rng: random.Random | None = None
        counts: Counter[str] | None = None
        pile: list[str] | None = None
        if self.seed is not None:
            rng = round_rng(self.seed, hand_no)
            deck = list(CANONICAL[self.deck])
            shuffle(rng, deck)
            pos = HAND_SIZE * n
            # card i goes to seat (dealer + 1 + i) % n: the k-th hand dealt is every n-th
            # card of the first pos from card k, and seat q's is hand (q - dealer - 1) % n
            dealt = list(map(deck.__getitem__, _DEAL_SLICES[n]))
            cut = -(dealer + 1) % n
            hands = dealt[cut:] + dealt[:cut]
            up = [deck[pos]]
            while up[-1] == "W4":  # returned to the draw pile: the next card is turned
                pos += 1
                up.append(deck[pos])
            pile = deck[:pos:-1]  # the cards after the up cards, drawn from the end
            if len(up) > 1:
                pile[:0] = up[:-1]  # the returned W4s at the bottom
            named = dict(zip(self._names, map(list, hands), strict=True))
            # Speed: given hands and up cards equal to the seeded ones, all exact strs,
            # pass every check of _given_deal (no call, no set of codes, the usual deal);
            # any other value goes through them first, in order, then the comparison.
            if (
                given_hands is not None
                and not (
                    type(given_hands) is dict
                    and _LIST.issuperset(map(type, given_hands.values()))  # (lists compared)
                    and given_hands == named
                    and _STR.issuperset(map(type, chain.from_iterable(given_hands.values())))
                )
            ) or (
                given_up is not None
                and not (
                    type(given_up) is list
                    and given_up == up
                    and _STR.issuperset(map(type, given_up))
                )
            ):
                given_hands, given_up = self._given_deal(given_hands, given_up)
                if given_hands is not None and given_hands != hands:
                    raise seeded_mismatch("deal", self._names, hands, given_hands)
                if given_up is not None and given_up != up:
                    raise IllegalMove(
                        f"the seeded up cards are {fmt_cards(up)}, not {fmt_cards(given_up)}"
                    )
            pile_n = len(pile)
        else:
            given_hands, given_up = self._given_deal(given_hands, given_up)
            if given_hands is None or given_up is None:
                raise InvalidEvent(
                    "'hands' and 'up' are required: an unseeded game names every card dealt"
                )
            hands = [list(h) for h in given_hands]
            up = list(given_up)
            counts = Counter(DECK_COUNTS[self.deck])
            counts.subtract(c for h in hands for c in h)
            # each W4 turned up is back in the draw pile before the next card is turned
            # (the same W4 may come up again): only the last up card leaves the pile, and
            # a W4 can be turned up only while one is left after the hands
            turned_w4 = len(up) > 1 and counts["W4"] < 1
            counts.subtract(up[-1:])
            short = sorted(
                {c for c, k in counts.items() if k < 0} | ({"W4"} if turned_w4 else set())
            )
            if short:
                raise IllegalMove(
                    f"the deal uses more {', '.join(short)} than the {self.deck} deck holds"
                )
            counts = +counts
            pile_n = sum(counts.values())
            named = {self._names[p]: list(h) for p, h in enumerate(hands)}
        # -- apply
        self._hand_no = hand_no
        self._dealer = dealer
        self._direction = 1
        self._hands = hands
        self._rng = rng
        self._pile, self._counts, self._pile_n = pile, counts, pile_n
        self._discard = [up[-1]]
        self._drawn = None
        self._w4_player = None
        self._winner = None
        self._resume = None
        self._named_by = {"hands": named, "up": up}
        self._first_card(up[-1], dealer)

    def _given_deal(
        self, given_hands: object, given_up: object
    ) -> tuple[list[list[str]] | None, list[str] | None]:
        """The ``hands`` (as seat-ordered lists) and ``up`` of a deal event, each
        ``None`` when not given; checked in this order (raises otherwise): every
        player's hand a list of seven card codes, then the up cards a list of card
        codes, every one of them but the last a ``W4`` (returned to the draw pile) and
        the last not."""
        if given_hands is not None:
            given_hands = self._hands_field(given_hands, "hands")
            for p, cards in enumerate(given_hands):
                if len(cards) != HAND_SIZE:
                    raise IllegalMove(
                        f"{self._names[p]} must be dealt {HAND_SIZE} cards, not {len(cards)}"
                    )
        if given_up is not None:
            given_up = _card_list(given_up, "up")
            if not given_up:
                raise IllegalMove("'up' must name the card(s) turned to start the discard pile")
            if any(c != "W4" for c in given_up[:-1]) or given_up[-1] == "W4":
                raise IllegalMove(
                    "every up card but the last must be a W4 (returned to the draw pile), "
                    "and the last must not be"
                )
        return given_hands, given_up  # type: ignore[return-value]

    def _first_card(self, card: str, dealer: int) -> None:
        """The up card's effect (the rules' first-card table)."""
        n = self._n
        left = (dealer + 1) % n
        self._color = COLOR_OF[card]
        value = VALUE_OF[card]
        self._phase, self._active = TURN, left
        if value is None:  # W, WC, WS (no swap): the dealer's left chooses the colour
            self._phase = COLOR
        elif value == "S":
            self._active = (dealer + 2) % n
        elif value == "V":
            self._direction = -1
            self._active = dealer
        elif value == "D":
            self._phase, self._need, self._after = PENALTY, 2, NEXT

    def _hands_field(self, value: object, field: str) -> list[list[str]]:
        """A ``{player: [cards]}`` object naming every player, as seat-ordered lists."""
        value = every_player(value, field, self._idx, "a card list")
        return [_card_list(value[p], field, p) for p in self._names]

    # ------------------------------------------------------------------ colour
    def _on_color(self, event: dict[str, Any], p: int) -> None:
        """The colour after a wild up card, chosen by ``p`` (the player to move)."""
        if self._phase != COLOR:
            raise IllegalMove("a 'color' event only follows a wild up card")
        color = event.get("color")
        if color not in COLORS:
            raise InvalidEvent(f"'color' must be one of R, Y, G, B, not {shown(color)}")
        self._color = color
        self._phase = TURN

    # ------------------------------------------------------------------ play
    def _on_play(self, event: dict[str, Any], p: int) -> int | None:
        """Judge and apply a play by ``p`` (the player to move); returns the seat that
        may now be caught (or None)."""
        try:
            card = event["card"]  # (by subscript, as _run reads the type)
            # the deck's own string for that code, its value and colour (see _CARDS)
            card, value, colour, number = _CARDS[card] if type(card) is str else _NOT_A_CARD
        except KeyError:
            card, value, colour, number = _NOT_A_CARD
        if card is None:
            given = event.get("card")
            raise InvalidEvent(
                f"'card' must be a card code like 'R7', 'GS' or 'W4', not {shown(given)}"
            )
        phase = self._phase
        if phase != TURN and phase != DRAWN:
            raise IllegalMove(self._not_now(self._names[p], "play"))
        hand = self._hands[p]
        try:
            at = hand.index(card)  # (its first occurrence, which the play removes)
        except ValueError:
            raise IllegalMove(f"{self._names[p]} has no {card} (hand: {fmt_cards(hand)})") from None
        if phase == DRAWN and card != self._drawn:
            name = self._names[p]
            if self._drawn is None:
                raise IllegalMove(f"{name} drew nothing and may only pass")
            raise IllegalMove(f"after drawing, {name} may play only the drawn {self._drawn}")
        if len(event) == 3:  # type, player and card only (_apply allows no other key)
            color = given = None  # (the usual play: no colour, no UNO call, no swap)
            uno = False
        else:
            color, uno, given = event.get("color"), event.get("uno", False), event.get("hands")
        if value is None:
            if color not in COLORS:
                if color is None:
                    raise InvalidEvent(f"a wild ({card}) needs 'color': R, Y, G or B")
                raise InvalidEvent(f"'color' must be one of R, Y, G, B, not {shown(color)}")
        else:
            if color is not None:
                raise InvalidEvent(f"'color' belongs only to wild cards, not to {card}")
            discard = self._discard
            if card not in _MATCHING[self._color][discard[-1]]:
                raise IllegalMove(
                    f"{card} does not match the colour in force ({self._color}) "
                    f"or the top card {discard[-1]}"
                )
        if uno is not False and type(uno) is not bool:
            raise InvalidEvent("'uno' must be true or false")
        if given is not None and card != "WS":
            raise InvalidEvent(f"'hands' belongs only to a WS (swap hands) play, not to {card}")
        if value is not None:  # -- apply a coloured card (the usual play)
            del hand[at]
            discard.append(card)
            self._drawn = None
            self._color = colour
            if number:  # (the usual case: the turn passes on, one seat)
                left = len(hand)
                if left:
                    self._phase = TURN
                    self._active = (p + self._direction) % self._n  # (_next)
                    return p if left == 1 and not uno else None
            return self._after_play(p, card, value, hand, uno, True)
        legal_w4 = True
        swapped = None
        if card == "W4":  # (only a wild has more to judge)
            in_force = self._color
            # (no other card of the colour in force: the colours compared at C speed)
            legal_w4 = in_force not in map(COLOR_OF.__getitem__, filter("W4".__ne__, hand))
        elif card == "WS":
            swapped = self._swap(p, given)  # checks before applying
        # -- apply a wild
        del hand[at]
        self._discard.append(card)
        self._drawn = None
        self._color = color
        if swapped is not None:
            self._hands = swapped
            hand = swapped[p]
            self._named_by = {"hands": {self._names[q]: list(h) for q, h in enumerate(swapped)}}
        return self._after_play(p, card, value, hand, uno, legal_w4)

    def _after_play(
        self, p: int, card: str, value: str | None, hand: list[str], uno: bool, legal_w4: bool
    ) -> int | None:
        """What follows ``p``'s play of ``card`` (already on the discard pile, ``hand``
        what p holds now): the card's effect, the next player to move or the hand's end;
        returns the seat that may now be caught (or None)."""
        left = len(hand)
        if value == "V":
            self._direction = -self._direction
        if left == 0:  # out: the next player first draws a final D's or W4's cards
            self._winner = p
            if value == "D" or card == "W4":
                self._phase, self._active = PENALTY, self._next(p)
                self._need, self._after = 2 if value == "D" else 4, SCORE
            else:
                self._score_hand(p)
            return None
        self._phase = TURN
        # (the next seat inline, as _next computes it: most plays pass the turn on)
        following = (p + self._direction) % self._n
        if value == "S":
            self._active = self._next(p, 2)
        elif value == "V":
            self._active = p if self._n == 2 else following
        elif value == "D":
            self._active = following
            self._phase, self._need, self._after = PENALTY, 2, NEXT
        elif card == "W4":
            self._active = following
            self._phase = FACING_W4
            self._w4_player, self._w4_legal = p, legal_w4
        else:
            self._active = following
        return p if left == 1 and not uno else None

    def _swap(self, p: int, given: object) -> list[list[str]]:
        """The hands after p's Wild Swap Hands: every hand (p's without the WS) gathered,
        then dealt one at a time starting with the next player in the direction of play
        (p last), so the first ``total mod players`` of them get one card more. Seeded:
        the gathered cards (in that same order of players, each hand in its order) are
        shuffled with the hand's generator first; unseeded: ``given`` must be a fair
        redistribution of exactly those cards. Changes nothing but the generator."""
        n = self._n
        order = [self._next(p, k) for k in range(1, n + 1)]
        pool: list[str] = []
        for q in order:
            cards = list(self._hands[q])
            if q == p:
                cards.remove("WS")
            pool += cards
        hands = self._hands_field(given, "hands") if given is not None else None
        if self._rng is not None:
            state = self._rng.getstate()
            shuffle(self._rng, pool)
            dealt: list[list[str]] = [[] for _ in range(n)]
            for i, c in enumerate(pool):
                dealt[order[i % n]].append(c)
            if hands is not None and hands != dealt:
                self._rng.setstate(state)
                raise seeded_mismatch("swap", self._names, dealt, hands)
            return dealt
        if hands is None:
            raise InvalidEvent("a WS play needs 'hands': every player's hand after the swap")
        total = len(pool)
        q_, r = divmod(total, n)
        for i, q in enumerate(order):
            want = q_ + (1 if i < r else 0)
            if len(hands[q]) != want:
                raise IllegalMove(
                    f"the swap deals {self._names[q]} {want} card(s), not {len(hands[q])} "
                    f"({total} cards dealt equally from {self._names[order[0]]} on)"
                )
        if Counter(c for h in hands for c in h) != Counter(pool):
            raise IllegalMove(
                "the swapped hands must hold exactly the cards that were in all hands"
            )
        return [list(h) for h in hands]

    # ------------------------------------------------------------------ draw, pass
    def _on_draw(self, event: dict[str, Any], p: int) -> None:
        """A draw by ``p``: the player to move, or the caught player (``_run`` lets
        only their draw through), who draws two.

        The cards are taken from the front of the draw pile (refilled from the discard
        pile, its top card kept, when a card must be drawn and it is empty; fewer when
        both run out: ``k`` cards); ``cards``, when given, must be a list of card codes
        (``InvalidEvent``), ``k`` of them, naming exactly them (``IllegalMove``; checked
        in that order: :meth:`_given_cards`). The usual draw, seeded from the pile as it
        is, is taken here; a refill or an unseeded draw by :meth:`_take`."""
        caught = self._catch_draw
        if caught is not None:
            need = 2
        else:
            phase = self._phase
            if phase == TURN:
                need = 1
            elif phase == FACING_W4:
                need = 4
            elif phase == PENALTY:
                need = self._need
            else:
                raise IllegalMove(self._not_now(event.get("player"), "draw"))
        try:
            given = event["cards"]  # (by subscript, as _run reads the type)
        except KeyError:
            given = None
        pile = self._pile
        have = len(pile) if pile is not None else self._pile_n
        # (the discard pile's top card stays: at most have + len(discard) - 1 cards)
        k = need if need <= have else min(need, have + len(self._discard) - 1)
        if pile is not None and have >= k:  # seeded, from the pile as it is: the usual draw
            drawn = pile[: -k - 1 : -1]  # (the last k, last first; none for k == 0)
            # Speed: a list equal to them whose items are all exact strs is a list of k
            # card codes, so it passes every check of _given_cards; only another value
            # goes through them, in order (no call, no set of codes for the usual draw).
            if given is not None and not (
                type(given) is list
                and given == drawn
                # (exact strs: the one card of the usual draw without a map over it)
                and (type(given[0]) is str if k == 1 else _STR.issuperset(map(type, given)))
            ):
                self._given_cards(given, need, k, p)
                raise IllegalMove(
                    f"the next card(s) of the draw pile are {fmt_cards(drawn)}, "
                    f"not {fmt_cards(given)}"
                )
            if k:
                del pile[-k:]
        else:
            drawn = self._take(need, k, given, p)
        # -- apply
        self._hands[p] += drawn
        self._named_by = drawn  # (the mapping only when read: see _named)
        if caught is not None:
            self._catch_draw = None
        elif phase == TURN:
            self._phase, self._drawn = DRAWN, (drawn[0] if drawn else None)
        elif phase == FACING_W4 or self._after == NEXT:  # the drawer loses the turn
            self._phase, self._active = TURN, (p + self._direction) % self._n  # (_next)
        elif self._after == RESUME:
            self._phase, self._active = TURN, self._resume
        else:
            self._score_hand(self._winner)  # type: ignore[arg-type]

    def _take(self, need: int, k: int, given: object, p: int) -> list[str]:
        """The ``k`` cards (``need`` asked) of a draw by seat ``p`` that the draw pile as
        it is cannot give alone (seeded: refilled from the discards) or of an unseeded
        game (the ``cards`` given, which must be in the pile as it stands when each is
        drawn); ``given``: the event's ``cards``, unchecked (see :meth:`_on_draw`).
        Nothing changes on error."""
        discard = self._discard
        pile = self._pile
        have = len(pile) if pile is not None else self._pile_n
        given = self._given_cards(given, need, k, p)
        if pile is not None:  # seeded, refilled from the discards first
            rng = self._rng
            assert rng is not None
            state = rng.getstate()
            refill = discard[:-1]
            shuffle(rng, refill)
            rest = k - have
            drawn = pile[::-1] + refill[:rest]
            if given is not None and given != drawn:
                rng.setstate(state)
                raise IllegalMove(
                    f"the next card(s) of the draw pile (refilled from the discards) are "
                    f"{fmt_cards(drawn)}, not {fmt_cards(given)}"
                )
            new_pile = refill[rest:]
            new_pile.reverse()
            self._pile = new_pile
            del discard[:-1]
            return drawn
        # unseeded: the named cards must be in the pile as it stands when each is drawn
        counts = self._counts
        assert counts is not None
        if given is None:
            if k:
                raise InvalidEvent("'cards' is required: an unseeded game names every card drawn")
            given = []
        if have >= k:
            want = Counter(given)
            short = [c for c, m in want.items() if counts[c] < m]
            if short:
                raise IllegalMove(
                    f"{', '.join(sorted(short))} is not in the draw pile (or not that many)"
                )
            counts.subtract(want)  # in place: no new Counter of the pile per draw
            for card in want:
                if not counts[card]:
                    del counts[card]
            self._pile_n -= k
            return list(given)
        first, later = Counter(given[:have]), Counter(given[have:])
        if first != +counts:
            raise IllegalMove(
                f"the first {have} card(s) drawn must be the rest of the draw pile "
                f"({fmt_cards(sorted(counts.elements()))})"
            )
        refill = Counter(discard[:-1])
        short = [c for c, m in later.items() if refill[c] < m]
        if short:
            raise IllegalMove(
                f"{', '.join(sorted(short))} is not in the draw pile refilled from the discards"
            )
        refill.subtract(later)
        self._counts = +refill
        self._pile_n = sum(self._counts.values())
        del discard[:-1]
        return list(given)

    def _given_cards(self, given: object, need: int, k: int, p: int) -> list[str] | None:
        """The ``cards`` of a draw by seat ``p`` that must take ``k`` cards (``need``
        asked): ``None`` or a list of ``k`` card codes; raises otherwise."""
        if given is None:
            return None
        given = _card_list(given, "cards")
        if len(given) != k:
            name = self._names[p]
            if k < need:
                raise IllegalMove(
                    f"{name} must draw {need} card(s) but only {k} are left, not {len(given)}"
                )
            raise IllegalMove(f"{name} must draw {k} card(s), not {len(given)}")
        return given

    def _on_pass(self, event: dict[str, Any], p: int) -> None:
        if self._phase != DRAWN:
            raise IllegalMove(
                f"{self._names[p]} may pass only right after drawing one card in their turn"
            )
        self._drawn = None
        self._phase, self._active = TURN, (p + self._direction) % self._n  # (_next)

    # ------------------------------------------------------------------ challenge, catch
    def _on_challenge(self, event: dict[str, Any], p: int) -> None:
        if self._phase != FACING_W4:
            raise IllegalMove(
                f"{self._names[p]} may challenge only a Wild Draw Four played on them, "
                "before drawing"
            )
        w4 = self._w4_player
        assert w4 is not None
        legal = self._w4_legal
        self._challenges.append(
            {
                "event": self._events + 1,
                "by": self._names[p],
                "against": self._names[w4],
                "legal": legal,
            }
        )
        self._phase = PENALTY
        if legal:  # a failed challenge: six cards, and the turn is lost
            self._need, self._after = 6, NEXT
        else:  # the bluffer draws four; then the challenger plays in the chosen colour
            self._active, self._need, self._after, self._resume = w4, 4, RESUME, p

    def _on_catch(self, event: dict[str, Any], _p: None = None) -> None:
        by, against = event.get("by"), event.get("against")
        for who in (by, against):
            if type(who) is not str or who not in self._idx:
                raise InvalidEvent(f"unknown player {shown(who)}")
        target = self._catchable
        if target is None:
            raise IllegalMove(
                "no catch possible: a catch must follow right after a play that left a "
                "player one card without calling UNO"
            )
        if self._idx[against] != target:
            raise IllegalMove(
                f"only {self._names[target]} can be caught now (their play left one card "
                "without UNO)"
            )
        if by == against:
            raise IllegalMove(f"{by} cannot catch themselves")
        self._catches.append({"event": self._events + 1, "by": by, "against": against})
        self._catch_draw = target

    # ------------------------------------------------------------------ hands and the end
    def _score_hand(self, winner: int) -> None:
        """The winner scores the points of every other hand; the game ends when a total
        reaches the target."""
        others = [h for q, h in enumerate(self._hands) if q != winner]
        # (the cards' points summed at C speed: no Python step a card)
        points = sum(map(POINTS.__getitem__, chain.from_iterable(others)))
        self._record_hand(winner, points)

    def _record_hand(self, winner: int, points: int) -> None:
        self._results.append(
            {"hand": self._hand_no, "winner": self._names[winner], "points": points}
        )
        self._scores[winner] += points
        self._phase, self._active = IDLE, None
        self._winner = winner
        if max(self._scores) >= self.target:
            self._finish(None)

    def _on_hand(self, event: dict[str, Any], _p: None = None) -> None:
        """A score-sheet line: who went out and how many points they scored."""
        winner, points = event.get("winner"), event.get("points")
        if type(winner) is not str or winner not in self._idx:
            raise InvalidEvent(f"'winner' must be one of the players, not {shown(winner)}")
        top = DECK_VALUE[self.deck]
        if not is_int(points) or not 0 <= points <= top:
            raise InvalidEvent(
                f"'points' must be a whole number from 0 to {top} (the {self.deck} deck), "
                f"not {shown(points)}"
            )
        if self._hand_no:
            self._dealer = (self._dealer + 1) % self._n
        self._hand_no += 1
        self._record_hand(self._idx[winner], points)

    def _finish_by_end(self, places: dict[int, int] | None) -> None:
        """After an ``end`` (:meth:`Game._apply_end`): without placements the players
        are ranked by their totals. A pending catch draw is dropped, and nobody can be
        caught any more."""
        self._catch_draw = None
        self._catchable = None
        self._finish(places)

    def _finish(self, places: dict[int, int] | None) -> None:
        self._status = FINISHED
        self._phase, self._active = OVER, None
        self._placements = places if places is not None else competition_places(self._scores)

    def _not_now(self, name: object, what: str) -> str:
        phase = self._phase
        if phase == COLOR:
            return f"{name} must first choose the colour (a wild was turned up)"
        if phase == FACING_W4:
            return f"{name} faces a Wild Draw Four: challenge it or draw four"
        if phase == PENALTY:
            return f"{name} must draw {self._need} card(s)"
        if phase == DRAWN:
            return f"{name} has drawn: play the drawn card or pass"
        return f"{name} cannot {what} now"

    # ------------------------------------------------------------------ moves
    def playable(self, seat: int) -> list[str]:
        """The distinct cards in ``seat``'s hand that match the top card or the colour in
        force, or are wild (``W4`` included: its legality matters only if challenged)."""
        match = _MATCHING[self._color][self._discard[-1] if self._discard else None]
        seen = []
        for c in self._hands[seat]:
            if c in match and c not in seen:
                seen.append(c)
        return seen

    def matches(self, card: str) -> bool:
        """Whether ``card`` matches the top card or the colour in force, or is wild (the
        test :meth:`playable` makes of each card in a hand; a hand is running)."""
        return card in _MATCHING[self._color][self._discard[-1]]

    def w4_is_legal(self, seat: int) -> bool:
        """Whether a W4 played by ``seat`` now would be legal (no card of the colour in force)."""
        return self._color not in map(COLOR_OF.__getitem__, self._hands[seat])

    def legal_moves(self) -> list[dict[str, Any]]:
        """The events the player who must act may push now. Seeded games leave out the
        drawn cards (the engine knows them); unseeded ones name one possible set (for a
        one-card draw, each distinct card of the draw pile). A score sheet lists none
        (any winner and score may follow); a deal is listed only in seeded games."""
        if self._status != IN_PROGRESS or self.sheet:
            return []
        if self._catch_draw is not None:
            return self._draws(self._catch_draw, 2)
        phase = self._phase
        if phase == IDLE:
            return [{"type": "deal"}] if self.seed is not None else []
        p = self._active
        assert p is not None
        name = self._names[p]
        if phase == COLOR:
            return [{"type": "color", "player": name, "color": c} for c in COLORS]
        if phase == FACING_W4:
            return [{"type": "challenge", "player": name}, *self._draws(p, 4)]
        if phase == PENALTY:
            return self._draws(p, self._need)
        if phase == DRAWN:
            moves = []
            if self._drawn is not None and self._drawn in self.playable(p):
                moves = self._plays(p, [self._drawn])
            return [*moves, {"type": "pass", "player": name}]
        return [*self._plays(p, self.playable(p)), *self._draws(p, 1)]

    def _plays(self, p: int, cards: list[str]) -> list[dict[str, Any]]:
        name = self._names[p]
        last = len(self._hands[p]) == 2
        moves = []
        for c in cards:
            base = {"type": "play", "player": name, "card": c}
            if c == "WS" or last:
                base["uno"] = True
            if COLOR_OF[c] is None:
                moves += [{**base, "color": col} for col in COLORS]
            else:
                moves.append(base)
        if self.seed is None:
            for m in moves:
                if m["card"] == "WS":
                    m["hands"] = self._fair_swap(p)
        return moves

    def _fair_swap(self, p: int) -> dict[str, list[str]]:
        """One fair redistribution for an unseeded WS (the gathered cards, unshuffled)."""
        n = self._n
        order = [self._next(p, k) for k in range(1, n + 1)]
        pool: list[str] = []
        for q in order:
            cards = list(self._hands[q])
            if q == p:
                cards.remove("WS")
            pool += cards
        dealt: dict[str, list[str]] = {name: [] for name in self._names}
        for i, c in enumerate(pool):
            dealt[self._names[order[i % n]]].append(c)
        return dealt

    def _draws(self, p: int, need: int) -> list[dict[str, Any]]:
        name = self._names[p]
        if self._pile is not None:
            return [{"type": "draw", "player": name}]
        have = self._pile_n
        k = min(need, have + len(self._discard) - 1)
        counts = self._counts
        assert counts is not None
        if k == 1 and have:
            return [{"type": "draw", "player": name, "cards": [c]} for c in sorted(counts)]
        cards = sorted(counts.elements())[:k]
        if k > have:
            cards += sorted(self._discard[:-1])[: k - have]
        return [{"type": "draw", "player": name, "cards": cards}]

    def named_event(self, event: dict[str, Any]) -> dict[str, Any]:
        """``event`` as a complete log names it: a copy with the cards pushing it now
        would move filled in (a seeded deal's ``hands`` and ``up``, a seeded draw's
        ``cards``, a seeded ``WS``'s ``hands``), as the bots write their logs, so that a
        log recorded move by move still replays without its seed. The game does not
        change; an event ``push`` would refuse raises as ``push`` does."""
        probe = self.copy()
        probe.push(dict(event))
        return {**event, **probe._named}

    def infraction_moves(self) -> list[dict[str, Any]]:
        """The plays that leave their player one card without calling UNO: each of
        :meth:`legal_moves`' plays that calls it (``"uno": true``), without the call,
        when pushing it would make the player catchable (a ``WS`` is judged on the hand
        after the swap). ``push`` accepts them (the rules do not refuse a forgotten
        call: they let the next event be a catch), so a scorekeeper can record what was
        really played; none is in :meth:`legal_moves`."""
        moves = []
        for move in self.legal_moves():
            if move.get("type") != "play" or move.get("uno") is not True:
                continue
            bare = {k: v for k, v in move.items() if k != "uno"}
            probe = self.copy()
            probe.push(dict(bare))
            if probe._catchable is not None:
                moves.append(bare)
        return moves

    def table_moves(self) -> list[dict[str, Any]]:
        """Catches: right after a play that left a player one card without calling UNO,
        any other player may catch them."""
        target = self._catchable
        if target is None or self._status != IN_PROGRESS:
            return []
        against = self._names[target]
        return [{"type": "catch", "by": q, "against": against} for q in self._names if q != against]

    # ------------------------------------------------------------------ public view
    @classmethod
    def public_summary(cls, summary: Mapping[str, Any]) -> dict[str, Any]:
        """A spectator's view of a game in progress: while a hand is running (``turn``
        is not ``null``) nobody at the table sees another player's cards, so every
        ``hands`` list is emptied and ``hand_sizes`` (``{player: number of cards}``)
        is added instead. Between hands the hands left are shown, as they are when a
        hand is scored at the table."""
        return hide_hands(summary)

    @classmethod
    def public_event(cls, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """A spectator sees every card played and every up card, never a hand: the
        ``seed`` of the start (it fixes every deal), the ``hands`` of a deal and of a
        Wild Swap Hands, and the ``cards`` of a draw are left out; a draw says only how
        many (``_count``), a swap how many cards each hand holds (``_hand_sizes``)."""
        if not isinstance(event, Mapping):
            return event
        kind = event.get("type")
        if kind in ("start", "deal"):
            return public_deal_event(event)
        if kind == "draw" and "cards" in event:
            shown = {k: v for k, v in event.items() if k != "cards"}
            cards = event["cards"]
            if isinstance(cards, list):
                shown["_count"] = len(cards)
            return shown
        if kind == "play" and "hands" in event:
            shown = {k: v for k, v in event.items() if k != "hands"}
            hands = event["hands"]
            if isinstance(hands, Mapping):
                shown["_hand_sizes"] = {p: len(h) for p, h in hands.items() if isinstance(h, list)}
            return shown
        return event

    # ------------------------------------------------------------------ serialisation
    @classmethod
    def text_summary(cls, summary: Mapping[str, Any]) -> str:
        """A short human-readable block for ``replay`` without ``--json``."""
        arrow = "clockwise" if summary["direction"] == 1 else "counter-clockwise"
        lines = [
            f"game: uno  status: {summary['status']}  events: {summary['events']}",
            f"hand: {summary['hand']}  dealer: {summary['dealer']}  turn: "
            f"{summary['turn'] or '-'}  direction: {arrow}",
            f"top: {summary['top'] or '-'}  colour: {summary['color'] or '-'}  "
            f"draw pile: {summary['draw_pile']}",
        ]
        for name in summary["players"]:
            hand = " ".join(summary["hands"][name]) or "-"
            lines.append(f"  {name}: {summary['scores'][name]} points  hand [{hand}]")
        if summary["placements"]:
            lines.append(placements_line(summary["placements"]))
        lines.append(
            f"hands played: {len(summary['hand_results'])}  challenges: "
            f"{len(summary['challenges'])}  catches: {len(summary['catches'])}"
        )
        return "\n".join(lines)

    def summary(self) -> dict[str, Any]:
        names = self._names
        pile = len(self._pile) if self._pile is not None else self._pile_n
        hands = {names[p]: list(h) for p, h in enumerate(self._hands)}
        return {
            "game": self.kind,
            "players": list(names),
            "status": self._status,
            "events": self._events,
            "hand": self._hand_no,
            "dealer": names[self._dealer],
            "turn": None if self.sheet else self.turn,
            "direction": self._direction,
            "top": self._discard[-1] if self._discard else None,
            "color": self._color,
            "hands": hands,
            "draw_pile": pile,
            "hand_results": [dict(r) for r in self._results],
            "scores": {names[p]: s for p, s in enumerate(self._scores)},
            "challenges": [dict(c) for c in self._challenges],
            "catches": [dict(c) for c in self._catches],
            "placements": self.placements(),
            "end": dict(self._end) if self._end is not None else None,
            "corrections": self.corrections,
        }

    def to_state(self) -> dict[str, Any]:
        rng = None
        if self._rng is not None:
            version, internal, gauss = self._rng.getstate()
            rng = [version, list(internal), gauss]
        return {
            "game": self.kind,
            "version": STATE_VERSION,
            "players": list(self._names),
            "seed": self.seed,
            "deck": self.deck,
            "target": self.target,
            "sheet": self.sheet,
            "dealer0": self._dealer0,
            "hand_no": self._hand_no,
            "dealer": self._dealer,
            "direction": self._direction,
            "hands": [list(h) for h in self._hands],
            "pile": None if self._pile is None else list(self._pile),
            "counts": None if self._counts is None else dict(self._counts),
            "pile_n": self._pile_n,
            "discard": list(self._discard),
            "color": self._color,
            "rng": rng,
            "phase": self._phase,
            "active": self._active,
            "need": self._need,
            "after": self._after,
            "resume": self._resume,
            "winner": self._winner,
            "drawn": self._drawn,
            "w4_player": self._w4_player,
            "w4_legal": self._w4_legal,
            "catchable": self._catchable,
            "catch_draw": self._catch_draw,
            "results": [dict(r) for r in self._results],
            "scores": list(self._scores),
            "challenges": [dict(c) for c in self._challenges],
            "catches": [dict(c) for c in self._catches],
            "status": self._status,
            "placements": None
            if self._placements is None
            else [[p, v] for p, v in self._placements.items()],
            "end": None if self._end is None else dict(self._end),
            "events": self._events,
            "corrections": self._corrections_state(),
            "log": self._log_state(),
        }

    def _take_over(self, game: Game) -> None:
        """The base class's step (the instance dict) and every slot, by reference."""
        super()._take_over(game)
        for slot in _SLOTS:
            slot.__set__(self, slot.__get__(game))

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> UnoGame:
        if state.get("game") != cls.kind or state.get("version") != STATE_VERSION:
            raise InvalidEvent("not an UNO state of a supported version")
        try:
            g = cls()
            g._names = tuple(state["players"])
            g._idx = {p: i for i, p in enumerate(g._names)}
            g._n = len(g._names)
            g.seed, g.deck, g.target, g.sheet = (
                state["seed"],
                state["deck"],
                state["target"],
                state["sheet"],
            )
            g._dealer0, g._hand_no, g._dealer = state["dealer0"], state["hand_no"], state["dealer"]
            g._direction = state["direction"]
            g._hands = [list(h) for h in state["hands"]]
            g._pile = None if state["pile"] is None else list(state["pile"])
            g._counts = None if state["counts"] is None else Counter(state["counts"])
            g._pile_n = state["pile_n"]
            g._discard = list(state["discard"])
            g._color = state["color"]
            if state["rng"] is not None:
                version, internal, gauss = state["rng"]
                g._rng = random.Random()
                g._rng.setstate((version, tuple(internal), gauss))
            g._phase, g._active = state["phase"], state["active"]
            g._need, g._after, g._resume = state["need"], state["after"], state["resume"]
            g._winner, g._drawn = state["winner"], state["drawn"]
            g._w4_player, g._w4_legal = state["w4_player"], state["w4_legal"]
            g._catchable, g._catch_draw = state["catchable"], state["catch_draw"]
            g._results = [dict(r) for r in state["results"]]
            g._scores = list(state["scores"])
            g._challenges = [dict(c) for c in state["challenges"]]
            g._catches = [dict(c) for c in state["catches"]]
            g._status = state["status"]
            pl = state["placements"]
            g._placements = None if pl is None else {p: v for p, v in pl}
            g._end = None if state["end"] is None else dict(state["end"])
            g._events = state["events"]
            g._restore_corrections(state)
            g._restore_log(state)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidEvent(f"corrupt UNO state: {exc!r}") from None
        return g

    def copy(self) -> UnoGame:
        """An independent copy (cheaper than a state round trip: the generator is copied
        by its state, the lists one level deep)."""
        g = object.__new__(type(self))
        g._take_over(self)  # (every slot and the instance dict, shared: then copied)
        g.__dict__ = dict(self.__dict__)
        g._log = None if self._log is None else list(self._log)
        g._hands = [list(h) for h in self._hands]
        g._pile = None if self._pile is None else list(self._pile)
        g._counts = None if self._counts is None else Counter(self._counts)
        g._discard = list(self._discard)
        if self._rng is not None:
            g._rng = random.Random()
            g._rng.setstate(self._rng.getstate())
        g._results = [dict(r) for r in self._results]
        g._scores = list(self._scores)
        g._challenges = [dict(c) for c in self._challenges]
        g._catches = [dict(c) for c in self._catches]
        g._placements = None if self._placements is None else dict(self._placements)
        g._end = None if self._end is None else dict(self._end)
        return g


#: The cards of each hand dealt, by number of players: every n-th card of the first
#: ``HAND_SIZE * n`` of the shuffled deck, from card k for the k-th hand dealt.
_DEAL_SLICES = {
    n: tuple(slice(k, HAND_SIZE * n, n) for k in range(n))
    for n in range(UnoGame.min_players, UnoGame.max_players + 1)
}
#: The slots' descriptors (:meth:`UnoGame._take_over` moves the state through them).
_SLOTS = tuple(getattr(UnoGame, name) for name in UnoGame.__slots__)
#: The handler of each event type but ``end`` (see :meth:`UnoGame.push`); each checks
#: everything before it changes anything and returns the seat that may be caught next.
_HANDLERS = {kind: getattr(UnoGame, "_on_" + kind) for kind in _KEYS if kind != "end"}
#: The events only the player to move may send (``_run`` checks that first: _actor).
_BY_THE_PLAYER_TO_MOVE = frozenset({"color", "play", "draw", "pass", "challenge"})
#: ``_run``'s one lookup an event, in the table of its game (played, or a score sheet,
#: which takes "hand" lines only): the type's fields, its handler, and whether only the
#: player to move sends it.
_PLAYED_TYPES, _SHEET_TYPES = run_tables(_KEYS, _HANDLERS, _BY_THE_PLAYER_TO_MOVE, "hand")
