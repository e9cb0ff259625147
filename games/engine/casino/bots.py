"""Seeded Casino bots that play whole games to the target and return their logs.

The bots play legal moves of every kind (they choose among :meth:`CasinoGame.legal_moves`):
they capture greedily (the capture taking the most cards, several items at once when
they can, the casinos, aces and spades counting extra), but sometimes (``build``) build,
raise or call instead when they hold the value; without a capture they build, raise or
call when they can (``build`` of the time, more when it is all they may do) and trail
otherwise, their least useful card. The trail restriction is kept by the engine's
legal moves: a bot that built last turn captures, builds or calls.

Everything is deterministic for a given ``seed``: the cards are the seeded deals (the
seed is on the start line), the bots' choices come from
``random.Random("casino-bots:SEED")``. Every dealt card is named in the log (the
deals' ``hands`` and ``center``), so the log also replays without its seed.

As a safety net a game still running after ``max_events`` events is closed with
``{"type":"end","reason":"time"}`` (it does not happen with the default target).
"""

from __future__ import annotations

import random
from typing import Any

from ..common import bot_players, choice, logging_push
from ..errors import InvalidEvent
from .cards import BIG_CASINO, LITTLE_CASINO, RANK_OF, SUIT_OF, VALUE_OF
from .game import PLAY, CasinoGame

MAX_EVENTS = 20_000
DEFAULT_PLAYERS = ("ana", "ben", "cai", "dan")


def simulate(game: str = "casino", **options: Any) -> list[dict[str, Any]]:
    """Play one complete Casino game with bots; return its log (start event first).

    The options are :func:`simulate_game`'s.
    """
    return simulate_game(game, **options)[0]


def _worth(card: str) -> float:
    """How much a bot wants a card in its captured pile."""
    if card == BIG_CASINO:
        return 3.0
    if card == LITTLE_CASINO:
        return 2.5
    worth = 1.0
    if RANK_OF[card] == "A":
        worth += 1.0
    if SUIT_OF[card] == "S":
        worth += 0.3
    return worth


def simulate_game(
    game: str = "casino",
    players: list[str] | tuple[str, ...] | int = 4,
    seed: int = 0,
    target: int = 21,
    dealer: str | None = None,
    build: float = 0.3,
    max_events: int = MAX_EVENTS,
) -> tuple[list[dict[str, Any]], CasinoGame]:
    """Play one complete Casino game with bots; return its log (start event first) and
    the game as the bots left it (a test compares it with the log's replay).

    ``players`` is a list of names or a number of players (2-4, named ana, ben, ...);
    ``target`` and ``dealer`` go on the start line; ``build`` is the probability that a
    bot builds, raises or calls although it could capture (and, with no capture, the
    probability of trailing although it could build is ``1 - 2 * build``, at least 0).
    """
    players = bot_players(CasinoGame, game, players, DEFAULT_PLAYERS)
    if not 0.0 <= build <= 1.0:
        raise InvalidEvent("the bots' habits are probabilities between 0 and 1")
    start: dict[str, Any] = {"type": "start", "game": "casino", "players": list(players)}
    if dealer is not None:
        start["dealer"] = dealer
    if target != 21:
        start["target"] = target
    start["seed"] = seed
    g = CasinoGame.start(start)
    rng = random.Random(f"casino-bots:{seed}")
    log: list[dict[str, Any]] = [start]

    push = logging_push(g, log)

    while not g.is_over:
        if len(log) >= max_events:
            push({"type": "end", "reason": "time"})
            break
        if g._phase != PLAY:
            push({"type": "deal"})
            continue
        push(choose(g.legal_moves(), rng, build))
    return log, g


def choose(moves: list[dict[str, Any]], rng: random.Random, build: float) -> dict[str, Any]:
    """A bot's pick among ``moves`` (the legal moves of the player to move)."""
    captures = [m for m in moves if m["type"] == "capture"]
    makes = [m for m in moves if m["type"] in ("build", "call")]
    trails = [m for m in moves if m["type"] == "trail"]
    if makes and (not captures and not trails or rng.random() < build):
        return _best_make(makes, rng)
    if captures:
        return max(captures, key=lambda m: (_capture_worth(m), rng.random()))
    if makes and rng.random() >= 1 - 2 * build:
        return _best_make(makes, rng)
    if trails:
        return min(trails, key=lambda m: (_trail_cost(m["card"]), rng.random()))
    return choice(rng, moves)


def _capture_worth(move: dict[str, Any]) -> float:
    taken = [c for item in move["take"] if isinstance(item, list) for c in item]
    builds = sum(1 for item in move["take"] if isinstance(item, str))
    return _worth(move["card"]) + sum(_worth(c) for c in taken) + 2.5 * builds


def _best_make(makes: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Half the time any build, raise or call; otherwise one that gathers the most."""
    if rng.random() < 0.5:
        return choice(rng, makes)

    def size(m: dict[str, Any]) -> int:
        if m["type"] == "build":
            return len(m["with"])
        return sum(len(g) for g in m["groups"])

    return max(makes, key=lambda m: (size(m), rng.random()))


def _trail_cost(card: str) -> float:
    """Trail the card worth least: face cards and plain high numbers first."""
    value = VALUE_OF[card]
    return _worth(card) * 10 + (0 if value is None else 10 - value)
