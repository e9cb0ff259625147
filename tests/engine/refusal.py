"""The refusal check every kind's rule tests share."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import games.engine as engine


def refused(g: engine.Game, event: dict[str, Any], *words: str, kind=engine.IllegalMove) -> str:
    """Push ``event`` expecting a refusal of type ``kind`` whose one-line message names
    ``words``; the game must not change (``push`` is atomic). Returns the message."""
    before = copy.deepcopy(g.to_state())
    with pytest.raises(kind) as info:
        g.push(event)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    assert g.to_state() == before
    return message
