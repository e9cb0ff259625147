"""Casino: cards (:mod:`.cards`), the game (:mod:`.game`) and bots (:mod:`.bots`)."""

from .bots import simulate
from .game import CasinoGame

__all__ = ["CasinoGame", "simulate"]
