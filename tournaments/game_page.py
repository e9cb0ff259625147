"""The game page (``/games/<id>/``): its context, and its live regions rendered once for
every visitor who sees the game alike.

The page's live regions (:data:`LIVE_REGIONS`: the status line, the board, the
rulings, the event log) are templates of their own, included by the page and rendered
here for the game socket's messages (:mod:`tournaments.consumers`), so that a
spectator's page swaps them in without fetching itself again, and the rules of what a
visitor sees stay in :func:`~tournaments.selectors.game_view_for`, never restated in
JavaScript.

What a region shows depends on the visitor only through what ``game_view_for``
decided: whether they see the game in full (its staff; everyone once it is over) or the
kind's public view, and which hidden players are masked for them. That is the
*audience* (:func:`audience_of`): every visitor with the same audience sees the same
regions, so they are rendered once per change, audience and language
(:func:`game_live_regions`, a small per-process cache), however many sockets listen.
What depends on the visitor's roles (the referee's link, "Score this game") stays
outside the regions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from games.engine import withdrawn_lines
from games.presenters import game_log_lines, game_view
from tournaments.selectors.games import VisibleGame

#: The game page's live regions: element id -> the template rendering it (whole, its
#: element included). The page includes them; ``data-live-regions`` names them.
LIVE_REGIONS: dict[str, str] = {
    "game-meta": "games/_game_meta.html",
    "replay-region": "games/_game_board.html",
    "game-rulings": "games/_game_rulings.html",
    "event-log": "games/_game_log.html",
}

#: Renderings kept per process: the latest of each game, audience and language watched.
CACHE_SIZE = 256

Audience = tuple[bool, tuple[tuple[str, str], ...]]


def game_page_context(*, shown: VisibleGame, at_error: str | None = None) -> dict[str, Any]:
    """What the game page (and its live regions) shows of ``shown`` (from
    :func:`~tournaments.selectors.game_view_for` with ``with_names``): the players, the
    table at the replay point ``shown.at``, the log as sentences. 1 query (the events),
    +1 for a game whose knocks were ruled on (in the rulings region)."""
    game, last, at = shown.game, shown.game.last_sequence, shown.at
    events = shown.events()
    # lines an undo took back (struck through in the log; the replay says so)
    withdrawn = withdrawn_lines([e.data for e in events])
    view = game_view(
        state=shown.state,
        names=shown.names,
        summary=shown.summary if at != last else None,
    )
    return {
        "game": game,
        "table": shown.table,
        "state": shown.state,
        "view": view,
        "events": events,
        "log": game_log_lines(
            kind=game.kind,
            events=events,
            summary=view.summary,
            names=shown.names,
            at=at,
            withdrawn=withdrawn,
        ),
        "replay": {
            "at": at,
            "last": last,
            "previous": max(1, at - 1),
            "next": min(last, at + 1),
            "error": at_error,
            "shown_in_full": shown.full,
            "withdrawn_by": withdrawn.get(at),
        },
    }


def audience_of(shown: VisibleGame) -> Audience:
    """Who sees the game alike: ``(full, masked)``, ``full`` the view
    :func:`~tournaments.selectors.game_view_for` chose (staff, or everyone once the game
    is over) and ``masked`` the hidden players shown under their neutral names (real
    handle -> neutral handle). Anonymous spectators are one audience, the game's staff
    another; a hidden player watching their own game is one of their own."""
    masked = getattr(shown.game, "privacy_names", None) or {}
    return shown.full, tuple(sorted(masked.items()))


class _Renderings:
    """The latest rendering of each (game, audience, language), with the game state it
    shows; the least recently used go first (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[Any, tuple[Any, dict[str, str]]] = OrderedDict()

    def get(self, key: Any, state: Any) -> dict[str, str] | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] != state:
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: Any, state: Any, regions: dict[str, str]) -> None:
        with self._lock:
            self._items[key] = (state, regions)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_renderings = _Renderings(CACHE_SIZE)


def render_live_regions(*, shown: VisibleGame, language: str) -> dict[str, str]:
    """The live regions of the game page as ``shown`` (at its last event, with names)
    shows them, in ``language``: element id -> its HTML (the element included), exactly
    as the page renders them. ``shown`` must have been read in ``language`` too (a
    hidden player's neutral name is translated)."""
    with translation.override(language):
        context = game_page_context(shown=shown)  # the log's sentences are translated
        return {
            region: render_to_string(template, context).strip()
            for region, template in LIVE_REGIONS.items()
        }


def game_live_regions(*, shown: VisibleGame, language: str) -> dict[str, str]:
    """:func:`render_live_regions`, rendered once per game state (last sequence, result
    version, status, last save), :func:`audience_of` and language in this process:
    every socket of one audience after one change gets the same rendering."""
    game = shown.game
    key = (game.pk, audience_of(shown), language)
    state = (game.last_sequence, game.result_version, game.status, game.updated_at)
    regions = _renderings.get(key, state)
    if regions is None:
        regions = render_live_regions(shown=shown, language=language)
        _renderings.put(key, state, regions)
    return regions


def forget_live_regions() -> None:
    """Drop this process's renderings (tests)."""
    _renderings.clear()


__all__ = [
    "LIVE_REGIONS",
    "audience_of",
    "forget_live_regions",
    "game_live_regions",
    "game_page_context",
    "render_live_regions",
]
