"""The shared game engine: pure Python, no Django (see ``docs/engine-api.md``).

Every game kind implements :class:`games.engine.base.Game`; a game is built from its
start event and driven by events (plain JSON objects), and its logs replay through
:func:`replay`. Game kinds register themselves in :mod:`games.engine.base`.
"""

from __future__ import annotations

# The import order is the registration order (game_kinds(), kind_choices()).
from . import tock as _tock  # noqa: F401  (registers the TOCK game kind)
from . import uno as _uno  # noqa: F401  (registers the UNO game kind)

from . import casino as _casino  # noqa: F401  # isort: skip  (registers Casino, third)
from .base import (
    FINISHED,
    IN_PROGRESS,
    STALEMATE,
    Game,
    Outcome,
    Status,
    Termination,
    game_class,
    game_kinds,
    kind_choices,
    register,
    register_simulator,
    restore,
    start,
    withdrawn_lines,
)
from .casino import CasinoGame
from .errors import EngineError, IllegalMove, InvalidEvent, InvalidPlacements, LogError
from .log import format_event, format_log, parse_log, replay, replay_text
from .simulate import simulate
from .tock import TockGame
from .tock.knock import knock_preview
from .uno import UnoGame

register_simulator("tock", _tock.simulate)
register_simulator("uno", _uno.simulate)
register_simulator("casino", _casino.simulate)

#: Game kinds the engine knows, in registration order.
GAME_KINDS: tuple[str, ...] = game_kinds()

__all__ = [
    "FINISHED",
    "GAME_KINDS",
    "IN_PROGRESS",
    "STALEMATE",
    "CasinoGame",
    "EngineError",
    "Game",
    "IllegalMove",
    "InvalidEvent",
    "InvalidPlacements",
    "LogError",
    "Outcome",
    "Status",
    "Termination",
    "TockGame",
    "UnoGame",
    "format_event",
    "format_log",
    "game_class",
    "game_kinds",
    "kind_choices",
    "knock_preview",
    "parse_log",
    "register",
    "register_simulator",
    "replay",
    "replay_text",
    "restore",
    "simulate",
    "start",
    "withdrawn_lines",
]
