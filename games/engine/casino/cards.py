"""Casino cards: codes, values, the canonical order and the seeded round decks.

A card is a short string, rank then suit: ranks ``A`` ``2``-``10`` ``J`` ``Q`` ``K``,
suits ``S`` (spades) ``H`` ``D`` ``C``, e.g. ``10D``, ``2S``, ``AH``, ``KC``. An ace
counts 1 and a number card its face value; jacks, queens and kings have no value
(``None``): they only capture by pairing and are never part of a sum, a build or a call.
"""

from __future__ import annotations

from ..common import round_rng, shuffle

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACES = ("J", "Q", "K")

#: The 52 cards in canonical order: suits S H D C, ranks A to K within each suit
#: (``AS 2S ... KS AH ... KC``). A seeded round shuffles this order.
CANONICAL: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
ALL_CARDS: frozenset[str] = frozenset(CANONICAL)

#: Rank and suit of every card.
RANK_OF: dict[str, str] = {c: c[:-1] for c in CANONICAL}
SUIT_OF: dict[str, str] = {c: c[-1] for c in CANONICAL}
#: The number of every card: ace 1, number cards their face value, face cards ``None``.
VALUE_OF: dict[str, int | None] = {
    c: (None if RANK_OF[c] in FACES else RANKS.index(RANK_OF[c]) + 1) for c in CANONICAL
}
#: Sort key "by value then suit S H D C" (face cards after the tens, J Q K).
SORT_KEY: dict[str, tuple[int, int]] = {
    c: (RANKS.index(RANK_OF[c]), SUITS.index(SUIT_OF[c])) for c in CANONICAL
}

BIG_CASINO = "10D"
LITTLE_CASINO = "2S"


def round_deck(seed: int | str, round_no: int) -> list[str]:
    """The deck of round ``round_no`` (1-based) of a game seeded with ``seed``: the
    canonical order shuffled with the round's generator (:func:`~games.engine.common.round_rng`:
    ``random.Random(f"{seed}/{round_no}")``). Deals take cards from its front."""
    deck = list(CANONICAL)
    shuffle(round_rng(seed, round_no), deck)
    return deck


def sort_cards(cards: list[str]) -> list[str]:
    """``cards`` sorted by value then suit S H D C (how a build shows its cards)."""
    return sorted(cards, key=SORT_KEY.__getitem__)
