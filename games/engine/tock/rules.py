"""TOCK constants and pure helpers (see ``docs/rules/tock.md``)."""

from __future__ import annotations

import random

SERIES = 6  #: at most six series in the center
TOP = 20  #: a series is complete at 20
TRAVIESO = 21  #: El Travieso: fits only on another player's 20, never the center
DECK_SIZE = SERIES * TOP + 1  #: 121 active cards
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MODES = ("table", "strict")

#: The three TOCK infractions.
FORGOT_DISCARD = "forgot_discard"  # drawing (or flipping) while your top card fits somewhere
FORGOT_CENTER = "forgot_center"  # playing to another player a card that fits the center
WRONG_DISCARD = "wrong_discard"  # placing a drawn card that fits somewhere on your own discard
INFRACTIONS = (FORGOT_DISCARD, FORGOT_CENTER, WRONG_DISCARD)

END_REASONS = ("time", "adjudicated")


def sorted_deck() -> list[int]:
    """The 121 cards in their canonical order: series 1..20 six times, then the 21."""
    return list(range(1, TOP + 1)) * SERIES + [TRAVIESO]


def shuffled_deck(seed: int | str) -> list[int]:
    """The face-down table of a seeded game, in draw order.

    Exactly ``random.Random(seed).shuffle(deck)`` with ``deck = sorted_deck()``
    (CPython's Mersenne Twister; stable across Python 3 versions); the first draw
    of the game takes ``deck[0]``, the next ``deck[1]``, and so on.
    """
    deck = sorted_deck()
    random.Random(seed).shuffle(deck)
    return deck


def card_counts() -> list[int]:
    """Multiset of the full deck as counts indexed by card value (index 0 unused)."""
    return [0] + [SERIES] * TOP + [1]
