"""Seeded UNO bots that play whole games to the target and return their logs.

The bots play legal moves, with a few human habits so that simulated logs exercise
every rule: sometimes they draw although they hold a playable card (``draw_anyway``),
bluff a Wild Draw Four while holding the colour in force (``bluff``), challenge a Wild
Draw Four (``challenge``), forget to call UNO (``forget``) and catch a player who forgot
(``catch``). A drawn playable card is usually played, sometimes kept (``pass``).

Everything is deterministic for a given ``seed``: the cards are the seeded shuffles
(the seed is on the start line), the bots' choices come from
``random.Random("uno-bots:SEED")``. Every card that moves is named in the log (deals,
up cards, draws, swaps), so the log also replays without its seed.

As a safety net a game still running after ``max_events`` events is closed with
``{"type":"end","reason":"time"}`` (it does not happen with the default target).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..base import IN_PROGRESS
from ..common import bot_players, choice
from ..errors import InvalidEvent, shown
from .cards import COLOR_OF, COLORS, DECKS
from .game import COLOR, DRAWN, FACING_W4, IDLE, PENALTY, TURN, UnoGame

MAX_EVENTS = 200_000
#: The wild cards (no colour), which the bots keep for later when they can.
_WILDS = frozenset(c for c, color in COLOR_OF.items() if color is None)
DEFAULT_PLAYERS = ("ana", "ben", "cai", "dan", "eva", "fer", "gil", "hal", "ivo", "jon")


def simulate(game: str = "uno", **options: Any) -> list[dict[str, Any]]:
    """Play one complete UNO game with bots; return its log (start event first).

    The options are :func:`simulate_game`'s.
    """
    return simulate_game(game, **options)[0]


def simulate_game(
    game: str = "uno",
    players: list[str] | tuple[str, ...] | int = 4,
    seed: int = 0,
    deck: str = "classic",
    target: int = 500,
    dealer: str | None = None,
    draw_anyway: float = 0.05,
    bluff: float = 0.2,
    challenge: float = 0.3,
    forget: float = 0.1,
    catch: float = 0.7,
    max_events: int = MAX_EVENTS,
) -> tuple[list[dict[str, Any]], UnoGame]:
    """Play one complete UNO game with bots; return its log (start event first) and the
    game as the bots left it (a test compares it with the log's replay).

    ``players`` is a list of names or a number of players (2-10, named ana, ben, ...);
    ``deck`` (``"classic"`` or ``"2018"``), ``target`` and ``dealer`` go on the start
    line; the other options are the probabilities of the habits described above.
    """
    players = bot_players(UnoGame, game, players, DEFAULT_PLAYERS)
    if deck not in DECKS:
        raise InvalidEvent(f"deck must be 'classic' or '2018', not {shown(deck)}")
    for p in (draw_anyway, bluff, challenge, forget, catch):
        if not 0.0 <= p <= 1.0:
            raise InvalidEvent("the bots' habits are probabilities between 0 and 1")
    start: dict[str, Any] = {"type": "start", "game": "uno", "players": list(players)}
    if dealer is not None:
        start["dealer"] = dealer
    if deck != "classic":
        start["deck"] = deck
    if target != 500:
        start["target"] = target
    start["seed"] = seed
    g = UnoGame.start(start)
    rng = random.Random(f"uno-bots:{seed}")

    # The bots' moves are a generator that the game's own batch loop (``_run``, the
    # step push and push_many share: every check of the event and the rules is there)
    # consumes, applying and counting each event before the generator chooses the next:
    # no call an event to push it. The game's own log is the bots' log: each event, kept
    # by reference once applied, gets the cards named (one list to append to; the
    # caller gets a copy of it).
    log = g._log
    assert log is not None
    g._run(_moves(g, rng, log, max_events, draw_anyway, bluff, challenge, forget, catch))
    return list(log), g


def _moves(
    g: UnoGame,
    rng: random.Random,
    log: list[dict[str, Any]],
    max_events: int,
    draw_anyway: float,
    bluff: float,
    challenge: float,
    forget: float,
    catch: float,
) -> Iterator[dict[str, Any]]:
    """The bots' events, one at a time, each chosen once the one before is applied (the
    consumer is the game's ``_run``); after each, the event goes to ``log`` with the
    cards it named."""
    names = g.players
    random = rng.random
    playable = g.playable
    event: dict[str, Any]
    while g._status == IN_PROGRESS:
        phase = g._phase
        if g._events >= max_events:  # (the lines of the log so far)
            event = {"type": "end", "reason": "time"}
            yield event  # (the base class's type: _run hands it to Game._apply_shared)
            log.append(event)
            break
        # A player who forgot UNO may be caught by the very next event.
        elif g._catchable is not None and random() < catch:
            against = names[g._catchable]
            by = choice(rng, [q for q in names if q != against])
            event = {"type": "catch", "by": by, "against": against}
        elif g._catch_draw is not None:
            event = {"type": "draw", "player": names[g._catch_draw]}
        elif phase == IDLE:
            event = {"type": "deal"}
        else:
            me = g._active
            assert me is not None
            name = names[me]
            pick: str | None = None  # the card to play, if any
            if phase == TURN:  # a normal turn (the usual case: tested first)
                options = playable(me)
                if "W4" in options and not g.w4_is_legal(me) and random() >= bluff:
                    options.remove("W4")
                if not options or random() < draw_anyway:
                    event = {"type": "draw", "player": name}
                else:
                    # Prefer coloured cards (keep the wilds for later), as people do.
                    # (a hand without wilds to play, the usual case, needs no new list)
                    plain = (
                        options
                        if _WILDS.isdisjoint(options)
                        else [c for c in options if COLOR_OF[c] is not None]
                    )
                    pick = choice(rng, plain if plain and random() < 0.8 else options)
            elif phase == COLOR:
                event = {"type": "color", "player": name, "color": _best_color(g._hands[me], rng)}
            elif phase == PENALTY:
                event = {"type": "draw", "player": name}
            elif phase == FACING_W4:
                kind = "challenge" if random() < challenge else "draw"
                event = {"type": kind, "player": name}
            elif phase == DRAWN:
                drawn = g._drawn
                # (the drawn card is in the hand: it is playable if it matches)
                keep = drawn is None or not g.matches(drawn) or random() >= 0.9
                if not keep and (drawn != "W4" or g.w4_is_legal(me) or random() < bluff):
                    pick = drawn
                else:
                    event = {"type": "pass", "player": name}
            else:
                raise AssertionError(f"no bot move in phase {phase!r}")  # pragma: no cover
            if pick is not None:  # the play (inline: half the events are plays)
                event = {"type": "play", "player": name, "card": pick}
                hand = g._hands[me]
                if COLOR_OF[pick] is None:
                    rest = list(hand)
                    rest.remove(pick)
                    event["color"] = _best_color(rest, rng)
                # Call UNO when this play leaves one card (a swap: call it anyway, as it may).
                if (pick == "WS" or len(hand) == 2) and random() >= forget:
                    event["uno"] = True
        yield event  # applied and counted when the generator resumes
        log.append(event)
        if g._named_by is not None:  # the push named cards (a seeded deal, draw or swap)
            event.update(g._named)


def _best_color(hand: list[str], rng: random.Random) -> str:
    counts = {c: 0 for c in COLORS}
    for card in hand:
        color = COLOR_OF[card]
        if color is not None:
            counts[color] += 1
    best = max(counts.values())
    return choice(rng, [c for c in COLORS if counts[c] == best])
