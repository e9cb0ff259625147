"""Hand-written TOCK logs for the seated table (ann, bob, cat, dan in seat order)."""

from __future__ import annotations

import games.engine as engine

HANDLES = ["ann", "bob", "cat", "dan"]


def draw(player, card, to):
    return {"type": "draw", "player": player, "card": card, "to": to}


START = {"type": "start", "game": "tock", "players": HANDLES, "mode": "table"}

#: ann's own top 6 fits bob's 7, yet she draws (event 6): forgot_discard
FORGOT_DISCARD = [
    START,
    draw("ann", 5, "ann"),
    draw("bob", 7, "bob"),
    draw("cat", 6, "ann"),
    draw("cat", 14, "cat"),
    draw("dan", 16, "dan"),
    draw("ann", 3, "ann"),
]
#: bob puts a 2 on ann's 3 although it fits the center's 1: forgot_center
FORGOT_CENTER = [START, draw("ann", 1, "center"), draw("ann", 3, "ann"), draw("bob", 2, "ann")]
#: dan puts a drawn 1 on his own discard: wrong_discard
WRONG_DISCARD = [
    START,
    draw("ann", 5, "ann"),
    draw("bob", 9, "bob"),
    draw("cat", 12, "cat"),
    draw("dan", 1, "dan"),
]
#: ann's turn was clean
CLEAN = [START, draw("ann", 5, "ann")]
BEFORE_FIRST_TURN = [START]


def went_out_prefix() -> list[dict]:
    """A prefix of a simulated game after which a knock is on a player who went out."""
    for seed in range(40):
        events = engine.simulate("tock", players=HANDLES, seed=seed)
        for i in range(len(events) - 1, 0, -1):
            prefix = events[:i]
            g = engine.replay(prefix)
            if g.status != "in_progress" or g.turn is None:
                continue
            pv = engine.knock_preview(prefix, g.turn, game=g)
            if pv["code"] == "target_out":
                return prefix
    raise AssertionError("no simulated game with a player going out mid-game")
