"""Casino rules, one small hand-written game each (docs/rules/casino.md, issue 14)."""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.engine.casino.cards import CANONICAL, VALUE_OF, round_deck
from games.engine.casino.game import CasinoGame, deals_per_round, score_round
from tests.engine.casino_helpers import (
    build,
    call,
    capture,
    center,
    deal,
    new_game,
    refused,
    trail,
)
from tests.engine.kind_checks import check_adjudicated_end

SUMMARY_KEYS = [
    "game",
    "players",
    "status",
    "events",
    "round",
    "dealer",
    "turn",
    "center",
    "hands",
    "captured",
    "last_capture",
    "round_scores",
    "scores",
    "placements",
    "end",
    "corrections",
]


# -- cards, the start, the deals --------------------------------------------------------
def test_cards_and_canonical_order():
    assert len(CANONICAL) == 52 and len(set(CANONICAL)) == 52
    assert CANONICAL[:3] == ("AS", "2S", "3S") and CANONICAL[12:15] == ("KS", "AH", "2H")
    assert CANONICAL[-1] == "KC" and CANONICAL[9] == "10S"
    assert (VALUE_OF["AH"], VALUE_OF["10D"], VALUE_OF["7C"]) == (1, 10, 7)
    assert VALUE_OF["JS"] is VALUE_OF["QH"] is VALUE_OF["KD"] is None
    deck = list(CANONICAL)
    random.Random("7/3").shuffle(deck)
    assert round_deck(7, 3) == deck and round_deck("x", 1) != round_deck("x", 2)
    assert [deals_per_round(n) for n in (2, 3, 4)] == [6, 4, 3]


def test_start_defaults_and_summary_before_the_first_deal():
    g = new_game(("a", "b", "c"))
    s = g.summary()
    assert list(s) == SUMMARY_KEYS
    assert (s["game"], s["status"], s["events"], s["round"], s["dealer"]) == (
        "casino",
        "in_progress",
        1,
        0,
        "a",
    )
    assert s["turn"] is None and s["last_capture"] is None and s["placements"] is None
    assert s["center"] == {"cards": [], "builds": []}
    assert s["hands"] == {"a": [], "b": [], "c": []}
    assert s["captured"] == s["scores"] == {"a": 0, "b": 0, "c": 0}
    assert s["round_scores"] == [] and s["end"] is None
    assert g.target == 21 and g.legal_moves() == []
    assert engine.game_class("casino") is CasinoGame
    assert ("casino", "Casino") in engine.kind_choices()


@pytest.mark.parametrize(
    "start, reason",
    [
        ({"players": ["a"]}, "Casino needs 2 to 4 players, not 1"),
        ({"players": list("abcde")}, "Casino needs 2 to 4 players, not 5"),
        ({"players": ["a", "a"]}, "unique"),
        ({"players": ["a", "b"], "dealer": "z"}, "'dealer'"),
        ({"players": ["a", "b"], "target": 0}, "'target'"),
        ({"players": ["a", "b"], "target": "21"}, "'target'"),
        ({"players": ["a", "b"], "seed": 1.5}, "'seed'"),
        ({"players": ["a", "b"], "sheet": "yes"}, "'sheet'"),
        ({"players": ["a", "b"], "sheet": True, "seed": 3}, "'seed' is refused"),
        ({"players": ["a", "b"], "deck": "classic"}, "unknown field"),
    ],
)
def test_bad_start_lines(start, reason):
    with pytest.raises(engine.InvalidEvent, match=reason):
        engine.start({"type": "start", "game": "casino", **start})


def test_seeded_deals_follow_the_deck_rule_exactly():
    g = new_game(("a", "b", "c"), seed=7, dealer="b", _note="ignored")
    deck = list(CANONICAL)
    random.Random("7/1").shuffle(deck)
    wrong = {"a": deck[0:4], "b": deck[4:8], "c": deck[8:12]}
    refused(g, {"type": "deal", "hands": wrong}, "the seeded deal gives")
    refused(g, {"type": "deal", "center": deck[:4]}, "the seeded center is")
    # Blocks of four from the front, from the dealer's left (c), then the center.
    g.push({"type": "deal", "center": deck[12:16]})
    s = g.summary()
    assert s["hands"] == {"c": deck[0:4], "a": deck[4:8], "b": deck[8:12]}
    assert s["center"]["cards"] == deck[12:16] and s["turn"] == "c" and s["round"] == 1
    assert g._named == {
        "hands": {"a": deck[4:8], "b": deck[8:12], "c": deck[0:4]},
        "center": deck[12:16],
    }
    refused(g, {"type": "deal"}, "cards are still in hand")
    for _ in range(12):  # every card trailed: c, a, b, c, ...
        trail(g, g.turn, g.hand_of(g.turn)[0])
    assert g.turn is None and g.summary()["hands"] == {"a": [], "b": [], "c": []}
    refused(g, {"type": "deal", "center": deck[28:32]}, "later deal has no 'center'")
    refused(g, {"type": "trail", "player": "c", "card": deck[0]}, "the next event is a deal")
    g.push({"type": "deal", "hands": {"c": deck[16:20], "a": deck[20:24], "b": deck[24:28]}})
    assert g.turn == "c" and len(center(g)["cards"]) == 16 and g.summary()["dealer"] == "b"


def test_a_new_round_moves_the_dealer_left_and_reshuffles():
    g = new_game(("a", "b"), seed="s")
    for _ in range(6):  # a whole round of trails (nobody captures)
        g.push({"type": "deal"})
        for _ in range(8):
            trail(g, g.turn, g.hand_of(g.turn)[0])
    s = g.summary()
    assert s["round"] == 1 and s["turn"] is None and s["dealer"] == "a"
    assert len(s["center"]["cards"]) == 52 and s["last_capture"] is None
    g.push({"type": "deal"})
    deck = round_deck("s", 2)
    s = g.summary()
    assert s["round"] == 2 and s["dealer"] == "b" and s["turn"] == "a"
    assert s["hands"] == {"a": deck[0:4], "b": deck[4:8]}
    assert s["center"]["cards"] == deck[8:12]  # the old center is cleared


def test_unseeded_deals_name_every_card_once_a_round():
    g = new_game()
    refused(
        g,
        {"type": "deal", "hands": {"a": list(CANONICAL[:4]), "b": list(CANONICAL[4:8])}},
        "'hands' and 'center' are required",
        kind=engine.InvalidEvent,
    )
    refused(
        g,
        {
            "type": "deal",
            "hands": {"a": list(CANONICAL[:4]), "b": list(CANONICAL[4:8])},
            "center": list(CANONICAL[3:7]),
        },
        "is dealt twice",
    )
    refused(
        g,
        {
            "type": "deal",
            "hands": {"a": list(CANONICAL[:3]), "b": list(CANONICAL[4:8])},
            "center": list(CANONICAL[8:12]),
        },
        "a must be dealt 4 cards, not 3",
    )
    refused(
        g,
        {"type": "deal", "hands": {"a": list(CANONICAL[:4])}, "center": list(CANONICAL[8:12])},
        "missing: b",
        kind=engine.InvalidEvent,
    )
    refused(
        g,
        {
            "type": "deal",
            "hands": {"a": ["1S"] * 4, "b": list(CANONICAL[4:8])},
            "center": list(CANONICAL[8:12]),
        },
        "card codes",
        kind=engine.InvalidEvent,
    )
    deal(g, ["AS", "2S", "3S", "4S"], a=["5S", "6S", "7S", "8S"], b=["9S", "10S", "JS", "QS"])
    for card_b, card_a in zip(["JS", "QS", "9S", "10S"], ["5S", "6S", "7S", "8S"], strict=True):
        trail(g, "b", card_b)
        trail(g, "a", card_a)
    refused(
        g,
        {"type": "deal", "hands": {"a": ["KS", "AH", "2H", "3H"], "b": ["4H", "5H", "6H", "2S"]}},
        "2S is dealt twice",
    )
    deal(g, a=["KS", "AH", "2H", "3H"], b=["4H", "5H", "6H", "7H"])
    assert g.turn == "b" and len(center(g)["cards"]) == 12


# -- captures ------------------------------------------------------------------------------
def test_a_capture_sums_several_cards_and_takes_several_items():
    g = new_game()
    deal(g, ["3H", "4D", "7C", "KS"], b=["7S", "2H", "5C", "9D"])
    assert g.turn == "b"  # the dealer's left plays first
    bad = {"type": "capture", "player": "b", "card": "7S"}
    refused(g, {**bad, "take": [["3H", "7C"]]}, "3H+7C adds up to 10, not 7")
    refused(g, {**bad, "take": [["3H", "4D"], ["4D", "3H"]]}, "4D is taken twice")
    refused(g, {**bad, "take": [["6S"]]}, "6S is not loose in the center")
    refused(g, {**bad, "take": [["KS"]]}, "KS has no number")
    refused(g, {**bad, "take": ["b1"]}, "there is no build b1")
    refused(g, {**bad, "take": ["7C"]}, "a loose card is a list of one", kind=engine.InvalidEvent)
    refused(g, {**bad, "take": []}, "non-empty", kind=engine.InvalidEvent)
    refused(g, {**bad, "card": "8S", "take": [["7C"]]}, "b has no 8S")
    refused(g, {**bad, "player": "a", "take": [["7C"]]}, "a played out of turn")
    refused(g, {**bad, "take": [["7C"]], "with": []}, "unknown field", kind=engine.InvalidEvent)
    assert {"type": "capture", "player": "b", "card": "7S", "take": [["7C"], ["3H", "4D"]]} in (
        g.legal_moves()
    )
    capture(g, "b", "7S", ["3H", "4D"], ["7C"])
    s = g.summary()
    assert s["center"] == {"cards": ["KS"], "builds": []}
    assert s["captured"] == {"a": 0, "b": 4} and s["last_capture"] == "b" and s["turn"] == "a"
    assert s["hands"]["b"] == ["2H", "5C", "9D"]


def test_face_cards_only_pair():
    g = new_game()
    deal(g, ["KS", "5H", "QD", "KD"], b=["KH", "QC", "5S", "2C"], a=["JC", "JD", "JH", "9S"])
    bad = {"type": "capture", "player": "b", "card": "KH"}
    refused(g, {**bad, "take": [["QD"]]}, "KH pairs only with a loose K, not QD")
    refused(g, {**bad, "take": [["KS"], ["KD"]]}, "a K captures only by pairing")
    refused(g, {**bad, "take": [["KS", "KD"]]}, "exactly one loose K")
    refused(
        g,
        {"type": "build", "player": "b", "card": "KH", "with": ["5H"], "value": 5},
        "never part of a build",
    )
    refused(
        g,
        {"type": "build", "player": "b", "card": "2C", "with": ["QD"], "value": 7},
        "QD has no number",
    )
    moves = [m for m in g.legal_moves() if m["card"] == "KH"]
    assert moves == [
        {"type": "capture", "player": "b", "card": "KH", "take": [["KS"]]},
        {"type": "capture", "player": "b", "card": "KH", "take": [["KD"]]},
        {"type": "trail", "player": "b", "card": "KH"},
    ]
    capture(g, "b", "KH", ["KD"])
    assert center(g)["cards"] == ["KS", "5H", "QD"]
    trail(g, "a", "JC")
    capture(g, "b", "5S", ["5H"])  # a number pairs with its equal too
    trail(g, "a", "JD")
    capture(g, "b", "QC", ["QD"])
    assert g.summary()["captured"]["b"] == 6


# -- builds ----------------------------------------------------------------------------------
def test_build_then_raise_your_own_then_take_it():
    """The seed's examples: a 2 on a 6 builds 8 holding an 8; an ace raises it to 9
    holding a 9; the build is taken in a later turn."""
    g = new_game()
    deal(g, ["6H", "9C", "3S", "3H"], b=["2D", "8S", "AC", "9D"], a=["JC", "JD", "JH", "JS"])
    bad = {"type": "build", "player": "b", "card": "2D", "with": ["6H"]}
    refused(g, {**bad, "value": 9}, "2D with 6H adds up to 8, not 9")
    refused(g, {**bad, "value": 11}, "a build is worth 2 to 10, not 11")
    refused(g, {**bad, "value": "8"}, "'value'", kind=engine.InvalidEvent)
    refused(g, {**bad, "with": ["6H", "6H"], "value": 14}, "worth 2 to 10")
    refused(g, {**bad, "with": ["6H", "6H"], "value": 8}, "6H is named twice")
    refused(g, {**bad, "with": ["3S"], "value": 5}, "b may build 5 only holding another card")
    refused(g, {**bad, "with": [], "value": 2}, "non-empty", kind=engine.InvalidEvent)
    build(g, "b", "2D", ["6H"], 8)
    b1 = {"id": "b1", "value": 8, "owner": "b", "called": False, "cards": ["2D", "6H"]}
    assert center(g) == {"cards": ["9C", "3S", "3H"], "builds": [b1]}
    trail(g, "a", "JC")
    refused(
        g,
        {
            "type": "build",
            "player": "b",
            "card": "AC",
            "with": ["b1", "3S"],
            "value": 9,
            "_why": "ignored",
        },
        "AC with b1 3S adds up to 12, not 9",
    )
    build(g, "b", "AC", ["b1"], 9)  # raising one's own build: a new id, b1 is consumed
    b2 = {"id": "b2", "value": 9, "owner": "b", "called": False, "cards": ["AC", "2D", "6H"]}
    assert center(g)["builds"] == [b2]
    trail(g, "a", "JD")
    refused(g, {"type": "capture", "player": "b", "card": "9D", "take": ["b1"]}, "no build b1")
    capture(g, "b", "9D", "b2", ["9C"])  # a build and a loose card in one capture
    s = g.summary()
    assert s["center"] == {"cards": ["3S", "3H", "JC", "JD"], "builds": []}
    assert s["captured"]["b"] == 5


def test_raise_another_players_build_and_sorted_build_cards():
    g = new_game(("a", "b", "c"))  # dealer a: b, c, a play in turn
    deal(
        g,
        ["3H", "QS", "QH", "QD"],
        b=["3S", "6C", "JC", "JD"],
        c=["AD", "7H", "KC", "KD"],
        a=["10H", "JH", "JS", "KS"],
    )
    build(g, "b", "3S", ["3H"], 6)
    assert center(g)["builds"][0]["cards"] == ["3S", "3H"]  # by value, then suit S H D C
    build(g, "c", "AD", ["b1"], 7)  # c raises b's build: c owns the new one
    assert center(g)["builds"] == [
        {"id": "b2", "value": 7, "owner": "c", "called": False, "cards": ["AD", "3S", "3H"]}
    ]
    refused(
        g,
        {"type": "capture", "player": "a", "card": "10H", "take": ["b2"]},
        "b2 is a build of 7: 10H captures builds of 10",
    )
    trail(g, "a", "JH")
    # Several builds may lie in the center, even of one owner.
    refused(g, {"type": "capture", "player": "b", "card": "6C", "take": ["b2"]}, "build of 7")
    trail(g, "b", "6C")
    capture(g, "c", "7H", "b2")
    assert g.summary()["captured"] == {"a": 0, "b": 0, "c": 4}


# -- calls ----------------------------------------------------------------------------------
def test_call_an_eight_with_an_eight():
    """The seed's first example: an 8 from the hand on an 8 in the center, calling 8."""
    g = new_game()
    deal(g, ["8C", "5S", "3C", "JD"], b=["8H", "8D", "3D", "KC"], a=["8S", "JC", "JH", "JS"])
    bad = {"type": "call", "player": "b", "card": "8H", "value": 8}
    refused(g, {**bad, "groups": [["8H"]]}, "two or more groups", kind=engine.InvalidEvent)
    refused(g, {**bad, "groups": [["8C"], ["5S", "3C"]]}, "exactly one group must hold")
    refused(g, {**bad, "groups": [["8H"], ["8C"], ["5S"]]}, "the group 5S adds up to 5")
    refused(g, {**bad, "groups": [["8H"], ["8C"]], "value": 0}, "a call is worth 1 to 10")
    refused(
        g,
        {**bad, "card": "3D", "groups": [["3D"], ["3C"]], "value": 3},
        "b may call 3 only holding another card of value 3",
    )
    call(g, "b", "8H", [["8H"], ["8C"]], 8)
    b1 = {"id": "b1", "value": 8, "owner": "b", "called": True, "cards": ["8H", "8C"]}
    assert center(g) == {"cards": ["5S", "3C", "JD"], "builds": [b1]}
    # A called build stays as it is: nobody raises or extends it.
    refused(
        g,
        {"type": "build", "player": "a", "card": "8S", "with": ["b1"], "value": 16},
        "worth 2 to 10",
    )
    trail(g, "a", "JC")
    refused(
        g,
        {"type": "build", "player": "b", "card": "3D", "with": ["b1"], "value": 11},
        "worth 2 to 10",
    )
    capture(g, "b", "8D", "b1")
    assert g.summary()["captured"]["b"] == 3


def test_called_builds_cannot_be_raised_or_extended_but_can_be_taken():
    g = new_game()
    deal(g, ["AC", "AH", "2C", "JD"], b=["AS", "AD", "3D", "KC"], a=["2H", "3C", "JH", "JS"])
    call(g, "b", "AS", [["AS"], ["AC"], ["AH"]], 1)  # aces may be called
    refused(
        g,
        {"type": "build", "player": "a", "card": "2H", "with": ["b1"], "value": 3},
        "b1 is a called build of 1: nobody can raise or extend it",
    )
    refused(
        g,
        {"type": "call", "player": "a", "card": "2H", "groups": [["2H"], ["AD"]], "value": 2},
        "AD is not loose",
    )
    refused(
        g,
        {"type": "call", "player": "a", "card": "3C", "groups": [["3C"], ["b1", "2C"]], "value": 3},
        "called build",
    )
    trail(g, "a", "JH")
    capture(g, "b", "AD", "b1")  # the caller takes it with the ace kept for it
    assert g.summary()["captured"]["b"] == 4


def test_build_and_call_in_one_turn():
    """The seed's second example: a 5 on a 2 builds 7, added in the same turn to a 7 in
    the center, calling 7 (the player holds a 7)."""
    g = new_game()
    deal(g, ["2C", "7D", "4H", "QD"], b=["5H", "7S", "3S", "KC"], a=["7C", "JC", "JH", "JS"])
    refused(
        g,
        {"type": "call", "player": "b", "card": "5H", "groups": [["5H", "2C"], ["7D"]], "value": 8},
        "the group 5H+2C adds up to 7, not the called 8",
    )
    move = {
        "type": "call",
        "player": "b",
        "card": "5H",
        "groups": [["5H", "2C"], ["7D"]],
        "value": 7,
    }
    assert move in g.legal_moves()
    g.push(move)
    assert center(g)["builds"] == [
        {"id": "b1", "value": 7, "owner": "b", "called": True, "cards": ["2C", "5H", "7D"]}
    ]
    # Another player may take a called build with a card of its value.
    capture(g, "a", "7C", "b1")
    assert g.summary()["captured"] == {"a": 4, "b": 0} and g.summary()["last_capture"] == "a"


def test_a_call_may_gather_uncalled_builds():
    g = new_game()
    deal(g, ["4C", "6D", "10C", "QD"], b=["4H", "10S", "10H", "KC"], a=["JC", "JD", "JH", "JS"])
    build(g, "b", "4H", ["6D"], 10)
    trail(g, "a", "JC")
    refused(
        g,
        {
            "type": "call",
            "player": "b",
            "card": "10H",
            "groups": [["10H"], ["b1", "4C"]],
            "value": 10,
        },
        "the group b1+4C adds up to 14",
    )
    call(g, "b", "10H", [["10H"], ["b1"], ["10C"]], 10)
    assert center(g)["builds"] == [
        {"id": "b2", "value": 10, "owner": "b", "called": True, "cards": ["4H", "6D", "10H", "10C"]}
    ]
    assert center(g)["cards"] == ["4C", "QD", "JC"]


# -- the trail restriction ---------------------------------------------------------------------
def test_no_trail_the_turn_after_a_build_that_is_unchanged():
    g = new_game()
    deal(g, ["6C", "5S", "QD", "9H"], b=["2H", "8S", "5D", "KC"], a=["JC", "JD", "JH", "JS"])
    build(g, "b", "2H", ["6C"], 8)
    trail(g, "a", "JC")
    refused(
        g,
        {"type": "trail", "player": "b", "card": "KC"},
        "b made build b1 in their previous turn and it is unchanged: no trail",
    )
    assert not any(m["type"] == "trail" for m in g.legal_moves())
    capture(g, "b", "5D", ["5S"])  # capturing something else keeps the build...
    trail(g, "a", "JD")
    trail(g, "b", "KC")  # ...and the restriction covered that one turn only
    assert center(g)["builds"][0]["id"] == "b1"


def test_the_restriction_lifts_when_the_build_changed():
    g = new_game()
    deal(g, ["6C", "5S", "QD", "9H"], b=["2H", "8S", "5D", "KC"], a=["AC", "9S", "JH", "JS"])
    build(g, "b", "2H", ["6C"], 8)
    build(g, "a", "AC", ["b1"], 9)  # a raises b's build: b1 is gone (now b2)
    trail(g, "b", "KC")
    capture(g, "a", "9S", "b2", ["9H"])
    assert g.summary()["captured"] == {"a": 5, "b": 0}
    g2 = new_game()
    deal(g2, ["6C", "5S", "QD", "9H"], b=["2H", "8S", "5D", "KC"], a=["8C", "9S", "JH", "JS"])
    build(g2, "b", "2H", ["6C"], 8)
    capture(g2, "a", "8C", "b1")  # taken by another player: no longer in the center
    trail(g2, "b", "KC")
    assert g2.summary()["last_capture"] == "a"


# -- the end of a round, scoring -----------------------------------------------------------------
def _trail_out(g: CasinoGame) -> None:
    """Everybody trails their first card until every hand is empty."""
    while g.turn is not None:
        trail(g, g.turn, g.hand_of(g.turn)[0])


def _next_hands(g: CasinoGame) -> dict[str, list[str]]:
    left = [c for c in CANONICAL if c not in set(g._dealt)]
    order = [g.players[(g._dealer + 1 + i) % len(g.players)] for i in range(len(g.players))]
    return {p: left[4 * k : 4 * k + 4] for k, p in enumerate(order)}


def test_nobody_captured_the_center_stays_unscored_until_the_next_round():
    g = new_game(("a", "b", "c", "d"))
    deal(g, list(CANONICAL[48:]), **_next_hands(g))
    _trail_out(g)
    for _ in range(2):
        deal(g, **_next_hands(g))
        _trail_out(g)
    s = g.summary()
    assert s["round"] == 1 and s["turn"] is None and s["last_capture"] is None
    assert len(s["center"]["cards"]) == 52 and s["captured"] == dict.fromkeys("abcd", 0)
    zero = {"cards": 0, "spades": 0, "big_casino": 0, "little_casino": 0, "aces": 0, "total": 0}
    assert s["round_scores"] == [dict.fromkeys("abcd", zero)]  # ties: nobody scores
    assert s["scores"] == dict.fromkeys("abcd", 0) and s["dealer"] == "a"
    refused(g, {"type": "trail", "player": "b", "card": "AS"}, "round's first deal")
    hands = {p: list(CANONICAL[4 * k : 4 * k + 4]) for k, p in enumerate("abcd")}
    refused(
        g,
        {"type": "deal", "hands": hands},
        "'hands' and 'center' are required",
        kind=engine.InvalidEvent,
    )
    deal(g, ["AS", "2S", "3S", "4S"], c=["5S", "6S", "7S", "8S"])
    s = g.summary()
    assert s["round"] == 2 and s["dealer"] == "b" and s["turn"] == "c"
    assert s["center"]["cards"] == ["AS", "2S", "3S", "4S"]


def test_the_last_capture_takes_the_center_at_the_end_of_the_round():
    g = new_game(("a", "b", "c", "d"))  # b plays first; three deals
    deal(
        g,
        ["KH", "QH", "JH", "10H"],
        b=["AS", "2S", "3S", "4S"],
        c=["5S", "6S", "7S", "8S"],
        d=["9S", "10S", "JS", "QS"],
        a=["AH", "2H", "3H", "4H"],
    )
    _trail_out(g)
    deal(
        g,
        b=["5H", "6H", "7H", "8H"],
        c=["9H", "AD", "2D", "3D"],
        d=["4D", "5D", "6D", "7D"],
        a=["8D", "9D", "10D", "JD"],
    )
    _trail_out(g)
    deal(
        g,
        b=["KS", "QD", "KD", "AC"],
        c=["2C", "3C", "4C", "5C"],
        d=["6C", "7C", "8C", "9C"],
        a=["10C", "JC", "QC", "KC"],
    )
    capture(g, "b", "KS", ["KH"])
    for _ in range(15):
        trail(g, g.turn, g.hand_of(g.turn)[-1])
    s = g.summary()
    assert s["last_capture"] == "b" and s["center"] == {"cards": [], "builds": []}
    assert s["captured"] == {"a": 0, "b": 52, "c": 0, "d": 0}
    best = {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 4, "total": 11}
    zero = dict.fromkeys(best, 0)
    assert s["round_scores"] == [{"a": zero, "b": best, "c": zero, "d": zero}]
    assert s["scores"] == {"a": 0, "b": 11, "c": 0, "d": 0} and s["status"] == "in_progress"


def test_scoring_ties_give_nobody_the_point():
    spades = [c for c in CANONICAL if c.endswith("S")]
    others = [c for c in CANONICAL if not c.endswith("S")]
    # a and b tie for the most cards (20) and for the most spades (5): nobody scores them.
    a = spades[:5] + others[:15]
    b = spades[5:10] + others[15:30]
    c = spades[10:] + others[30:]
    rows = score_round([a, b, c])
    assert [len(a), len(b), len(c)] == [20, 20, 12]
    assert [r["cards"] for r in rows] == [0, 0, 0] and [r["spades"] for r in rows] == [0, 0, 0]
    assert rows[0]["little_casino"] == 1 and rows[0]["aces"] == 3  # 2S; AS, AH, AD
    big = [r["big_casino"] for r in rows]
    assert big == [0, 2, 0] and sum(r["aces"] for r in rows) == 4
    assert all(r["total"] == sum(v for k, v in r.items() if k != "total") for r in rows)
    # Without the tie the most cards and the most spades score.
    rows = score_round([a + b[:1], b[1:], c])
    assert [r["cards"] for r in rows] == [3, 0, 0] and [r["spades"] for r in rows] == [1, 0, 0]
    assert sum(r["total"] for r in score_round([list(CANONICAL), [], []])) == 11


# -- the score sheet, the target, the end ---------------------------------------------------------
def _round(**scores):
    return {"type": "round", "scores": scores}


ALL = {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 4}


def test_a_tie_at_the_top_plays_another_round():
    g = new_game(sheet=True)
    g.push(_round(a=ALL, b={}))
    g.push(_round(a={}, b=ALL))
    g.push(_round(a={"cards": 3, "big_casino": 2}, b={"aces": 4, "little_casino": 1}))
    assert g.summary()["scores"] == {"a": 16, "b": 16} and g.summary()["dealer"] == "a"
    g.push(_round(a={"cards": 3, "big_casino": 2}, b={"aces": 4, "little_casino": 1}))
    s = g.summary()
    assert s["scores"] == {"a": 21, "b": 21} and s["status"] == "in_progress"  # plays on
    assert s["dealer"] == "b" and s["round"] == 4 and s["turn"] is None
    g.push(_round(a={"aces": 3, "little_casino": 1}, b={"aces": 1, "big_casino": 2}))
    s = g.summary()
    assert s["status"] == "finished" and s["placements"] == {"a": 1, "b": 2}
    assert s["scores"] == {"a": 25, "b": 24} and len(s["round_scores"]) == 5
    assert s["round_scores"][2]["a"] == {
        "cards": 3,
        "spades": 0,
        "big_casino": 2,
        "little_casino": 0,
        "aces": 0,
        "total": 5,
    }
    refused(g, _round(a=ALL, b={}), "the game is over")


def test_sheet_rounds_are_checked():
    g = new_game(("a", "b", "c"), sheet=True, target=30)
    ok = {"b": {"aces": 2, "big_casino": 2}, "c": {"aces": 2, "little_casino": 1, "cards": 3}}
    for a_scores, reason in [
        ({"cards": 2}, "cards scores 3 or 0, not 2 (a)"),
        ({"cards": 3, "spades": 1}, "cards (3) goes to one player or nobody, not 2"),
        ({"spades": 2}, "spades scores 1 or 0, not 2 (a)"),
        ({"big_casino": 2}, "big_casino (2) goes to exactly one player, not 2"),
        ({"aces": 1}, "the aces of a round add up to 4, not 5"),
        ({"aces": -1}, "aces score 0 to 4 a player, not -1 (a)"),
    ]:
        refused(g, _round(a=a_scores, **ok), reason)
    refused(
        g,
        _round(a={}, b={"aces": 4, "big_casino": 2}, c={"aces": 0}),
        "little_casino (1) goes to exactly one player, not 0",
    )
    refused(
        g,
        _round(a={"jokers": 1}, **ok),
        "unknown score category for a: jokers",
        kind=engine.InvalidEvent,
    )
    refused(g, _round(a={"aces": True}, **ok), "whole number", kind=engine.InvalidEvent)
    refused(g, _round(**ok), "missing: a", kind=engine.InvalidEvent)
    refused(g, _round(a=[], **ok), "must be an object", kind=engine.InvalidEvent)
    refused(g, {"type": "trail", "player": "b", "card": "AS"}, "only 'round' lines")
    refused(g, {"type": "deal"}, "only 'round' lines")
    g.push(_round(a={}, **ok))
    s = g.summary()
    assert s["scores"] == {"a": 0, "b": 4, "c": 6} and s["round"] == 1 and s["dealer"] == "a"
    assert s["turn"] is s["last_capture"] is None and s["captured"] == dict.fromkeys("abc", 0)
    assert s["hands"] == dict.fromkeys("abc", []) and s["center"] == {"cards": [], "builds": []}
    assert g.legal_moves() == []
    card_game = new_game()
    refused(card_game, _round(a=ALL, b={}), "belong to a score sheet")


def test_the_game_ends_at_the_target_with_the_highest_total():
    g = new_game(("a", "b", "c"), sheet=True, target=11)
    g.push(
        _round(a={"aces": 2}, b={"aces": 2, "cards": 3}, c={"big_casino": 2, "little_casino": 1})
    )
    g.push(_round(a={"aces": 4, "cards": 3}, b={"big_casino": 2}, c={"little_casino": 1}))
    s = g.summary()
    assert s["scores"] == {"a": 9, "b": 7, "c": 4} and s["status"] == "in_progress"
    g.push(_round(a={"big_casino": 2}, b={"cards": 3, "aces": 4}, c={"little_casino": 1}))
    s = g.summary()  # b reached 14, a 11: the highest total wins, places by total
    assert s["status"] == "finished" and s["placements"] == {"a": 2, "b": 1, "c": 3}


def test_end_by_time_ranks_by_the_finished_rounds_and_adjudicated_with_placements():
    g = new_game(("a", "b", "c"), sheet=True)
    g.push(
        _round(a={"aces": 2}, b={"aces": 2, "cards": 3}, c={"big_casino": 2, "little_casino": 1})
    )
    g.push({"type": "end", "reason": "time"})
    s = g.summary()
    assert s["scores"] == {"a": 2, "b": 5, "c": 3}
    assert s["placements"] == {"a": 3, "b": 1, "c": 2}
    assert s["end"] == {"event": 3, "reason": "time"} and s["status"] == "finished"
    refused(g, {"type": "end", "reason": "time"}, "game is over")
    h = new_game(("a", "b", "c"))
    deal(h, ["AS", "2S", "3S", "4S"])
    assert CasinoGame.event_needs_referee({"type": "end", "reason": "adjudicated"})
    assert not CasinoGame.event_needs_referee({"type": "end", "reason": "time"})
    check_adjudicated_end(h)


# -- the contract ------------------------------------------------------------------------------
def test_legal_moves_are_complete_and_accepted():
    g = new_game()
    deal(g, ["3H", "4D", "7C", "2S"], b=["7S", "5C", "9D", "KC"], a=["JC", "JD", "JH", "JS"])
    moves = g.legal_moves()
    for move in moves:
        assert g.is_legal(move), move
    captures = [m["take"] for m in moves if m["type"] == "capture" and m["card"] == "7S"]
    assert sorted(map(str, captures)) == sorted(
        map(str, [[["7C"]], [["3H", "4D"]], [["7C"], ["3H", "4D"]]])
    )
    builds = {(m["card"], tuple(m["with"]), m["value"]) for m in moves if m["type"] == "build"}
    assert ("5C", ("4D",), 9) in builds and ("5C", ("2S",), 7) in builds
    assert ("7S", ("2S",), 9) in builds and ("5C", ("3H",), 8) not in builds
    calls = [m for m in moves if m["type"] == "call"]
    assert {
        "type": "call",
        "player": "b",
        "card": "5C",
        "groups": [["5C", "2S"], ["7C"]],
        "value": 7,
    } in calls
    assert {m["card"] for m in moves if m["type"] == "trail"} == {"7S", "5C", "9D", "KC"}
    # every other legal play is refused by the engine (a brute-force check)
    listed = {str(m) for m in moves}
    for card in g.hand_of("b"):
        for value in range(1, 11):
            for other in ("3H", "4D", "7C", "2S"):
                move = {
                    "type": "build",
                    "player": "b",
                    "card": card,
                    "with": [other],
                    "value": value,
                }
                assert g.is_legal(move) == (str(move) in listed), move
    seeded = new_game(seed=1)
    assert seeded.legal_moves() == [{"type": "deal"}]


def test_restore_and_copy_behave_like_the_game():
    g = new_game(("a", "b", "c"), seed=5)
    g.push({"type": "deal"})
    move = g.legal_moves()[0]
    r = engine.restore(g.to_state())
    assert r.summary() == g.summary() and r.legal_moves() == g.legal_moves()
    g.push(dict(move))
    r.push(dict(move))
    assert r.to_state() == g.to_state()
    assert g.copy().to_state() == g.to_state()
    with pytest.raises(engine.InvalidEvent):
        CasinoGame.from_state({**g.to_state(), "version": 99})
    with pytest.raises(engine.InvalidEvent):
        CasinoGame.from_state({"game": "casino", "version": 1})


def test_public_views_hide_the_hands_and_the_seed():
    g = new_game(seed=9)
    start = {"type": "start", "game": "casino", "players": ["a", "b"], "seed": 9}
    assert CasinoGame.public_event(start) == {k: v for k, v in start.items() if k != "seed"}
    named = g.named_event({"type": "deal"})
    assert set(named) == {"type", "hands", "center"} and g.summary()["round"] == 0
    shown = CasinoGame.public_event(named)
    assert shown == {"type": "deal", "center": named["center"]}
    g.push(named)
    trail_event = {"type": "trail", "player": "b", "card": g.hand_of("b")[0]}
    assert CasinoGame.public_event(trail_event) is trail_event
    view = CasinoGame.public_summary(g.summary())
    assert view["hands"] == {"a": [], "b": []} and view["hand_sizes"] == {"a": 4, "b": 4}
    assert view["center"] == g.summary()["center"]
    g.push({"type": "end", "reason": "time"})
    assert CasinoGame.public_summary(g.summary()) == g.summary()


def test_other_events_are_refused():
    g = new_game()
    deal(g, ["AS", "2S", "3S", "4S"])
    refused(g, {"type": "knock", "player": "b"}, "unknown event type", kind=engine.InvalidEvent)
    refused(
        g, {"type": "start", "game": "casino"}, "only be the first line", kind=engine.InvalidEvent
    )
    refused(
        g,
        {"type": "trail", "player": "zed", "card": "AS"},
        "unknown player",
        kind=engine.InvalidEvent,
    )
    refused(g, {"type": "trail", "player": "b", "card": "1S"}, "'card'", kind=engine.InvalidEvent)
    refused(g, {"type": "trail", "player": "b", "card": "AS"}, "b has no AS")
    refused(
        g,
        {"type": "trail", "player": "b", "card": "AS", "with": []},
        "unknown field",
        kind=engine.InvalidEvent,
    )
    with pytest.raises(engine.InvalidEvent):
        g.push(["not", "an", "object"])  # type: ignore[arg-type]
    g.push({"type": "trail", "player": "b", "card": g.hand_of("b")[0], "_by": "scorekeeper"})
