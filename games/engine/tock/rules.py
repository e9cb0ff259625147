"""TOCK constants and pure helpers (see ``docs/rules/tock.md``)."""

from __future__ import annotations

import random

from ..common import fast_shuffle

SERIES = 6  #: at most six series in the center
TOP = 20  #: a series is complete at 20
TRAVIESO = 21  #: El Travieso: fits only on another player's 20, never the center
DECK_SIZE = SERIES * TOP + 1  #: 121 active cards
MODES = ("table", "strict")

#: The three TOCK infractions.
FORGOT_DISCARD = "forgot_discard"  # drawing (or flipping) while your top card fits somewhere
FORGOT_CENTER = "forgot_center"  # playing to another player a card that fits the center
WRONG_DISCARD = "wrong_discard"  # placing a drawn card that fits somewhere on your own discard
INFRACTIONS = (FORGOT_DISCARD, FORGOT_CENTER, WRONG_DISCARD)


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
    _shuffle(random.Random(seed), deck)
    return deck


#: ``rng.shuffle(deck)`` with the same random draws, ``Random._randbelow`` inlined (the
#: shuffle every seeded kind shares: :func:`games.engine.common.fast_shuffle`).
_fast_shuffle = fast_shuffle


def _reference_shuffle(rng: random.Random, deck: list[int]) -> None:
    rng.shuffle(deck)


def _same_as_random_shuffle() -> bool:
    for seed in (0, 1, 7, 2**40 + 3, "tock", ""):
        fast, ref = sorted_deck(), sorted_deck()
        _fast_shuffle(random.Random(seed), fast)
        random.Random(seed).shuffle(ref)
        if fast != ref:  # pragma: no cover - a Python whose Random.shuffle differs
            return False
    return True


#: The shuffle in use: the inlined one unless this Python's ``Random.shuffle`` draws
#: differently (then the reference, so decks never depend on the optimisation).
_shuffle = _fast_shuffle if _same_as_random_shuffle() else _reference_shuffle


def card_counts() -> list[int]:
    """Multiset of the full deck as counts indexed by card value (index 0 unused)."""
    return [0] + [SERIES] * TOP + [1]
