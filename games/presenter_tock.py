"""TOCK on the site's pages (:class:`TockPresenter`, registered for the kind ``"tock"``
through :func:`games.presenters.register_presenter`): each player's face-up discard and
face-down stock, the center, the face-down table, infractions and knocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.tock.rules import TRAVIESO
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
    score_template = "games/score/tock.html"

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

    # ------------------------------------------------------------------ the score page
    def score_panel(
        self,
        moves: Any,
        summary: Mapping[str, Any] | None,
        names: Names,
        button: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        pick: int | str | None = None,
        start: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The score page's play area (``games/score/tock.html``), every target one of
        the engine's moves (``moves``: :class:`games.scorekeeping.ScoreMoves`), arranged
        and never judged here:

        * ``expected``: the engine's legal moves when they all move one known card (the
          own top card that fits, a seeded or stock draw, a flip): one large button, or
          one per destination when the rules leave a choice (two center series, two
          players);
        * ``pad``: otherwise (a draw of a card named at the table) a key per card value
          1-21 carrying the legal move of that card when it has one destination, else
          ``choices`` (its destinations) opened by the key (``open``: the ``pick``);
          a value the engine does not offer (no such card left) is a dead key;
        * ``infractions``: the moves the mode records as infractions, grouped by what
          was done (played the top card, drew, flipped), behind "Something else";
        * ``knocks``: one target per player who may knock;
        * ``start``: before the first event, who begins."""
        player = _name(names, moves.turn) if moves.turn else ""

        def target(event: dict[str, Any], short: str | None = None) -> dict[str, Any]:
            made = button(event)
            made["short"] = short if short is not None else made["label"]
            return made

        panel: dict[str, Any] = {
            "start": [target(e, _name(names, e.get("first"))) for e in moves.start],
            "start_title": self.start_moves_title,
            "expected": [],
            "expected_title": "",
            "pad": [],
            "pad_title": "",
            "picking": False,
            "infractions": self._infraction_groups(moves.infractions, player, names, target),
            "knocks": [target(e, _name(names, e.get("player"))) for e in moves.table],
        }
        panel["infraction_count"] = len(moves.infractions)
        by_card: dict[Any, list[dict[str, Any]]] = {}
        for event in moves.legal:
            by_card.setdefault((event.get("type"), event.get("card")), []).append(event)
        if len(by_card) == 1:
            (((kind, card), events),) = by_card.items()
            if len(events) == 1:
                panel["expected"] = [{**target(events[0]), "expected": True}]  # Enter
            else:
                panel["expected_title"] = self._what(kind, card, player)
                panel["expected"] = [target(e, self._where_short(e, names)) for e in events]
        elif by_card:
            panel["pad_title"] = _("%(player)s draws: which card?") % {"player": player}
            for value in range(1, TRAVIESO + 1):
                events = [e for e in moves.legal if e.get("card") == value]
                key: dict[str, Any] = {"value": value, "button": None, "choices": []}
                if len(events) == 1:
                    key["button"] = target(events[0], str(value))
                    key["button"]["sub"] = self._where_hint(events[0], names)
                elif events:
                    key["title"] = self._what(events[0].get("type"), value, player)
                    key["choices"] = [target(e, self._where_short(e, names)) for e in events]
                    key["open"] = value == pick
                    panel["picking"] = panel["picking"] or key["open"]
                panel["pad"].append(key)
        return panel

    def _infraction_groups(
        self,
        events: list[dict[str, Any]],
        player: str,
        names: Names,
        target: Callable[..., dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """The infraction moves by what was done: played the top card (a group, its
        destinations), drew (one pad: a key per card and place, the place in small
        print as on the draw pad), flipped."""
        groups: dict[Any, dict[str, Any]] = {}
        for event in events:
            kind = event.get("type")
            if kind == "play":
                group = groups.setdefault(
                    ("play", event.get("card")),
                    {"title": self._what("play", event.get("card"), player), "buttons": []},
                )
                group["buttons"].append(target(event, self._where_short(event, names)))
            elif kind == "draw":
                group = groups.setdefault(
                    ("draw",),
                    {
                        "title": _("%(player)s draws: which card?") % {"player": player},
                        "buttons": [],
                        "cards": True,
                    },
                )
                made = target(event, card_label(event.get("card")))
                made["sub"] = self._where_hint(event, names)
                group["buttons"].append(made)
            else:
                group = groups.setdefault((kind,), {"title": "", "buttons": []})
                group["buttons"].append(target(event))
        return list(groups.values())

    @staticmethod
    def _what(kind: Any, card: Any, player: str) -> str:
        """ "Ann plays 13" / "Ann draws 13": a move's card without its destination."""
        text = _("%(player)s plays %(card)s") if kind == "play" else _("%(player)s draws %(card)s")
        return text % {"player": player, "card": card_label(card)}

    @staticmethod
    def _where_short(event: Mapping[str, Any], names: Names) -> str:
        """Where a move puts its card, in a word or two: the center (its series when
        several fit), a player, the own discard."""
        to = event.get("to")
        if to == "center":
            if isinstance(event.get("series"), int):
                return _("center series %(n)d") % {"n": event["series"] + 1}
            return _("center")
        if to == event.get("player"):
            return _("own discard")
        return _name(names, to)

    def _where_hint(self, event: Mapping[str, Any], names: Names) -> str:
        """A pad key's small print: where its card goes, unless onto the own discard
        (the common case, left blank so that the others stand out)."""
        if event.get("to") == event.get("player"):
            return ""
        return self._where_short(event, names)
