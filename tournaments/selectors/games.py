"""Games as the tournaments app shows them: with their table, visible or not found."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

import games.engine as engine
from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.selectors import game_event_list, game_get, game_log_text
from tournaments.models import Player, Seat, Table
from tournaments.selectors.privacy import Masker, mask_game, mask_value
from tournaments.selectors.visibility import visible_tournament_expression


def _tables_of(*, game: Game) -> QuerySet[Table]:
    return (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament__league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
    )


def table_for_game(*, game: Game) -> Table | None:
    """The game's table with round, tournament, league and seats (players joined), 2
    queries; ``None`` for a friendly game."""
    return _tables_of(game=game).first()


def game_get_visible(*, game_id: Any, user: Any) -> tuple[Game, Table | None]:
    """The game and its table (with round, tournament, league, seats) if the user may see
    it (a friendly game, or one of a tournament they may see); GameNotFound otherwise.
    3 queries (a friendly game: 1 more, for its hidden players).

    Hidden players the user may not see by name (:mod:`.privacy`) are replaced by their
    neutral names in the returned game (an unsaved copy), its seats and, through
    :func:`game_events`, its events."""
    game = game_get(game_id=game_id)
    table = (
        _tables_of(game=game)
        .annotate(visible=visible_tournament_expression(user=user, prefix="round__tournament__"))
        .first()
    )
    if table is not None and not table.visible:
        raise GameNotFound()
    masker = Masker(user=user, tournament=table.round.tournament if table else None)
    if table is not None:
        players = [seat.player for seat in table.seats.all()]
    else:
        players = list(Player.objects.filter(handle__in=list(game.players or []), hidden=True))
    names, texts = {}, {}
    for player in players:
        shown = masker.player(player)
        if shown is not player:
            names[player.handle] = shown.handle
            texts[player.display_name] = shown.display_name
    if table is not None and names:
        for seat in table.seats.all():
            seat.player = masker.player(seat.player)
    return mask_game(game, names, texts), table


def game_events(*, game: Game, after: int = 0, limit: int | None = None) -> list[GameEvent]:
    """The game's events after sequence ``after`` (in order), at most ``limit``. 1 query.
    For a game from :func:`game_get_visible` hidden players keep their neutral names."""
    qs = game_event_list(game=game, after=after)
    if limit is not None:
        qs = qs[:limit]
    events = list(qs)
    names = getattr(game, "privacy_names", None)
    if names:
        texts = getattr(game, "privacy_texts", None)
        for event in events:
            event.data = mask_value(event.data, names, texts)
    return events


def game_log_text_visible(*, game: Game) -> str:
    """The game's log as JSON Lines, as :func:`game_events` shows it (hidden players
    under their neutral names; a masked log still replays). 1 query."""
    names = getattr(game, "privacy_names", None)
    if not names:
        return game_log_text(game=game)
    texts = getattr(game, "privacy_texts", None)
    return engine.format_log(
        mask_value(data, names, texts)
        for data in game_event_list(game=game).values_list("data", flat=True)
    )
