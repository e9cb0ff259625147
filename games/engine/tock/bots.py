"""Seeded TOCK bots that play complete games and return their logs.

The bots play priority-correct moves. With ``mistakes > 0`` (mode ``table`` only) a bot
sometimes commits one of the three infractions where the position allows it; after
every event, with ``knocks > 0``, another bot may knock: rightly (probability ``knocks``
when an unpenalised infraction is pending) or wrongly (probability ``knocks / 10``
otherwise). One knock in ten carries a referee's ruling, which may contradict the
engine's verdict, so simulated logs exercise every rule.

Everything is deterministic for a given ``seed``: the table is shuffled from the seed
(written on the start line), the bots' choices come from ``random.Random("tock-bots:SEED")``.
Every draw names its card, so the log also replays without its seed.

Termination: stalemate (rule 3) ends cycling endgames; as a safety net a game still
running after ``max_events`` events is closed with ``{"type":"end","reason":"time"}``.
"""

from __future__ import annotations

import random
from typing import Any

from ..common import bot_players
from ..errors import InvalidEvent, shown
from .game import TockGame
from .rules import FORGOT_CENTER, FORGOT_DISCARD, MODES, WRONG_DISCARD

#: Safety cap on the length of a simulated game (an ``end`` event closes it).
MAX_EVENTS = 20_000
DEFAULT_PLAYERS = ("ana", "ben", "cai", "dan", "eva", "fer")


def simulate(
    game: str = "tock",
    players: list[str] | tuple[str, ...] | int = 4,
    seed: int = 0,
    mistakes: float = 0.0,
    knocks: float = 0.0,
    mode: str = "table",
    max_events: int = MAX_EVENTS,
    first: str | None = None,
) -> list[dict[str, Any]]:
    """Play one complete TOCK game with bots; return its log (start event first).

    ``players`` is a list of names or a number of players (named ana, ben, ...).
    Options: ``mistakes`` and ``knocks`` (probabilities, see the module docstring),
    ``mode`` (``"table"`` or ``"strict"``, which forbids mistakes), ``max_events``
    (the safety cap), ``first`` (the first player; default the first name).
    """
    players = bot_players(TockGame, game, players, DEFAULT_PLAYERS)
    if mode not in MODES:
        raise InvalidEvent(f"mode must be 'table' or 'strict', not {shown(mode)}")
    if not 0.0 <= mistakes <= 1.0 or not 0.0 <= knocks <= 1.0:
        raise InvalidEvent("mistakes and knocks are probabilities between 0 and 1")
    start = {
        "type": "start",
        "game": "tock",
        "players": list(players),
        "first": first if first is not None else players[0],
        "mode": mode,
        "seed": seed,
    }
    g = TockGame.start(start)
    log: list[dict[str, Any]] = [start]
    rng = random.Random(f"tock-bots:{seed}")
    if mode == "strict":
        mistakes = 0.0  # infractions are illegal moves in strict mode

    def push(event: dict[str, Any]) -> None:
        g.push(event)
        log.append(event)

    while not g.is_over:
        if len(log) >= max_events:
            push({"type": "end", "reason": "time"})
            break
        push(_bot_move(g, rng, mistakes))
        if knocks and not g.is_over:
            knock = _maybe_knock(g, rng, knocks)
            if knock is not None:
                push(knock)
    return log


def _bot_move(g: TockGame, rng: random.Random, mistakes: float) -> dict[str, Any]:
    """The active bot's next event; with probability ``mistakes`` it breaks a priority."""
    me = g._active
    assert me is not None
    name = g._names[me]
    mistake = mistakes > 0 and rng.random() < mistakes
    pile = g._piles[me]
    stock = g._stocks[me]
    if pile and g._fits(pile[-1], me):
        # A mistaken bot either forgets its discard (draws/flips anyway) or misplaces.
        if not (mistake and rng.random() < 0.5):
            card = pile[-1]
            dest = _dest(g, rng, card, me, mistake)
            return {"type": "play", "player": name, "card": card, **dest}
        mistake = False
    elif mistakes > 0:
        mistake = rng.random() < mistakes
    if g._table:
        card = g.next_table_card()
        if card is None:  # unseeded game: pick any face-down card
            counts = g._counts or []
            card = rng.choice([v for v, c in enumerate(counts) for _ in range(c)])
    elif stock:
        card = stock[-1]
    else:
        return {"type": "flip", "player": name}
    dest = _dest(g, rng, card, me, mistake, own=True)
    return {"type": "draw", "player": name, "card": card, **dest}


def _dest(
    g: TockGame, rng: random.Random, card: int, me: int, mistake: bool, own: bool = False
) -> dict[str, str]:
    """Where to put ``card``: center first, else another player, else own discard.

    A mistaken bot sends a center card to another player (forgot_center) or, for a
    drawn card, keeps a fitting card on its own discard (wrong_discard).
    """
    others = [
        g._names[p]
        for p, pile in enumerate(g._piles)
        if p != me and pile and abs(pile[-1] - card) == 1
    ]
    slot = g._center_slot(card)
    if mistake:
        if slot >= 0 and others and (not own or rng.random() < 0.5):
            return {"to": rng.choice(others)}  # forgot_center
        if own and (slot >= 0 or others):
            return {"to": g._names[me]}  # wrong_discard
    if slot >= 0:
        return {"to": "center"}
    if others:
        return {"to": rng.choice(others)}
    return {"to": g._names[me]}


def _maybe_knock(g: TockGame, rng: random.Random, knocks: float) -> dict[str, Any] | None:
    target = g.knock_target()
    if target is None:
        return None
    pending = bool(g.pending_infractions())
    if rng.random() >= (knocks if pending else knocks / 10):
        return None
    candidates = [p for p, i in zip(g._names, g._still_in, strict=True) if i and p != target]
    if not candidates:
        return None
    event: dict[str, Any] = {"type": "tock", "player": rng.choice(candidates)}
    if rng.random() < 0.1:
        event["ruling"] = rng.choice(("correct", "incorrect"))
        event["referee"] = "ref"
    return event


__all__ = ["simulate", "MAX_EVENTS", "FORGOT_CENTER", "FORGOT_DISCARD", "WRONG_DISCARD"]
