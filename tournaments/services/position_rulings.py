"""A referee's ruling on a knock at a table nobody recorded (issue 22, "Referee verdicts
at a table nobody recorded"): judged from what the table shows
(``games.kinds.knock_from_position``: the kind's engine builds the position, checks it
and judges the knock exactly as on a recorded log) and stored as a
:class:`~tournaments.models.Ruling` with the position it judged instead of a log event
(``sequence`` 0, ``position`` the checked facts). Public like the other rulings.

Rules: organizers and referees of the game's tournament (404 for those who may not see
the game, 403 for others), never a player of the game (403); a kind with knocks; a game
without a log, not even its start line (a recorded game is ruled on its log: 409), and
not void. ``ruling`` is
``confirm`` (the engine's verdict), ``correct`` or ``incorrect``; an override needs a
note (400). A position the engine refuses: 400 with its reason naming the rule; a knock
it refuses there (the knocker is the player judged...): 422. Nothing is stored on a
refusal. The penalty is given at the table (no log to move cards in); the ruling says
which cards move. Audited ``position_ruling``; the live pages hear of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

import games.engine as engine
from games.errors import EventRejected, MalformedInput, ResultConflict
from games.explanations import explain
from games.kinds import has_knocks, knock_from_position
from games.models import Game, GameStatus
from games.selectors import game_get
from outbox.changes import RulingRecorded, change_recorded
from tournaments.models import Ruling, RulingChoice
from tournaments.permissions import ensure_can_referee_game, ensure_not_playing, game_tournament
from tournaments.selectors.games import table_for_game
from tournaments.services.core import audit_write
from tournaments.services.rulings import knock_note


class PositionRejected(MalformedInput):
    """What the referee entered is no position of the game (the engine's reason)."""


def judge_position(*, game: Game, facts: Any, by: Any) -> dict[str, Any]:
    """The engine's verdict on a knock by ``by`` from ``facts`` (the game's players in
    seat order are filled in), or :class:`PositionRejected` with the engine's reason.
    No role check (the callers check); no write."""
    if not isinstance(facts, Mapping):
        raise PositionRejected(_("The position must be an object."))
    facts = {**facts, "players": list(game.players or [])}
    try:
        return knock_from_position(game.kind, facts=facts, by=by)
    except engine.EngineError as exc:
        raise PositionRejected(str(exc)) from None


def position_ruling_record(
    *,
    game: Game | int | str,
    facts: Any,
    by: Any,
    ruling: Any,
    note: Any = "",
    user: Any,
) -> Ruling:
    """Store a ruling on a knock by ``by`` judged from the table's position ``facts``
    (see the module rules)."""
    game = game if isinstance(game, Game) else game_get(game_id=game)
    ensure_can_referee_game(user=user, game=game)
    ensure_not_playing(user=user, game=game)
    if not has_knocks(game.kind):
        raise MalformedInput(_("This game has no knocks to rule on."))
    if ruling not in (RulingChoice.CONFIRM, RulingChoice.CORRECT, RulingChoice.INCORRECT):
        raise MalformedInput(_("'ruling' must be confirm, correct or incorrect."))
    note = knock_note(note)
    with transaction.atomic(durable=True):
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.last_sequence > 0:
            raise ResultConflict(
                _("This game has a recorded log: rule on the knock on its log instead.")
            )
        if locked.status == GameStatus.VOID:
            raise ResultConflict(_("This game was closed without a result."))
        verdict = judge_position(game=locked, facts=facts, by=by)
        table = table_for_game(game=locked)  # (game_tournament reads it from the game)
        if verdict["verdict"] == "invalid":
            raise EventRejected(explain(verdict))
        applied = verdict["verdict"] if ruling == RulingChoice.CONFIRM else ruling
        if applied != verdict["verdict"] and not note:
            raise MalformedInput(_("A note is required to override the engine's verdict."))
        tournament = game_tournament(game=locked)
        stored = Ruling.objects.create(
            game=locked,
            tournament=tournament,
            referee=user if getattr(user, "pk", None) else None,
            sequence=0,
            knocker=by,
            against=verdict["against"] or "",
            engine_verdict=verdict["verdict"],
            engine_code=verdict["code"],
            ruling=ruling,
            applied=applied,
            note=note,
            position=verdict["position"],
        )
        if tournament is not None:
            audit_write(
                tournament=tournament,
                user=user,
                action="position_ruling",
                round=table.round if table else None,
                game=locked.pk,
                knocker=by,
                against=verdict["against"],
                applied=applied,
                penalty=verdict["penalty"],
            )
        change_recorded(
            RulingRecorded(game_id=locked.pk, tournament_id=getattr(tournament, "pk", None))
        )
    return stored
