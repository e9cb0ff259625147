"""TOCK on the site's pages (:class:`TockPresenter`, registered for the kind ``"tock"``
through :func:`games.presenters.register_presenter`): each player's face-up discard and
face-down stock, the center, the face-down table, infractions and knocks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.presenters import (
    Names,
    Presenter,
    _name,
    card_label,
    describe_end,
    register_presenter,
)


@register_presenter("tock")
class TockPresenter(Presenter):
    """TOCK: each player's face-up discard (size and top card) and face-down stock; the
    center's six series, the face-down table, infractions and knocks in the detail."""

    columns = (gettext_lazy("Pile"), gettext_lazy("Top"), gettext_lazy("Stock"))
    detail_template = "games/kinds/tock.html"

    INFRACTIONS = {
        "forgot_discard": gettext_lazy("drew or flipped while their top card fitted somewhere"),
        "forgot_center": gettext_lazy("played to a player a card that fitted the center"),
        "wrong_discard": gettext_lazy("put a card that fitted somewhere on their own discard"),
    }

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        pile = (summary.get("piles") or {}).get(handle) or []
        stock = (summary.get("stocks") or {}).get(handle) or []
        return [len(pile), pile[-1] if pile else None, len(stock)]

    def table(self, summary: dict[str, Any], names: Names) -> dict[str, Any]:
        piles = summary.get("piles") or {}
        stocks = summary.get("stocks") or {}
        out = summary.get("out") or []
        turn = summary.get("turn")
        seats = []
        for handle in summary.get("players") or []:
            pile = piles.get(handle) or []
            seats.append(
                {
                    "handle": handle,
                    "name": _name(names, handle),
                    "pile": pile,
                    "top": pile[-1] if pile else None,
                    "stock": len(stocks.get(handle) or []),
                    "out": handle in out,
                    "to_move": handle == turn,
                }
            )
        center = list(summary.get("center") or [])
        return {
            "center": center,
            "center_open": list(range(max(0, 6 - len(center)))),
            "face_down": summary.get("table"),
            "seats": seats,
            "turn": _name(names, turn) if turn else None,
            "out": [_name(names, h) for h in out],
            "infractions": [
                {
                    "event": i.get("event"),
                    "player": _name(names, i.get("player")),
                    "kind": self.INFRACTIONS.get(i.get("kind"), i.get("kind")),
                    "penalized": bool(i.get("penalized")),
                }
                for i in summary.get("infractions") or []
            ],
            "knocks": [
                {
                    "event": k.get("event"),
                    "by": _name(names, k.get("by")),
                    "against": _name(names, k.get("against")),
                    "correct": bool(k.get("correct")),
                    "ruling": k.get("ruling"),
                }
                for k in summary.get("knocks") or []
            ],
            "end": summary.get("end"),
        }

    def describe(
        self,
        event: Mapping[str, Any],
        names: Names,
        *,
        sequence: int | None = None,
        knock_at: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> str:
        if not isinstance(event, Mapping):
            return str(event)
        kind = event.get("type")
        player = _name(names, event.get("player"))
        card = event.get("card")
        to = event.get("to")
        if kind in ("draw", "play"):
            if to == "center":
                where = _("to the center")
                if isinstance(event.get("series"), int):
                    where = _("to center series %(n)d") % {"n": event["series"] + 1}
            elif to == event.get("player"):
                where = _("onto their own discard")
            else:
                where = _("onto %(player)s") % {"player": _name(names, to)}
            if kind == "draw" and card is None:
                return _("%(player)s draws a card %(where)s") % {"player": player, "where": where}
            text = (
                _("%(player)s draws %(card)s %(where)s")
                if kind == "draw"
                else _("%(player)s plays %(card)s %(where)s")
            )
            return text % {"player": player, "card": card_label(card), "where": where}
        if kind == "flip":
            return _("%(player)s flips their discard") % {"player": player}
        if kind == "tock":
            knock = knock_at.get(sequence) if knock_at and sequence is not None else None
            if knock is not None:
                text = (
                    _("%(player)s knocks on %(against)s: correct")
                    if knock.get("correct")
                    else _("%(player)s knocks on %(against)s: wrong")
                ) % {"player": player, "against": _name(names, knock.get("against"))}
            else:
                text = _("%(player)s knocks") % {"player": player}
            if event.get("ruling") == "correct":
                text += " " + _("(ruled correct)")
            elif event.get("ruling") == "incorrect":
                text += " " + _("(ruled incorrect)")
            return text
        if kind == "end":
            return describe_end(event)
        if kind == "start":
            players = event.get("players")
            shown = ", ".join(_name(names, p) for p in players) if isinstance(players, list) else ""
            first = event.get("first")
            if not first and isinstance(players, list) and players:
                first = players[0]
            return _("The game starts: %(players)s; %(first)s begins") % {
                "players": shown,
                "first": _name(names, first),
            }
        return super().describe(event, names, sequence=sequence)

    def marks(self, summary: dict[str, Any], names: Names) -> dict[int, list[str]]:
        marks: dict[int, list[str]] = {}
        for i in summary.get("infractions") or []:
            text = _("Infraction by %(player)s: %(kind)s") % {
                "player": _name(names, i.get("player")),
                "kind": self.INFRACTIONS.get(i.get("kind"), i.get("kind")),
            }
            if not i.get("penalized"):
                text += " " + _("(nobody knocked)")
            marks.setdefault(i.get("event"), []).append(text)
        return marks
