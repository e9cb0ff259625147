"""The interface every game kind implements, and the registry of game kinds.

A game is driven entirely by events (plain JSON objects). ``start(event)`` builds a
game from its start event; ``push(event)`` validates one event and applies it, or
raises :class:`~games.engine.errors.InvalidEvent` (malformed) /
:class:`~games.engine.errors.IllegalMove` (a rule is broken) without changing the state.
Everything else (legal moves, result, summary, cached state) is derived from the state.
"""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from .errors import EngineError, IllegalMove, InvalidEvent, InvalidPlacements, LogError, shown

IN_PROGRESS = "in_progress"
FINISHED = "finished"
STALEMATE = "stalemate"
STATUSES = (IN_PROGRESS, FINISHED, STALEMATE)

#: The fields of the ``correction`` event every kind accepts after the end (see
#: :meth:`Game._apply_correction`); keys starting with ``_`` are callers' metadata.
CORRECTION_KEYS = frozenset({"type", "referee", "placements", "note"})
#: The longest note a correction may carry (characters).
MAX_CORRECTION_NOTE = 2000
#: The ``reason`` of an ``end`` event, in every kind (see :meth:`Game._check_end`).
END_REASONS = ("time", "adjudicated")
#: The fields of the ``end`` event every kind accepts (see :meth:`Game._apply_end`).
END_KEYS = frozenset({"type", "reason", "referee", "placements"})
#: The fields of the ``undo`` event every kind accepts (see :meth:`Game._apply_undo`);
#: keys starting with ``_`` (e.g. ``"_by"``) are callers' metadata.
UNDO_KEYS = frozenset({"type"})
#: While a batch (:meth:`Game.push_many`) replays after an undo, the rebuilt state is
#: kept every this many effective events, so that undos in a row cost no more than this
#: many events each (a log of undos replays in linear time).
UNDO_CHECKPOINT_EVERY = 128


class _UndoMet(Exception):
    """Internal signal, never an :class:`EngineError`: a kind's step met an ``undo``
    line (:meth:`Game._event_type`); the base class applies it. Nothing has changed."""


class Status(StrEnum):
    """How a game stands (the values are the strings of :attr:`Game.status`, and of the
    site's ``Game.status`` column)."""

    IN_PROGRESS = IN_PROGRESS
    FINISHED = FINISHED
    STALEMATE = STALEMATE


class Termination(StrEnum):
    """Why a game that is over ended."""

    #: Played to its end by the rules (TOCK: the center complete or one player left;
    #: UNO and Casino: a player reached the target).
    PLAYED = "played"
    #: TOCK's stalemate: the same position for the third time with the table empty.
    STALEMATE = "stalemate"
    #: An ``end`` event with reason ``time`` (time up).
    TIME = "time"
    #: An ``end`` event with reason ``adjudicated`` (a referee's decision).
    ADJUDICATED = "adjudicated"


@dataclass(frozen=True)
class Outcome:
    """The result of a game as a typed value (:meth:`Game.outcome`), like
    python-chess's ``Outcome``: its :class:`Status`, the placements (player -> place,
    ``None`` while in progress; the last correction's once corrected), why it ended
    (:class:`Termination`, ``None`` while in progress) and whether a ``correction``
    replaced the played result."""

    status: Status
    placements: dict[str, int] | None = None
    termination: Termination | None = None
    corrected: bool = False
    #: The ``end`` event's referee, if it named one.
    referee: str | None = field(default=None, compare=False)

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    @property
    def winners(self) -> list[str]:
        """The players placed first (several on a shared first place); empty while in
        progress."""
        return [p for p, v in (self.placements or {}).items() if v == 1]


class Game(ABC):
    """Common interface of every game kind (see ``docs/engine-api.md``).

    Invariants every implementation keeps:

    * ``push`` is atomic: on error the state is unchanged.
    * ``event_count`` counts applied events including the start event, so the event
      being pushed is line ``event_count + 1`` of the game's log.
    * ``restore(g.to_state())`` behaves exactly like ``g``.
    """

    #: The ``game`` value of the start event, e.g. ``"tock"``.
    kind: ClassVar[str]
    #: Display name of the game kind, e.g. ``"TOCK"``.
    title: ClassVar[str]
    #: Fewest players at one table (``start`` refuses fewer).
    min_players: ClassVar[int]
    #: Most players at one table (``start`` refuses more).
    max_players: ClassVar[int]
    #: Names that cannot be player names because events use them for something else
    #: (TOCK: ``"center"``, a destination). ``start`` refuses them.
    reserved_names: ClassVar[frozenset[str]] = frozenset()
    #: The corrections applied after the end, oldest first, each ``{"event", "referee",
    #: "placements", "note"}`` (see :meth:`_apply_correction`). The class holds an empty
    #: tuple; a game gets its own list with its first correction (never mutated in
    #: place, so a shallow copy of a game shares nothing it could change).
    _corrections: Sequence[dict[str, Any]] = ()

    #: Optional capabilities (see ``docs/engine-api.md``, *Capabilities*): what the
    #: site asks a kind for instead of testing its name.
    #: Whether players knock (``{"type": "tock", "player": P}``) and a referee may rule
    #: on a knock (TOCK); a kind with knocks implements :meth:`knock_target`,
    #: :meth:`pending_infractions` and :meth:`ruling_event`, and
    #: ``games.engine.knock_preview`` judges its logs.
    has_knocks: ClassVar[bool] = False

    # The state every kind keeps under these names; a kind's ``start``/``from_state``
    # set them (the class holds the values of a game just started).
    #: Players in seat order.
    _names: tuple[str, ...] = ()
    #: One of :data:`STATUSES`.
    _status: str = IN_PROGRESS
    #: Events applied, the start event included.
    _events: int = 1
    #: Seat -> place once over (the last correction's once corrected), else ``None``.
    _placements: dict[int, int] | None = None
    #: The summary's ``end`` entry after an ``end`` event (:meth:`_check_end`).
    _end: dict[str, Any] | None = None
    #: The log's lines (the events as pushed, start line and undo lines included):
    #: what :meth:`pop` and an ``undo`` replay; one reference per line, no state. A
    #: kind's ``start`` sets ``[event]``; ``None`` for a game restored from a state
    #: written before undo existed.
    _log: list[dict[str, Any]] | None = None
    #: The event types of the kind's own (not ``end``, not ``correction``): the base
    #: refuses any other type before :meth:`_apply` sees the event.
    event_types: ClassVar[frozenset[str]] = frozenset()

    # -- construction -------------------------------------------------------------
    @classmethod
    @abstractmethod
    def start(cls, event: dict[str, Any]) -> Game:
        """Create a game from its start event (raises ``InvalidEvent``)."""

    @classmethod
    @abstractmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        """Inverse of :meth:`to_state`."""

    # -- questions about events and results, asked without a game ----------------------
    @classmethod
    def event_needs_referee(cls, event: Mapping[str, Any]) -> bool:
        """Whether ``event``, judged on its own, is a referee's matter (a ruling, an
        adjudicated end...), so that only a referee or an organizer may record it.

        The event is not validated; anything that is not a mapping is ``False``.
        Default, for the events every kind shares: a ``correction`` (always); an
        ``end`` for any reason but ``"time"`` (an adjudication) and any ``end`` that
        gives ``placements``; a scorekeeper's time-up ``end`` carries none and the
        engine places the players from the position.
        """
        if not isinstance(event, Mapping):
            return False
        kind = event.get("type")
        if kind == "correction":
            return True
        return kind == "end" and (event.get("reason") != "time" or "placements" in event)

    @classmethod
    def public_summary(cls, summary: Mapping[str, Any]) -> dict[str, Any]:
        """``summary`` (a :meth:`summary` of a game in progress) as a spectator at the
        table may see it: without what the players do not know yet (TOCK: the
        infractions nobody has knocked on). The caller decides who is a spectator and
        applies it only while the game is in progress. Default: everything (a copy)."""
        return dict(summary)

    @classmethod
    def public_event(cls, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """One logged event as a spectator of a game in progress may see it: what was
        said or shown openly at the table, without what only its players know (cards
        dealt or drawn face down, a seed that fixes them). The caller decides whether
        the viewer is a spectator and the game still in progress. A redacted event
        need not replay: keys starting with ``_`` carry what a spectator does see
        (e.g. how many cards were drawn).

        Default: every event is public (TOCK is played face up).
        """
        return event

    @classmethod
    def check_players(cls, players: object) -> list[str]:
        """Check the ``players`` of a start event; return them as a list (seat order).

        The same rule for every caller (the CLI, the site, the bots): a list of
        ``min_players`` to ``max_players`` distinct names, none of them empty, none
        a name the kind reserves, and none holding a control character (NUL, tab,
        newline, ...) or a lone surrogate (not Unicode text: no database or terminal
        can store or show it). Raises ``InvalidEvent`` naming the problem.
        """
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InvalidEvent("'players' must be a list of player names")
        if not cls.min_players <= len(players) <= cls.max_players:
            raise InvalidEvent(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players, "
                f"not {len(players)}"
            )
        for name in players:
            if not name.strip():
                raise InvalidEvent("player names must not be empty")
            if not name.isprintable() and any(_unprintable(ch) for ch in name):
                raise InvalidEvent(
                    f"player name {shown(name.encode('unicode_escape').decode())} holds a "
                    "control character or is not valid Unicode"
                )
        if len(set(players)) != len(players):
            raise InvalidEvent("player names must be unique")
        for name in players:
            if name in cls.reserved_names:
                raise InvalidEvent(f"{shown(name)} is reserved and cannot be a player name")
        return players

    @classmethod
    def _check_start(cls, event: object, keys: frozenset[str]) -> list[str]:
        """The checks every kind's :meth:`start` makes first, in this order: the event is
        a JSON object, of type ``start``, for this kind's ``game``, with no field but
        ``keys`` (:func:`check_keys`); then its ``players`` (:meth:`check_players`),
        which it returns. Raises ``InvalidEvent``."""
        if not isinstance(event, dict):
            raise InvalidEvent("the start event must be a JSON object")
        if event.get("type") != "start":
            raise InvalidEvent("the first event must have type 'start'")
        if event.get("game") != cls.kind:
            raise InvalidEvent(
                f"start event is for game {shown(event.get('game'))}, not {shown(cls.kind)}"
            )
        check_keys(event, keys)
        return cls.check_players(event.get("players"))

    @classmethod
    def check_placements(cls, players: Sequence[str], placements: object) -> dict[str, int]:
        """Check a placements mapping (player -> place) against the seated ``players``;
        return it in seat order.

        Every seated player, and nobody else, gets a place: an integer (``bool`` is
        not) from 1 to ``len(players)``, and the places are standard competition ranks
        (ties share a place, then places are skipped: 1, 2, 2, 4). Raises
        :class:`~games.engine.errors.InvalidPlacements` (an ``InvalidEvent``) whose
        ``code`` is ``"not_a_mapping"``, ``"players_mismatch"`` (params ``missing``,
        ``unknown``), ``"bad_place"`` (params ``player``, ``n``) or
        ``"not_competition_ranks"``, checked in that order. A kind may override it to
        add its own rules, calling this first.
        """
        if not isinstance(placements, Mapping):
            raise InvalidPlacements(
                "'placements' must give a place for every seated player "
                "(an object mapping player to place)",
                "not_a_mapping",
            )
        seated = set(players)
        if placements.keys() != seated:
            missing = sorted(p for p in seated if p not in placements)
            unknown = sorted(
                k if isinstance(k, str) else repr(k) for k in placements if k not in seated
            )
            raise InvalidPlacements(
                "'placements' must give a place for every seated player (missing: "
                f"{', '.join(missing) or '-'}; not seated: {', '.join(unknown) or '-'})",
                "players_mismatch",
                {"missing": missing, "unknown": unknown},
            )
        n = len(players)
        places: dict[str, int] = {}
        for p in players:
            v = placements[p]
            if type(v) is not int or not 1 <= v <= n:
                raise InvalidPlacements(
                    f"places must be positive integers from 1 to {n}:"
                    f" the place of {p} is {shown(v)}",
                    "bad_place",
                    {"player": p, "n": n},
                )
            places[p] = v
        if not valid_competition_ranking(list(places.values())):
            raise InvalidPlacements(
                "places must be competition ranks (1, 2, 2, 4: ties share a place, "
                "then places are skipped)",
                "not_competition_ranks",
            )
        return places

    # -- events: the template methods ----------------------------------------------
    def push(self, event: dict[str, Any]) -> None:
        """Validate and apply one event; on error nothing changes (``InvalidEvent`` for
        a malformed event, ``IllegalMove`` for a broken rule).

        The same for every kind, in this order: the event is a JSON object
        (:meth:`_event_type`); an ``undo`` goes to :meth:`_apply_undo`, a
        ``correction`` to :meth:`_apply_correction`, an ``end`` to :meth:`_apply_end`;
        any other type must be one of the kind's :attr:`event_types` and goes to the
        kind's :meth:`_apply`. Then the event is counted (``event_count`` + 1) and kept
        as the game's next log line (a reference: do not change an event once pushed).
        Not meant to be overridden: a kind states its rules in :meth:`_apply` (and,
        for a faster batch, :meth:`_apply_many`).
        """
        # (the body of _push_one, inlined: live scoring pushes one event per request)
        before = self._events
        kind = event.get("type") if type(event) is dict else None
        if type(kind) is not str or kind not in self.event_types:  # (the common case: no call)
            if kind == "undo":
                self._apply_undo(event)
                return
            kind = self._event_type(event)
        if kind == "correction" or kind == "end":
            self._apply_shared(event, kind)
        else:
            self._apply(event)
        self._events = before + 1
        log = self._log
        if log is not None:
            log.append(event)

    def _push_one(self, event: dict[str, Any]) -> None:
        """:meth:`push` without keeping the line: the type, the kind's or the shared
        step, the count. An ``undo`` raises :class:`_UndoMet` (changing nothing)."""
        before = self._events
        kind = event.get("type") if type(event) is dict else None
        if type(kind) is not str or kind not in self.event_types:  # (the common case: no call)
            kind = self._event_type(event)
        if kind == "correction" or kind == "end":
            self._apply_shared(event, kind)
        else:
            self._apply(event)
        # (a kind whose _apply shares its code with _apply_many may count there too)
        self._events = before + 1

    def push_many(self, events: Iterable[dict[str, Any]]) -> None:
        """Push events in order; on the first bad one raise ``LogError`` with its line
        (``event_count + 1``: the line numbering of the game's log). The game stops
        before the failing event. Runs the kind's :meth:`_apply_many` (the fast path);
        when it meets an ``undo`` line, the rest of the batch goes through
        :meth:`_push_many_with_undo`, which rebuilds the state from the effective
        events (a log without undo never pays for it)."""
        if type(events) is not list:
            events = list(events)
        log = self._log
        before = self._events
        try:
            try:
                self._apply_many(events)
            except _UndoMet:
                done = self._events - before
                if log is not None:
                    log.extend(events[:done])
                    log = None  # kept already
                self._push_many_with_undo(events, done)
            finally:
                if log is not None:
                    log.extend(events[: self._events - before])
        except LogError:
            raise
        except EngineError as exc:
            raise LogError(self._events + 1, str(exc), exc) from None

    def _push_many_with_undo(self, events: list[dict[str, Any]], i: int) -> None:
        """The rest of a batch from ``events[i]``, an ``undo`` line: runs of other
        events go through :meth:`_apply_many` as usual; undo lines in a row are checked
        one by one (:meth:`_check_undo`; only the first can meet a finished game,
        since an accepted undo always leaves a game in progress) and the state is
        rebuilt once, before the next other event (:meth:`_rebuild`, from the
        checkpoints this batch keeps). On an error the state is rebuilt first, so the
        game stops after the last good line, as always."""
        log = self._require_log()
        stack = _effective_lines(log)
        checkpoints: list[tuple[int, Game]] = []
        n = len(events)
        dirty = False
        try:
            while i < n:
                event = events[i]
                if type(event) is dict and event.get("type") == "undo":
                    self._check_undo(event, stack, check_end=not dirty)
                    stack.pop()
                    log.append(event)
                    dirty = True
                    i += 1
                    continue
                if dirty:
                    self._rebuild(stack, checkpoints)
                    dirty = False
                j = i + 1
                while j < n and not (type(events[j]) is dict and events[j].get("type") == "undo"):
                    j += 1
                before = self._events
                try:
                    self._apply_many(events[i:j])
                finally:
                    done = self._events - before
                    log.extend(events[i : i + done])
                    stack.extend(range(before, before + done))
                i = j
        finally:
            if dirty:
                self._rebuild(stack, checkpoints)

    def _require_log(self) -> list[dict[str, Any]]:
        """The game's log lines; ``IllegalMove`` when it was restored from a state that
        did not carry them (:meth:`cache_state`, or one written before undo existed:
        :meth:`attach_log` them, or replay the log)."""
        if self._log is None:
            raise IllegalMove(
                "cannot undo: this game was restored from a state without its log; "
                "attach the log (or replay it) to undo"
            )
        return self._log

    def _event_type(self, event: object) -> str:
        """The checks :meth:`push` makes of every event first: a JSON object whose type
        is ``correction``, ``end`` or one of :attr:`event_types`; returns the type
        (``InvalidEvent`` otherwise, a ``start`` only as the first line). An ``undo``
        raises the internal :class:`_UndoMet`, which :meth:`push` and
        :meth:`push_many` handle (a kind's step never sees an undo)."""
        if type(event) is not dict:
            raise InvalidEvent("an event must be a JSON object")
        kind = event.get("type")
        if type(kind) is str and (
            kind in self.event_types or kind == "end" or kind == "correction"
        ):
            return kind
        if kind == "undo":
            raise _UndoMet  # the base class's: push / push_many apply it
        if kind == "start":
            raise InvalidEvent("a 'start' event may only be the first line")
        raise InvalidEvent(f"unknown event type {shown(kind)}")

    def _apply_shared(self, event: dict[str, Any], kind: str) -> None:
        """The events every kind takes the same way, not counted here: a ``correction``
        (:meth:`_apply_correction`, whose placements replace the kind's) or an ``end``
        (:meth:`_apply_end`). A kind's :meth:`_apply_many` hands them here too."""
        if kind == "correction":
            self._placements = self._apply_correction(event)
        else:
            self._apply_end(event)

    @abstractmethod
    def _apply(self, event: dict[str, Any]) -> None:
        """Validate and apply one event of a type in :attr:`event_types` (the kind's
        own rules: fields, whose turn, the move), changing nothing on error;
        :meth:`push` has checked the type and counts the event afterwards."""

    def _apply_many(self, events: Iterable[dict[str, Any]]) -> None:
        """Apply events in order, each counted as it is applied (the batch path of
        :meth:`push_many`; an error leaves the game after the last good event).
        Default: :meth:`_push_one`'s steps in one loop (the type, :meth:`_apply` or
        :meth:`_apply_shared`, the count), without its call per event. A kind may give
        a faster loop (TOCK, UNO and Casino: their ``_run``, which also serves
        :meth:`_apply`), as long as it states each rule once; an ``undo`` reaches it
        only through :meth:`_event_type`, which raises before anything changes."""
        apply = self._apply
        own = self.event_types  # (a class attribute: one lookup, not one an event)
        for event in events:
            kind = event.get("type") if type(event) is dict else None
            if type(kind) is not str or kind not in own:
                kind = self._event_type(event)  # ("end" or "correction"; else raises)
                self._apply_shared(event, kind)
            else:
                apply(event)
            self._events += 1

    # -- the undo event, shared by every kind ---------------------------------------
    def _check_undo(
        self, event: Mapping[str, Any], stack: Sequence[int], check_end: bool = True
    ) -> None:
        """The checks of an ``undo`` line, changing nothing, in this order: no field
        but ``type`` (keys starting with ``_`` are metadata; ``InvalidEvent``); the game
        in progress (a finished result changes only by a ``correction``;
        ``IllegalMove``); something to withdraw after the start line (``IllegalMove``).
        ``stack``: the effective lines (0-based), the start line first."""
        check_keys(event, UNDO_KEYS)
        if check_end and self._status != IN_PROGRESS:
            raise IllegalMove(
                f"no undo after the end: the game is over ({self._status}); a finished "
                "result changes only by a correction"
            )
        if len(stack) <= 1:
            if len(self._log or ()) <= 1:
                raise IllegalMove(
                    "nothing to undo: the log holds only the start line, which cannot be withdrawn"
                )
            raise IllegalMove(
                "nothing to undo: every event after the start line is withdrawn "
                "already, and the start line cannot be withdrawn"
            )

    def _apply_undo(self, event: dict[str, Any]) -> dict[str, Any]:
        """Apply an ``undo`` line (:meth:`push`; :meth:`pop`): it withdraws the latest
        event not yet withdrawn (an undo after an undo, the one before; undo lines are
        never withdrawn themselves). Checked first (:meth:`_check_undo`), then the
        state is rebuilt from the effective events (:meth:`_rebuild`) and the line is
        counted and kept. Returns the withdrawn event."""
        log = self._require_log()
        stack = _effective_lines(log)
        self._check_undo(event, stack)
        withdrawn = log[stack.pop()]
        self._rebuild(stack, None)
        log.append(event)
        self._events = len(log)
        return withdrawn

    def pop(self) -> dict[str, Any]:
        """Take back the latest event not yet withdrawn (python-chess's
        ``Board.pop``): the game's state is then the one before that event, for every
        kind. The log stays append-only: this pushes ``{"type": "undo"}`` (counted,
        a line of the log) and returns the withdrawn event; refused like that line
        (``IllegalMove``: nothing to withdraw, the start line, the game over)."""
        return self._apply_undo({"type": "undo"})

    def _rebuild(self, stack: Sequence[int], checkpoints: list[tuple[int, Game]] | None) -> None:
        """Make this game the replay of the effective lines ``stack`` (0-based indices
        into the log, the start line first), each counted as its own line of the log
        (so ``event`` numbers in the summary stay log lines); ``event_count`` then
        counts every line kept so far. Starts from the latest checkpoint (a copy of
        the state after the first ``c`` effective lines, kept by a batch) or from the
        start line; nothing is kept per push. Every effective event was accepted on
        exactly this state before, so the replay cannot fail."""
        lines = self._log
        assert lines is not None
        size = len(stack)
        game: Game | None = None
        c = 1
        if checkpoints is not None:
            while checkpoints and checkpoints[-1][0] > size:
                checkpoints.pop()
            if checkpoints:
                c, snapshot = checkpoints[-1]
                game = snapshot.copy()
        if game is None:
            game = type(self).start(lines[0])
        while c < size:
            end = size if checkpoints is None else min(size, c + UNDO_CHECKPOINT_EVERY)
            i = c
            while i < end:  # runs of consecutive lines in one batch each
                j = i + 1
                while j < end and stack[j] == stack[j - 1] + 1:
                    j += 1
                game._events = stack[i]
                game._apply_many(lines[stack[i] : stack[j - 1] + 1])
                i = j
            c = end
            if checkpoints is not None and (not checkpoints or checkpoints[-1][0] < c):
                checkpoints.append((c, game.copy()))
        game._log = lines
        game._events = len(lines)
        self._take_over(game)

    def _take_over(self, game: Game) -> None:
        """Make this object hold ``game``'s state (by reference: ``game`` is dropped
        afterwards): how :meth:`_rebuild` ends. A kind that keeps its state in
        ``__slots__`` (UNO) moves those too."""
        self.__dict__ = game.__dict__

    def _log_state(self) -> list[dict[str, Any]] | None:
        """The log lines as ``to_state()`` carries them (``"log"``)."""
        return None if self._log is None else list(self._log)

    def _restore_log(self, state: Mapping[str, Any]) -> None:
        """Take the log lines back from a ``to_state()``; a state written before undo
        existed has none (the game then refuses to undo: replay its log)."""
        log = state.get("log")
        if log is None:
            self._log = None
            return
        if not isinstance(log, list) or not log or not all(type(e) is dict for e in log):
            raise InvalidEvent("corrupt state: 'log' must be the list of the game's events")
        self._log = list(log)

    # -- the end event, shared by every kind ----------------------------------------
    def _apply_end(self, event: dict[str, Any]) -> None:
        """Apply an ``end`` event, in every kind: no field but :data:`END_KEYS`
        (``InvalidEvent``), the game in progress (``IllegalMove``), the shared fields
        (:meth:`_check_end`), the kind's own rule on given placements
        (:meth:`_check_end_placements`, changing nothing), then the summary's ``end``
        entry is recorded and the kind finishes the game (:meth:`_finish_by_end`)."""
        check_keys(event, END_KEYS)
        self._refuse_after_end()
        entry, places = self._check_end(event)
        if places is not None:
            self._check_end_placements(places)
        self._end = entry
        self._finish_by_end(places)

    def _refuse_after_end(self) -> None:
        """``IllegalMove`` once the game is over: no event but a ``correction`` is
        accepted after the end."""
        if self._status != IN_PROGRESS:
            raise IllegalMove(f"the game is over ({self._status}); no events after the end")

    def _check_end_placements(self, places: dict[int, int]) -> None:
        """A kind's own rule on the placements an ``end`` event gives (seat -> place,
        already through :meth:`check_placements`); raises before anything changes.
        Default: none (TOCK: players who went out keep their places)."""
        return None

    @abstractmethod
    def _finish_by_end(self, places: dict[int, int] | None) -> None:
        """Finish the game after an ``end`` event: status ``finished``, nobody to move,
        ``places`` (seat -> place) or, without them, the kind's own ranking."""

    # -- the correction event, shared by every kind ---------------------------------
    def _check_correction(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Validate a ``correction`` event against this game; return the entry that
        :meth:`_apply_correction` records, changing nothing.

        ``{"type": "correction", "referee": R, "placements": {...}, "note": "..."}``:
        after the game has ended a referee or organizer replaces its result (never while
        it is in progress: then a dispute is settled with later events, a ruling or an
        adjudicated ``end``). Checked in this order:

        * no field but the four (keys starting with ``_`` are ignored): ``InvalidEvent``;
        * the game is over: else ``IllegalMove`` (one line saying why);
        * ``referee``: a non-empty string, ``InvalidEvent``;
        * ``placements``: through :meth:`check_placements` (the kind's own rule, so
          ``InvalidPlacements`` with its code), every seated player once;
        * ``note``: a string with some text, at most :data:`MAX_CORRECTION_NOTE`
          characters: ``InvalidEvent``.

        The placements need not keep anything of the played result (the referee may
        place a player who went out anywhere); the status (``finished`` or
        ``stalemate``) says how play ended and does not change.
        """
        if not isinstance(event, Mapping) or event.get("type") != "correction":
            raise InvalidEvent("a correction event has type 'correction'")
        check_keys(event, CORRECTION_KEYS)
        if self.status == IN_PROGRESS:
            raise IllegalMove(
                "no correction while the game is in progress: a referee settles a dispute "
                "with later events (a ruling, an adjudicated end); a correction only "
                "replaces the result of a game that has ended"
            )
        referee = event.get("referee")
        if not isinstance(referee, str) or not referee.strip():
            raise InvalidEvent("a correction needs 'referee': the name of who corrects")
        places = self.check_placements(self.players, event.get("placements"))
        note = event.get("note")
        if not isinstance(note, str) or not note.strip():
            raise InvalidEvent("a correction needs a 'note' saying why the result changes")
        if len(note) > MAX_CORRECTION_NOTE:
            raise InvalidEvent(
                f"the note of a correction has at most {MAX_CORRECTION_NOTE} characters"
            )
        return {
            "event": self.event_count + 1,
            "referee": referee,
            "placements": dict(places),
            "note": note,
        }

    def _apply_correction(self, event: Mapping[str, Any]) -> dict[int, int]:
        """Check a ``correction`` event (:meth:`_check_correction`, which raises before
        anything changes) and record it in :attr:`corrections`; return the corrected
        placements by seat (seat -> place, as :meth:`_check_end` gives them).

        :meth:`push` (or a kind's batch loop, through :meth:`_apply_shared`) calls it
        before anything else is refused after the end, puts the returned placements in
        ``_placements`` and counts the event; nothing else changes. The kind's
        ``summary()`` adds ``"corrections": self.corrections`` (``placements`` then
        shows the corrected places: the last correction wins), its ``to_state()`` adds
        ``"corrections": self._corrections_state()`` and its ``from_state()`` calls
        :meth:`_restore_corrections`.
        """
        entry = self._check_correction(event)
        self._corrections = [*self._corrections, entry]
        places = entry["placements"]
        return {seat: places[p] for seat, p in enumerate(self.players)}

    # -- the end event, shared by every kind ----------------------------------------
    def _check_end(self, event: Mapping[str, Any]) -> tuple[dict[str, Any], dict[int, int] | None]:
        """Check the fields of an ``end`` event every kind shares, changing nothing;
        return the summary's ``end`` entry and the given placements (seat -> place) or
        ``None``.

        ``{"type": "end", "reason": R, "referee"?: name, "placements"?: {...}}``, checked
        in this order: ``reason`` one of :data:`END_REASONS`, ``referee`` (optional) a
        string (both ``InvalidEvent``), ``placements`` (optional) through
        :meth:`check_placements`. The entry is ``{"event": event_count + 1, "reason"}``
        plus ``"referee"`` when given and ``"placements_given": true`` when placements
        are. A kind may check more (TOCK: who went out keeps their place) before it
        records the entry and finishes the game; without placements it places the
        players itself.
        """
        reason = event.get("reason")
        if reason not in END_REASONS:
            raise InvalidEvent(f"'reason' must be 'time' or 'adjudicated', not {shown(reason)}")
        referee = event.get("referee")
        if referee is not None and not isinstance(referee, str):
            raise InvalidEvent("'referee' must be a string")
        given = event.get("placements")
        places = None
        if given is not None:
            checked = self.check_placements(self.players, given)
            places = {seat: checked[p] for seat, p in enumerate(self.players)}
        entry: dict[str, Any] = {"event": self.event_count + 1, "reason": reason}
        if referee is not None:
            entry["referee"] = referee
        if places is not None:
            entry["placements_given"] = True
        return entry, places

    @property
    def corrections(self) -> list[dict[str, Any]]:
        """The corrections applied, oldest first (copies): ``{"event", "referee",
        "placements", "note"}``; the last one's placements are :meth:`placements`."""
        return [{**c, "placements": dict(c["placements"])} for c in self._corrections]

    def _corrections_state(self) -> list[dict[str, Any]]:
        """The corrections as ``to_state()`` carries them (JSON-serialisable)."""
        return self.corrections

    def _restore_corrections(self, state: Mapping[str, Any]) -> None:
        """Take the corrections back from a ``to_state()`` (a state written before
        corrections existed has none)."""
        given = state.get("corrections") or []
        if given:
            self._corrections = [{**c, "placements": dict(c["placements"])} for c in given]

    def is_legal(self, event: dict[str, Any]) -> bool:
        """Whether :meth:`push` would accept ``event`` now (the game is not changed)."""
        probe = self.copy()
        try:
            probe.push(event)
        except EngineError:
            return False
        return True

    @abstractmethod
    def legal_moves(self) -> list[dict[str, Any]]:
        """Events the player to move may push now without breaking any rule."""

    def infraction_moves(self) -> list[dict[str, Any]]:
        """Events the player to move may push now that break a rule the game's mode
        records instead of refusing (TOCK in mode ``table``: its three infractions; UNO: a
        play that leaves one card without calling UNO), so
        that a scorekeeper can record what was really played. None of them is in
        :meth:`legal_moves`; :meth:`push` accepts each. Default: none."""
        return []

    def table_moves(self) -> list[dict[str, Any]]:
        """Events other players at the table may push now, out of turn (TOCK: a knock
        by each player who may knock, see :meth:`TockGame.knock_target`); :meth:`push`
        accepts each (a knock may still be judged wrong). Default: none."""
        return []

    @classmethod
    def start_events(cls, players: Sequence[str]) -> list[dict[str, Any]]:
        """The start events a scorekeeper may choose from for a table seated in the
        order ``players`` (TOCK: one for each player who may begin, in mode
        ``table``, unseeded: real cards). Default: one, in seat order."""
        return [{"type": "start", "game": cls.kind, "players": list(players)}]

    # -- results: the same for every kind --------------------------------------------
    @property
    def status(self) -> str:
        """``"in_progress"``, ``"finished"`` or ``"stalemate"``."""
        return self._status

    @property
    def is_over(self) -> bool:
        return self._status != IN_PROGRESS

    @property
    def players(self) -> tuple[str, ...]:
        """Players in seat (clockwise) order."""
        return self._names

    @property
    @abstractmethod
    def turn(self) -> str | None:
        """The player who acts next; ``None`` once the game is over."""

    @property
    def event_count(self) -> int:
        """Events applied so far, the start event included."""
        return self._events

    def placements(self) -> dict[str, int] | None:
        """Player -> place (1-based, ties share a place), in seat order; ``None`` while
        in progress."""
        if self._placements is None:
            return None
        names = self._names
        return {names[p]: place for p, place in sorted(self._placements.items())}

    def outcome(self) -> Outcome:
        """The result as a typed value (:class:`Outcome`): status, placements, why the
        game ended, whether a correction replaced the played result."""
        status = Status(self._status)
        if status is Status.IN_PROGRESS:
            return Outcome(status)
        end = self._end
        if end is not None:
            termination = Termination(end["reason"])
        elif status is Status.STALEMATE:
            termination = Termination.STALEMATE
        else:
            termination = Termination.PLAYED
        return Outcome(
            status,
            self.placements(),
            termination,
            corrected=bool(self._corrections),
            referee=None if end is None else end.get("referee"),
        )

    # -- optional capabilities (defaults; see has_knocks) ---------------------------
    def knock_target(self) -> str | None:
        """Whom a knock now would be judged against; ``None`` if no knock is possible
        (always, for a kind without knocks)."""
        return None

    def pending_infractions(self) -> list[dict[str, Any]]:
        """Unpenalised infractions a knock made now would be judged on. Default: none."""
        return []

    @classmethod
    def rules_in_progress(cls) -> bool:
        """Whether a referee may rule on the game while it is in progress (a knock
        ruling): the kinds with knocks."""
        return cls.has_knocks

    @classmethod
    def ruling_event(cls, by: str, ruling: str, referee: str) -> dict[str, Any]:
        """The event recording a referee's ruling ``ruling`` (``"correct"`` or
        ``"incorrect"``) on a knock by ``by`` made now. Only a kind with
        :attr:`has_knocks` has one (``InvalidEvent`` otherwise)."""
        raise InvalidEvent(f"{cls.title} has no knocks to rule on")

    @classmethod
    def knock_from_position(cls, facts: Mapping[str, Any], by: Any) -> dict[str, Any]:
        """The engine's verdict on a knock by ``by`` judged from what the table shows
        (``facts``: the kind's position description; a game without a log), in the shape
        of a knock preview plus ``"position"`` (the checked facts). Only a kind with
        :attr:`has_knocks` has one (``InvalidEvent`` otherwise; a bad position: an
        ``InvalidEvent`` naming the rule)."""
        raise InvalidEvent(f"{cls.title} has no knocks to rule on")

    @classmethod
    def ruling_of(cls, event: Any) -> tuple[str, str] | None:
        """``(knocker, ruling)`` when ``event`` records a referee's ruling on a knock
        (the inverse of :meth:`ruling_event`), else ``None`` (always, for a kind
        without knocks)."""
        return None

    def named_event(self, event: dict[str, Any]) -> dict[str, Any]:
        """``event`` with the cards it would move filled in when the engine deals them
        (a seeded deal or draw), so that a log recorded move by move replays without
        its seed. Default: the event as it is."""
        return event

    @classmethod
    def text_summary(cls, summary: Mapping[str, Any]) -> str | None:
        """The ``replay`` command's text block for a :meth:`summary`; ``None``: the
        CLI's own (TOCK's) block."""
        return None

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The JSON-serialisable object printed by ``replay --json``."""

    @abstractmethod
    def to_state(self) -> dict[str, Any]:
        """The full internal state as JSON-serialisable data (see :func:`restore`)."""

    def copy(self) -> Game:
        """An independent copy of this game."""
        return type(self).from_state(self.to_state())

    def cache_state(self) -> dict[str, Any]:
        """:meth:`to_state` without the log lines (``"log": None``): the state that a
        store keeping the log itself caches (the site: its event rows). Its size no longer
        grows with the log, so caching it after every event costs the same at the last
        event as at the first. :func:`restore` gives a game that plays on exactly like
        this one; only an undo needs the lines: hand them over first
        (:meth:`attach_log`)."""
        state = self.to_state()
        state["log"] = None
        return state

    def attach_log(self, lines: Sequence[dict[str, Any]]) -> None:
        """Give a game restored from :meth:`cache_state` its log lines (the start line
        first, every line the game has applied: as many as :attr:`event_count`), which
        an undo replays. ``InvalidEvent`` when the count differs (lines of another
        point of the game); nothing changes then."""
        if len(lines) != self._events or not all(type(e) is dict for e in lines):
            raise InvalidEvent(
                f"the log to attach must be the game's {self._events} lines, not {len(lines)}"
            )
        self._log = list(lines)


def _effective_lines(log: Sequence[Any]) -> list[int]:
    """The effective lines of an accepted log (0-based indices, the start line first):
    every line but the undo lines and the lines they withdrew."""
    stack = [0]
    for i in range(1, len(log)):
        event = log[i]
        if type(event) is dict and event.get("type") == "undo":
            stack.pop()
        else:
            stack.append(i)
    return stack


def withdrawn_lines(events: Iterable[Any]) -> dict[int, int]:
    """Which lines of a log (start line first) its undo lines withdraw: ``{withdrawn
    line: undo line}``, both 1-based (the log's line numbers). Read from the log alone,
    without rules: an undo with nothing to withdraw (which the engine refuses) withdraws
    nothing here."""
    stack: list[int] = []
    out: dict[int, int] = {}
    for line, event in enumerate(events, start=1):
        if line > 1 and isinstance(event, Mapping) and event.get("type") == "undo":
            if stack:
                out[stack.pop()] = line
        elif line > 1:
            stack.append(line)
    return out


def valid_competition_ranking(places: Iterable[int]) -> bool:
    """Whether ``places`` (any order) is a standard competition ranking like 1, 2, 2, 4:
    each place is one more than the number of places better than it."""
    ordered = sorted(places)
    return all(v == 1 + sum(1 for w in ordered if w < v) for v in ordered)


def check_keys(event: Mapping[Any, Any], allowed: frozenset[str]) -> None:
    """Refuse an event holding a field its type does not know, in every kind:
    ``InvalidEvent`` naming them (sorted); keys starting with ``_`` are callers'
    metadata and always allowed."""
    if event.keys() <= allowed:
        return
    extra = sorted(str(k) for k in event if k not in allowed and not str(k).startswith("_"))
    if extra:
        raise InvalidEvent(
            f"unknown field(s) for {shown(event.get('type'))} event: {', '.join(extra)}"
        )


def _unprintable(ch: str) -> bool:
    """A control character or a lone surrogate (spaces of any kind are allowed)."""
    return unicodedata.category(ch) in ("Cc", "Cs")


G = TypeVar("G", bound=type[Game])

_REGISTRY: dict[str, type[Game]] = {}
_SIMULATORS: dict[str, Callable[..., list[dict[str, Any]]]] = {}


def register(cls: G) -> G:
    """Class decorator: make a game kind available to :func:`start` and :func:`restore`."""
    _REGISTRY[cls.kind] = cls
    return cls


def register_simulator(kind: str, func: Callable[..., list[dict[str, Any]]]) -> None:
    """Register the bot simulator of a game kind (used by :func:`games.engine.simulate`).

    It is called as ``func(game=kind, players=..., seed=..., **options)`` with the
    options the caller gave, which are the kind's own, and returns a complete log.
    """
    _SIMULATORS[kind] = func


def game_kinds() -> tuple[str, ...]:
    """The registered game kinds, in registration order."""
    return tuple(_REGISTRY)


def kind_choices() -> list[tuple[str, str]]:
    """``(kind, title)`` for every registered game kind, e.g. ``("tock", "TOCK")``."""
    return [(kind, cls.title) for kind, cls in _REGISTRY.items()]


def game_class(kind: object) -> type[Game]:
    """The class of a registered game kind; ``InvalidEvent`` for an unknown one."""
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidEvent(f"unknown game {shown(kind)} (known: {known})")
    return cls


def simulator(kind: object) -> Callable[..., list[dict[str, Any]]]:
    func = _SIMULATORS.get(kind) if isinstance(kind, str) else None
    if func is None:
        raise InvalidEvent(f"no simulator for game {shown(kind)}")
    return func


def start(event: dict[str, Any]) -> Game:
    """Create a game from a start event ``{"type": "start", "game": KIND, ...}``."""
    if not isinstance(event, dict):
        raise InvalidEvent("the start event must be a JSON object")
    if event.get("type") != "start":
        raise InvalidEvent(
            f"the first event must have type 'start', not {shown(event.get('type'))}"
        )
    return game_class(event.get("game")).start(event)


def restore(state: dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.to_state` output."""
    if not isinstance(state, dict):
        raise InvalidEvent("state must be a dict produced by Game.to_state()")
    return game_class(state.get("game")).from_state(state)
