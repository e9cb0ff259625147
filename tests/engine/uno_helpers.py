"""Helpers for the UNO engine tests: hand-written games, card by card."""

from __future__ import annotations

from collections import Counter
from typing import Any

import games.engine as engine
from games.engine.uno.cards import DECK_COUNTS
from games.engine.uno.game import UnoGame
from tests.engine.refusal import refused  # noqa: F401 (re-exported for the tests)


def new_game(players=("a", "b", "c"), **start: Any) -> UnoGame:
    return engine.start({"type": "start", "game": "uno", "players": list(players), **start})


def deal(g: UnoGame, up: list[str] | str, **hands: list[str]) -> None:
    """Deal the given hands (seven cards each; players not named get a filler hand of
    cards nobody else holds) and up cards."""
    up = [up] if isinstance(up, str) else up
    used = Counter(c for h in hands.values() for c in h) + Counter(up)
    left = DECK_COUNTS[g.deck] - used
    filler = iter(sorted(c for c in left.elements() if c[0] in "YB" and c[1] in "0123456789"))
    full = {
        p: list(hands[p]) if p in hands else [next(filler) for _ in range(7)] for p in g.players
    }
    g.push({"type": "deal", "hands": full, "up": up})


def pile(g: UnoGame) -> Counter[str]:
    """The draw pile of an unseeded hand, as the cards not in hands or discards."""
    s = g.summary()
    seen = Counter(c for h in s["hands"].values() for c in h) + Counter(g._discard)
    return DECK_COUNTS[g.deck] - seen


def draw(g: UnoGame, player: str, cards: list[str] | None = None) -> list[str]:
    """``player`` draws (the named cards, or the engine's suggestion); returns them."""
    if cards is None:
        moves = [m for m in g.legal_moves() if m["type"] == "draw" and m["player"] == player]
        assert moves, f"{player} may not draw now"
        cards = moves[0].get("cards", [])
    g.push({"type": "draw", "player": player, "cards": cards})
    return cards


def play(g: UnoGame, player: str, card: str, **extra: Any) -> None:
    g.push({"type": "play", "player": player, "card": card, **extra})
