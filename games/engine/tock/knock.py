"""What a knock made now would do: the engine's verdict, explained, and its penalty.

:func:`knock_preview` answers, for a knock (``{"type": "tock", "player": by}``) appended
at the end of a TOCK log, exactly what :meth:`TockGame.push` would do with it, without
changing anything. It does not judge the knock itself: it pushes the knock on a copy of
the game (``to_state``/``from_state``) and reads the verdict, the knocked player and the
penalty cards off the copy, so a preview can never disagree with the engine. What it adds
is the *why*: the infraction the engine recorded (kind, event, the card and where it
fitted, read from the position just before that event) or why the turn had none, or why
the engine refuses the knock.

The result is plain data, free of Django: a ``code`` with its ``params`` (for a
translated sentence on the site) and an English ``sentence`` (for the CLI and the API's
``reason``). Codes:

* ``correct``: the code is the first pending infraction's kind (``forgot_discard``,
  ``forgot_center``, ``wrong_discard``); ``more`` lists further infractions of the same
  turn (one move may hold two), each ``{"code", "params", "sentence"}``;
* ``incorrect``: ``clean_turn`` (the judged turn had no infraction) or
  ``already_penalized`` (its infractions were already penalised by an earlier knock);
* ``invalid`` (the engine refuses the knock; nothing would be stored): ``game_over``,
  ``unknown_player``, ``knocker_out``, ``before_first_turn``, ``target_out``,
  ``own_turn``.

``penalty`` lists the moving cards in the order they move: ``{"card", "from", "to"}``,
each card the bottom of ``from``'s discard, put under ``to``'s discard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import EngineError, InvalidEvent
from .game import TockGame
from .rules import FORGOT_CENTER, FORGOT_DISCARD, TRAVIESO, WRONG_DISCARD

CORRECT, INCORRECT, INVALID = "correct", "incorrect", "invalid"
#: Every code a preview can carry, by verdict.
CODES: dict[str, tuple[str, ...]] = {
    CORRECT: (FORGOT_DISCARD, FORGOT_CENTER, WRONG_DISCARD),
    INCORRECT: ("clean_turn", "already_penalized"),
    INVALID: (
        "game_over",
        "unknown_player",
        "knocker_out",
        "before_first_turn",
        "target_out",
        "own_turn",
    ),
}
_MOVES = ("play", "draw", "flip")


def card_name(card: int) -> str:
    """A card as the rules name it: its number; the 21 is El Travieso."""
    return "El Travieso" if card == TRAVIESO else str(card)


def knock_preview(
    events: Sequence[dict[str, Any]], by: Any, game: TockGame | None = None
) -> dict[str, Any]:
    """The engine's verdict on a knock by ``by`` appended after ``events`` (a TOCK log,
    start event first). ``game``: the game after ``events`` if the caller has it (else
    the log is replayed). Never raises for a log the engine accepts; raises
    :class:`InvalidEvent` for a log of another kind.

    Returns ``{"verdict", "against", "code", "params", "sentence", "more", "penalty",
    "goes_out"}``: ``against`` is the player whose turn is judged (``None`` when invalid),
    ``goes_out`` the players the penalty puts out (an empty table), in order.
    """
    events = list(events)
    if game is None:
        from ..log import replay

        game = replay(events)  # type: ignore[assignment]
    if not isinstance(game, TockGame):
        raise InvalidEvent("a knock preview needs a TOCK game")

    def around(line: int) -> tuple[TockGame, TockGame]:
        from ..log import replay

        before, after = replay(events[: line - 1]), replay(events[:line])
        assert isinstance(before, TockGame) and isinstance(after, TockGame)
        return before, after

    return judge_knock(game, by, events=events, around=around)


def judge_knock(
    game: TockGame,
    by: Any,
    *,
    events: Sequence[dict[str, Any]],
    around: Callable[[int], tuple[TockGame, TockGame]],
) -> dict[str, Any]:
    """The verdict on a knock by ``by`` in position ``game`` (see :func:`knock_preview`,
    whose answer this is): the knock is pushed on a copy and the verdict read off it.
    ``events``: the lines that led to ``game`` (1-based line ``n`` is ``events[n - 1]``;
    those before the first move the caller knows may be placeholders: only the moves
    since the last knock are read); ``around(line)``: the game just before and just
    after that line (to name an infraction: the card and where it fitted). The recorded
    log (:func:`knock_preview`) and the table's position
    (:func:`games.engine.tock.position.knock_from_position`) both judge here."""
    copy = TockGame.from_state(game.to_state())
    knock = {"type": "tock", "player": by}
    try:
        copy.push(knock)
    except EngineError as exc:
        return _invalid(game, by, str(exc))
    entry = copy._knocks[-1]
    target = entry["against"]
    if entry["correct"]:
        infractions = [_infraction(events, i, around) for i in game.pending_infractions()]
        first, more = infractions[0], infractions[1:]
        code, params, sentence = first["code"], first["params"], first["sentence"]
    else:
        more = []
        code = (
            "already_penalized" if _already_penalized(game, list(events), target) else "clean_turn"
        )
        params = {"player": target, "knocker": by}
        if code == "clean_turn":
            sentence = f"{target}'s turn had no infraction: {by}'s knock is wrong"
        else:
            sentence = (
                f"{target}'s infraction was already penalised on this turn: {by}'s knock is wrong"
            )
    return {
        "verdict": CORRECT if entry["correct"] else INCORRECT,
        "against": target,
        "code": code,
        "params": params,
        "sentence": sentence,
        "more": more,
        "penalty": _penalty(game, copy),
        "goes_out": [copy._names[p] for p in copy._out[len(game._out) :]],
    }


def _invalid(game: TockGame, by: Any, reason: str) -> dict[str, Any]:
    """Why the engine refused the knock, named by the checks of ``_on_tock`` in its order
    (``reason`` is the engine's own message, kept as the sentence)."""
    params: dict[str, Any] = {"knocker": by if isinstance(by, str) else repr(by)}
    idx = game._idx.get(by) if isinstance(by, str) else None
    target = game._active if game._acted else game._last_turn_player
    if game.status != "in_progress":
        code = "game_over"
    elif idx is None:
        code = "unknown_player"
    elif not game._still_in[idx]:
        code = "knocker_out"
    elif target is None:
        code = "before_first_turn"
    elif not game._still_in[target]:
        code, params["player"] = "target_out", game._names[target]
    else:
        code, params["player"] = "own_turn", game._names[target]
    return {
        "verdict": INVALID,
        "against": None,
        "code": code,
        "params": params,
        "sentence": reason,
        "more": [],
        "penalty": [],
        "goes_out": [],
    }


def _penalty(before: TockGame, after: TockGame) -> list[dict[str, Any]]:
    """The cards the knock moved, read off the two positions: the receiver's discard grew
    at the bottom (the last card received is the very bottom, so the cards were received
    in the reverse order of that prefix) and each giver lost its bottom card; givers give
    clockwise from the receiver's left."""
    names = before._names
    n = len(names)
    grew = [p for p in range(n) if len(after._piles[p]) > len(before._piles[p])]
    if not grew:
        return []
    (who,) = grew
    received = list(reversed(after._piles[who][: len(after._piles[who]) - len(before._piles[who])]))
    givers = [
        (who + step) % n
        for step in range(1, n)
        if len(after._piles[(who + step) % n]) < len(before._piles[(who + step) % n])
    ]
    moves = []
    for card, giver in zip(received, givers, strict=True):
        assert before._piles[giver][0] == card, "a penalty card is the giver's bottom card"
        moves.append({"card": card, "from": names[giver], "to": names[who]})
    return moves


def _already_penalized(game: TockGame, events: list[dict[str, Any]], target: str) -> bool:
    """Whether the judged turn's infractions were penalised by an earlier correct knock:
    the last knock was correct against ``target`` and nobody else has moved since."""
    if not game._knocks:
        return False
    last = game._knocks[-1]
    if not (last["correct"] and last["against"] == target):
        return False
    later = events[last["event"] :]
    return not any(e.get("type") in _MOVES and e.get("player") != target for e in later)


def _where(g: TockGame, card: int, me: int) -> dict[str, Any]:
    """Where ``card`` fitted in position ``g`` (``me``'s move): the center first (the
    series top it went on, ``None`` for a 1 opening a series), else the first other
    player whose discard it fitted, with their top card."""
    if g._center_slot(card) >= 0:
        return {"target_player": "center", "target_card": None if card == 1 else card - 1}
    seats = g._seats_taking(card, me)
    if seats:
        p = seats[0]
        return {"target_player": g._names[p], "target_card": g._piles[p][-1]}
    return {"target_player": None, "target_card": None}


def _place_phrase(where: dict[str, Any]) -> str:
    if where["target_player"] == "center":
        if where["target_card"] is None:
            return "opened a new series in the center"
        return f"fitted on the center's {card_name(where['target_card'])}"
    if where["target_player"] is None:
        return "fitted nowhere"
    return f"fitted on {where['target_player']}'s {card_name(where['target_card'])}"


def _infraction(
    events: Sequence[dict[str, Any]],
    infraction: dict[str, Any],
    around: Callable[[int], tuple[TockGame, TockGame]],
) -> dict[str, Any]:
    """Name one recorded infraction: the positions just before and after its event (its
    ``event`` is the 1-based log line, ``around``) give the card and where it fitted."""
    line = infraction["event"]
    before, after = around(line)
    ev = events[line - 1]
    player = infraction["player"]
    me = before._idx[player]
    kind = infraction["kind"]
    move = ev.get("type")
    params: dict[str, Any] = {"player": player, "event": line, "move": move}
    if kind == FORGOT_DISCARD:
        card = before._piles[me][-1]
        where = _where(before, card, me)
        verb = "turned over their pile" if move == "flip" else "drew"
        sentence = (
            f"{player} {verb} at event {line} although the top of their discard, "
            f"{card_name(card)}, {_place_phrase(where)}: forgot their own discard"
        )
    elif kind == WRONG_DISCARD:
        card = after._piles[me][-1]
        where = _where(before, card, me)
        sentence = (
            f"{player} put the drawn {card_name(card)} on their own discard at event {line} "
            f"although it {_place_phrase(where)}: wrong discard"
        )
    else:  # FORGOT_CENTER
        to = ev.get("to")
        dest = before._idx[to]
        card = after._piles[dest][-1]
        where = _where(before, card, me)
        params["to"] = to
        sentence = (
            f"{player} put {card_name(card)} on {to}'s discard at event {line} "
            f"although it {_place_phrase(where)}: forgot the center"
        )
    params.update(card=card, **where)
    return {"code": kind, "params": params, "sentence": sentence}
