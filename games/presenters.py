"""How a game's derived state is shown on its page, per game kind.

The page itself is kind-independent: seats, players (by display name), places, who acts
next and the event log as readable lines. What only one kind has (TOCK's center,
discards, stocks, infractions and knocks) comes from that kind's :class:`Presenter`:
extra per-player columns, a detail template with the table it derives from the
summary, and :meth:`Presenter.describe` for one event of the log. Each kind's presenter
lives in its own module (``games/presenter_tock.py``, ``presenter_uno.py``,
``presenter_casino.py``) and registers itself with :func:`register_presenter`; this
module imports none of them. A kind without a presenter still gets the generic page.

Presenters read the engine's ``summary()`` (the ``replay --json`` object, see
``docs/engine-api.md``); they never replay or query anything. What a visitor may see
(hidden players, the public view of a game in progress) is decided before: the summary
they get is already the one to show.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import withdrawn_lines

Names = Mapping[str, str]


@dataclass(frozen=True)
class PlayerRow:
    """One seat of the players table. ``cells`` line up with :attr:`GameView.columns`."""

    position: int
    handle: str
    name: str
    place: int | None
    to_move: bool
    cells: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class LogLine:
    """One event of the log as a sentence, with what happened at it (infractions and
    knocks, as the visitor may see them, and the end of a hand or round)."""

    sequence: int
    text: str
    marks: list[str] = field(default_factory=list)
    current: bool = False
    knock: bool = False
    #: the hand or round that ended with this event, with its score (UNO, Casino)
    end: str | None = None
    #: an ``undo`` line withdrew this event (the page strikes it through); the undo
    #: line's number
    withdrawn_by: int | None = None
    #: this line is an ``undo``: the number of the event it withdrew
    withdraws: int | None = None


@dataclass(frozen=True)
class GameView:
    columns: list[Any]
    rows: list[PlayerRow]
    summary: dict[str, Any]
    detail_template: str | None
    table: dict[str, Any] = field(default_factory=dict)
    turn_name: str | None = None


def _name(names: Names, handle: Any) -> str:
    return names.get(handle, handle) if isinstance(handle, str) else str(handle)


class Presenter:
    """The generic presenter: no extra columns, no detail section, generic log lines."""

    columns: tuple[Any, ...] = ()
    detail_template: str | None = None
    #: The score page's heading over the start events to choose from.
    start_moves_title: Any = gettext_lazy("Start the game: who begins?")
    #: The score page's heading over the moves others may record out of turn.
    table_moves_title: Any = gettext_lazy("Knock (TOCK!): who knocks?")

    def turn(self, summary: dict[str, Any]) -> str | None:
        """Who acts next, as the summary says (``turn``)."""
        return summary.get("turn")

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        return []

    def table(self, summary: dict[str, Any], names: Names) -> dict[str, Any]:
        """What the detail template shows of the table (kind-specific)."""
        return {}

    def describe(
        self,
        event: Mapping[str, Any],
        names: Names,
        *,
        sequence: int | None = None,
        knock_at: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> str:
        """One event as a short sentence (translated). ``knock_at``: event number ->
        the summary's knock recorded there (whom it was judged against)."""
        if not isinstance(event, Mapping):
            return str(event)
        kind = str(event.get("type", "?"))
        if kind == "start":
            players = event.get("players")
            shown = ", ".join(_name(names, p) for p in players) if isinstance(players, list) else ""
            return _("The game starts: %(players)s.") % {"players": shown}
        if kind == "correction":
            return describe_correction(event, names)
        if kind == "undo":
            return _("Undo: the latest event is withdrawn")
        if "player" in event:
            return _("%(player)s: %(event)s") % {
                "player": _name(names, event.get("player")),
                "event": kind,
            }
        return kind

    def marks(self, summary: dict[str, Any], names: Names) -> dict[int, list[str]]:
        """Event number -> what happened at it (infractions), as sentences."""
        return {}

    #: The event type that opens a hand or round (UNO and Casino: ``"deal"``) and the
    #: summary's list of finished ones (``None``: the kind has no hands or rounds).
    segment_opening: str | None = None
    segment_results: str | None = None

    def openings_per_segment(self, summary: Mapping[str, Any]) -> int:
        """How many :attr:`segment_opening` events a hand or round has (Casino: a round
        of 6, 4 or 3 deals); 0 when it cannot be told."""
        return 1

    def segment_sentence(self, result: Mapping[str, Any], names: Names) -> str:
        """The sentence at the end of a hand or round: its result, said."""
        return ""

    def ends(
        self,
        summary: dict[str, Any],
        names: Names,
        events: Sequence[LoggedEvent],
        prior: int = 0,
    ) -> dict[int, str]:
        """Event number -> the end of a hand or round there (its last event), as
        :meth:`segment_sentence` says its result. ``events``: the log, or a window of it,
        as ``(sequence, data)``; ``prior``: the :attr:`segment_opening` events before the
        window. A score sheet's lines say their results themselves (no openings)."""
        key, opening = self.segment_results, self.segment_opening
        results = [r for r in (summary.get(key) or []) if isinstance(r, Mapping)] if key else []
        per = self.openings_per_segment(summary)
        if not events or not results or not opening or per < 1:
            return {}
        count = prior

        def opens(data: Any) -> bool:
            nonlocal count
            if not (isinstance(data, Mapping) and data.get("type") == opening):
                return False
            count += 1
            return count % per == 1 % per

        ends = segment_ends(
            events,
            opens,
            len(results),
            opened_before=(prior + per - 1) // per,
            to_the_end=events[-1][0] == summary.get("events"),
        )
        return {sequence: self.segment_sentence(results[i], names) for i, sequence in ends}

    def verdicts(self, summary: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
        """Event number -> the summary's verdict on the event there, passed to
        :meth:`describe` as ``knock_at`` (TOCK: its knocks; UNO: its challenges)."""
        return {k["event"]: k for k in summary.get("knocks") or [] if isinstance(k, Mapping)}

    def move_label(self, event: Mapping[str, Any], names: Names) -> str:
        """The words of a score page button for ``event`` (default: :meth:`describe`)."""
        return self.describe(event, names)

    def button_moves(
        self,
        events: list[dict[str, Any]],
        summary: Mapping[str, Any] | None = None,
        start: Mapping[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """Which of the engine's moves the score page offers as buttons (default: all);
        ``summary``: the game's summary now; ``start``: its start event."""
        return events

    #: The score page's own template for recording the next event (the ``#score-moves``
    #: region, fed by :meth:`score_panel`), or ``None``: the generic page, a button per
    #: move (``games/score/_moves.html``). A kind with its own template gets the compact
    #: layout (``games/score.html``): the play area alone on the screen, the latest
    #: events, the whole table and the result forms folded under "More".
    score_template: str | None = None

    def score_panel(
        self,
        moves: Any,
        summary: Mapping[str, Any] | None,
        names: Names,
        button: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        pick: int | str | None = None,
        start: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """What :attr:`score_template` shows: the engine's moves now
        (``games.scorekeeping.ScoreMoves``) arranged for one thumb, each made a tap
        target by ``button(event)`` (its JSON, words, idempotency key); ``pick``: a
        choice the scorekeeper opened (without JavaScript, ``?pick=N`` or a short key
        id such as ``?pick=R``); ``start``: the game's start event (``None`` before
        it). ``None`` (default): the generic page. UNO and Casino: the two-step card
        pad of :mod:`games.presenter_steps` for a seeded game."""
        return None

    def sheet_form(self, players: Sequence[str], names: Names) -> Any:
        """The score sheet's pad for one line of this kind (:class:`games.sheet.SheetForm`)
        for a table seated in ``players`` order; ``None`` (default): the kind keeps no
        score sheet."""
        return None

    def raw_template(
        self,
        events: list[dict[str, Any]],
        players: list[str],
        *,
        start: Mapping[str, Any] | None,
        waiting: bool,
        summary: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """An event for the score page's raw box to prefill when buttons cannot offer
        the next move (``{"note", "event"}``), or ``None`` (default). ``events``: the
        engine's legal moves; ``start``: the start event (``None`` before it);
        ``waiting``: the game runs but the engine offers no move at all."""
        return None


#: One logged event: its sequence number and its data.
LoggedEvent = tuple[int, Any]


def segment_ends(
    events: Sequence[LoggedEvent],
    opens: Any,
    finished: int,
    *,
    opened_before: int = 0,
    to_the_end: bool = True,
) -> list[tuple[int, int]]:
    """Where the hands or rounds of a log end: ``(index, sequence)``, the 0-based number
    of the hand or round and its last event. ``opens(data)`` says whether an event opens
    the next one (called once per event in order, so it may count); ``finished``: how many
    have a result in the summary; ``opened_before``: how many opened before ``events``
    (a window of the log; 0 for the whole log); ``to_the_end``: ``events`` reach the
    log's last event (else an end at the window's last event cannot be told: the
    opening after it is not in view). A hand or round ends at the last event before the
    next opening, or, while it has a result, at the log's last event (the game ended
    with its last play).
    ``end`` and ``correction`` events belong to none."""
    ends: list[tuple[int, int]] = []
    index = max(opened_before - 1, 0)  # the one open at the first event
    opened = opened_before > 0
    last: int | None = None
    for sequence, data in events:
        if opens(data):
            if opened:
                if last is not None:  # (else it ended before the window)
                    ends.append((index, last))
                index += 1
            opened, last = True, None
        elif opened and isinstance(data, Mapping) and data.get("type") not in ("end", "correction"):
            last = sequence
    if opened and last is not None and to_the_end:
        ends.append((index, last))
    return [(i, sequence) for i, sequence in ends if i < finished]


def placements_text(placements: Any, names: Names) -> str:
    """Placements (player -> place) as "1. ben, 2. cai, 2. dan, 4. ana" (best first;
    display names)."""
    if not isinstance(placements, Mapping):
        return ""
    ordered = sorted(
        ((v, _name(names, p)) for p, v in placements.items() if isinstance(v, int)),
        key=lambda item: item[0],
    )
    return ", ".join(f"{v}. {name}" for v, name in ordered)


def describe_correction(event: Mapping[str, Any], names: Names) -> str:
    """The log sentence of a ``correction`` (the event every kind accepts after the end,
    see ``docs/engine-api.md``): who corrected, the new places and the note. Every
    presenter gets it from :meth:`Presenter.describe` (a kind's ``describe`` passes
    the types it does not know on to it)."""
    return _("Result corrected by the referee %(referee)s: %(places)s. Note: %(note)s") % {
        "referee": event.get("referee") or "?",
        "places": placements_text(event.get("placements"), names),
        "note": event.get("note") or "",
    }


def describe_end(event: Mapping[str, Any]) -> str:
    """The log sentence of an ``end`` (every kind's, see ``docs/engine-api.md``): time
    is up for the reason ``time``, else the referee adjudicated."""
    if event.get("reason") == "time":
        return _("The game ends: time is up")
    return _("The game ends: adjudicated by the referee")


def describe_dealt_start(
    event: Mapping[str, Any], names: Names, *, target: int, notes: Sequence[str] = ()
) -> str:
    """The log sentence of the start of a game played to a target score with a dealer
    (UNO, Casino): a score sheet's players and target, or the players, who deals (the
    first player by default) and the target (``target`` when the event gives none),
    then the kind's ``notes`` (words in brackets) and, for a seeded game, that the site
    shuffled."""
    players = event.get("players")
    if not isinstance(players, list):
        players = []
    shown = ", ".join(_name(names, p) for p in players)
    target = event.get("target", target)
    if event.get("sheet") is True:
        return _("Score sheet: %(players)s, to %(target)s points") % {
            "players": shown,
            "target": target,
        }
    dealer = event.get("dealer") or (players[0] if players else "")
    text = _("The game starts: %(players)s; %(dealer)s deals; to %(target)s points") % {
        "players": shown,
        "dealer": _name(names, dealer),
        "target": target,
    }
    for note in notes:
        text += " " + note
    if "seed" in event:
        text += " " + _("(shuffled by the site)")
    return text


def hand_sizes(summary: Mapping[str, Any]) -> dict[str, int]:
    """Player -> cards in hand: the summary's ``hand_sizes`` (a spectator's view, whose
    ``hands`` are empty), else the length of each of its ``hands``."""
    sizes = summary.get("hand_sizes")
    if isinstance(sizes, Mapping):
        return dict(sizes)
    return {p: len(h) for p, h in (summary.get("hands") or {}).items()}


def totals_by_score(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The totals table of a game to a target score: ``{"name", "score"}`` of every
    seat, highest score first (equal scores keep seat order)."""
    return sorted(
        ({"name": s["name"], "score": s["score"]} for s in seats),
        key=lambda s: -s["score"],
    )


def card_label(card: Any) -> str:
    return str(card)


_GENERIC = Presenter()

#: Kind -> its presenter, filled by each kind's presenter module through
#: :func:`register_presenter` (``GamesConfig.ready`` imports them, see
#: :data:`PRESENTER_MODULES`): this module never imports a kind's presenter.
_PRESENTERS: dict[str, Presenter] = {}

#: The modules holding the kinds' presenters, imported once the app registry is
#: ready (``games.apps.GamesConfig.ready``).
PRESENTER_MODULES = ("games.presenter_tock", "games.presenter_uno", "games.presenter_casino")

P = TypeVar("P", bound=type[Presenter])


def register_presenter(kind: str) -> Callable[[P], P]:
    """Class decorator: the presenter of the game kind ``kind`` (one instance, shared)."""

    def register(cls: P) -> P:
        _PRESENTERS[kind] = cls()
        return cls

    return register


def presenter_for(kind: Any) -> Presenter:
    """The presenter registered for ``kind``; the generic one for any other."""
    return _PRESENTERS.get(kind, _GENERIC) if isinstance(kind, str) else _GENERIC


def game_view(
    *, state: dict[str, Any], names: Names | None = None, summary: dict[str, Any] | None = None
) -> GameView:
    """The page model of a game from :func:`games.selectors.game_derived_state`.

    ``names``: handle -> display name (handles are shown where a name is missing);
    ``summary``: the summary to show instead of the state's (the replay viewer's state
    at event N), also for places and who acts next.
    """
    names = names or {}
    shown = summary if summary is not None else (state.get("summary") or {})
    if shown and state.get("sheet"):  # a sheet's summary says so only once it has lines
        shown = {**shown, "sheet": True}
    presenter = presenter_for(state.get("kind")) if shown else _GENERIC
    if summary is not None:
        placements = summary.get("placements") or {}
    else:
        placements = state.get("placements") or {}
    turn = presenter.turn(shown)
    rows = [
        PlayerRow(
            position=position,
            handle=handle,
            name=_name(names, handle),
            place=placements.get(handle),
            to_move=turn == handle,
            cells=presenter.cells(shown, handle),
        )
        for position, handle in enumerate(state.get("players") or [], start=1)
    ]
    return GameView(
        columns=list(presenter.columns),
        rows=rows,
        summary=shown,
        detail_template=presenter.detail_template,
        table=presenter.table(shown, names) if shown else {},
        turn_name=_name(names, turn) if turn else None,
    )


def game_log_lines(
    *,
    kind: str,
    events: Sequence[Any],
    summary: dict[str, Any] | None,
    names: Names | None = None,
    at: int | None = None,
    prior: int | None = None,
    withdrawn: Mapping[int, int] | None = None,
) -> list[LogLine]:
    """The log as sentences (``events``: rows with ``sequence`` and ``data``), each with
    the infractions and knocks ``summary`` records at it and the hand or round that ended
    there; ``at`` marks the current one. For a window of the log (not from event 1),
    ``prior`` is the count of the kind's ``segment_opening`` events before it (without
    it the window marks no ends).

    Undo: ``withdrawn`` (withdrawn line -> undo line, :func:`games.engine.withdrawn_lines`
    of the whole log) marks the lines taken back (``withdrawn_by``); read from
    ``events`` when they are the whole log. An undo line says which event it withdrew
    ("Undo: event 17 withdrawn: Alba Ruiz draws 17 ...")."""
    names = names or {}
    presenter = presenter_for(kind)
    if withdrawn is None:
        whole = bool(events) and events[0].sequence == 1
        withdrawn = withdrawn_lines([e.data for e in events]) if whole else {}
    undone = {undo: line for line, undo in withdrawn.items()}
    data_at = {e.sequence: e.data for e in events}
    marks = presenter.marks(summary or {}, names)
    if events and events[0].sequence == 1:
        prior = 0  # the whole log
    # (withdrawn events and undo lines open or end no hand or round)
    logged = [
        (e.sequence, e.data)
        for e in events
        if e.sequence not in withdrawn and e.sequence not in undone
    ]
    ends = presenter.ends(summary or {}, names, logged, prior) if prior is not None else {}
    knock_at = presenter.verdicts(summary or {})

    def text(sequence: int, data: Any) -> str:
        line = undone.get(sequence)
        if line is None:
            return presenter.describe(data, names, sequence=sequence, knock_at=knock_at)
        if line in data_at:
            return _("Undo: event %(n)d withdrawn (%(event)s)") % {
                "n": line,
                "event": presenter.describe(data_at[line], names, sequence=line, knock_at=knock_at),
            }
        return _("Undo: event %(n)d withdrawn") % {"n": line}

    return [
        LogLine(
            sequence=e.sequence,
            text=text(e.sequence, e.data),
            knock=e.sequence in knock_at,
            marks=marks.get(e.sequence, []),
            current=e.sequence == at,
            end=ends.get(e.sequence),
            withdrawn_by=withdrawn.get(e.sequence),
            withdraws=undone.get(e.sequence),
        )
        for e in events
    ]
