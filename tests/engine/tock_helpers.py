"""Helpers for hand-written TOCK logs and crafted positions."""

from __future__ import annotations

from typing import Any

import games.engine as engine
from games.engine import jsonio
from games.engine.tock.rules import card_counts

PLAYERS = ("ana", "ben", "cai")


def start_event(players=PLAYERS, mode: str = "table", first: str | None = None, **kw) -> dict:
    ev = {"type": "start", "game": "tock", "players": list(players), "mode": mode}
    if first is not None:
        ev["first"] = first
    ev.update(kw)
    return ev


def draw(player: str, card: int | None, to: str, **kw: Any) -> dict:
    ev: dict[str, Any] = {"type": "draw", "player": player, "to": to}
    if card is not None:
        ev["card"] = card
    ev.update(kw)
    return ev


def play(player: str, card: int, to: str, **kw: Any) -> dict:
    return {"type": "play", "player": player, "card": card, "to": to, **kw}


def flip(player: str) -> dict:
    return {"type": "flip", "player": player}


def tock(player: str, **kw: Any) -> dict:
    return {"type": "tock", "player": player, **kw}


def to_text(events: list[dict]) -> str:
    return "".join(jsonio.dumps(e) + "\n" for e in events)


def run(*events: dict, players=PLAYERS, mode: str = "table", first: str | None = None):
    """Replay a hand-written log (through the JSON Lines parser) and return the game."""
    log = [start_event(players, mode, first), *events]
    return engine.replay_text(to_text(log))


def position(
    piles: dict[str, list[int]],
    stocks: dict[str, list[int]] | None = None,
    center: list[int] | None = None,
    active: str | None = None,
    mode: str = "table",
):
    """A crafted position (via to_state/restore). The table holds every card not placed,
    so the 121 cards stay accounted for; place them all for an empty table."""
    players = list(piles)
    g = engine.start(start_event(players, mode, active or players[0]))
    st = g.to_state()
    stocks = stocks or {}
    center = center or []
    counts = card_counts()
    for series_top in center:
        for v in range(1, series_top + 1):
            counts[v] -= 1
    for p in players:
        for v in piles[p] + stocks.get(p, []):
            counts[v] -= 1
    assert min(counts) >= 0, "more copies of a card than the deck holds"
    st["counts"] = counts
    st["table"] = sum(counts)
    st["center"] = list(center)
    st["piles"] = [list(piles[p]) for p in players]
    st["stocks"] = [list(stocks.get(p, [])) for p in players]
    return engine.restore(st)


def total_cards(g) -> int:
    s = g.summary()
    return (
        s["table"]
        + sum(s["center"])
        + sum(len(p) for p in s["piles"].values())
        + sum(len(p) for p in s["stocks"].values())
    )
