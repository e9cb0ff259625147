"""Casino as the engine plays it (``docs/rules/casino.md`` is the reference; issue 14).

A game is a series of rounds played until, after a round, somebody's total reaches the
target (21 by default) with nobody level at the top. Every round uses the whole
52-card deck: a first deal (four cards to each player and four face up to the center),
then later deals of four cards each once every hand is empty. Every card is named in
the log; with a ``seed`` the deals are fixed by :func:`.cards.round_deck` and a ``deal``
may leave out ``hands`` and ``center`` (when given they must match).

State, in seat order ``0..n-1`` (clockwise; a player's left is the next seat):

* ``_hands[p]``: p's cards in the order dealt (a play removes the card).
* ``_loose``: the loose center cards in the order they arrived; ``_builds``: the builds
  in order of id, each ``{"id", "value", "owner" (a seat), "called", "cards"}`` with
  its cards sorted by value then suit.
* ``_captured[p]``: the cards p captured this round; ``_last_capture``: the seat that
  captured last this round (``None`` if nobody has).
* ``_made[p]``: the id of the build p made or called in their latest turn (``None`` if
  that turn was a capture or a trail): the trail restriction.
* ``_phase``: ``round`` (the next event is a round's first deal, or a sheet's ``round``
  line), ``deal`` (a later deal of the round), ``play`` (``_active`` plays a card) or
  ``over``. Each handler checks everything before it changes anything, so ``push`` is
  atomic.

Invariant (checked by the property tests): while a round runs, its 52 cards are each in
exactly one place: a hand, the center (loose or in a build), a captured pile, or the
part of the deck not dealt yet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..base import FINISHED, IN_PROGRESS, Game, register
from ..common import (
    RunEntry,
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
    run_tables,
    seeded_mismatch,
    start_dealer,
    start_sheet_and_seed,
    start_target,
)
from ..errors import IllegalMove, InvalidEvent, shown
from .cards import (
    ALL_CARDS,
    BIG_CASINO,
    LITTLE_CASINO,
    RANK_OF,
    SUIT_OF,
    VALUE_OF,
    round_deck,
    sort_cards,
)

STATE_VERSION = 1
HAND_SIZE = 4
CENTER_SIZE = 4
DECK_SIZE = 52
#: The categories of a round's score, with the points each is worth.
CATEGORIES = ("cards", "spades", "big_casino", "little_casino", "aces")
#: ``legal_moves`` lists at most this many captures, builds and calls (each) per card
#: (see :meth:`CasinoGame.legal_moves`).
MOVES_PER_CARD = 200

# Phases.
ROUND = "round"  # no round running: a first deal (or a sheet's round line) comes next
DEAL = "deal"  # every hand is empty and the round has cards left: a later deal comes next
PLAY = "play"  # the player to move (``_active``) plays one card
OVER = "over"

START_KEYS = frozenset({"type", "game", "players", "dealer", "target", "seed", "sheet"})
_KEYS = {
    "deal": frozenset({"type", "hands", "center"}),
    "capture": frozenset({"type", "player", "card", "take"}),
    "build": frozenset({"type", "player", "card", "with", "value"}),
    "call": frozenset({"type", "player", "card", "groups", "value"}),
    "trail": frozenset({"type", "player", "card"}),
    "round": frozenset({"type", "scores"}),
    "end": frozenset({"type", "reason", "referee", "placements"}),
}
#: A ``_run`` table's entry (:func:`_with_play_fields`).
PlayEntry = tuple[frozenset[str], Any, bool, int, str, str]
_BUILD_ID = re.compile(r"b[1-9][0-9]*")
#: ``_named`` after an event that names no card (shared and read-only: no dict per event).
_NOTHING_NAMED: Mapping[str, Any] = MappingProxyType({})


def _is_card(value: object) -> bool:
    return type(value) is str and value in ALL_CARDS


def _card_list(value: object, field: str, player: str | None = None) -> list[str]:
    """``value``, a list of card codes (``InvalidEvent`` naming ``field``, or
    ``field.player`` for a player's list, otherwise)."""
    if not (isinstance(value, list) and all_in(ALL_CARDS, value)):
        name = field if player is None else f"{field}.{player}"
        raise InvalidEvent(f"'{name}' must be a list of card codes like '10D', '2S' or 'KC'")
    return value


#: The spades and the aces (the round's score counts them in each captured pile).
_SPADES = frozenset(c for c in ALL_CARDS if SUIT_OF[c] == "S")
_ACES = frozenset(c for c in ALL_CARDS if RANK_OF[c] == "A")


def deals_per_round(players: int) -> int:
    """Deals in a round: the first (which also turns up the center's four) and as many
    more as the 48 other cards allow: 6 for 2 players, 4 for 3, 3 for 4."""
    return (DECK_SIZE - CENTER_SIZE) // (HAND_SIZE * players)


def _unique_top(values: list[int]) -> int | None:
    """The seat with the highest value, or ``None`` when two or more share it."""
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def score_round(captured: list[list[str]]) -> list[dict[str, int]]:
    """Each seat's points for one round from the cards it captured: most cards 3, most
    spades 1 (a tie for the most gives nobody the point), big casino ``10D`` 2, little
    casino ``2S`` 1, each ace 1; ``total`` their sum (11 points at most in a round)."""
    counts = [len(c) for c in captured]
    # (a captured pile holds each card once: as a set, its spades and aces are counted
    # as intersections at C speed, looking up the 13 spades and 4 aces, and each casino
    # is one lookup)
    piles = [set(c) for c in captured]
    spades = [len(_SPADES & c) for c in piles]

    most_cards, most_spades = _unique_top(counts), _unique_top(spades)
    rows = []
    for p, cards in enumerate(piles):
        row = {
            "cards": 3 if p == most_cards else 0,
            "spades": 1 if p == most_spades else 0,
            "big_casino": 2 if BIG_CASINO in cards else 0,
            "little_casino": 1 if LITTLE_CASINO in cards else 0,
            "aces": len(_ACES & cards),
        }
        row["total"] = sum(row.values())
        rows.append(row)
    return rows


@register
class CasinoGame(Game):
    """One game of Casino to the target score. Build it with :meth:`start`."""

    kind = "casino"
    title = "Casino"
    min_players = 2
    max_players = 4
    #: Whether :meth:`_run` applies the usual trail and capture inline (the tests turn
    #: it off to compare with the handlers alone).
    _INLINE = True
    #: Its own event types (``end`` and ``correction`` are the base class's).
    event_types = frozenset(_KEYS) - {"end"}

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:  # use start() / from_state()
        self._names: tuple[str, ...] = ()
        self._idx: dict[str, int] = {}
        self._n = 0
        self.seed: int | str | None = None
        self.target = 21
        self.sheet = False
        self._round = 0
        self._dealer = 0
        self._deals = 0
        self._deck: list[str] | None = None
        self._dealt: list[str] = []
        self._hands: list[list[str]] = []
        self._loose: list[str] = []
        self._builds: list[dict[str, Any]] = []
        self._next_build = 1
        self._captured: list[list[str]] = []
        self._last_capture: int | None = None
        self._made: list[str | None] = []
        self._phase = ROUND
        self._active: int | None = None
        self._round_scores: list[list[dict[str, int]]] = []
        self._scores: list[int] = []
        self._status = IN_PROGRESS
        self._placements: dict[int, int] | None = None
        self._end: dict[str, Any] | None = None
        self._events = 1
        # The latest deal (hands by seat, and the center of a round's first deal), for
        # ``_named``, which shows it while nothing has been played from it (see there).
        self._dealt_named: tuple[list[list[str]], list[str] | None] | None = None

    @property
    def _named(self) -> Mapping[str, Any]:
        """The cards named by the latest event pushed (a deal's hands and center, as
        fresh lists; empty after any other event, ``end`` and ``correction`` included),
        for the bots, which push seeded deals without cards and log them named.

        Derived, so that no event pays for it: the latest deal is the latest event
        while every hand still holds the :data:`HAND_SIZE` cards it dealt (any play
        takes one, and a round ends with every hand empty); an ``end`` forgets it, and
        a ``correction`` comes only after the end. (A refused event changes nothing,
        this included.)"""
        deal = self._dealt_named
        if deal is None:
            return _NOTHING_NAMED
        hands, center = deal
        if any(len(cards) != HAND_SIZE for cards in hands):  # played from since
            return _NOTHING_NAMED
        shown: dict[str, Any] = {
            "hands": {name: list(cards) for name, cards in zip(self._names, hands, strict=True)}
        }
        if center is not None:
            shown["center"] = list(center)
        return shown

    @classmethod
    def start(cls, event: dict[str, Any]) -> CasinoGame:
        """Create a game from ``{"type":"start","game":"casino","players":[...],...}``.

        ``dealer`` defaults to the first player and ``target`` to 21; ``seed`` (an int
        or a string) fixes every deal; ``sheet: true`` makes it a score sheet of
        ``round`` lines (no seed then).
        """
        players = cls._check_start(event, START_KEYS)
        dealer = start_dealer(event, players)
        target = start_target(event, 21)
        sheet, seed = start_sheet_and_seed(event)
        g = cls()
        g._names = tuple(players)
        g._idx = {p: i for i, p in enumerate(players)}
        g._n = len(players)
        g.seed, g.target, g.sheet = seed, target, sheet
        g._dealer = g._idx[dealer]
        g._hands = [[] for _ in players]
        g._captured = [[] for _ in players]
        g._made = [None] * g._n
        g._scores = [0] * g._n
        g._log = [event]
        return g

    # ------------------------------------------------------------------ public API
    @property
    def turn(self) -> str | None:
        """Who plays next; ``None`` before the first deal, between deals and rounds,
        on a score sheet and when over."""
        if self._phase != PLAY or self._active is None:
            return None
        return self._names[self._active]

    def hand_of(self, player: str) -> list[str]:
        """A player's cards, in the order dealt."""
        return list(self._hands[self._idx[player]])

    def _apply(self, event: dict[str, Any]) -> None:
        """One of Casino's own events (``Game.push``'s step): :meth:`_run` over that one
        event, so that ``push`` and ``push_many`` judge with the same code."""
        self._run((event,))

    def _apply_many(self, events: Iterable[dict[str, Any]]) -> None:
        """A whole log (``Game.push_many``'s batch path): :meth:`_run`, which counts each
        event as it applies it, without a call per event to get there."""
        self._run(events)

    def _run(self, events: Iterable[dict[str, Any]]) -> None:
        """Validate and apply events in order, each counted as it is applied; on error
        nothing of that event changes and the game stays after the last good one. An
        event of another type than Casino's own goes to the base class
        (:meth:`Game._event_type`: ``end`` and ``correction`` to ``_apply_shared``, an
        ``undo`` raises before anything changes); every own event gets the checks every
        event gets (:func:`~games.engine.common.check_event_type`: no unknown field, the
        game in progress, score-sheet lines only on a sheet), then its handler
        (``_on_<type>``); a play (``capture``, ``build``, ``call``, ``trail``) first
        names its player and card (:meth:`_play_card`: the player to move, a card in
        their hand), which the handler gets, the card out of the hand already (put back
        where it was if the handler refuses the play).

        Speed (``bench/bench_casino.py``): the usual play passes the shared checks and
        names its player and card in one condition, without a call (a play the player
        to move makes is a play of a game in progress: only :meth:`_finish` ends one,
        and it leaves the ``play`` phase; the refusals are found by
        :func:`~games.engine.common.check_event_type` then :meth:`_play_card`, in that
        order); one lookup an event finds the type's fields, handler and whether it is
        a play (:data:`_PLAYED_TYPES`); the fields are read by subscript (a missing one
        is the rare case: a ``KeyError`` caught costs nothing until it happens, a
        ``get`` is a method call every time); the count and the hands are locals (the
        count is stored back whatever happens, the hands re-read after any event but a
        play, which changes a hand in place). Four plays in five are a trail or a
        capture of one loose card, which a clearly marked inline block applies when
        every check passes, as TOCK's and UNO's ``_run`` do: a trail by a player who
        made no build in their last turn (:meth:`_on_trail`'s one refusal), a capture
        whose ``take`` is one loose card of the card's value (a face card: of its rank)
        or one build of that value.
        It gives the state the handler gives; any other play, and every refusal, goes
        to the handler (``test_the_inline_usual_plays_judge_as_the_handlers`` compares
        both ways, play by play, over many games and their corruptions)."""
        table = _SHEET_TYPES if self.sheet else _PLAYED_TYPES  # the types this game takes
        playing = PLAY
        names = self._names
        n = self._n
        left_of = [*range(1, n), 0]  # each seat's left: a lookup a play, not (p + 1) % n
        sheet = self.sheet
        running = IN_PROGRESS
        hands = self._hands
        count = self._events
        inline = self._INLINE
        try:
            for event in events:
                try:
                    kind = event["type"] if type(event) is dict else None
                    entry = table[kind] if type(kind) is str else None
                except KeyError:  # no type, or not one of the types this game takes
                    entry = None
                if entry is None:  # not one of Casino's own types that this game takes
                    self._events = count
                    apply_other_type(self, event, _KEYS, "round")  # (counts it)
                    count = self._events
                    hands = self._hands
                    continue
                keys, handler, play, size, x1, x2 = entry
                if play:
                    # the usual case of check_event_type and _play_card inline (no unknown
                    # field, the player to move, a card they hold)
                    try:
                        name, card = event["player"], event["card"]
                    except KeyError:
                        name = card = None
                    if (
                        self._phase != playing
                        or type(name) is not str
                        or name != names[p := self._active]  # type: ignore[index]
                        or type(card) is not str
                        or len(event) != size  # (no unknown field: see _with_play_fields)
                        or x1 not in event
                        or x2 not in event
                    ):  # all but the common case; the refusals are there
                        check_event_type(event, _KEYS, self._status, sheet, "round")
                        p, card = self._play_card(event)
                    hand = hands[p]
                    try:
                        at = hand.index(card)
                    except ValueError:  # not a card they hold: _play_card refuses it
                        p, card = self._play_card(event)
                        at = hand.index(card)  # (not reached)
                    # Every play: the card leaves the hand (found once: the place it goes
                    # back to if the play is refused), then its own effect (the handler,
                    # which checks everything first and returns the build the player
                    # made, if any); then the turn passes left, or every hand is empty
                    # (:meth:`_played_out`: the next deal, or the round's end). Turns go
                    # round from the dealer's left, who got as many cards as everybody, so
                    # every hand is empty once the next player's is.
                    del hand[at]
                    # -- the usual trail and capture, inline (see the docstring) --------
                    if not inline:
                        made = self._handle_play(handler, event, p, card, hand, at)
                    elif kind == "trail" and self._made[p] is None:
                        self._loose.append(card)  # (no build of p's last turn to keep)
                        made = None
                    elif kind == "capture" and self._usual_capture(event.get("take"), p, card):
                        made = None
                    else:
                        made = self._handle_play(handler, event, p, card, hand, at)
                    self._made[p] = made
                    q = left_of[p]
                    if hands[q]:
                        self._active = q
                    else:
                        self._played_out()
                else:
                    if not keys.issuperset(event) or self._status != running:
                        check_event_type(event, _KEYS, self._status, sheet, "round")
                    handler(self, event)
                    hands = self._hands  # (a deal deals new ones)
                count += 1
        finally:
            self._events = count

    def _usual_capture(self, take: object, p: int, card: str) -> bool:
        """Apply the usual capture by ``p`` with ``card`` (it has left the hand), and
        say so: ``take`` is one loose card of the card's value (a face card: of its
        rank), or one build of that value (a face card has none). Anything else
        changes nothing and answers ``False``, for :meth:`_on_capture` to judge; for
        these two it gives the same state."""
        if type(take) is not list or len(take) != 1:
            return False
        item = take[0]
        value = VALUE_OF[card]
        if type(item) is list:
            if len(item) != 1:
                return False
            other = item[0]
            loose = self._loose
            if other not in loose or (
                VALUE_OF[other] != value if value is not None else RANK_OF[other] != RANK_OF[card]
            ):
                return False
            loose.remove(other)
            taken = [other]
        else:
            build = self._build_named(item)
            if build is None or build["value"] != value:
                return False
            self._builds = [b for b in self._builds if b is not build]
            taken = build["cards"]
        pile = self._captured[p]
        pile.append(card)
        pile += taken
        self._last_capture = p
        return True

    def _handle_play(
        self, handler: Any, event: dict[str, Any], p: int, card: str, hand: list[str], at: int
    ) -> str | None:
        """A play's own effect (its type's handler, given the player and the card, which
        has left ``hand`` from place ``at``): the build made, if any. A refused play
        puts the card back where it was: nothing of the event changes."""
        try:
            return handler(self, event, p, card)
        except BaseException:
            hand.insert(at, card)
            raise

    # ------------------------------------------------------------------ deal
    def _hands_field(self, value: object) -> list[list[str]]:
        """A ``{player: [4 cards]}`` object naming every player, as seat-ordered lists."""
        value = every_player(value, "hands", self._idx, "a card list")
        hands = [_card_list(value[p], "hands", p) for p in self._names]
        for p, cards in enumerate(hands):
            if len(cards) != HAND_SIZE:
                raise IllegalMove(
                    f"{self._names[p]} must be dealt {HAND_SIZE} cards, not {len(cards)}"
                )
        return hands

    def _on_deal(self, event: dict[str, Any]) -> None:
        """A deal: four cards to each player (seeded: in blocks of four from the front
        of the round's deck, starting with the dealer's left), then, on a round's first
        deal only, four cards face up to the center. A round's first deal clears what a
        finished round left in the center; a later deal waits until every hand is empty
        and carries no ``center`` key.

        Seeded, the cards are the deck's: a deal that names exactly them (or none) is
        settled by one comparison each (the usual replayed line; every check of the
        named fields is implied by the equality), any other is judged field by field
        (:meth:`_given_deal`), in the order the checks have always had."""
        phase = self._phase
        if phase == PLAY:
            raise IllegalMove("cards are still in hand: a deal comes only once every hand is empty")
        first = phase == ROUND
        n = self._n
        round_no = self._round + 1 if first else self._round
        # Until round 1 is dealt ``_dealer`` is the start's dealer (a score sheet, whose
        # round lines move it, has no deals); each later round passes it to the left.
        dealer = (self._dealer + 1) % n if first and self._round else self._dealer
        if not first and "center" in event:
            raise IllegalMove(
                "only a round's first deal turns up a center: a later deal has no 'center'"
            )
        names = self._names
        deck: list[str] | None = None
        if self.seed is not None:
            deck = round_deck(self.seed, round_no) if first else self._deck
            assert deck is not None
            pos = 0 if first else len(self._dealt)
            # blocks of four from ``pos``, the dealer's left first (_SEAT_BLOCKS)
            part = deck[pos : pos + HAND_SIZE * n]
            hands: list[list[str]] = list(map(part.__getitem__, _SEAT_BLOCKS[n][dealer]))
            pos += HAND_SIZE * n
            center = deck[pos : pos + CENTER_SIZE] if first else []
            named = dict(zip(names, hands, strict=True))
            if not (
                ("hands" not in event or event["hands"] == named)
                and ("center" not in event or event["center"] == center)
            ):
                given_hands, given_center = self._given_deal(event)
                if given_hands is not None and given_hands != hands:
                    raise seeded_mismatch("deal", names, hands, given_hands)
                if given_center is not None and given_center != center:
                    raise IllegalMove(
                        f"the seeded center is {fmt_cards(center)}, not {fmt_cards(given_center)}"
                    )
            dealt = deck[: pos + len(center)]  # (the deck's front, dealt in its order)
        else:
            given_hands, given_center = self._given_deal(event)
            if given_hands is None or (first and given_center is None):
                need = "'hands' and 'center' are" if first else "'hands' is"
                raise InvalidEvent(f"{need} required: an unseeded game names every card dealt")
            hands = [list(h) for h in given_hands]
            center = list(given_center) if given_center is not None else []
            dealt_before = [] if first else self._dealt
            seen: set[str] = set(dealt_before)
            for c in [c for h in hands for c in h] + center:
                if c in seen:
                    raise IllegalMove(
                        f"{c} is dealt twice in this round (a deck holds every card once)"
                    )
                seen.add(c)
            # the hands in the order dealt, from the dealer's left (a loop: comprehensions
            # reading dealer, n and hands would make cells for them at every deal)
            dealt = list(dealt_before)
            for k in range(1, n + 1):
                dealt += hands[(dealer + k) % n]
            dealt += center
        # -- apply
        if first:
            self._round, self._dealer, self._deals = round_no, dealer, 1
            self._deck = deck
            self._loose = list(center)
            self._builds = []
            self._captured = [[] for _ in range(n)]
            self._last_capture = None
        else:
            self._deals += 1
        self._dealt = dealt
        # (the hands are the deal's own lists: ``_named`` copies them when read)
        self._hands = hands
        self._made = [None] * n
        self._phase, self._active = PLAY, (dealer + 1) % n  # the dealer's left plays first
        # What the deal named, for ``_named`` (built only when read: a replay never
        # reads it). The hands are aliased, not copied: ``_named`` shows them only while
        # every hand is full, that is still as dealt.
        self._dealt_named = (hands, center if first else None)

    def _given_deal(self, event: dict[str, Any]) -> tuple[list[list[str]] | None, list[str] | None]:
        """The ``hands`` (by seat) and ``center`` a deal names, each checked (``None``
        when not given): an object naming every player with four card codes each, a list
        of four card codes."""
        given_hands = self._hands_field(event["hands"]) if "hands" in event else None
        given_center = None
        if "center" in event:
            given_center = _card_list(event["center"], "center")
            if len(given_center) != CENTER_SIZE:
                raise IllegalMove(
                    f"the first deal turns up {CENTER_SIZE} center cards, not {len(given_center)}"
                )
        return given_hands, given_center

    # ------------------------------------------------------------------ plays
    def _play_card(self, event: dict[str, Any]) -> tuple[int, str]:
        """The seat of ``event["player"]``, who must be the player to move, and the
        ``card`` they play, which must be in their hand."""
        name = event.get("player")
        p = self._idx.get(name) if type(name) is str else None
        if p is None:
            raise InvalidEvent(f"unknown player {shown(name)}")
        if self._phase != PLAY:
            what = "a round's first deal" if self._phase == ROUND else "a deal"
            raise IllegalMove(f"no cards are in hand: the next event is {what}, not {name}'s")
        if p != self._active:
            raise IllegalMove(f"{name} played out of turn (it is {self.turn}'s turn)")
        card = event.get("card")
        if type(card) is not str or card not in ALL_CARDS:  # (_is_card, without a call)
            raise InvalidEvent(
                f"'card' must be a card code like '10D', '2S' or 'KC', not {shown(card)}"
            )
        if card not in self._hands[p]:
            raise IllegalMove(f"{name} has no {card} (hand: {fmt_cards(self._hands[p])})")
        return p, card

    def _build_by_id(self, bid: str) -> dict[str, Any]:
        b = self._build_named(bid)
        if b is None:
            raise IllegalMove(f"there is no build {bid} in the center")
        return b

    def _build_named(self, bid: object) -> dict[str, Any] | None:
        """The build in the center whose id is ``bid``, or ``None``."""
        for b in self._builds:
            if b["id"] == bid:
                return b
        return None

    def _item_value(self, item: str, loose: list[str], used: list[str], card: str) -> int:
        """The value of one named item (a loose card code or a build id, or in a call
        the played ``card``) of a build or a call, checked: it is in the center, not
        named twice, a number card, and (a build) not called: nobody can raise or extend
        a called build. Returns its value; adds it to ``used``. (``loose`` and ``used``
        hold a dozen items at most: lists, searched as fast as sets and built for
        nothing.)"""
        if item in used:
            raise IllegalMove(f"{item} is named twice")
        if item not in ALL_CARDS and _BUILD_ID.fullmatch(item):  # (a card is no build id)
            b = self._build_by_id(item)
            if b["called"]:
                raise IllegalMove(
                    f"{item} is a called build of {b['value']}: nobody can raise or extend it"
                )
            used.append(item)
            return b["value"]
        if item == card:
            used.append(item)
            return VALUE_OF[card] or 0
        if item not in loose:
            raise IllegalMove(f"{item} is not loose in the center")
        value = VALUE_OF[item]
        if value is None:
            raise IllegalMove(
                f"{item} has no number: jacks, queens and kings only pair, they are never "
                "part of a build or a call"
            )
        used.append(item)
        return value

    def _items_value(self, items: list[str], loose: list[str], used: list[str], card: str) -> int:
        """The sum of :meth:`_item_value` over ``items``, in order (a build's ``with``,
        a call's group). The usual item, a loose number card not named before, is
        summed here without a call: the answer :meth:`_item_value` gives it."""
        total = 0
        for item in items:
            if item in loose and item not in used and (v := VALUE_OF[item]) is not None:
                used.append(item)
                total += v
            else:
                total += self._item_value(item, loose, used, card)
        return total

    @staticmethod
    def _item_list(value: object, field: str) -> list[str]:
        if not isinstance(value, list) or not value:
            raise InvalidEvent(
                f"'{field}' must be a non-empty list of loose center cards and build ids like 'b1'"
            )
        for item in value:
            if type(item) is not str or (  # (_is_card inline: no call for a card code)
                item not in ALL_CARDS and not _BUILD_ID.fullmatch(item)
            ):
                raise InvalidEvent(
                    f"'{field}' names loose center cards (like '7H') and build ids (like "
                    f"'b1'), not {shown(item)}"
                )
        return value

    def _on_capture(self, event: dict[str, Any], p: int, card: str) -> None:
        """Capture with a card: each item of ``take`` is a list of loose cards adding up
        to the card's value (one card of equal value is a list of one) or the id of a
        build of that value; items are disjoint, at least one. A face card takes exactly
        one loose card of its own rank. (The card has left the hand, and the turn passes,
        in ``_run``; returns ``None``: no build made.)"""
        try:  # (no method call: "take" is there, refused just below when it is not)
            take = event["take"]
        except KeyError:
            take = None
        if not isinstance(take, list) or not take:
            raise InvalidEvent(
                "'take' must be a non-empty list of items: lists of loose center cards "
                "or build ids like 'b1'"
            )
        for item in take:
            if (
                type(item) is list
                and len(item) == 1
                and type(item[0]) is str
                and item[0] in ALL_CARDS
            ):  # the usual item, one card code (what the checks below accept, no call)
                continue
            if type(item) is str:
                if not _BUILD_ID.fullmatch(item):
                    hint = (
                        f" (a loose card is a list of one: [{shown(item)}])"
                        if _is_card(item)
                        else ""
                    )
                    raise InvalidEvent(
                        f"'take' items are card lists or build ids, not {shown(item)}{hint}"
                    )
            elif not (isinstance(item, list) and item and all_in(ALL_CARDS, item)):
                raise InvalidEvent(
                    "'take' items are non-empty lists of card codes or build ids like 'b1'"
                )
        value = VALUE_OF[card]
        loose = self._loose  # (a dozen cards at most: a list is searched as fast as a set)
        taken_cards: list[str] = []
        taken_builds: list[str] = []
        if value is None:
            rank = RANK_OF[card]
            if len(take) != 1 or type(take[0]) is not list or len(take[0]) != 1:
                raise IllegalMove(
                    f"{card} has no number: a {rank} captures only by pairing, exactly one "
                    f"loose {rank}"
                )
            other = take[0][0]
            if other not in loose:
                raise IllegalMove(f"{other} is not loose in the center")
            if RANK_OF[other] != rank:
                raise IllegalMove(f"{card} pairs only with a loose {rank}, not {other}")
            taken_cards.append(other)
        else:
            # What is taken so far: taken_builds and taken_cards (a build id is never a
            # card code, so each list is the one to look in; no set for the usual one).
            for item in take:
                if type(item) is str:
                    if item in taken_builds:
                        raise IllegalMove(f"{item} is taken twice")
                    b = self._build_by_id(item)
                    if b["value"] != value:
                        raise IllegalMove(
                            f"{item} is a build of {b['value']}: {card} captures builds of {value}"
                        )
                    taken_builds.append(item)
                    continue
                total = 0
                for c in item:
                    if c in taken_cards:
                        raise IllegalMove(f"{c} is taken twice")
                    if c not in loose:
                        raise IllegalMove(f"{c} is not loose in the center")
                    v = VALUE_OF[c]
                    if v is None:
                        raise IllegalMove(
                            f"{c} has no number: face cards only pair, they are never part of a sum"
                        )
                    taken_cards.append(c)
                    total += v
                if total != value:
                    raise IllegalMove(
                        f"{'+'.join(item)} adds up to {total}, not {value} (the value of {card})"
                    )
        # -- apply (the card has left the hand, and the turn passes, in _run)
        for c in taken_cards:  # (each once: checked above)
            loose.remove(c)
        pile = self._captured[p]
        pile.append(card)
        pile += taken_cards
        if taken_builds:
            kept = []
            for b in self._builds:
                if b["id"] in taken_builds:
                    pile += b["cards"]
                else:
                    kept.append(b)
            self._builds = kept
        self._last_capture = p
        return None

    @staticmethod
    def _own_value(card: str, what: str) -> int:
        """The value of the card played into a ``what`` (a build or a call): a face card
        has none and is never part of one (``IllegalMove``)."""
        own = VALUE_OF[card]
        if own is None:
            raise IllegalMove(
                f"{card} has no number: jacks, queens and kings are never part of a {what}"
            )
        return own

    def _check_holds_after(self, p: int, card: str, value: int, what: str) -> None:
        """The rule of builds and calls: after playing ``card`` into a ``what`` of
        ``value``, ``p`` must still hold another card of that value (to capture it)."""
        after = self._hands[p]  # (the card has left it: _run)
        if value not in map(VALUE_OF.__getitem__, after):
            raise IllegalMove(
                f"{self._names[p]} may {what} {value} only holding another card of value "
                f"{value} (hand after {card}: {fmt_cards(after)})"
            )

    def _new_build(self, p: int, card: str, named: list[str], value: int, called: bool) -> str:
        """Apply a build or a call: ``card`` and the items ``named`` (loose cards and
        build ids, checked; in a call, the played card too) become build ``b<next>`` of
        ``value``, owned by ``p``; returns its id (the card has left the hand in
        ``_run``). The cards are kept sorted (:func:`.cards.sort_cards`), so the order
        they are gathered in does not matter."""
        cards = [card]
        loose = self._loose
        for item in named:
            if item != card and item in ALL_CARDS:  # a loose card (a build id is no card)
                loose.remove(item)
                cards.append(item)
        kept = []
        for b in self._builds:
            if b["id"] in named:
                cards += b["cards"]
            else:
                kept.append(b)
        bid = f"b{self._next_build}"
        self._next_build += 1
        kept.append(
            {"id": bid, "value": value, "owner": p, "called": called, "cards": sort_cards(cards)}
        )
        self._builds = kept
        return bid

    def _value_field(self, event: dict[str, Any], lo: int) -> int:
        value = event.get("value")
        if not is_int(value):
            raise InvalidEvent(
                f"'value' must be a whole number from {lo} to 10, not {shown(value)}"
            )
        if not lo <= value <= 10:
            what = "build" if lo == 2 else "call"
            raise IllegalMove(f"a {what} is worth {lo} to 10, not {value}")
        return value

    def _on_build(self, event: dict[str, Any], p: int, card: str) -> str:
        """Build (or raise): the card and the listed loose cards and uncalled builds
        become one new build whose value, 2 to 10, is their sum; the player must still
        hold a card of that value. Returns the new build's id."""
        items = self._item_list(event.get("with"), "with")
        value = event.get("value")
        if type(value) is not int or not 2 <= value <= 10:  # (the usual value, no call)
            value = self._value_field(event, 2)
        own = VALUE_OF[card]
        if own is None:
            own = self._own_value(card, "build")  # (refused)
        if card in items:
            raise IllegalMove(f"{card} is the card played: 'with' lists only center items")
        loose = self._loose
        used: list[str] = []
        total = own + self._items_value(items, loose, used, card)
        if total != value:
            raise IllegalMove(f"{card} with {fmt_cards(items)} adds up to {total}, not {value}")
        self._check_holds_after(p, card, value, "build")
        return self._new_build(p, card, used, value, called=False)

    def _on_call(self, event: dict[str, Any], p: int, card: str) -> str:
        """Call: two or more groups, each adding up to the called value (1 to 10; loose
        cards and uncalled builds, one group holding the played card) become one called
        build, which nobody can raise or extend; the player must still hold a card of
        that value. Returns the new build's id."""
        groups = event.get("groups")
        if not isinstance(groups, list) or len(groups) < 2:
            raise InvalidEvent(
                "'groups' must be a list of two or more groups (lists of loose cards, build "
                "ids and the played card)"
            )
        for k, group in enumerate(groups):
            self._item_list(group, f"groups[{k}]")
        value = self._value_field(event, 1)
        self._own_value(card, "call")
        holding = [k for k, g in enumerate(groups) if card in g]
        if len(holding) != 1 or groups[holding[0]].count(card) != 1:
            raise IllegalMove(f"exactly one group must hold the played card {card}, written once")
        loose = self._loose
        used: list[str] = []
        for group in groups:
            total = self._items_value(group, loose, used, card)
            if total != value:
                raise IllegalMove(
                    f"the group {'+'.join(group)} adds up to {total}, not the called {value}"
                )
        self._check_holds_after(p, card, value, "call")
        return self._new_build(p, card, used, value, called=True)

    def _on_trail(self, event: dict[str, Any], p: int, card: str) -> None:
        """Trail: the card goes loose into the center. Refused when the player built or
        called in their previous turn and that build is still in the center unchanged
        (same id): for that one turn they must capture, build or call instead. (The card
        has left the hand, and the turn passes, in ``_run``; returns ``None``: no build.)"""
        made = self._made[p]
        if made is not None and _has_build(self._builds, made):
            raise IllegalMove(
                f"{self._names[p]} made build {made} in their previous turn and it is "
                "unchanged: no trail this turn (capture, build or call)"
            )
        self._loose.append(card)
        return None

    def _played_out(self) -> None:
        """After the play that emptied the last hand: the next deal, or the end of the
        round."""
        self._active = None
        if self._deals < deals_per_round(self._n):
            self._phase = DEAL
            return
        self._end_round()

    # ------------------------------------------------------------------ rounds and the end
    def _end_round(self) -> None:
        """The last player who captured takes everything left in the center (nobody
        captured: it stays there, unscored, until the next round's first deal); the
        round is scored."""
        last = self._last_capture
        if last is not None:
            pile = self._captured[last]
            pile += self._loose
            for b in self._builds:
                pile += b["cards"]
            self._loose, self._builds = [], []
        self._made = [None] * self._n
        self._record_round(score_round(self._captured))

    def _record_round(self, rows: list[dict[str, int]]) -> None:
        """Add a round's points; the game ends once somebody has reached the target
        and nobody is level with the highest total (a tie at the top plays on)."""
        self._round_scores.append(rows)
        for p, row in enumerate(rows):
            self._scores[p] += row["total"]
        self._phase, self._active = ROUND, None
        best = max(self._scores)
        if best >= self.target and self._scores.count(best) == 1:
            self._finish(None)

    def _on_round(self, event: dict[str, Any]) -> None:
        """A score-sheet line: every player's points of one round, checked as a real
        round could give them (cards 3 to one player or nobody, spades 1 to one player
        or nobody, big casino 2 and little casino 1 each to exactly one player, aces 0
        to 4 a player adding up to 4). The dealer rotates each round."""
        scores = every_player(event.get("scores"), "scores", self._idx, "their points")
        rows: list[dict[str, int]] = []
        for name in self._names:
            given = scores[name]
            if not isinstance(given, dict):
                raise InvalidEvent(
                    f"the scores of {name} must be an object like "
                    '{"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 2}'
                )
            extra = sorted(str(k) for k in given if k not in CATEGORIES)
            if extra:
                raise InvalidEvent(
                    f"unknown score categor{'y' if len(extra) == 1 else 'ies'} for {name}: "
                    f"{', '.join(extra)} (known: {', '.join(CATEGORIES)})"
                )
            row: dict[str, int] = {}
            for cat in CATEGORIES:
                v = given.get(cat, 0)
                if not is_int(v):
                    raise InvalidEvent(
                        f"the {cat} points of {name} must be a whole number, not {shown(v)}"
                    )
                row[cat] = v
            rows.append(row)
        for cat, worth, exactly_one in (
            ("cards", 3, False),
            ("spades", 1, False),
            ("big_casino", 2, True),
            ("little_casino", 1, True),
        ):
            for name, row in zip(self._names, rows, strict=True):
                if row[cat] not in (0, worth):
                    raise IllegalMove(f"{cat} scores {worth} or 0, not {row[cat]} ({name})")
            winners = sum(1 for row in rows if row[cat])
            if exactly_one and winners != 1:
                raise IllegalMove(f"{cat} ({worth}) goes to exactly one player, not {winners}")
            if winners > 1:
                raise IllegalMove(f"{cat} ({worth}) goes to one player or nobody, not {winners}")
        for name, row in zip(self._names, rows, strict=True):
            if not 0 <= row["aces"] <= 4:
                raise IllegalMove(f"aces score 0 to 4 a player, not {row['aces']} ({name})")
        aces = sum(row["aces"] for row in rows)
        if aces != 4:
            raise IllegalMove(f"the aces of a round add up to 4, not {aces}")
        for row in rows:
            row["total"] = sum(row[cat] for cat in CATEGORIES)
        if self._round:
            self._dealer = (self._dealer + 1) % self._n
        self._round += 1
        self._record_round(rows)

    def _finish_by_end(self, places: dict[int, int] | None) -> None:
        """After an ``end`` (:meth:`Game._apply_end`: ``reason`` ``time`` or
        ``adjudicated``, an optional ``referee`` and ``placements``): without
        placements the players are ranked by the totals of the finished rounds."""
        self._dealt_named = None
        self._finish(places)

    def _finish(self, places: dict[int, int] | None) -> None:
        self._status = FINISHED
        self._phase, self._active = OVER, None
        self._placements = places if places is not None else competition_places(self._scores)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[dict[str, Any]]:
        """The events the player to move may push now: every capture, build, call and
        trail of every card in their hand. Captures, builds and calls are listed for
        each card up to :data:`MOVES_PER_CARD` of each (in the engine's order: builds
        before loose cards, fewer cards first); a center holding that many ways to
        play one card needs a dozen small loose cards, which real play hardly gives.
        Between deals a ``deal`` is listed in seeded games only; a score sheet lists
        none."""
        if self._status != IN_PROGRESS or self.sheet:
            return []
        if self._phase != PLAY:
            return [{"type": "deal"}] if self.seed is not None else []
        p = self._active
        assert p is not None
        name = self._names[p]
        hand = self._hands[p]
        loose = [c for c in self._loose if VALUE_OF[c] is not None]
        open_builds = [b for b in self._builds if not b["called"]]
        # The pool a build or a call may use: uncalled builds, then loose number cards.
        pool = [(b["id"], b["value"]) for b in open_builds] + [(c, VALUE_OF[c]) for c in loose]
        moves: list[dict[str, Any]] = []
        for card in hand:
            value = VALUE_OF[card]
            base = {"player": name, "card": card}
            if value is None:
                rank = RANK_OF[card]
                for c in self._loose:
                    if RANK_OF[c] == rank:
                        moves.append({"type": "capture", **base, "take": [[c]]})
                continue
            # captures
            items: list[tuple[Any, frozenset[str]]] = [
                (b["id"], frozenset([b["id"]])) for b in self._builds if b["value"] == value
            ]
            items += [
                (list(s), frozenset(s))
                for s in _subsets([(c, VALUE_OF[c]) for c in loose], value)  # type: ignore[misc]
            ]
            for combo in _disjoint_collections(items, MOVES_PER_CARD):
                moves.append({"type": "capture", **base, "take": [it for it, _ in combo]})
            others = {VALUE_OF[c] for c in hand if c != card and VALUE_OF[c] is not None}
            # builds
            count = 0
            for target in sorted(v for v in others if v > value):  # type: ignore[operator]
                for s in _subsets(pool, target - value):
                    if count >= MOVES_PER_CARD:
                        break
                    moves.append({"type": "build", **base, "with": s, "value": target})
                    count += 1
            # calls
            count = 0
            for target in sorted(v for v in others if v >= value):  # type: ignore[operator]
                for mine in _subsets(pool, target - value, allow_empty=True):
                    rest = [(it, v) for it, v in pool if it not in mine]
                    groups = [(s, frozenset(s)) for s in _subsets(rest, target)]
                    for combo in _disjoint_collections(groups, MOVES_PER_CARD - count):
                        moves.append(
                            {
                                "type": "call",
                                **base,
                                "groups": [[card, *mine], *(g for g, _ in combo)],
                                "value": target,
                            }
                        )
                        count += 1
                    if count >= MOVES_PER_CARD:
                        break
                if count >= MOVES_PER_CARD:
                    break
        made = self._made[p]
        if made is None or not _has_build(self._builds, made):
            moves += [{"type": "trail", "player": name, "card": c} for c in hand]
        return moves

    def named_event(self, event: dict[str, Any]) -> dict[str, Any]:
        """``event`` as a complete log names it: a copy with the cards a seeded deal
        gives filled in (``hands`` and, on a round's first deal, ``center``), pushed on
        a copy, so that a log recorded move by move replays without its seed. The game
        does not change; an event ``push`` would refuse raises as ``push`` does."""
        probe = self.copy()
        probe.push(dict(event))
        return {**event, **probe._named}

    # ------------------------------------------------------------------ public view
    @classmethod
    def public_summary(cls, summary: Mapping[str, Any]) -> dict[str, Any]:
        """A spectator's view of a game in progress: while a deal is being played
        (``turn`` is not ``null``) nobody sees another player's cards, so every
        ``hands`` list is emptied and ``hand_sizes`` (``{player: number of cards}``) is
        added instead. The center and the captured counts are public."""
        return hide_hands(summary)

    @classmethod
    def public_event(cls, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """A spectator sees every card played and the center turned up, never a hand:
        the ``seed`` of the start (it fixes every deal) and the ``hands`` of a deal are
        left out (a deal's ``center`` is face up and stays)."""
        return public_deal_event(event)

    # ------------------------------------------------------------------ serialisation
    @classmethod
    def text_summary(cls, summary: Mapping[str, Any]) -> str:
        """A short human-readable block for ``replay`` without ``--json``."""
        center = summary["center"]
        builds = " ".join(
            f"{b['id']}={b['value']}{'(called)' if b['called'] else ''}[{' '.join(b['cards'])}]"
            for b in center["builds"]
        )
        lines = [
            f"game: casino  status: {summary['status']}  events: {summary['events']}",
            f"round: {summary['round']}  dealer: {summary['dealer']}  turn: "
            f"{summary['turn'] or '-'}  last capture: {summary['last_capture'] or '-'}",
            f"center: {' '.join(center['cards']) or '-'}  builds: {builds or '-'}",
        ]
        for name in summary["players"]:
            hand = " ".join(summary["hands"][name]) or "-"
            lines.append(
                f"  {name}: {summary['scores'][name]} points  captured "
                f"{summary['captured'][name]}  hand [{hand}]"
            )
        if summary["placements"]:
            lines.append(placements_line(summary["placements"]))
        lines.append(f"rounds scored: {len(summary['round_scores'])}")
        return "\n".join(lines)

    def summary(self) -> dict[str, Any]:
        names = self._names
        last = self._last_capture
        return {
            "game": self.kind,
            "players": list(names),
            "status": self._status,
            "events": self._events,
            "round": self._round,
            "dealer": names[self._dealer],
            "turn": self.turn,
            "center": {
                "cards": list(self._loose),
                "builds": [
                    {
                        "id": b["id"],
                        "value": b["value"],
                        "owner": names[b["owner"]],
                        "called": b["called"],
                        "cards": list(b["cards"]),
                    }
                    for b in self._builds
                ],
            },
            "hands": {names[p]: list(h) for p, h in enumerate(self._hands)},
            "captured": {names[p]: len(c) for p, c in enumerate(self._captured)},
            "last_capture": None if last is None else names[last],
            "round_scores": [
                {names[p]: dict(row) for p, row in enumerate(rows)} for rows in self._round_scores
            ],
            "scores": {names[p]: s for p, s in enumerate(self._scores)},
            "placements": self.placements(),
            "end": dict(self._end) if self._end is not None else None,
            "corrections": self.corrections,
        }

    def to_state(self) -> dict[str, Any]:
        return {
            "game": self.kind,
            "version": STATE_VERSION,
            "players": list(self._names),
            "seed": self.seed,
            "target": self.target,
            "sheet": self.sheet,
            "round": self._round,
            "dealer": self._dealer,
            "deals": self._deals,
            "deck": None if self._deck is None else list(self._deck),
            "dealt": list(self._dealt),
            "hands": [list(h) for h in self._hands],
            "loose": list(self._loose),
            "builds": [{**b, "cards": list(b["cards"])} for b in self._builds],
            "next_build": self._next_build,
            "captured": [list(c) for c in self._captured],
            "last_capture": self._last_capture,
            "made": list(self._made),
            "phase": self._phase,
            "active": self._active,
            "round_scores": [[dict(r) for r in rows] for rows in self._round_scores],
            "scores": list(self._scores),
            "status": self._status,
            "placements": None
            if self._placements is None
            else [[p, v] for p, v in self._placements.items()],
            "end": None if self._end is None else dict(self._end),
            "events": self._events,
            "corrections": self._corrections_state(),
            "log": self._log_state(),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> CasinoGame:
        if (
            not isinstance(state, dict)
            or state.get("game") != cls.kind
            or state.get("version") != STATE_VERSION
        ):
            raise InvalidEvent("not a Casino state of a supported version")
        try:
            g = cls()
            g._names = tuple(state["players"])
            g._idx = {p: i for i, p in enumerate(g._names)}
            g._n = len(g._names)
            g.seed, g.target, g.sheet = state["seed"], state["target"], state["sheet"]
            g._round, g._dealer = state["round"], state["dealer"]
            g._deals = state["deals"]
            g._deck = None if state["deck"] is None else list(state["deck"])
            g._dealt = list(state["dealt"])
            g._hands = [list(h) for h in state["hands"]]
            g._loose = list(state["loose"])
            g._builds = [{**b, "cards": list(b["cards"])} for b in state["builds"]]
            g._next_build = state["next_build"]
            g._captured = [list(c) for c in state["captured"]]
            g._last_capture = state["last_capture"]
            g._made = list(state["made"])
            g._phase, g._active = state["phase"], state["active"]
            g._round_scores = [[dict(r) for r in rows] for rows in state["round_scores"]]
            g._scores = list(state["scores"])
            g._status = state["status"]
            pl = state["placements"]
            g._placements = None if pl is None else {p: v for p, v in pl}
            g._end = None if state["end"] is None else dict(state["end"])
            g._events = state["events"]
            g._restore_corrections(state)
            g._restore_log(state)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidEvent(f"corrupt Casino state: {exc!r}") from None
        return g

    def copy(self) -> CasinoGame:
        """An independent copy (cheaper than a state round trip)."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g._log = None if self._log is None else list(self._log)
        g._dealt = list(self._dealt)
        g._hands = [list(h) for h in self._hands]
        g._loose = list(self._loose)
        g._builds = [{**b, "cards": list(b["cards"])} for b in self._builds]
        g._captured = [list(c) for c in self._captured]
        g._made = list(self._made)
        g._round_scores = [[dict(r) for r in rows] for rows in self._round_scores]
        g._scores = list(self._scores)
        g._placements = None if self._placements is None else dict(self._placements)
        g._end = None if self._end is None else dict(self._end)
        g._dealt_named = None
        return g


def _has_build(builds: list[dict[str, Any]], bid: str) -> bool:
    """Whether build ``bid`` is in the center (``builds``), unchanged since it got that
    id: the trail restriction (:meth:`CasinoGame._on_trail`). (A function of its own:
    a function whose generator reads one of its locals makes a cell for that local at
    every call, even when the generator never runs, and every trail would pay for it.)"""
    return any(b["id"] == bid for b in builds)


def _subsets(pool: list[tuple[str, int]], total: int, allow_empty: bool = False) -> list[list[str]]:
    """The sub-lists of ``pool`` (``(name, value)`` pairs, values positive) whose
    values add up to ``total``, each in pool order, fewer items first."""
    found: list[list[str]] = []
    if total == 0:
        return [[]] if allow_empty else []
    if total < 0:
        return []

    def walk(start: int, left: int, chosen: list[str]) -> None:
        for i in range(start, len(pool)):
            name, v = pool[i]
            if v < left:
                chosen.append(name)
                walk(i + 1, left - v, chosen)
                chosen.pop()
            elif v == left:
                found.append([*chosen, name])

    walk(0, total, [])
    found.sort(key=len)
    return found


def _disjoint_collections(
    items: list[tuple[Any, frozenset[str]]], limit: int
) -> list[list[tuple[Any, frozenset[str]]]]:
    """Non-empty collections of pairwise disjoint ``items`` (each ``(item, the names it
    uses)``), in item order, at most ``limit`` of them."""
    out: list[list[tuple[Any, frozenset[str]]]] = []
    if limit <= 0:
        return out

    def walk(start: int, used: frozenset[str], chosen: list[tuple[Any, frozenset[str]]]) -> None:
        for i in range(start, len(items)):
            if len(out) >= limit:
                return
            item = items[i]
            if item[1] & used:
                continue
            chosen.append(item)
            out.append(list(chosen))
            walk(i + 1, used | item[1], chosen)
            chosen.pop()

    walk(0, frozenset(), [])
    return out


#: The handler of each event type but ``end`` (see :meth:`CasinoGame.push`); each checks
#: everything before it changes anything.
_HANDLERS = {kind: getattr(CasinoGame, "_on_" + kind) for kind in _KEYS if kind != "end"}
#: The plays: a card of the player to move (``_run`` checks it first: _play_card).
_PLAYS = frozenset({"capture", "build", "call", "trail"})


def _with_play_fields(table: dict[str, RunEntry]) -> dict[str, PlayEntry]:
    """``table`` (:func:`~games.engine.common.run_tables`) with, for each type, its
    number of fields and the first and last of those beyond ``type``, ``player`` and
    ``card`` (``type`` for a trail, which has none): every field of a play is required,
    so a play with that many fields holding these five holds no other (``_run``'s test
    of the usual play: two lookups and a length instead of a lookup a field at C
    level, each comparing strings that are not the same object)."""
    out = {}
    for kind, (keys, handler, play) in table.items():
        beyond = sorted(keys - {"type", "player", "card"}) or ["type"]
        out[kind] = (keys, handler, play, len(keys), beyond[0], beyond[-1])
    return out


#: ``_run``'s one lookup an event, in the table of its game (played, or a score sheet,
#: which takes "round" lines only): the type's fields, its handler, whether it is a
#: play, and for a play the fields ``_run`` looks for (:func:`_with_play_fields`).
_PLAYED_TYPES, _SHEET_TYPES = map(_with_play_fields, run_tables(_KEYS, _HANDLERS, _PLAYS, "round"))
#: A seeded deal's cards, ``HAND_SIZE`` to each player from the dealer's left: seat p's
#: block is number ``(p - dealer - 1) % n``, as a slice of the deal's cards:
#: ``_SEAT_BLOCKS[n][dealer][p]`` (a table: no arithmetic a deal).
_SEAT_BLOCKS: dict[int, tuple[tuple[slice, ...], ...]] = {
    n: tuple(
        tuple(
            slice(HAND_SIZE * ((p - dealer - 1) % n), HAND_SIZE * ((p - dealer - 1) % n + 1))
            for p in range(n)
        )
        for dealer in range(n)
    )
    for n in range(CasinoGame.min_players, CasinoGame.max_players + 1)
}
