"""Erasure of a player's name from one game: the one exception to "events are never
edited" (GDPR). The log keeps its meaning; only a name changes, and the rewritten log
must replay to the same result before anything is written.

Part of the write services of :mod:`games.services` (which re-exports
:func:`game_rename_player`); the same rules hold: row lock, all or nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

import games.engine as engine
from games.errors import MalformedInput, ResultConflict
from games.models import Game, GameEvent, ResultSource
from games.services import RecordOutcome, locked_game


def scrub_text(text: str, *, old: str, new: str, texts: Iterable[str] = ()) -> str:
    """Free text with every occurrence of ``old`` and of ``texts`` (any case) replaced by
    ``new``: a note or a reason that names the player keeps its sense under the
    pseudonym."""
    for name in (old, *texts):
        if name:
            text = re.sub(re.escape(name), new, text, flags=re.IGNORECASE)
    return text


def rename_in_json(
    value: Any, *, old: str, new: str, texts: Iterable[str] = (), free_text: bool = False
) -> Any:
    """``value`` (stored JSON) with every string equal to ``old``, as a value or an
    object key, replaced by ``new``: the structured places where a player is named by
    handle (placements, votes, a log's fields). Free text is scrubbed too
    (:func:`scrub_text` of ``old`` and ``texts``) under keys starting with ``_``
    (callers' metadata, which the engine ignores), or everywhere with ``free_text``
    (an audit line's details, whose strings are not rules' fields)."""
    return _rename_value(value, old, new, tuple(t for t in texts if t), free_text)


def _rename_value(value: Any, old: str, new: str, texts: tuple[str, ...], meta: bool) -> Any:
    """:func:`rename_in_json`'s walk; ``meta``: inside callers' metadata."""
    if isinstance(value, str):
        if value == old:
            return new
        return scrub_text(value, old=old, new=new, texts=texts) if meta else value
    if isinstance(value, list):
        return [_rename_value(v, old, new, texts, meta) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            inner = meta or (isinstance(k, str) and k.startswith("_"))
            out[_rename_value(k, old, new, texts, meta)] = _rename_value(v, old, new, texts, inner)
        return out
    return value


def _by_seat(players: list[str], placements: Mapping[str, int] | None) -> list[int] | None:
    if placements is None:
        return None
    return [placements.get(p) for p in players]


def game_rename_player(
    *, game: Game | int, old: str, new: str, texts: Iterable[str] = ()
) -> RecordOutcome:
    """Replace the player name ``old`` by ``new`` everywhere in one game: its players,
    start event, placements, every logged event, and the derived caches (rebuilt by
    replaying the rewritten log). For erasure of personal data (GDPR), the one exception
    to "events are never edited": the log keeps its meaning, only a name changes.

    ``texts`` (e.g. the player's display name) are scrubbed from callers' free-text
    metadata (``_``-prefixed keys) as well; a game ``old`` did not play in only gets
    its metadata scrubbed (a note naming them). Proven before anything is written: the
    rewritten log must replay to the same status, event count and placements by seat
    (else :class:`ResultConflict` and nothing changes), so nobody's result, standings or
    ratings move. ``result_version`` is not bumped (the result did not change).
    Call it inside the caller's transaction when several games must change together.
    """
    texts = tuple(t for t in texts if t)
    if not isinstance(new, str) or not new or not isinstance(old, str) or not old:
        raise MalformedInput(_("Player names must be non-empty text."))
    with transaction.atomic():
        game = locked_game(game)
        players = list(game.players)
        if new in players:
            raise ResultConflict(
                _("%(name)s already plays in game %(game)d.") % {"name": new, "game": game.pk}
            )
        renamed_players = [new if p == old else p for p in players]
        before = _by_seat(players, game.placements)
        rows = list(GameEvent.objects.filter(game=game).order_by("sequence"))
        changed_rows = []
        events = []
        for row in rows:
            data = _rename_value(row.data, old, new, texts, False)
            events.append(data)
            if data != row.data:
                row.data = data
                changed_rows.append(row)
        if not changed_rows and old not in players:
            return RecordOutcome(game=game, events_added=0, result_changed=False)
        if events:
            try:
                eng = engine.replay(events)
            except engine.EngineError as exc:
                raise ResultConflict(
                    _("Game %(game)d does not replay after renaming a player: %(reason)s")
                    % {"game": game.pk, "reason": exc}
                ) from exc
            if list(eng.players) != renamed_players or eng.event_count != game.last_sequence:
                raise ResultConflict(
                    _("Game %(game)d changes its players after renaming.") % {"game": game.pk}
                )
            if game.result_source == ResultSource.LOG:
                outcome = eng.outcome()
                after = _by_seat(renamed_players, outcome.placements)
                if after != before or outcome.status.value != game.status:
                    raise ResultConflict(
                        _("Game %(game)d changes its result after renaming a player.")
                        % {"game": game.pk}
                    )
            GameEvent.objects.bulk_update(changed_rows, ["data"])
            game.start_event = events[0]
            game.state = eng.cache_state()
            game.summary = eng.summary()
            game.state_sequence = game.last_sequence
        game.players = renamed_players
        if game.placements is not None:
            game.placements = {
                new if p == old else p: place for p, place in game.placements.items()
            }
            if _by_seat(renamed_players, game.placements) != before:
                raise ResultConflict(
                    _("Game %(game)d changes its result after renaming a player.")
                    % {"game": game.pk}
                )
        game.save()
    return RecordOutcome(game=game, events_added=0, result_changed=False)
