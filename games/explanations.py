"""The engine's explanation of a knock, in the request's language.

The engine (:func:`games.engine.knock_preview`) stays free of Django: it returns a
``code`` with its ``params`` and an English sentence. Here each code has one
translatable sentence (gettext), filled from the params; :func:`explain` is what the
API's ``explanation`` and the referee page show. A code the table does not know falls
back to the engine's English sentence (a newer engine never breaks a page).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SENTENCES: dict[str, Any] = {
    "forgot_discard": gettext_lazy(
        "%(player)s %(verb)s at event %(event)s although the top of their discard, "
        "%(card)s, %(place)s: forgot their own discard"
    ),
    "forgot_center": gettext_lazy(
        "%(player)s put %(card)s on %(to)s's discard at event %(event)s although it "
        "%(place)s: forgot the center"
    ),
    "wrong_discard": gettext_lazy(
        "%(player)s put the drawn %(card)s on their own discard at event %(event)s "
        "although it %(place)s: wrong discard"
    ),
    "clean_turn": gettext_lazy("%(player)s's turn had no infraction: %(knocker)s's knock is wrong"),
    "already_penalized": gettext_lazy(
        "%(player)s's infraction was already penalised on this turn: %(knocker)s's knock is wrong"
    ),
    "game_over": gettext_lazy("The game is over: no knock after the end."),
    "unknown_player": gettext_lazy("%(knocker)s does not play in this game."),
    "knocker_out": gettext_lazy("%(knocker)s has gone out and cannot knock."),
    "before_first_turn": gettext_lazy("No turn to knock on: the first turn has not begun."),
    "target_out": gettext_lazy("%(player)s has gone out; going out is final."),
    "own_turn": gettext_lazy("%(knocker)s cannot knock on their own turn."),
}

#: Verdicts as words.
VERDICTS = {
    "correct": gettext_lazy("Correct knock"),
    "incorrect": gettext_lazy("Wrong knock"),
    "invalid": gettext_lazy("Knock not allowed"),
}


def card_label(card: Any) -> str:
    if card == 21:
        return _("El Travieso")
    return str(card)


def _place(params: Mapping[str, Any]) -> str:
    target, card = params.get("target_player"), params.get("target_card")
    if target == "center":
        if card is None:
            return _("opened a new series in the center")
        return _("fitted on the center's %(card)s") % {"card": card_label(card)}
    if target is None:
        return _("fitted nowhere")
    return _("fitted on %(player)s's %(card)s") % {"player": target, "card": card_label(card)}


#: The params that name a player (shown under the page's names, see :func:`explain`).
PLAYER_PARAMS = ("player", "knocker", "target_player", "to")


def explain_one(
    code: str,
    params: Mapping[str, Any],
    sentence: str = "",
    names: Mapping[str, str] | None = None,
) -> str:
    """One engine code with its params as a sentence in the active language; ``names``
    (handle -> shown name) renames the players (``"center"`` is never a player)."""
    template = SENTENCES.get(code)
    if template is None:
        return sentence
    if names:
        params = {
            k: names.get(v, v) if k in PLAYER_PARAMS and v != "center" else v
            for k, v in params.items()
        }
    values = {k: v for k, v in params.items() if isinstance(v, str | int)}
    values.setdefault("player", "")
    values.setdefault("knocker", "")
    if "card" in params:
        values["card"] = card_label(params["card"])
    values["place"] = _place(params)
    values["verb"] = _("turned over their pile") if params.get("move") == "flip" else _("drew")
    try:
        return str(template) % values
    except (KeyError, ValueError, TypeError):  # a translation with a bad placeholder
        return sentence


def explain(preview: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """The whole explanation of a preview: its sentence and those of further
    infractions of the same turn, joined. ``names``: see :func:`explain_one`."""
    parts = [
        explain_one(
            preview["code"], preview.get("params") or {}, preview.get("sentence", ""), names
        )
    ]
    for more in preview.get("more") or ():
        parts.append(explain_one(more["code"], more["params"], more.get("sentence", ""), names))
    return "; ".join(parts)


def verdict_label(verdict: str) -> str:
    return str(VERDICTS.get(verdict, verdict))
