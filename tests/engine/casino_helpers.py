"""Helpers for the Casino engine tests: hand-written games, card by card."""

from __future__ import annotations

from typing import Any

import games.engine as engine
from games.engine.casino.cards import CANONICAL, VALUE_OF
from games.engine.casino.game import CasinoGame
from tests.engine.refusal import refused  # noqa: F401 (re-exported for the tests)


def new_game(players=("a", "b"), **start: Any) -> CasinoGame:
    return engine.start({"type": "start", "game": "casino", "players": list(players), **start})


def deal(g: CasinoGame, center: list[str] | None = None, **hands: list[str]) -> None:
    """Deal the given hands (four cards each) and, on a round's first deal, the center;
    players not named get a filler hand of cards nobody else holds this round (high
    cards first, so fillers rarely fit a sum)."""
    used = set(g._dealt) if g._phase == "deal" else set()
    used |= {c for h in hands.values() for c in h} | set(center or [])
    filler = iter(
        sorted(
            (c for c in CANONICAL if c not in used),
            key=lambda c: (-(VALUE_OF[c] or 11), c),
        )
    )
    full = {
        p: list(hands[p]) if p in hands else [next(filler) for _ in range(4)] for p in g.players
    }
    event: dict[str, Any] = {"type": "deal", "hands": full}
    if center is not None:
        event["center"] = center
    g.push(event)


def capture(g: CasinoGame, player: str, card: str, *take: Any) -> None:
    g.push({"type": "capture", "player": player, "card": card, "take": list(take)})


def build(g: CasinoGame, player: str, card: str, with_: list[str], value: int) -> None:
    g.push({"type": "build", "player": player, "card": card, "with": with_, "value": value})


def call(g: CasinoGame, player: str, card: str, groups: list[list[str]], value: int) -> None:
    g.push({"type": "call", "player": player, "card": card, "groups": groups, "value": value})


def trail(g: CasinoGame, player: str, card: str) -> None:
    g.push({"type": "trail", "player": player, "card": card})


def center(g: CasinoGame) -> dict[str, Any]:
    return g.summary()["center"]
