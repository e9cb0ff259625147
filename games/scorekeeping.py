"""What a scorekeeper may record next in a game, asked of the engine (read only).

The score page (``tournaments.views_score``) shows one button per event listed here;
it never imports the engine. Every list comes from the game's kind
(``docs/engine-api.md``): nothing here names a kind's rules.

* ``start``: before the first event, the start events to choose from
  (``cls.start_events(players)``: TOCK, one per player who may begin);
* ``legal``: the moves of the player to move that break no rule (``legal_moves()``;
  with the cards they move named when the engine has ``named_event``: UNO);
* ``infractions``: the moves the mode records as infractions (``infraction_moves()``:
  TOCK's table mode, UNO's forgotten call; named as the legal ones), which happen at
  real tables and must be recordable;
* ``table``: events other players may record out of turn (``table_moves()``: TOCK's
  knocks), with ``knock_target`` whom a knock now would be judged against.

Each move carries ``needs_referee`` (``cls.event_needs_referee``): the recording
service refuses those for plain scorekeepers, so the page can say so beforehand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import games.engine as engine
from games.models import Game
from games.selectors import game_engine


@dataclass(frozen=True)
class ScoreMoves:
    """The events a scorekeeper may record now (see the module docstring)."""

    sequence: int  # the sequence number the next event gets (the log's length + 1)
    turn: str | None
    start: list[dict[str, Any]] = field(default_factory=list)
    legal: list[dict[str, Any]] = field(default_factory=list)
    infractions: list[dict[str, Any]] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)
    knock_target: str | None = None

    @property
    def any(self) -> bool:
        return bool(self.start or self.legal or self.infractions or self.table)


def game_score_moves(*, game: Game) -> ScoreMoves:
    """The moves a scorekeeper may record in ``game`` now; none once the game is over or
    carries a placements-only result, or for a kind the engine cannot play. No query
    while the cached state is fresh (else one replay of the log)."""
    sequence = game.last_sequence + 1
    try:
        cls = engine.game_class(game.kind)
    except engine.EngineError:
        return ScoreMoves(sequence=sequence, turn=None)
    if game.is_over or game.result_source == "placements":
        return ScoreMoves(sequence=sequence, turn=None)
    if game.last_sequence == 0:
        players = list(game.players or [])
        if not cls.min_players <= len(players) <= cls.max_players:
            return ScoreMoves(sequence=sequence, turn=None)
        return ScoreMoves(sequence=sequence, turn=None, start=cls.start_events(players))
    eng = game_engine(game=game)
    if eng is None or eng.is_over:
        return ScoreMoves(sequence=sequence, turn=None)
    # A kind whose moves may leave out cards the engine deals (UNO's seeded draws and
    # deals) names them, so that the stored log is complete (others: the move itself).
    legal = [eng.named_event(move) for move in eng.legal_moves()]
    return ScoreMoves(
        sequence=sequence,
        turn=eng.turn,
        legal=legal,
        infractions=[eng.named_event(move) for move in eng.infraction_moves()],
        table=eng.table_moves(),
        knock_target=eng.knock_target(),
    )


def event_needs_referee(*, kind: str, event: Any) -> bool:
    """Whether ``event`` is a referee's matter for the game's kind (a ruling, an
    adjudicated end...): only referees and organizers may record it."""
    try:
        return bool(engine.game_class(kind).event_needs_referee(event))
    except engine.EngineError:
        return False
