"""The two-step card pad of the score page (``games/score/cards.html``), shared by the
kinds played from a hand of cards (UNO, Casino) in a game whose cards the engine knows
(a seeded start).

A presenter arranges the engine's moves (:class:`games.scorekeeping.ScoreMoves`) into
*steps*, and judges none of them: every target is one of the engine's moves, made a tap
target by the page's ``button(event)`` (its JSON, words, idempotency key).

* ``keys`` (step 1): a key per colour or per card in hand. A key with one move records
  it (one tap); with several it opens its ``choices`` (step 2: the moves, each a
  target), in place with JavaScript (``data-pick``), without it through ``?pick=<id>``;
  a key with no move is shown dimmed (``off``: not a target) so that the keys keep
  their places;
* ``actions``: the moves that are not behind a key (draw, pass, challenge, deal, a
  colour), one tap each; ``expected``: the one move there is, large;
* ``table``: the moves others may make out of turn (UNO's catches), one tap each;
* ``infractions``: the moves the engine records as infractions, grouped, behind
  "Something else" (two taps).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

#: A key id (``?pick=``): the characters of colour and card codes, short.
KEY_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
KEY_ID_MAX = 8

Button = Callable[[dict[str, Any]], dict[str, Any]]


def valid_key_id(text: str) -> bool:
    """Whether ``text`` may be a key's id (what ``?pick=`` carries)."""
    return 0 < len(text) <= KEY_ID_MAX and all(c in KEY_ID_CHARS for c in text)


def target(
    button: Button,
    event: dict[str, Any],
    short: str | None = None,
    *,
    sub: str = "",
    cls: str = "",
    label: str | None = None,
) -> dict[str, Any]:
    """``event`` as a tap target: the page's button with its visible text ``short``
    (default: its whole sentence), small print ``sub``, more CSS classes ``cls`` and,
    when given, other words ``label`` (its accessible name)."""
    made = button(event)
    if label is not None:
        made["label"] = label
    made["short"] = short if short is not None else made["label"]
    made["sub"] = sub
    made["cls"] = cls
    return made


def step_key(
    key_id: str,
    events: list[dict[str, Any]],
    *,
    face: str,
    label: str,
    title: str,
    choice: Callable[[dict[str, Any]], dict[str, Any]],
    direct: Callable[[dict[str, Any]], dict[str, Any]],
    sub: str = "",
    css: str = "",
    pick: Any = None,
) -> dict[str, Any]:
    """One step-1 key. ``events``: the engine's moves behind it; ``face``: its visible
    text, ``label`` its words, ``title`` the heading of its choices; ``choice(event)``
    makes a step-2 target, ``direct(event)`` the key itself when it has one move;
    ``sub``: small print of a key that opens choices; ``pick``: the key the
    scorekeeper opened (``?pick=``)."""
    if not valid_key_id(key_id):
        raise ValueError(f"not a key id: {key_id!r}")
    key: dict[str, Any] = {
        "id": key_id,
        "face": face,
        "label": label,
        "title": title,
        "sub": sub,
        "css": css,
        "button": None,
        "choices": [],
        "open": False,
        "off": not events,
    }
    if len(events) == 1:
        key["button"] = direct(events[0])
    elif events:
        key["choices"] = [choice(e) for e in events]
        key["open"] = pick == key_id
    return key


def steps_panel(
    *,
    mini_template: str,
    keys: list[dict[str, Any]],
    keys_title: str = "",
    actions: Iterable[dict[str, Any]] = (),
    actions_title: str = "",
    expected: dict[str, Any] | None = None,
    table: Iterable[dict[str, Any]] = (),
    table_title: str = "",
    infractions: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    """What ``games/score/cards.html`` shows (see the module docstring); every list is
    of targets made by :func:`target`, ``infractions`` of groups ``{"title",
    "buttons"}``."""
    groups = [g for g in infractions if g.get("buttons")]
    if expected is not None:
        expected = {**expected, "expected": True}  # what Enter records
    shown_keys = keys if any(not k["off"] for k in keys) else []
    return {
        "mini_template": mini_template,
        "keys": shown_keys,
        "keys_title": keys_title if shown_keys else "",
        "actions": list(actions),
        "actions_title": actions_title,
        "expected": expected,
        "table": list(table),
        "table_title": table_title,
        "infractions": groups,
        "infraction_count": sum(len(g["buttons"]) for g in groups),
        "picking": any(k["open"] for k in shown_keys),
    }
