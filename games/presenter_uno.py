"""UNO on the site's pages: the table as a spectator sees it, cards in words, log
sentences and the score page's buttons (:class:`UnoPresenter`, registered for the kind
``"uno"`` through :func:`games.presenters.register_presenter`).

It reads the engine's UNO summary (``replay --json``: ``hand``, ``dealer``, ``turn``,
``direction``, ``top``, ``color``, ``hands``, ``draw_pile``, ``hand_results``,
``scores``, ``challenges``, ``catches``, ``placements``, ``end``). A spectator's
summary of a hand in progress has empty ``hands`` and ``hand_sizes`` instead (the
engine's ``public_summary``); the cards are shown only when the summary holds them
(staff, between hands, once the game is over).

Privacy of the log sentences: the cards a player is dealt or draws are not seen at the
table, so a sentence never names them (``"ben draws 2 cards"``); played and up cards are
public. The score page's buttons may name a drawn card (:meth:`UnoPresenter.move_label`):
only recorders see them, and they know the cards anyway.

Honest buttons (:meth:`UnoPresenter.button_moves`): for a game without a seed the
engine cannot know which cards are drawn, dealt or handed round by a swap. Its one-card
draws list every card the pile may give (each a button: a picker), but for a draw of
several cards and a Wild Swap Hands it proposes one possible set only: those are not
offered as buttons; the page says so and prefills its raw event box with the event to
complete (:meth:`UnoPresenter.raw_template`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.presenter_steps import step_key, steps_panel, target
from games.presenters import (
    Names,
    Presenter,
    _name,
    describe_dealt_start,
    describe_end,
    hand_sizes,
    register_presenter,
    totals_by_score,
)
from games.sheet import SheetForm, SheetRow

COLOR_NAMES = {
    "R": gettext_lazy("Red"),
    "Y": gettext_lazy("Yellow"),
    "G": gettext_lazy("Green"),
    "B": gettext_lazy("Blue"),
}
VALUE_NAMES = {
    "S": gettext_lazy("Skip"),
    "V": gettext_lazy("Reverse"),
    "D": gettext_lazy("Draw Two"),
}
WILD_NAMES = {
    "W": gettext_lazy("Wild"),
    "W4": gettext_lazy("Wild Draw Four"),
    "WS": gettext_lazy("Wild Swap Hands"),
    "WC": gettext_lazy("Wild (customizable)"),
}
#: What a card shows on its face (beside its number); its words are the aria-label.
SYMBOLS = {"S": "⊘", "V": "⇄", "D": "+2", "W": "W", "W4": "+4", "WS": "⇆", "WC": "W"}
#: CSS class suffix of each colour (``uno-card uno-red``...).
COLOR_CLASSES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
#: The score page's keys: the colours in this order, then the wilds; a colour's cards
#: by value in this order.
KEY_COLORS = ("R", "Y", "G", "B")
KEY_WILDS = ("W", "W4", "WS", "WC")
VALUE_ORDER = "0123456789SVD"


def color_name(color: Any) -> str:
    """``"G"`` -> ``"Green"`` (translated); anything else as it is."""
    return str(COLOR_NAMES.get(color, color)) if color is not None else ""


def uno_card_label(card: Any, color: Any = None) -> str:
    """A card in words: ``"R7"`` -> ``"Red 7"``, ``"GS"`` -> ``"Green Skip"``,
    ``"W4"`` -> ``"Wild Draw Four"``; with ``color`` (the colour a wild stands for):
    ``"Wild Draw Four (Green)"``. Unknown codes are returned as they are."""
    if not isinstance(card, str) or not card:
        return str(card)
    if card in WILD_NAMES:
        name = str(WILD_NAMES[card])
        if color in COLOR_NAMES:
            return _("%(wild)s (%(color)s)") % {"wild": name, "color": color_name(color)}
        return name
    if len(card) == 2 and card[0] in COLOR_NAMES:
        value = card[1]
        return _("%(color)s %(value)s") % {
            "color": color_name(card[0]),
            "value": str(VALUE_NAMES.get(value, value)),
        }
    return card


def uno_card(card: Any, color: Any = None) -> dict[str, Any]:
    """What the templates draw for one card: code, words and colour class (a wild with
    ``color`` takes that colour's class, a wild without one ``wild``)."""
    own = card[0] if isinstance(card, str) and card[:1] in COLOR_CLASSES else None
    shown = own or (color if color in COLOR_CLASSES else None)
    return {
        "code": card,
        "label": uno_card_label(card, None if own else color),
        "css": COLOR_CLASSES.get(shown, "wild"),
        "wild": own is None,
        "short": SYMBOLS.get(card[1:] if own else card, card[1:] if own else card)
        if isinstance(card, str)
        else str(card),
    }


def _cards_drawn(n: int) -> str:
    return ngettext("%(n)d card", "%(n)d cards", n) % {"n": n}


@register_presenter("uno")
class UnoPresenter(Presenter):
    """UNO: cards in hand and score per player; the table (top card, colour in force,
    direction, draw pile, hand number and dealer), the hands (their sizes in a
    spectator's view), results per hand, challenges and catches."""

    columns = (gettext_lazy("Cards"), gettext_lazy("Score"))
    detail_template = "games/kinds/uno.html"
    table_moves_title = gettext_lazy("Caught without UNO: who catches?")
    start_moves_title = gettext_lazy("Start the game (the cards are named as they are dealt)")

    # ------------------------------------------------------------------ the table
    @staticmethod
    def is_sheet(summary: Mapping[str, Any]) -> bool:
        """A score sheet (hand lines only): ``sheet`` given by the page (from the start
        event), else hands were scored but no card was ever up. (A full log before its
        first deal also has no top card, but no hand either.)"""
        if summary.get("sheet") is not None:
            return bool(summary.get("sheet"))
        return summary.get("top") is None and bool(summary.get("hand"))

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        score = (summary.get("scores") or {}).get(handle)
        if self.is_sheet(summary) or summary.get("top") is None:
            return [None, score]
        return [hand_sizes(summary).get(handle), score]

    def table(self, summary: dict[str, Any], names: Names) -> dict[str, Any]:
        players = list(summary.get("players") or [])
        hands = summary.get("hands") or {}
        sizes = hand_sizes(summary)
        scores = summary.get("scores") or {}
        turn = summary.get("turn")
        color = summary.get("color")
        top = summary.get("top")
        sheet = self.is_sheet(summary)
        hidden = isinstance(summary.get("hand_sizes"), Mapping)
        seats = [
            {
                "handle": h,
                "name": _name(names, h),
                "size": sizes.get(h, 0),
                "cards": [] if hidden else [uno_card(c) for c in hands.get(h) or []],
                "score": scores.get(h, 0),
                "to_move": h == turn,
                "dealer": h == summary.get("dealer"),
            }
            for h in players
        ]
        return {
            "sheet": sheet,
            "dealt": top is not None,
            "hand": summary.get("hand") or 0,
            "dealer": _name(names, summary.get("dealer")) if summary.get("dealer") else None,
            "turn": _name(names, turn) if turn else None,
            "direction": summary.get("direction"),
            "top": uno_card(top, color) if top is not None else None,
            "color": color,
            "color_name": color_name(color) if color else None,
            "color_css": COLOR_CLASSES.get(color, ""),
            "draw_pile": summary.get("draw_pile"),
            "hands_hidden": hidden,
            "seats": seats,
            "results": [
                {
                    "hand": r.get("hand"),
                    "winner": _name(names, r.get("winner")),
                    "points": r.get("points"),
                }
                for r in summary.get("hand_results") or []
            ],
            "totals": totals_by_score(seats),
            "challenges": [
                {
                    "event": c.get("event"),
                    "by": _name(names, c.get("by")),
                    "against": _name(names, c.get("against")),
                    "legal": bool(c.get("legal")),
                }
                for c in summary.get("challenges") or []
            ],
            "catches": [
                {
                    "event": c.get("event"),
                    "by": _name(names, c.get("by")),
                    "against": _name(names, c.get("against")),
                }
                for c in summary.get("catches") or []
            ],
            "end": summary.get("end"),
        }

    # ------------------------------------------------------------------ the log
    def verdicts(self, summary: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
        """Event number -> the challenge judged there (so its sentence can say whether
        the Wild Draw Four was legal)."""
        return {
            c["event"]: c
            for c in summary.get("challenges") or []
            if isinstance(c, Mapping) and isinstance(c.get("event"), int)
        }

    segment_opening = "deal"
    segment_results = "hand_results"

    def segment_sentence(self, result: Mapping[str, Any], names: Names) -> str:
        """The end of a hand played card by card: who won it and its points."""
        return _("Hand won by %(player)s: %(points)s points") % {
            "player": _name(names, result.get("winner")),
            "points": result.get("points"),
        }

    def describe(
        self,
        event: Mapping[str, Any],
        names: Names,
        *,
        sequence: int | None = None,
        knock_at: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> str:
        """One UNO event as a sentence; never names a card dealt or drawn (see the
        module docstring). ``knock_at``: event number -> the challenge judged there."""
        if not isinstance(event, Mapping):
            return str(event)
        kind = event.get("type")
        player = _name(names, event.get("player"))
        if kind == "start":
            return self._describe_start(event, names)
        if kind == "deal":
            up = event.get("up")
            if isinstance(up, list) and up:
                text = _("A new hand is dealt; the up card is %(card)s") % {
                    "card": uno_card_label(up[-1])
                }
                if len(up) > 1:
                    text += " " + ngettext(
                        "(a Wild Draw Four was turned first and returned to the pile)",
                        "(%(n)d Wild Draw Fours were turned first and returned to the pile)",
                        len(up) - 1,
                    ) % {"n": len(up) - 1}
                return text
            return _("A new hand is dealt")
        if kind == "color":
            return _("%(player)s chooses %(color)s") % {
                "player": player,
                "color": color_name(event.get("color")),
            }
        if kind == "play":
            card = event.get("card")
            text = _("%(player)s plays %(card)s") % {
                "player": player,
                "card": uno_card_label(card),
            }
            if event.get("color") is not None:
                text = _("%(play)s and chooses %(color)s") % {
                    "play": text,
                    "color": color_name(event.get("color")),
                }
            if card == "WS":
                text = _("%(play)s; the hands are swapped") % {"play": text}
            if event.get("uno") is True:
                text = _("%(play)s, calling UNO") % {"play": text}
            return text
        if kind == "draw":
            cards = event.get("cards")
            # A spectator's event says only how many (the engine's public_event).
            count = len(cards) if isinstance(cards, list) else event.get("_count")
            if not isinstance(count, int):
                return _("%(player)s draws") % {"player": player}
            if not count:
                return _("%(player)s draws no card (both piles are empty)") % {"player": player}
            if count == 1:
                return _("%(player)s draws a card") % {"player": player}
            return _("%(player)s draws %(cards)s") % {
                "player": player,
                "cards": _cards_drawn(count),
            }
        if kind == "pass":
            return _("%(player)s keeps the drawn card and passes") % {"player": player}
        if kind == "challenge":
            judged = knock_at.get(sequence) if knock_at and sequence is not None else None
            if judged is None:
                return _("%(player)s challenges the Wild Draw Four") % {"player": player}
            against = _name(names, judged.get("against"))
            if judged.get("legal"):
                return _(
                    "%(player)s challenges %(against)s's Wild Draw Four: it was legal "
                    "(%(player)s draws six)"
                ) % {"player": player, "against": against}
            return _(
                "%(player)s challenges %(against)s's Wild Draw Four: it was a bluff "
                "(%(against)s draws four)"
            ) % {"player": player, "against": against}
        if kind == "catch":
            return _("%(by)s catches %(against)s without UNO (%(against)s draws two)") % {
                "by": _name(names, event.get("by")),
                "against": _name(names, event.get("against")),
            }
        if kind == "hand":
            return _("Hand won by %(player)s: %(points)s points") % {
                "player": _name(names, event.get("winner")),
                "points": event.get("points"),
            }
        if kind == "end":
            return describe_end(event)
        return super().describe(event, names, sequence=sequence)

    def _describe_start(self, event: Mapping[str, Any], names: Names) -> str:
        notes = [_("(2018 deck)")] if event.get("deck") == "2018" else []
        return describe_dealt_start(event, names, target=500, notes=notes)

    # ------------------------------------------------------------------ the score page
    def move_label(self, event: Mapping[str, Any], names: Names) -> str:
        """A button's words: :meth:`describe`, but a one-card draw names the card
        (without a seed the button is the scorekeeper's pick of the card drawn) and a
        deal says what it does."""
        if (
            isinstance(event, Mapping)
            and event.get("type") == "draw"
            and isinstance(event.get("cards"), list)
            and len(event["cards"]) == 1
        ):
            return _("%(player)s draws %(card)s") % {
                "player": _name(names, event.get("player")),
                "card": uno_card_label(event["cards"][0]),
            }
        if isinstance(event, Mapping) and event.get("type") == "deal":
            up = event.get("up")
            if isinstance(up, list) and up:
                return _("Deal the next hand (the up card: %(card)s)") % {
                    "card": uno_card_label(up[-1])
                }
            return _("Deal the next hand (from the shuffled deck)")
        if isinstance(event, Mapping) and event.get("type") == "draw" and "cards" not in event:
            return _("%(player)s draws (the pile's next cards)") % {
                "player": _name(names, event.get("player")),
            }
        return self.describe(event, names)

    @staticmethod
    def _seeded(start: Mapping[str, Any] | None) -> bool:
        return isinstance(start, Mapping) and start.get("seed") is not None

    @staticmethod
    def _guessed(event: Mapping[str, Any], summary: Mapping[str, Any] | None, seeded: bool) -> bool:
        """A move whose cards the engine had to guess (only in a game without a seed): a
        draw of several named cards, a one-card draw from an empty draw pile (to be
        refilled from the discards, any of which may come), or a Wild Swap Hands with
        the hands after the swap. (A one-card draw from a pile that holds cards is
        offered once per card it may give: honest.)"""
        if seeded:
            return False
        if event.get("type") == "draw":
            cards = event.get("cards")
            if not isinstance(cards, list) or not cards:
                return False
            return len(cards) > 1 or (summary or {}).get("draw_pile") == 0
        return event.get("type") == "play" and "hands" in event

    def button_moves(
        self,
        events: list[dict[str, Any]],
        summary: Mapping[str, Any] | None = None,
        start: Mapping[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """The engine's moves that are honest as buttons (see the module docstring)."""
        seeded = self._seeded(start)
        return [e for e in events if not self._guessed(e, summary, seeded)]

    def sheet_form(self, players: Any, names: Names) -> SheetForm:
        """A hand's line: who went out (one tap on a player), then the points they
        scored from the others' cards (the pad)."""
        return SheetForm(
            base={"type": "hand"},
            title=_("Next hand"),
            rows=(
                SheetRow(
                    kind="choice",
                    name="winner",
                    label=_("Who went out?"),
                    path="winner",
                    options=tuple((h, names.get(h, h)) for h in players),
                ),
                SheetRow(
                    kind="number",
                    name="points",
                    label=_("Points scored (the others' cards)"),
                    path="points",
                ),
            ),
        )

    score_template = "games/score/cards.html"

    def score_panel(
        self,
        moves: Any,
        summary: Mapping[str, Any] | None,
        names: Names,
        button: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        pick: Any = None,
        start: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The card pad (:func:`uno_score_panel`) for a game whose cards the engine
        knows (its start has a ``seed``) once it has started; ``None`` (the generic
        page) for a game without a seed, a score sheet and before the start."""
        if not self._seeded(start) or (start or {}).get("sheet") is True or moves.start:
            return None
        return uno_score_panel(self, moves, names, button, pick)

    def raw_template(
        self,
        events: list[dict[str, Any]],
        players: list[str],
        *,
        start: Mapping[str, Any] | None,
        waiting: bool,
        summary: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The event a scorekeeper must complete by hand, when buttons cannot offer it:
        ``{"note": words, "event": JSON text}`` or ``None``. ``events``: the engine's
        legal moves; ``waiting``: no move offered at all, which for a running UNO game
        means a score sheet's next hand line or, without a seed, the next deal (the
        cards dealt must be named)."""
        seeded = self._seeded(start)
        guessed = [e for e in events if self._guessed(e, summary, seeded)]
        if guessed:
            first = guessed[0]
            if first.get("type") == "draw":
                n = len(first["cards"])
                skeleton = {"type": "draw", "player": first.get("player"), "cards": ["?"] * n}
                note = ngettext(
                    "No button can know the cards of a game without a seed. "
                    "Name the card drawn (codes like R7, GS, W4) in place of the question mark.",
                    "No button can know the cards of a game without a seed. "
                    "Name the %(n)d cards drawn (codes like R7, GS, W4) in place of the "
                    "question marks.",
                    n,
                ) % {"n": n}
            else:
                skeleton = {
                    "type": "play",
                    "player": first.get("player"),
                    "card": "WS",
                    "color": "?",
                    "hands": {p: [] for p in players},
                }
                note = _(
                    "No button can know the cards of a game without a seed. "
                    "A Wild Swap Hands: choose the colour (R, Y, G or B) and give every "
                    "player's cards after the swap."
                )
        elif waiting and start is not None and start.get("sheet") is True:
            skeleton = {"type": "hand", "winner": players[0] if players else "?", "points": 0}
            note = _(
                "A score sheet: give who went out (the winner's name) and the points they "
                "scored in that hand."
            )
        elif waiting and start is not None and start.get("seed") is None:
            skeleton = {"type": "deal", "hands": {p: [] for p in players}, "up": []}
            note = _(
                "No button can know the cards of a game without a seed. "
                "The next hand: give the seven cards dealt to each player and the up "
                "card (any Wild Draw Four turned first, then the card that stays up)."
            )
        else:
            return None
        return {"note": note, "event": json.dumps(skeleton, ensure_ascii=False)}


# ---------------------------------------------------------------------- the card pad
def _value_rank(card: Any) -> int:
    value = card[1:] if isinstance(card, str) else ""
    return VALUE_ORDER.index(value) if len(value) == 1 and value in VALUE_ORDER else 99


def uno_score_panel(
    presenter: UnoPresenter,
    moves: Any,
    names: Names,
    button: Callable[[dict[str, Any]], dict[str, Any]],
    pick: Any,
) -> dict[str, Any]:
    """The card pad of a seeded UNO game (``games/score/cards.html``, see
    :mod:`games.presenter_steps`): a key per colour (dimmed without a legal card), then
    one per wild in hand; a colour opens its legal cards by value, a wild the colour it
    is given; a key with one move records it. Draw, pass, challenge, a colour to
    choose, the deal: one tap each; catches one tap each; a play that forgets UNO under
    "Something else"."""
    player = _name(names, moves.turn) if moves.turn else ""
    plays = [e for e in moves.legal if e.get("type") == "play"]
    others = [e for e in moves.legal if e.get("type") != "play"]

    def uno_mark(event: Mapping[str, Any]) -> str:
        return _("UNO!") if event.get("uno") is True else ""

    def card_target(event: dict[str, Any], *, label: str | None = None) -> dict[str, Any]:
        card = event.get("card")
        color = event.get("color")
        if color in COLOR_CLASSES:  # a wild: the colour it is given
            return target(
                button,
                event,
                color_name(color),
                sub=uno_mark(event),
                cls=f"uno-key uno-{COLOR_CLASSES[color]}",
                label=label,
            )
        face = uno_card(card)
        return target(
            button,
            event,
            face["short"],
            sub=uno_mark(event),
            cls=f"uno-key uno-{face['css']}",
            label=label,
        )

    keys = []
    for color in KEY_COLORS:
        events = sorted(
            (
                e
                for e in plays
                if str(e.get("card", ""))[:1] == color and e.get("card") not in WILD_NAMES
            ),
            key=lambda e: _value_rank(e.get("card")),
        )
        name = color_name(color)

        def direct(event: dict[str, Any], name: str = name) -> dict[str, Any]:
            made = card_target(event)
            made["short"], made["sub"] = (
                name,
                " ".join(x for x in (uno_card(event.get("card"))["short"], uno_mark(event)) if x),
            )
            return made

        keys.append(
            step_key(
                color,
                events,
                face=name,
                label=_("%(player)s plays a %(color)s card: which?")
                % {"player": player, "color": name},
                title=_("%(player)s plays %(color)s:") % {"player": player, "color": name},
                choice=card_target,
                direct=direct,
                sub=" ".join(uno_card(e.get("card"))["short"] for e in events),
                css=f"uno-key uno-{COLOR_CLASSES[color]}",
                pick=pick,
            )
        )
    for wild in KEY_WILDS:
        events = [e for e in plays if e.get("card") == wild]
        if not events:
            continue
        name = str(WILD_NAMES[wild])
        keys.append(
            step_key(
                wild,
                events,
                face=name,
                label=_("%(player)s plays %(card)s: which colour?")
                % {"player": player, "card": name},
                title=_("%(player)s plays %(card)s: which colour?")
                % {"player": player, "card": name},
                choice=card_target,
                direct=card_target,
                sub="…",
                css="uno-key uno-wild",
                pick=pick,
            )
        )
    # a play no key takes (a card code the page does not know) is offered on its own
    keyed = {id(e) for k in keys for e in [*(c["event"] for c in k["choices"])]}
    keyed |= {id(k["button"]["event"]) for k in keys if k["button"] is not None}
    others = [*(e for e in plays if id(e) not in keyed), *others]

    actions, expected = [], None
    for event in others:
        kind = event.get("type")
        if kind == "color":
            color = event.get("color")
            made = target(
                button,
                event,
                color_name(color),
                cls=f"uno-key uno-{COLOR_CLASSES.get(color, 'wild')}",
            )
        elif kind == "draw":
            cards = event.get("cards")
            n = len(cards) if isinstance(cards, list) else 1
            made = target(
                button,
                event,
                _("Draw") if n == 1 else _("Draw %(n)d") % {"n": n},
                cls="uno-action",
            )
        elif kind == "pass":
            made = target(button, event, _("Pass"), cls="uno-action")
        elif kind == "challenge":
            made = target(button, event, _("Challenge"), cls="uno-action")
        else:  # the deal
            made = target(button, event, cls="uno-action")
        actions.append(made)
    if not plays and len(actions) == 1 and actions[0]["event"].get("type") != "color":
        expected = {**actions[0], "short": actions[0]["label"]}
        actions = []
    if any(e.get("type") == "color" for e in others):
        actions_title = _("%(player)s chooses the colour") % {"player": player}
    elif any(e.get("type") == "challenge" for e in others):
        actions_title = _("%(player)s: challenge the Wild Draw Four, or draw four?") % {
            "player": player
        }
    else:
        actions_title = ""

    table = [target(button, e, _name(names, e.get("by")), cls="knock") for e in moves.table]
    infractions = [
        {
            "title": _("Without calling UNO"),
            "buttons": [
                card_target(
                    e,
                    label=_("%(play)s, without calling UNO")
                    % {"play": presenter.move_label(e, names)},
                )
                for e in moves.infractions
                if e.get("type") == "play"
            ],
        },
        {
            "title": "",
            "buttons": [target(button, e) for e in moves.infractions if e.get("type") != "play"],
        },
    ]
    return steps_panel(
        mini_template="games/score/_uno_mini.html",
        keys=keys,
        keys_title=_("%(player)s plays: which colour?") % {"player": player},
        actions=actions,
        actions_title=actions_title,
        expected=expected,
        table=table,
        table_title=str(presenter.table_moves_title),
        infractions=infractions,
    )
