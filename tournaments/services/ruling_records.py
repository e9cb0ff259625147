"""The :class:`~tournaments.models.Ruling` records the recording choke point stores
with a write (:func:`tournaments.services.recording._write`), in its transaction:

* a knock ruling, however it arrives (the referee page with its decision, the API's
  events, a whole log): the knocker, whom it was judged against, the engine's verdict
  on the position it was recorded on (computed before the write, under the game's
  lock) and the ruling applied;
* a correction of a result: the ``correction`` event's new placements and the ones
  they replaced, or (no log) the placements a referee replaced, with the note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import games.engine as engine
from games.errors import EventRejected
from games.explanations import explain
from games.models import Game, GameEvent
from games.services import RecordOutcome
from outbox.changes import RulingRecorded, change_recorded
from tournaments.models import Ruling, RulingChoice
from tournaments.permissions import game_tournament
from tournaments.selectors.rulings import knock_preview_of


@dataclass(frozen=True)
class RulingDecision:
    """What a referee decided on a knock (the referee page): their ``choice``
    (``confirm``, ``correct`` or ``incorrect``), the ``note`` and the engine's
    ``preview`` they ruled on (computed under the game's lock, so it is not computed
    again). A ruling arriving without one (the API's events, a whole log) is recorded
    as a confirmation when it applies the engine's verdict, else as that override."""

    choice: str
    note: str
    preview: Mapping[str, Any]


def knock_previews(
    game: Game,
    events: list[Any],
    rulings: list[tuple[int, tuple[str, str]]],
    decision: RulingDecision | None,
) -> list[tuple[int, str, str, Mapping[str, Any]]]:
    """The engine's preview of every knock ruling among ``events``, on the position it
    is recorded on, before anything is written (the game's row is locked): ``(index,
    knocker, ruling, preview)``. One event appended: the stored log; a whole log: its
    own events before the ruling. A knock the engine finds invalid is refused."""
    found = []
    for index, (by, ruling) in rulings:
        if len(events) == 1 and decision is not None:
            preview = decision.preview
        elif len(events) == 1:  # the game as locked now (its row is locked already)
            preview = knock_preview_of(game=Game.objects.get(pk=game.pk), by=by)
        else:
            preview = engine.knock_preview(events[:index], by)
        if preview["verdict"] == "invalid":
            raise EventRejected(explain(preview))
        found.append((index, by, ruling, preview))
    return found


def record_rulings(
    *,
    outcome: RecordOutcome,
    user: Any,
    last_before: int,
    events: list[Any],
    previews: list[tuple[int, str, str, Mapping[str, Any]]],
    decision: RulingDecision | None,
) -> None:
    """A :class:`Ruling` for each knock ruling the write stored, however it arrived (the
    referee page, the API's events, a whole log): the knocker, whom it was judged
    against, the engine's verdict and the ruling applied."""
    game = outcome.game
    first = game.last_sequence - len(events) + 1  # the sequence of events[0]
    tournament = game_tournament(game=game)
    referee = user if getattr(user, "pk", None) else None
    for index, by, applied, preview in previews:
        sequence = first + index
        if sequence <= last_before:
            continue  # already stored (a log sent again with more events)
        verdict = preview["verdict"]
        if decision is not None:
            choice, note = decision.choice, decision.note
        else:
            choice, note = (RulingChoice.CONFIRM if applied == verdict else applied), ""
        Ruling.objects.create(
            game=game,
            tournament=tournament,
            referee=referee,
            sequence=sequence,
            knocker=by,
            against=preview["against"] or "",
            engine_verdict=verdict,
            engine_code=preview["code"],
            ruling=choice,
            applied=applied,
            note=note,
        )
    change_recorded(RulingRecorded(game_id=game.pk, tournament_id=getattr(tournament, "pk", None)))


def result_before(game: Game) -> tuple[int, Any]:
    """The game's last sequence and placements before a write, its row locked (the write
    locks it again in the same transaction): what a correction replaces."""
    row = (
        Game.objects.select_for_update()
        .filter(pk=game.pk)
        .values_list("last_sequence", "placements")
    )
    return row.get()


def correction_ruling(
    *,
    game: Game,
    tournament: Any,
    referee: Any,
    sequence: int,
    note: str,
    placements: Any,
    previous: Any,
) -> Ruling:
    """The :class:`Ruling` of kind correction: who replaced which placements, and why
    (``sequence``: the ``correction`` event; 0 for placements without a log)."""
    return Ruling.objects.create(
        game=game,
        tournament=tournament,
        referee=referee,
        sequence=sequence,
        knocker="",
        against="",
        engine_verdict="",
        engine_code="",
        ruling=RulingChoice.CORRECTION,
        applied=RulingChoice.CORRECTION,
        note=note,
        placements=placements,
        previous_placements=previous,
    )


def record_corrections(*, outcome: RecordOutcome, user: Any, before: tuple[int, Any]) -> None:
    """A :class:`Ruling` (kind ``correction``) for each ``correction`` event the write
    stored: the referee (the user who recorded it), the new placements (as the engine
    applied them, seat order), the ones they replaced and the note. Only called when
    the events written hold a correction (no query on the usual path)."""
    game = outcome.game
    last_before, previous = before
    rows = list(
        GameEvent.objects.filter(
            game=game, sequence__gt=last_before, data__type="correction"
        ).order_by("sequence")
    )
    if not rows:
        return
    applied = {c["event"]: c["placements"] for c in (game.summary or {}).get("corrections") or []}
    tournament = game_tournament(game=game)
    referee = user if getattr(user, "pk", None) else None
    for row in rows:
        if previous is None:  # a whole log, its end in the same write: as played
            events = GameEvent.objects.filter(game=game, sequence__lt=row.sequence)
            played = engine.replay(list(events.order_by("sequence").values_list("data", flat=True)))
            previous = played.placements()
        new = applied.get(row.sequence, row.data.get("placements"))
        correction_ruling(
            game=game,
            tournament=tournament,
            referee=referee,
            sequence=row.sequence,
            note=str(row.data.get("note", "")).strip(),
            placements=new,
            previous=previous,
        )
        previous = new
    change_recorded(RulingRecorded(game_id=game.pk, tournament_id=getattr(tournament, "pk", None)))
