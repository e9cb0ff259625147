"""UNO cards: codes, the two decks, points and the seeded shuffles (``docs/rules/uno.en.md``).

A card is a short string: a colour ``R`` ``Y`` ``G`` ``B`` and a value ``0``-``9``,
``S`` (Skip), ``V`` (Reverse) or ``D`` (Draw Two); or a wild: ``W`` (Wild), ``W4``
(Wild Draw Four), ``WS`` (Wild Swap Hands), ``WC`` (blank customizable Wild, played as
a plain Wild). The colour of a card is its first letter when that is a colour; wilds
have none (their codes start with ``W``, which is no colour).
"""

from __future__ import annotations

import sys
from collections import Counter

COLORS = ("R", "Y", "G", "B")
VALUES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "D")
WILDS = ("W", "W4", "WS", "WC")
DECKS = ("classic", "2018")


def _canonical(deck: str) -> tuple[str, ...]:
    """The deck in its canonical order: colours R Y G B, each 0 once then 1-9, S, V, D
    twice each (``R0 R1 R1 R2 R2 ... RD RD``), then four ``W``, four ``W4`` and, in the
    2018 deck, one ``WS`` and three ``WC``."""
    cards: list[str] = []
    for color in COLORS:
        # (interned: every deck, table and hand holds one string object a code, so a
        # code is found in them by identity, without comparing characters)
        cards.append(sys.intern(color + "0"))
        for value in VALUES[1:]:
            cards += [sys.intern(color + value)] * 2
    cards += ["W"] * 4 + ["W4"] * 4
    if deck == "2018":
        cards += ["WS"] + ["WC"] * 3
    return tuple(cards)


#: The canonical order of each deck (what a seeded hand shuffles).
CANONICAL: dict[str, tuple[str, ...]] = {deck: _canonical(deck) for deck in DECKS}
#: Every card of each deck as a multiset.
DECK_COUNTS: dict[str, Counter[str]] = {deck: Counter(CANONICAL[deck]) for deck in DECKS}
#: Every card code (of the 2018 deck, which holds all of them).
ALL_CARDS: frozenset[str] = frozenset(CANONICAL["2018"])


def points(card: str) -> int:
    """A card's value in a hand's score: numbers at face value, S/V/D 20, W/W4 50,
    WS/WC 40."""
    return POINTS[card]


POINTS: dict[str, int] = {}
for _c in ALL_CARDS:
    if _c in ("W", "W4"):
        POINTS[_c] = 50
    elif _c in ("WS", "WC"):
        POINTS[_c] = 40
    elif _c[1].isdigit():
        POINTS[_c] = int(_c[1])
    else:
        POINTS[_c] = 20

#: The value of a whole deck: the largest possible score of one hand (1240, 1400).
DECK_VALUE: dict[str, int] = {deck: sum(POINTS[c] for c in CANONICAL[deck]) for deck in DECKS}

#: The colour of each card (``None`` for wilds).
COLOR_OF: dict[str, str | None] = {c: (c[0] if c[0] in COLORS else None) for c in ALL_CARDS}
#: The value/symbol of each coloured card (``None`` for wilds).
VALUE_OF: dict[str, str | None] = {c: (c[1] if c[0] in COLORS else None) for c in ALL_CARDS}


def is_wild(card: str) -> bool:
    return card[0] == "W"
