"""Hidden players as a viewer sees them: the one place that says who sees which name.

A player with ``Player.hidden`` appears on public pages and API reads under a neutral,
stable label instead of their name (``"Player 57"``, translated) and handle
(``"Player-57"``: handles are lowercase slugs, so this never names a real player). Their
results, points and ratings are shown unchanged. The real names are shown to
superusers, to the player themself, and to the staff of the tournament being shown
(for a player page: of any tournament the player plays in).

The masking is pure data shaping over rows the selectors already fetched (no query for
anonymous visitors): :func:`mask_value` replaces the hidden handles inside game data
(players, placements, summary, events).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Player, Tournament
from tournaments.permissions import (
    user_is_signed_in,
    user_is_superuser,
    user_tournament_roles,
)


def hidden_label(*, player_id: int) -> str:
    """The neutral name of a hidden player (stable: the same on every page)."""
    return _("Player %(number)d") % {"number": player_id}


def hidden_handle(*, player_id: int) -> str:
    """The neutral handle of a hidden player: slug-shaped, but with a capital letter,
    which no real handle has (they are lowercase slugs)."""
    return f"Player-{player_id}"


def viewer_player_id(*, user: Any) -> int | None:
    """The id of the signed-in user's own player, if any (1 query, cached on the user)."""
    if not user_is_signed_in(user=user):
        return None
    if not hasattr(user, "_privacy_player_id"):
        user._privacy_player_id = (
            Player.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
        )
    return user._privacy_player_id


def viewer_sees_all(*, user: Any, tournament: Tournament | None) -> bool:
    """Whether ``user`` sees every real name in ``tournament``'s pages: superusers and
    the tournament's staff (any role, league organizers). No query for anonymous."""
    if user_is_superuser(user=user):
        return True
    if tournament is None or not user_is_signed_in(user=user):
        return False
    return bool(user_tournament_roles(user=user, tournament=tournament))


class Masker:
    """Masks hidden players for one viewer in one context (a tournament or a game)."""

    def __init__(self, *, user: Any, tournament: Tournament | None = None) -> None:
        self.user = user
        self.tournament = tournament
        self._all: bool | None = None

    def reveals_all(self) -> bool:
        if self._all is None:
            self._all = viewer_sees_all(user=self.user, tournament=self.tournament)
        return self._all

    def masks(self, *, player_id: int, hidden: bool) -> bool:
        """Whether this hidden player is shown under the neutral name to this viewer."""
        if not hidden or self.reveals_all():
            return False
        return viewer_player_id(user=self.user) != player_id

    def player(self, player: Player) -> Player:
        """``player`` or, when masked, an unsaved copy with the neutral names (and
        ``masked = True``, so templates do not link to the profile)."""
        if not self.masks(player_id=player.pk, hidden=player.hidden):
            return player
        shown = copy.copy(player)
        shown.handle = hidden_handle(player_id=player.pk)
        shown.display_name = hidden_label(player_id=player.pk)
        shown.user_id = None
        shown.masked = True
        return shown


def mask_value(value: Any, names: dict[str, str], texts: dict[str, str] | None = None) -> Any:
    """``value`` (JSON data) with every string in ``names`` (handle -> neutral handle)
    replaced, as a value or as an object key; in callers' free-text metadata (keys
    starting with ``_``) also inside text, together with ``texts`` (display name ->
    neutral name)."""
    if not names:
        return value
    free = sorted({**names, **(texts or {})}.items(), key=lambda kv: -len(kv[0]))
    return _mask(value, names, free, False)


def _mask(value: Any, names: dict[str, str], free: list[tuple[str, str]], meta: bool) -> Any:
    if isinstance(value, str):
        if value in names:
            return names[value]
        if meta:
            for old, new in free:
                if old:
                    value = re.sub(re.escape(old), new, value, flags=re.IGNORECASE)
        return value
    if isinstance(value, list):
        return [_mask(v, names, free, meta) for v in value]
    if isinstance(value, dict):
        return {
            _mask(k, names, free, meta): _mask(
                v, names, free, meta or (isinstance(k, str) and k.startswith("_"))
            )
            for k, v in value.items()
        }
    return value


def mask_game(game: Any, names: dict[str, str], texts: dict[str, str] | None = None) -> Any:
    """An unsaved copy of ``game`` with the hidden handles replaced in its players,
    placements, start event and caches (the original is left as it was); ``texts``
    (display names) are replaced in free-text metadata."""
    if not names:
        return game
    shown = copy.copy(game)
    for field in ("players", "placements", "start_event", "summary", "state"):
        if field in game.get_deferred_fields():
            continue
        setattr(shown, field, mask_value(getattr(game, field), names, texts))
    shown.privacy_names = names
    shown.privacy_texts = texts or {}
    return shown
