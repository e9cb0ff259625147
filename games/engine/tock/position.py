"""A TOCK position from what a table shows, and the engine's verdict on a knock there
(issue 22, "Referee verdicts at a table nobody recorded").

Most tables enter placements only, so a referee called to a disputed knock has no log.
What the table shows is enough for the verdict: the table as it was just before the
move the knock is about (the referee puts the card just moved back where it came
from): the center series' top cards, each player's face-up discard (its top card, its
bottom card -- the one a penalty moves -- and how many cards it holds), the face-down
cards each player and the table have left; then whose turn it is and that move, as the
log would write it. :func:`position_game` builds that game from the facts, checks
them, and pushes the move: the engine itself records the infraction, exactly as on a
recorded log. :func:`knock_from_position` then judges the
knock with the same code as a recorded log (:func:`.knock.judge_knock`): verdict,
explanation, penalty, who goes out.

The facts (plain JSON, the players by handle)::

    {"players": ["ann", "bob", "cy"],          # seat order, clockwise
     "center": [7, 20, 3],                     # each open series' top card, in opening order
     "piles": {"ann": {"top": 9, "bottom": 4, "count": 5}, "bob": {"count": 0}, ...},
     "stocks": {"ann": 0, "bob": 2, "cy": 0},  # face-down own cards
     "table": 31,                              # face-down cards left on the table
     "turn": "ann",                            # the player whose move is judged
     "action": {"type": "draw", "card": 8, "to": "ann"},   # the move, as the log writes it
     "penalized": false}                       # a correct knock already punished it

Checked, each with a one-line reason naming the rule: the players (2 to 6, distinct),
at most six series with tops 1 to 20, a pile's top and bottom cards (one card: the
same), no more than six of any number and one 21 among the cards in sight (the center
series hold every card up to their top), and every one of the 121 cards accounted for
(center, discards, stocks and table add up to 121). Cards in the middle of a discard
are not asked for: no verdict or penalty reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError, InvalidEvent
from .game import TockGame
from .knock import judge_knock
from .rules import DECK_SIZE, SERIES, TOP, TRAVIESO, card_counts

#: A card of a discard's middle, which nothing judged reads (cards are 1..21).
_HIDDEN = 0
_MOVES = ("play", "draw", "flip")


class PositionError(InvalidEvent):
    """The facts do not describe a TOCK position (a one-line reason naming the rule)."""


def _card(value: Any, what: str, *, allow_21: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{what} must be a card (a whole number), not {value!r}")
    top = TRAVIESO if allow_21 else TOP
    if not 1 <= value <= top:
        raise PositionError(f"{what} must be a card from 1 to {top}, not {value}")
    return value


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= DECK_SIZE:
        raise PositionError(f"{what} must be a number of cards from 0 to {DECK_SIZE}")
    return value


def check_facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    """The facts, checked and normalised (see the module); :class:`PositionError`."""
    if not isinstance(facts, Mapping):
        raise PositionError("the position must be an object")
    players = facts.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 6
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise PositionError("the players must be 2 to 6 distinct names in seat order")
    center = facts.get("center") or []
    if not isinstance(center, list) or len(center) > SERIES:
        raise PositionError(f"the center holds at most {SERIES} series")
    center = [_card(t, "a series' top card", allow_21=False) for t in center]
    piles_in = facts.get("piles") or {}
    stocks_in = facts.get("stocks") or {}
    if not isinstance(piles_in, Mapping) or not isinstance(stocks_in, Mapping):
        raise PositionError("piles and stocks are given per player")
    unknown = sorted((set(piles_in) | set(stocks_in)) - set(players))
    if unknown:
        raise PositionError(f"unknown player {unknown[0]!r} in the piles or stocks")
    piles: dict[str, dict[str, Any]] = {}
    for p in players:
        pile = piles_in.get(p) or {}
        if not isinstance(pile, Mapping):
            raise PositionError(f"{p}'s discard must be given as top, bottom and count")
        n = _count(pile.get("count", 0), f"{p}'s number of face-up cards")
        if n == 0:
            piles[p] = {"count": 0, "top": None, "bottoms": [], "cards": []}
            continue
        top = _card(pile.get("top"), f"{p}'s top card")
        # the bottom card (a penalty moves it), or the bottom cards, bottom first, as far
        # as a second penalty would reach
        given = pile.get("bottoms", [pile["bottom"]] if pile.get("bottom") is not None else [])
        if not isinstance(given, list):
            raise PositionError(f"{p}'s bottom cards must be a list, bottom first")
        bottoms = [_card(c, f"{p}'s bottom card") for c in given]
        if n == 1 and bottoms and bottoms[0] != top:
            raise PositionError(f"{p}'s discard holds one card: its top is its bottom")
        if n > 1 and not bottoms:
            raise PositionError(f"{p}'s bottom card is needed (a penalty moves it)")
        if len(bottoms) >= n:
            cards = bottoms[:n]
            if cards[-1] != top:
                raise PositionError(f"{p}'s discard holds {n} cards: the top is {cards[-1]}")
        else:
            cards = [*bottoms, *[_HIDDEN] * (n - len(bottoms) - 1), top]
        piles[p] = {
            "count": n,
            "top": top,
            "bottoms": bottoms[: n - 1] if n > 1 else [],
            "cards": cards,
        }
    stocks = {p: _count(stocks_in.get(p, 0), f"{p}'s face-down cards") for p in players}
    table = _count(facts.get("table", 0), "the face-down table cards")
    turn = facts.get("turn")
    if turn not in players:
        raise PositionError("whose turn it is must be one of the players")
    action = facts.get("action")
    if not isinstance(action, Mapping) or action.get("type") not in _MOVES:
        raise PositionError("what the player just did must be a play, a draw or a flip")
    action = {k: v for k, v in action.items() if k != "player"}
    if action["type"] != "flip":
        action["card"] = _card(action.get("card"), "the card moved")
    # the cards in sight: every card of each series up to its top, the discards' top and
    # bottom cards, the card just moved (a play's card is the top already)
    seen = [0] * (TRAVIESO + 1)
    for t in center:
        for v in range(1, t + 1):
            seen[v] += 1
    for pile in piles.values():
        for c in pile["cards"]:
            if c:
                seen[c] += 1
    if action["type"] == "draw" and table:
        seen[action["card"]] += 1  # the card drawn from the table (a stock's is not counted)
    limit = card_counts()
    for v in range(1, TRAVIESO + 1):
        if seen[v] > limit[v]:
            what = "El Travieso (21)" if v == TRAVIESO else f"{limit[v]} cards {v}"
            raise PositionError(f"the deck has only {what}, but {seen[v]} are in sight")
    total = sum(center) + sum(p["count"] for p in piles.values()) + sum(stocks.values()) + table
    if total != DECK_SIZE:
        raise PositionError(
            f"the cards add up to {total}, not {DECK_SIZE}: count the center, the discards, "
            "the stocks and the table again"
        )
    return {
        "players": list(players),
        "center": center,
        "piles": piles,
        "stocks": stocks,
        "table": table,
        "turn": turn,
        "action": action,
        "penalized": bool(facts.get("penalized")),
    }


def _game_before(facts: dict[str, Any]) -> TockGame:
    """The game just before the judged move (table mode, unseeded: draws name cards)."""
    players = facts["players"]
    me = players.index(facts["turn"])
    action = facts["action"]
    start = {"type": "start", "game": "tock", "players": players, "mode": "table"}
    state = TockGame.start(start).to_state()
    table = facts["table"]
    from_stock = action["type"] == "draw" and table == 0
    piles: list[list[int]] = []
    stocks: list[list[int]] = []
    counts = card_counts()
    for top in facts["center"]:
        for v in range(1, top + 1):
            counts[v] -= 1
    for p in players:
        cards = list(facts["piles"][p]["cards"])
        for c in cards:
            if c:
                counts[c] -= 1
        piles.append(cards)
        stock = [_HIDDEN] * facts["stocks"][p]
        if from_stock and p == facts["turn"] and stock:
            stock[-1] = action["card"]  # the stock's top: the card drawn
        stocks.append(stock)
    if action["type"] == "draw" and not from_stock:
        counts[action["card"]] = max(counts[action["card"]], 1)
    state.update(
        center=list(facts["center"]),
        piles=piles,
        stocks=stocks,
        counts=[max(c, 0) for c in counts],
        table=table,
        active=me,
        acted=False,
        # the previous player's turn is closed to knocks: the judged move opens this one
        prev_player=None,
        prev=[],
        events=1,
        turns=1,
    )
    state["in"] = [bool(facts["piles"][p]["count"] or facts["stocks"][p] or table) for p in players]
    if not state["in"][me]:
        raise PositionError(f"{facts['turn']} has no cards left and is out: no move to judge")
    return TockGame.from_state(state)


def position_game(facts: Mapping[str, Any]) -> tuple[TockGame, list[dict[str, Any]], dict]:
    """The game after the judged move (and after the knock that already penalised it,
    when ``penalized``), the lines that led there (a placeholder start line, then the
    move) and the positions around each line, for :func:`.knock.judge_knock`.
    :class:`PositionError` for facts that are no position, or a move the engine refuses
    there (its reason)."""
    checked = check_facts(facts)
    game = _game_before(checked)
    move = {"type": checked["action"]["type"], "player": checked["turn"]}
    move.update({k: v for k, v in checked["action"].items() if k != "type"})
    events: list[dict[str, Any]] = [{"type": "start"}]
    snapshots = {1: TockGame.from_state(game.to_state())}
    try:
        game.push(move)
        events.append(move)
        snapshots[2] = TockGame.from_state(game.to_state())
        if checked["penalized"]:
            other = next(p for p in checked["players"] if p != checked["turn"])
            game.push({"type": "tock", "player": other, "ruling": "correct"})
            events.append({"type": "tock", "player": other})
    except EngineError as exc:
        raise PositionError(f"the engine refuses that move here: {exc}") from None
    return game, events, snapshots


def knock_from_position(facts: Mapping[str, Any], by: Any) -> dict[str, Any]:
    """The engine's verdict on a knock by ``by`` in the table's position (see the
    module), in the shape of :func:`.knock.knock_preview`, plus ``"position"``: the
    checked facts (what a ruling stores). :class:`PositionError` as
    :func:`position_game`."""
    game, events, snapshots = position_game(facts)

    def around(line: int) -> tuple[TockGame, TockGame]:
        return snapshots[line - 1], snapshots[line]

    verdict = judge_knock(game, by, events=events, around=around)
    verdict["position"] = check_facts(facts)
    return verdict


def position_of(game: TockGame, action: Mapping[str, Any]) -> dict[str, Any]:
    """The facts of ``game``, the position just before ``action`` (its player's move):
    what a referee would enter (used by tests to judge the same point both ways). Cards
    of a discard's middle are left out."""
    names = list(game._names)
    piles = {}
    for p, pile in zip(names, game._piles, strict=True):
        n = len(pile)
        # two bottom cards: what a penalty and a second one would move
        piles[p] = {"count": n, "top": pile[-1] if n else None, "bottoms": list(pile[:2])}
    stocks = {p: len(s) for p, s in zip(names, game._stocks, strict=True)}
    return {
        "players": names,
        "center": list(game._center),
        "piles": piles,
        "stocks": stocks,
        "table": game._table,
        "turn": action["player"],
        "action": {k: v for k, v in action.items() if k != "player"},
        "penalized": False,
    }


def _judge_position(cls: type[TockGame], facts: Mapping[str, Any], by: Any) -> dict[str, Any]:
    """TOCK's ``Game.knock_from_position`` (see the base class)."""
    return knock_from_position(facts, by)


# TOCK's answer to the contract's ``knock_from_position``, set here (this module imports
# the game, so the game cannot import it back); ``games.engine.tock`` imports this module.
TockGame.knock_from_position = classmethod(_judge_position)  # type: ignore[method-assign,assignment]
