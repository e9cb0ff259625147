"""Reads for referees' rulings: the engine's preview of a knock, a tournament's rulings,
and the tournament's games in the order a referee needs them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import games.engine as engine
from games.errors import EventRejected, GameNotFound
from games.explanations import explain
from games.kinds import has_knocks, rules_in_progress
from games.models import Game, GameEvent, GameStatus, ResultSource
from games.selectors import game_engine, game_event_list, game_get
from tournaments.errors import NotFound
from tournaments.models import Player, Ruling, Table, Tournament
from tournaments.permissions import (
    ensure_can_referee_game,
    user_can_view_tournament,
    user_tournament_roles,
)
from tournaments.selectors.privacy import Masker, hidden_label, mask_text, name_texts


def result_correctable(*, game: Game) -> bool:
    """Whether the result of ``game`` may be corrected by a referee: the game has ended
    with a result from its log (a ``correction`` event, any kind) or with placements
    of at least two players (the placements replaced, recorded as a correction). A bye
    or a game closed without a result has nothing to correct. The one rule the
    correction service, the referee page and the game page's link all ask."""
    if not game.is_over:
        return False
    if game.result_verified:
        return True
    return game.result_source == ResultSource.PLACEMENTS and len(game.players or ()) >= 2


def knock_preview_of(*, game: Game, by: str) -> dict[str, Any]:
    """The engine's preview (:func:`games.engine.knock_preview`) of a knock by ``by``
    appended to ``game``'s stored log now. No permission check: callers check."""
    if not has_knocks(game.kind):
        raise EventRejected("knocks and rulings are for games with knocks (TOCK)")
    events = list(game_event_list(game=game).values_list("data", flat=True))
    if not events:
        return {
            "verdict": "invalid",
            "against": None,
            "code": "before_first_turn",
            "params": {"knocker": by},
            "sentence": "no turn to knock on: the first turn has not begun",
            "more": [],
            "penalty": [],
            "goes_out": [],
        }
    current = game_engine(game=game)
    return engine.knock_preview(events, by, game=current)


def knock_preview_for(*, game_id: Any, by: str, user: Any) -> dict[str, Any]:
    """What the referee sees before ruling: the preview with its ``explanation`` in the
    active language. Organizers and referees of the game's tournament only (404 for
    those who may not see the game)."""
    game = game_get(game_id=game_id)
    ensure_can_referee_game(user=user, game=game)
    if not has_knocks(game.kind):  # no knock to preview: nothing there (404), not a bad event
        raise GameNotFound("knocks and rulings are for TOCK games")
    preview = knock_preview_of(game=game, by=by)
    return {
        **preview,
        "explanation": explain(preview),
        "sequence": game.last_sequence,
    }


@dataclass(frozen=True)
class RulingRow:
    """One ruling as the rulings page and API show it: a ruling on a knock, or the
    correction of a finished game's result (``correction``: then ``placements`` and
    ``previous_placements`` are set, the knock and engine fields empty)."""

    id: int
    game: int
    table: int | None
    round: int | None
    at: datetime
    referee: str
    sequence: int
    knocker: str
    against: str
    engine_verdict: str | None
    engine_code: str | None
    ruling: str
    applied: str
    note: str
    #: the applied verdict differs from the engine's (an override always has a note)
    override: bool
    #: a correction of the game's result (``ruling`` and ``applied``: ``correction``)
    correction: bool = False
    #: a correction's new placements and those it replaced (player -> place); a
    #: decision on a proposed result: the placements recorded (none when rejected) and
    #: the proposal's
    placements: dict[str, int] | None = None
    previous_placements: dict[str, int] | None = None
    #: a decision on a scorekeeper's proposed result (``ruling``: ``proposal_ok``,
    #: ``proposal_replaced`` or ``proposal_rejected``)
    proposal: bool = False
    #: what the knock was judged on: ``log`` (the recorded game) or ``position`` (what
    #: the table showed, at a game nobody recorded: ``position`` holds it)
    judged_from: str = "log"
    position: dict[str, Any] | None = None
    #: the ``undo`` line that withdrew the ruling's event (the ruling no longer applies;
    #: the record stays, as the line stays in the append-only log), else ``None``
    withdrawn_by: int | None = None


def _withdrawn_events(*, games: dict[int, int]) -> dict[tuple[int, int], int]:
    """``{(game id, withdrawn line): undo line}`` for the games ``{id: last sequence}``,
    read from their ``undo`` lines only (1 query): every other line counts as an event
    that an undo may withdraw (:func:`games.engine.withdrawn_lines`' rule), so the log
    itself need not be read."""
    undos: dict[int, set[int]] = {}
    rows = GameEvent.objects.filter(game_id__in=list(games), data__type="undo")
    for game_id, sequence in rows.values_list("game_id", "sequence"):
        undos.setdefault(game_id, set()).add(sequence)
    undo = {"type": "undo"}
    found: dict[tuple[int, int], int] = {}
    for game_id, lines in undos.items():
        shape = [undo if n in lines else None for n in range(1, games[game_id] + 1)]
        for line, by in engine.withdrawn_lines(shape).items():
            found[(game_id, line)] = by
    return found


def tournament_rulings(*, tournament: Tournament, user: Any) -> list[RulingRow]:
    """The tournament's rulings in time order, for everyone who may see the tournament
    (else :class:`NotFound`); a ruling whose event an ``undo`` line withdrew says so
    (``withdrawn_by``). While a game is in progress, the engine's verdict on its
    ruled knocks is shown only to the tournament's staff: it would tell the table whether
    the knocked turn had an infraction (as ``TockGame.public_summary`` hides it)."""
    if not user_can_view_tournament(user=user, tournament=tournament):
        raise NotFound()
    staff = bool(user_tournament_roles(user=user, tournament=tournament))
    rulings = (
        Ruling.objects.filter(tournament=tournament)
        .select_related("game", "referee")
        .order_by("at", "id")
    )
    tables = {
        t.game_id: t
        for t in Table.objects.filter(game_id__in=[r.game_id for r in rulings]).select_related(
            "round"
        )
    }
    # hidden players appear under their neutral handles, as on every page of the event
    masker = Masker(user=user, tournament=tournament)
    handles = {h for r in rulings for h in (r.knocker, r.against)}
    for r in rulings:
        handles.update(r.game.players or ())  # a note may name anyone at the table
        handles.update(r.placements or ())
        handles.update(r.previous_placements or ())
    shown_as: dict[str, str] = {}
    texts: dict[str, str] = {}  # what a referee's note may call them (privacy.name_texts)
    for p in Player.objects.filter(handle__in=handles, hidden=True):
        masked = masker.player(p)
        if masked is not p:
            shown_as[p.handle] = masked.handle
            texts.update(name_texts(player=p, shown=masked))
    withdrawn = _withdrawn_events(games={r.game_id: r.game.last_sequence for r in rulings})
    rows = []
    for r in rulings:
        table = tables.get(r.game_id)
        shown = staff or r.game.is_over
        rows.append(
            RulingRow(
                id=r.pk,
                game=r.game_id,
                table=table.number if table else None,
                round=table.round.number if table else None,
                at=r.at,
                referee=r.referee.get_username() if r.referee else "",
                sequence=r.sequence,
                knocker=shown_as.get(r.knocker, r.knocker),
                against=shown_as.get(r.against, r.against),
                engine_verdict=r.engine_verdict if shown else None,
                engine_code=r.engine_code if shown else None,
                ruling=r.ruling,
                applied=r.applied,
                note=mask_text(r.note, texts),
                override=r.is_override,
                correction=r.is_correction,
                placements=_renamed(r.placements, shown_as),
                previous_placements=_renamed(r.previous_placements, shown_as),
                proposal=r.is_proposal,
                judged_from="position" if r.position else "log",
                position=_position_renamed(r.position, shown_as),
                withdrawn_by=withdrawn.get((r.game_id, r.sequence)) if r.sequence else None,
            )
        )
    return rows


def _position_renamed(position: dict[str, Any] | None, shown_as: dict[str, str]) -> dict | None:
    """A judged position with hidden players under their neutral handles."""
    if not position:
        return None
    name = lambda h: shown_as.get(h, h) if isinstance(h, str) else h  # noqa: E731
    action = dict(position.get("action") or {})
    if "to" in action:
        action["to"] = name(action["to"])
    return {
        **position,
        "players": [name(h) for h in position.get("players") or []],
        "piles": {name(h): v for h, v in (position.get("piles") or {}).items()},
        "stocks": {name(h): v for h, v in (position.get("stocks") or {}).items()},
        "turn": name(position.get("turn")),
        "action": action,
    }


def _renamed(placements: dict[str, int] | None, shown_as: dict[str, str]) -> dict | None:
    """Placements with hidden players under their neutral handles."""
    if placements is None:
        return None
    return {shown_as.get(h, h): v for h, v in placements.items()}


def ruling_row(*, ruling: Ruling) -> RulingRow:
    """One stored ruling as a row, in full (for the referee who just stored it)."""
    table = Table.objects.filter(game_id=ruling.game_id).select_related("round").first()
    return RulingRow(
        id=ruling.pk,
        game=ruling.game_id,
        table=table.number if table else None,
        round=table.round.number if table else None,
        at=ruling.at,
        referee=ruling.referee.get_username() if ruling.referee else "",
        sequence=ruling.sequence,
        knocker=ruling.knocker,
        against=ruling.against,
        engine_verdict=ruling.engine_verdict,
        engine_code=ruling.engine_code,
        ruling=ruling.ruling,
        applied=ruling.applied,
        note=ruling.note,
        override=ruling.is_override,
        correction=ruling.is_correction,
        placements=ruling.placements,
        previous_placements=ruling.previous_placements,
        proposal=ruling.is_proposal,
        judged_from="position" if ruling.position else "log",
        position=ruling.position,
    )


def game_rulings(*, game: Game) -> dict[int, Ruling]:
    """The game's rulings by the sequence of their event (for the game page): rulings
    on knocks (their ``tock`` event), corrections (their ``correction`` event) and a
    confirmed or replaced proposed result (its ``end`` event)."""
    return {r.sequence: r for r in Ruling.objects.filter(game=game)}


@dataclass(frozen=True)
class RefereeGame:
    table: Table
    open_knock: bool


def referee_games(*, tournament: Tournament) -> list[RefereeGame]:
    """The tournament's TOCK games for the referee list: games in progress where a knock
    now would find an unpenalised infraction ("open knock") first, then the other games
    in progress, then the rest; each group by round and table."""
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "game")
        .prefetch_related("seats__player")
        .order_by("-round__number", "number")
    )
    rows = []
    for table in tables:
        game = table.game
        open_knock = False
        in_progress = game.status == GameStatus.IN_PROGRESS
        if in_progress and rules_in_progress(game.kind) and game.last_sequence:
            current = game_engine(game=game)
            open_knock = bool(current and current.pending_infractions())
        rows.append(RefereeGame(table=table, open_knock=open_knock))
    rows.sort(key=lambda r: (not r.open_knock, r.table.game.status != "in_progress"))
    return rows


def ruling_names(*, rows: list[RulingRow]) -> dict[str, str]:
    """Display names of the players ``rows`` name, by the handle the rows show: a real
    handle gives the player's name, a hidden player's neutral handle (``Player-57``,
    which :func:`tournament_rulings` shows to whoever may not see them) gives the
    neutral name ("Player 57"). 1 query."""
    handles = set()
    for r in rows:
        handles.update(h for h in (r.knocker, r.against) if h)
        handles.update(r.placements or ())
        handles.update(r.previous_placements or ())
    names = dict(Player.objects.filter(handle__in=handles).values_list("handle", "display_name"))
    for handle in handles - names.keys():
        number = handle.removeprefix("Player-")
        if handle.startswith("Player-") and number.isdigit():
            names[handle] = hidden_label(player_id=int(number))
    return names
