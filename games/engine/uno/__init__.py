"""UNO: cards and decks (:mod:`.cards`), the game (:mod:`.game`) and bots (:mod:`.bots`)."""

from .bots import simulate
from .game import UnoGame

__all__ = ["UnoGame", "simulate"]
