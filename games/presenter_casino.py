"""Casino on the site's pages: the table as a spectator sees it, cards in words, log
sentences and the score page's buttons (:class:`CasinoPresenter`, registered for the
kind ``"casino"`` through :func:`games.presenters.register_presenter`).

It reads the engine's Casino summary (``replay --json``: ``round``, ``dealer``,
``turn``, ``center`` with its loose ``cards`` and ``builds`` (``id``, ``value``,
``owner``, ``called``, ``cards``), ``hands``, ``captured``, ``last_capture``,
``round_scores``, ``scores``, ``placements``, ``end``). What a spectator of a game in
progress may see is decided before (the engine's ``public_summary`` and
``public_event``): the hands are shown only when the summary holds them, and a hand's
size comes from ``hand_sizes`` when the public view gives that instead.

Cards in words: ``"10D"`` -> ``"10 of Diamonds"``, ``"AS"`` -> ``"Ace of Spades"``;
on the table a card is its rank and suit symbol (``10♦``) drawn as a chip whose words
are its accessible name; the symbols tell the suits apart without colour (red suits
are also drawn with a double border).

Privacy of the log sentences: a deal never names the cards dealt to the players (only
the four face-up center cards of a round's first deal); every card played is public.

Honest buttons: every legal move of a player names only cards the engine knows (their
hand, the center), so all are offered. The deals of a game without a seed must name
the cards dealt: the page prefills its raw event box with the deal to complete, and a
score sheet's next round line (:meth:`CasinoPresenter.raw_template`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.casino import CasinoGame
from games.engine.casino.game import deals_per_round
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

RANK_NAMES = {
    "A": gettext_lazy("Ace"),
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
}
SUIT_NAMES = {
    "S": gettext_lazy("Spades"),
    "H": gettext_lazy("Hearts"),
    "D": gettext_lazy("Diamonds"),
    "C": gettext_lazy("Clubs"),
}
#: What a card shows beside its rank (its words are the accessible name).
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
#: The score categories of a round, in the order of the rules (key, words, short header).
CATEGORIES = (
    ("cards", gettext_lazy("Most cards"), gettext_lazy("Cards")),
    ("spades", gettext_lazy("Most spades"), "♠"),
    ("big_casino", gettext_lazy("Big casino (10 of Diamonds)"), "10♦"),
    ("little_casino", gettext_lazy("Little casino (2 of Spades)"), "2♠"),
    ("aces", gettext_lazy("Aces"), "A"),
)


def _split(card: Any) -> tuple[str, str] | None:
    """``"10D"`` -> ``("10", "D")``; ``None`` for anything that is not a card code."""
    if not isinstance(card, str) or len(card) < 2:
        return None
    rank, suit = card[:-1], card[-1]
    if suit not in SUIT_NAMES:
        return None
    if rank in RANK_NAMES or (rank.isdigit() and 2 <= int(rank) <= 10 and rank[0] != "0"):
        return rank, suit
    return None


def casino_card_label(card: Any) -> str:
    """A card in words: ``"10D"`` -> ``"10 of Diamonds"``, ``"AS"`` -> ``"Ace of
    Spades"``, ``"KC"`` -> ``"King of Clubs"`` (translated). Anything that is not a
    card code is returned as it is."""
    parts = _split(card)
    if parts is None:
        return str(card)
    rank, suit = parts
    return _("%(rank)s of %(suit)s") % {
        "rank": str(RANK_NAMES.get(rank, rank)),
        "suit": str(SUIT_NAMES[suit]),
    }


def casino_card(card: Any) -> dict[str, Any]:
    """What the templates draw for one card: its code, words, face (rank and suit
    symbol) and whether its suit is red."""
    parts = _split(card)
    if parts is None:
        return {"code": card, "label": str(card), "short": str(card), "red": False}
    rank, suit = parts
    return {
        "code": card,
        "label": casino_card_label(card),
        "short": f"{rank}{SUIT_SYMBOLS[suit]}",
        "red": suit in RED_SUITS,
    }


def _round_scored(points: Mapping[str, int], names: Names) -> str:
    """The sentence of a scored round, ``Round scored: Ann 6 points, Bob 3 points``
    (``points``: handle -> the round's points, in seat order)."""
    parts = [
        ngettext("%(player)s %(n)d point", "%(player)s %(n)d points", n)
        % {"player": _name(names, h), "n": n}
        for h, n in points.items()
    ]
    return _("Round scored: %(scores)s") % {"scores": ", ".join(parts)}


def _cards_words(cards: Sequence[Any]) -> str:
    """Loose cards as words joined by ``+`` (a group adding up to a value)."""
    return " + ".join(casino_card_label(c) for c in cards)


def _item_words(item: Any) -> str:
    """One item of a capture, build or call: a build id (``"build b2"``), a list of
    loose cards (``"3 of Clubs + 4 of Spades"``) or one card code."""
    if isinstance(item, str) and _split(item) is None:
        return _("build %(id)s") % {"id": item}
    if isinstance(item, list):
        return _cards_words(item)
    return casino_card_label(item)


def _items_words(items: Any) -> str:
    if not isinstance(items, list):
        return str(items)
    words = [_item_words(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


@register_presenter("casino")
class CasinoPresenter(Presenter):
    """Casino: cards captured this round and the total per player; the
    table (the center's loose cards and builds with their value, owner and whether
    they are called; the round, its dealer and whose turn), the hands (their sizes in
    a spectator's view), the scores of every finished round by category, the totals."""

    #: Two columns, so that the players table fits a phone; hand sizes are in the detail.
    columns = (gettext_lazy("Captured"), gettext_lazy("Score"))
    detail_template = "games/kinds/casino.html"
    start_moves_title = gettext_lazy("Start the game (the cards are named as they are dealt)")

    # ------------------------------------------------------------------ the table
    @staticmethod
    def is_sheet(summary: Mapping[str, Any]) -> bool:
        """A score sheet (round lines only): ``sheet`` given by the page (from the start
        event), else rounds were scored but no card was ever captured or dealt. (A full
        log between rounds keeps the finished round's captured counts; before its first
        deal it has no round score either.)"""
        if summary.get("sheet") is not None:
            return bool(summary.get("sheet"))
        captured = summary.get("captured") or {}
        return (
            bool(summary.get("round_scores"))
            and not any(captured.values())
            and not any(hand_sizes(summary).values())
            and not (summary.get("center") or {}).get("cards")
            and not (summary.get("center") or {}).get("builds")
        )

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        """Cards captured this round (none on a sheet or before the first deal), and
        the total score."""
        score = (summary.get("scores") or {}).get(handle)
        if self.is_sheet(summary) or not summary.get("round"):
            return [None, score]
        return [(summary.get("captured") or {}).get(handle), score]

    def table(self, summary: dict[str, Any], names: Names) -> dict[str, Any]:
        players = list(summary.get("players") or [])
        hands = summary.get("hands") or {}
        sizes = hand_sizes(summary)
        captured = summary.get("captured") or {}
        scores = summary.get("scores") or {}
        turn = summary.get("turn")
        center = summary.get("center") or {}
        hidden = isinstance(summary.get("hand_sizes"), Mapping) or (
            turn is not None and any(sizes.values()) and not any(hands.values())
        )
        seats = [
            {
                "handle": h,
                "name": _name(names, h),
                "size": sizes.get(h, 0),
                "cards": [] if hidden else [casino_card(c) for c in hands.get(h) or []],
                "captured": captured.get(h, 0),
                "score": scores.get(h, 0),
                "to_move": h == turn,
                "dealer": h == summary.get("dealer"),
                "last_capture": h == summary.get("last_capture"),
            }
            for h in players
        ]
        builds = [
            {
                "id": b.get("id"),
                "value": b.get("value"),
                "owner": _name(names, b.get("owner")),
                "owner_handle": b.get("owner"),
                "called": bool(b.get("called")),
                "cards": [casino_card(c) for c in b.get("cards") or []],
            }
            for b in center.get("builds") or []
            if isinstance(b, Mapping)
        ]
        rounds = []
        for number, line in enumerate(summary.get("round_scores") or [], start=1):
            if not isinstance(line, Mapping):
                continue
            rows = []
            for h in players:
                got = line.get(h) or {}
                rows.append(
                    {
                        "name": _name(names, h),
                        "handle": h,
                        "points": [got.get(key, 0) for key, _words, _short in CATEGORIES],
                        "total": got.get("total", sum(got.get(k, 0) for k, _w, _s in CATEGORIES)),
                    }
                )
            rounds.append({"number": number, "rows": rows})
        return {
            "sheet": self.is_sheet(summary),
            "dealt": bool(summary.get("round")),
            "round": summary.get("round") or 0,
            "dealer": _name(names, summary.get("dealer")) if summary.get("dealer") else None,
            "turn": _name(names, turn) if turn else None,
            "last_capture": _name(names, summary.get("last_capture"))
            if summary.get("last_capture")
            else None,
            "loose": [casino_card(c) for c in center.get("cards") or []],
            "builds": builds,
            "hands_hidden": hidden,
            "seats": seats,
            "categories": [{"words": w, "short": s} for _k, w, s in CATEGORIES],
            "rounds": rounds,
            "totals": totals_by_score(seats),
            "end": summary.get("end"),
        }

    # ------------------------------------------------------------------ the log
    segment_opening = "deal"
    segment_results = "round_scores"

    def openings_per_segment(self, summary: Mapping[str, Any]) -> int:
        """A round opens with every ``deals_per_round`` deal (6, 4, 3 for 2, 3, 4)."""
        seated = len(summary.get("players") or ())
        if not CasinoGame.min_players <= seated <= CasinoGame.max_players:
            return 0
        return deals_per_round(seated)

    def segment_sentence(self, result: Mapping[str, Any], names: Names) -> str:
        """The end of a round played card by card: its points."""
        return _round_scored(
            {
                h: got.get("total", 0) if isinstance(got, Mapping) else 0
                for h, got in result.items()
            },
            names,
        )

    def describe(
        self,
        event: Mapping[str, Any],
        names: Names,
        *,
        sequence: int | None = None,
        knock_at: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> str:
        """One Casino event as a sentence; a deal never names a player's cards (see the
        module docstring)."""
        if not isinstance(event, Mapping):
            return str(event)
        kind = event.get("type")
        player = _name(names, event.get("player"))
        card = casino_card_label(event.get("card"))
        if kind == "start":
            return self._describe_start(event, names)
        if kind == "deal":
            center = event.get("center")
            if isinstance(center, list) and center:
                return _("A new round is dealt; the center: %(cards)s") % {
                    "cards": ", ".join(casino_card_label(c) for c in center)
                }
            return _("The next cards are dealt")
        if kind == "capture":
            return _("%(player)s plays %(card)s and captures %(items)s") % {
                "player": player,
                "card": card,
                "items": _items_words(event.get("take")),
            }
        if kind == "build":
            items = event.get("with")
            raises = isinstance(items, list) and any(
                isinstance(i, str) and _split(i) is None for i in items
            )
            text = (
                _("%(player)s raises %(items)s to %(value)s with %(card)s")
                if raises
                else _("%(player)s builds %(value)s: %(card)s on %(items)s")
            )
            return text % {
                "player": player,
                "card": card,
                "items": _items_words(items),
                "value": event.get("value"),
            }
        if kind == "call":
            groups = event.get("groups")
            shown = (
                "; ".join(
                    " + ".join(_item_words(x) for x in g) if isinstance(g, list) else _item_words(g)
                    for g in groups
                )
                if isinstance(groups, list)
                else str(groups)
            )
            return _("%(player)s calls %(value)s with %(card)s: %(groups)s") % {
                "player": player,
                "card": card,
                "value": event.get("value"),
                "groups": shown,
            }
        if kind == "trail":
            return _("%(player)s trails %(card)s (leaves it in the center)") % {
                "player": player,
                "card": card,
            }
        if kind == "round":
            scores = event.get("scores")
            if isinstance(scores, Mapping):
                return _round_scored(
                    {
                        h: sum(v for v in got.values() if isinstance(v, int))
                        if isinstance(got, Mapping)
                        else 0
                        for h, got in scores.items()
                    },
                    names,
                )
            return _("Round scored")
        if kind == "end":
            return describe_end(event)
        return super().describe(event, names, sequence=sequence)

    def _describe_start(self, event: Mapping[str, Any], names: Names) -> str:
        return describe_dealt_start(event, names, target=21)

    # ------------------------------------------------------------------ the score page
    def move_label(self, event: Mapping[str, Any], names: Names) -> str:
        """A button's words: :meth:`describe`, but a deal says what it does."""
        if isinstance(event, Mapping) and event.get("type") == "deal":
            center = event.get("center")
            if isinstance(center, list) and center:
                return _("Deal a new round (the center: %(cards)s)") % {
                    "cards": ", ".join(casino_card_label(c) for c in center)
                }
            return _("Deal the next cards")
        return self.describe(event, names)

    def sheet_form(self, players: Any, names: Names) -> SheetForm:
        """A round's line: who took each bonus (one tap each: most cards 3, most spades
        1, nobody on a tie; big casino 2 and little casino 1), then each player's aces."""
        who = tuple((h, names.get(h, h)) for h in players)
        anyone = who + (("", _("Tie")),)
        zero = {key: 0 for key, _words, _short in CATEGORIES}
        return SheetForm(
            base={"type": "round", "scores": {h: dict(zero) for h in players}},
            title=_("Next round"),
            counts_title=_("Aces (each player's)"),
            rows=(
                SheetRow(
                    "choice",
                    "cards",
                    _("Most cards (3)"),
                    "scores.{}.cards",
                    anyone,
                    3,
                    short=_("Cards 3"),
                ),
                SheetRow(
                    "choice",
                    "spades",
                    _("Most spades (1)"),
                    "scores.{}.spades",
                    anyone,
                    1,
                    short=_("♠ 1"),
                ),
                SheetRow(
                    "choice",
                    "big_casino",
                    _("Big casino, 10♦ (2)"),
                    "scores.{}.big_casino",
                    who,
                    2,
                    short=_("10♦ 2"),
                ),
                SheetRow(
                    "choice",
                    "little_casino",
                    _("Little casino, 2♠ (1)"),
                    "scores.{}.little_casino",
                    who,
                    1,
                    short=_("2♠ 1"),
                ),
                *(
                    SheetRow(
                        "choice",
                        f"aces-{i}",
                        names.get(h, h),
                        f"scores.{h}.aces",
                        tuple((str(n), str(n)) for n in range(5)),
                        compact=True,
                    )
                    for i, h in enumerate(players)
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
        """The card pad (:func:`casino_score_panel`) for a game whose cards the engine
        knows (its start has a ``seed``) once it has started; ``None`` (the generic
        page) for a game without a seed, a score sheet and before the start."""
        seeded = isinstance(start, Mapping) and start.get("seed") is not None
        if not seeded or start.get("sheet") is True or moves.start:  # type: ignore[union-attr]
            return None
        return casino_score_panel(self, moves, summary or {}, names, button, pick)

    def raw_template(
        self,
        events: list[dict[str, Any]],
        players: list[str],
        *,
        start: Mapping[str, Any] | None,
        waiting: bool,
        summary: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The event a scorekeeper must complete by hand when no button offers it: a
        score sheet's next round line, or (without a seed) the next deal with the cards
        dealt named; ``None`` otherwise."""
        if not waiting or start is None:
            return None
        if start.get("sheet") is True:
            skeleton: dict[str, Any] = {
                "type": "round",
                "scores": {
                    p: {"cards": 0, "spades": 0, "big_casino": 0, "little_casino": 0, "aces": 0}
                    for p in players
                },
            }
            note = _(
                "A score sheet: give each player's points of the round: cards (3 to the "
                "player with most cards, or nobody), spades (1 or nobody), big casino (2), "
                "little casino (1) and aces (one point each)."
            )
        elif start.get("seed") is None:
            skeleton = {"type": "deal", "hands": {p: [] for p in players}}
            note = _(
                "No button can know the cards of a game without a seed. "
                "The next deal: give the four cards dealt to each player (codes like 10D, "
                "AS, KC) and, for the first deal of a round, the four cards of the center."
            )
            if _round_over(summary or {}):
                skeleton["center"] = []
        else:
            return None
        return {"note": note, "event": json.dumps(skeleton, ensure_ascii=False)}


def _round_over(summary: Mapping[str, Any]) -> bool:
    """Whether the next deal starts a round (and so turns up the center's four):
    before the first deal, or once the round's last deal was played out (its scores
    are in ``round_scores``, one per finished round)."""
    if not summary.get("round"):
        return True
    return len(summary.get("round_scores") or []) >= int(summary.get("round") or 0)


# ---------------------------------------------------------------------- the card pad
def _short_item(item: Any, builds: Mapping[Any, Any]) -> str:
    """One item a move takes or builds on, short: a build (``build of 8``), loose
    cards added up (``2♦+3♣``), one card (``5♠``)."""
    if isinstance(item, str) and _split(item) is None:
        value = builds.get(item)
        return _("build of %(value)s") % {"value": value if value is not None else item}
    if isinstance(item, list):
        return "+".join(_short_item(i, builds) for i in item)
    return casino_card(item)["short"]


def casino_move_short(event: Mapping[str, Any], builds: Mapping[Any, Any]) -> str:
    """A move of the card being played, in a few words (a step-2 target's text): what
    it takes, builds, raises or calls, or that it trails."""
    kind = event.get("type")

    def items(key: str) -> str:
        got = event.get(key)
        return ", ".join(_short_item(i, builds) for i in got) if isinstance(got, list) else ""

    if kind == "capture":
        return _("Take %(items)s") % {"items": items("take")}
    if kind == "build":
        raw = event.get("with")
        raises = isinstance(raw, list) and any(
            isinstance(i, str) and _split(i) is None for i in raw
        )
        text = _("Raise %(items)s to %(value)s") if raises else _("Build %(value)s on %(items)s")
        return text % {"items": items("with"), "value": event.get("value")}
    if kind == "call":
        groups = event.get("groups")
        shown = (
            " | ".join(
                "+".join(_short_item(i, builds) for i in g) if isinstance(g, list) else str(g)
                for g in groups
            )
            if isinstance(groups, list)
            else ""
        )
        return _("Call %(value)s: %(groups)s") % {"value": event.get("value"), "groups": shown}
    if kind == "trail":
        return _("Trail")
    return str(kind)


def casino_score_panel(
    presenter: CasinoPresenter,
    moves: Any,
    summary: Mapping[str, Any],
    names: Names,
    button: Callable[[dict[str, Any]], dict[str, Any]],
    pick: Any,
) -> dict[str, Any]:
    """The card pad of a seeded Casino game (``games/score/cards.html``, see
    :mod:`games.presenter_steps`): a key per card in the hand of the player to move
    (dimmed when it has no legal move), opening that card's legal moves (a capture,
    build, raise or call described by the center items it takes or builds on, or the
    trail), or recording the card's one move at once; the deal one large target."""
    player = _name(names, moves.turn) if moves.turn else ""
    center = summary.get("center") or {}
    builds = {
        b.get("id"): b.get("value") for b in (center.get("builds") or []) if isinstance(b, Mapping)
    }
    with_card = [e for e in moves.legal if "card" in e]
    hand = list((summary.get("hands") or {}).get(moves.turn) or []) if moves.turn else []
    for event in with_card:  # (a hand not in the summary: the cards the moves play)
        if event["card"] not in hand:
            hand.append(event["card"])
    keys = []
    for card in hand:
        face = casino_card(card)
        if not isinstance(card, str) or face["code"] != card or face["short"] == str(card):
            continue  # not a card code (nothing to key it by)
        events = [e for e in with_card if e.get("card") == card]

        def short(event: dict[str, Any]) -> dict[str, Any]:
            return target(button, event, casino_move_short(event, builds), cls="casino-move")

        def direct(event: dict[str, Any], face: dict[str, Any] = face) -> dict[str, Any]:
            return target(
                button,
                event,
                face["short"],
                sub=casino_move_short(event, builds),
                cls="casino-key" + (" red" if face["red"] else ""),
            )

        keys.append(
            step_key(
                card,
                events,
                face=face["short"],
                label=_("%(player)s plays %(card)s: how?")
                % {"player": player, "card": face["label"]},
                title=_("%(player)s plays %(card)s:") % {"player": player, "card": face["short"]},
                choice=short,
                direct=direct,
                sub="…",
                css="casino-key" + (" red" if face["red"] else ""),
                pick=pick,
            )
        )
    keyed = {id(c["event"]) for k in keys for c in k["choices"]}
    keyed |= {id(k["button"]["event"]) for k in keys if k["button"] is not None}
    actions = [target(button, e) for e in moves.legal if id(e) not in keyed]
    expected = None
    if not keyed and len(actions) == 1:
        expected, actions = actions[0], []
    return steps_panel(
        mini_template="games/score/_casino_mini.html",
        keys=keys,
        keys_title=_("%(player)s plays: which card?") % {"player": player},
        actions=actions,
        expected=expected,
        table=[target(button, e) for e in moves.table],
        table_title=str(presenter.table_moves_title),
        infractions=[{"title": "", "buttons": [target(button, e) for e in moves.infractions]}],
    )
