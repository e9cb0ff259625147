"""Hidden players as a viewer sees them: the one place that says who sees which name.

A player with ``Player.hidden`` appears on public pages and API reads under a neutral,
stable label instead of their name (``"Player 57"``, translated) and handle
(``"Player-57"``: handles are lowercase slugs, so this never names a real player). Their
results, points and ratings are shown unchanged. The real names are shown to
superusers, to the player themself, and to the staff of the tournament being shown
(for a player page: of any tournament the player plays in).

The masking is pure data shaping over rows the selectors already fetched (no query for
anonymous visitors): :func:`mask_value` replaces the hidden handles inside game data
(players, placements, summary, events). Free text written by people (a scorekeeper's
``_note``, a correction's ``note``, a ruling's note) is masked by :func:`mask_text`
with :func:`name_texts`: the handle, the whole display name and each word of it of
three letters or more, as whole words, whatever the case and accents ("maria garcia"
and "BONET" are María García Bonet too). A nickname nobody registered cannot be known.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
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


#: Keys of game data whose strings are free text written by people, besides callers'
#: metadata (keys starting with ``_``): a correction's ``note`` (in its event and in the
#: summary's ``corrections``).
FREE_TEXT_KEYS = frozenset({"note"})
#: Words of a display name shorter than this are not masked on their own ("Li", "de").
MIN_NAME_WORD = 3


def name_texts(*, player: Player, shown: Player) -> dict[str, str]:
    """What free text may call ``player`` -> what to write instead (``shown``: the masked
    copy from :meth:`Masker.player`): the handle, the display name, and each word of the
    display name of :data:`MIN_NAME_WORD` letters or more (-> the neutral name)."""
    texts = {player.handle: shown.handle}
    for word in re.findall(r"\w+", player.display_name):
        if len(word) >= MIN_NAME_WORD:
            texts[word] = shown.display_name
    texts[player.display_name] = shown.display_name
    return texts


#: What joins the words of a name in free text besides spaces ("ben_cole", "ben-cole").
NAME_SEPARATORS = "_-."
SEPARATOR = r"[\s_.\-]"
HANDLE_SEPARATOR = r"[_.\-]"


def _fold(text: str) -> str:
    """``text`` without accents, case-folded: what two spellings of a name share."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _is_handle(name: str) -> bool:
    return re.fullmatch(r"[a-z0-9_-]+", name) is not None


def mask_text(text: str, texts: Mapping[str, str]) -> str:
    """``text`` with every name in ``texts`` (name -> replacement) replaced where it
    stands as a whole word (or words), whatever its case and accents; longest names
    first, so that a whole name goes before its parts, and of names as long, a display
    name's before a handle's (``"Ann"`` is ``Player 7``, not ``Player-7``)."""
    if not text or not texts:
        return text
    spellings: dict[str, set[str]] = {}  # folded letter -> the characters of text that fold to it
    for c in set(text):
        spellings.setdefault(_fold(c), set()).add(c)
    # combining marks (an accent written apart, NFD: "be\u0301n") fold to nothing: any
    # of the text's may follow each letter
    marks = "".join(re.escape(c) for c in sorted(spellings.pop("", set())))
    after = f"[{marks}]*" if marks else ""
    for old, new in sorted(texts.items(), key=lambda kv: (-len(kv[0]), _is_handle(kv[0]))):
        if not old.strip():
            continue
        parts = []
        # "Ben Cole" is also ben_cole, ben.cole; a handle's "ben-cole" not "ben cole"
        # (its words are masked as the display name's)
        separator = HANDLE_SEPARATOR if _is_handle(old) else SEPARATOR
        for c in old:
            if c.isspace() or c in NAME_SEPARATORS:
                parts.append(separator)
                continue
            chars = spellings.get(_fold(c), set()) | {c}
            parts.append("[" + "".join(re.escape(x) for x in sorted(chars)) + "]" + after)
        # whole words: no letter or digit either side ("_" separates words here)
        pattern = r"(?<![^\W_])" + "".join(parts) + r"(?![^\W_])"
        text = re.sub(pattern, lambda _match, new=new: new, text, flags=re.IGNORECASE)
    return text


def mask_value(value: Any, names: dict[str, str], texts: dict[str, str] | None = None) -> Any:
    """``value`` (JSON data) with every string in ``names`` (handle -> neutral handle)
    replaced, as a value or as an object key; in free text (callers' metadata, keys
    starting with ``_``, and :data:`FREE_TEXT_KEYS`) also inside the text, together with
    ``texts`` (:func:`name_texts`), by :func:`mask_text`."""
    if not names:
        return value
    return _mask(value, names, {**names, **(texts or {})}, False)


def _mask(value: Any, names: dict[str, str], free: dict[str, str], meta: bool) -> Any:
    if isinstance(value, str):
        if value in names:
            return names[value]
        return mask_text(value, free) if meta else value
    if isinstance(value, list):
        return [_mask(v, names, free, meta) for v in value]
    if isinstance(value, dict):
        return {
            _mask(k, names, free, meta): _mask(
                v,
                names,
                free,
                meta or (isinstance(k, str) and (k.startswith("_") or k in FREE_TEXT_KEYS)),
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
