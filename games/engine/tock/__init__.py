"""TOCK: rules (:mod:`.rules`), game state (:mod:`.game`), bots (:mod:`.bots`), the knock's
verdict (:mod:`.knock`) and the position a table shows (:mod:`.position`, which also
gives :class:`TockGame` its ``knock_from_position``)."""

from . import position as _position  # noqa: F401  (wires TockGame.knock_from_position)
from .bots import simulate
from .game import TockGame

__all__ = ["TockGame", "simulate"]
