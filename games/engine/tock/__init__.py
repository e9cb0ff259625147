"""TOCK: rules (:mod:`.rules`), game state (:mod:`.game`) and bots (:mod:`.bots`)."""

from .bots import simulate
from .game import TockGame

__all__ = ["TockGame", "simulate"]
