"""UNO rules, one small hand-written game each (docs/rules/uno.en.md, issue 13)."""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.engine.uno.cards import CANONICAL, DECK_VALUE, POINTS
from tests.engine.kind_checks import check_adjudicated_end
from tests.engine.uno_helpers import deal, draw, new_game, pile, play, refused

SUMMARY_KEYS = {
    "game", "players", "status", "events", "hand", "dealer", "turn", "direction", "top",
    "color", "hands", "draw_pile", "hand_results", "scores", "challenges", "catches",
    "placements", "end", "corrections",
}  # fmt: skip


# -- the deck -------------------------------------------------------------------------
def test_decks_and_points():
    assert len(CANONICAL["classic"]) == 108
    assert len(CANONICAL["2018"]) == 112
    assert CANONICAL["classic"][:5] == ("R0", "R1", "R1", "R2", "R2")
    assert CANONICAL["classic"][23:26] == ("RD", "RD", "Y0")
    assert CANONICAL["2018"][-4:] == ("WS", "WC", "WC", "WC")
    assert DECK_VALUE == {"classic": 1240, "2018": 1400}
    assert (POINTS["G7"], POINTS["RS"], POINTS["YV"], POINTS["BD"]) == (7, 20, 20, 20)
    assert (POINTS["W"], POINTS["W4"], POINTS["WS"], POINTS["WC"]) == (50, 50, 40, 40)


def test_start_defaults_and_summary_before_the_first_deal():
    g = new_game()
    s = g.summary()
    assert set(s) == SUMMARY_KEYS
    assert s["status"] == "in_progress" and s["hand"] == 0 and s["dealer"] == "a"
    assert s["turn"] is None and s["top"] is None and s["color"] is None
    assert s["hands"] == {"a": [], "b": [], "c": []}
    assert s["scores"] == {"a": 0, "b": 0, "c": 0}
    assert s["draw_pile"] == 108 and s["placements"] is None and s["end"] is None
    assert new_game(deck="2018").summary()["draw_pile"] == 112


@pytest.mark.parametrize(
    "start, reason",
    [
        ({"players": ["a"]}, "2 to 10 players"),
        ({"players": [f"p{i}" for i in range(11)]}, "2 to 10 players"),
        ({"players": ["a", "a"]}, "unique"),
        ({"players": ["a", "b"], "dealer": "z"}, "'dealer'"),
        ({"players": ["a", "b"], "deck": "2019"}, "'deck'"),
        ({"players": ["a", "b"], "target": 0}, "'target'"),
        ({"players": ["a", "b"], "target": True}, "'target'"),
        ({"players": ["a", "b"], "sheet": True, "seed": 3}, "'seed' is refused"),
        ({"players": ["a", "b"], "mode": "table"}, "unknown field"),
    ],
)
def test_bad_start_lines(start, reason):
    with pytest.raises(engine.InvalidEvent, match=reason):
        engine.start({"type": "start", "game": "uno", **start})


# -- the first card ---------------------------------------------------------------------
def test_number_up_card_dealers_left_plays():
    g = new_game()
    deal(g, "R5")
    s = g.summary()
    assert (s["hand"], s["dealer"], s["turn"], s["top"], s["color"]) == (1, "a", "b", "R5", "R")
    assert s["direction"] == 1 and s["draw_pile"] == 108 - 21 - 1


def test_skip_up_card_skips_the_dealers_left():
    g = new_game()
    deal(g, "RS")
    assert g.turn == "c"
    two = new_game(("a", "b"))
    deal(two, "RS")
    assert two.turn == "a"  # with two players the dealer plays


def test_reverse_up_card_dealer_starts_counter_clockwise():
    g = new_game()
    deal(g, "RV", a=["R1", "R2", "G3", "B4", "Y5", "G6", "G7"])
    assert (g.turn, g.direction) == ("a", -1)
    play(g, "a", "R1")
    assert g.turn == "c"  # the dealer's right
    two = new_game(("a", "b"))
    deal(two, "RV")
    assert (two.turn, two.direction) == ("a", -1)


def test_draw_two_up_card():
    g = new_game()
    deal(g, "RD")
    assert g.turn == "b"
    refused(g, {"type": "play", "player": "b", "card": g.hand_of("b")[0]}, "must draw 2")
    refused(g, {"type": "draw", "player": "b", "cards": ["R1"]}, "must draw 2 card(s), not 1")
    draw(g, "b")
    assert len(g.hand_of("b")) == 9 and g.turn == "c"


@pytest.mark.parametrize("up", ["W", "WC", "WS"])
def test_wild_up_card_dealers_left_chooses_the_colour(up):
    g = new_game(deck="2018")
    deal(g, up, b=["G1", "G2", "G3", "G4", "G5", "G6", "G7"])
    hands = g.summary()["hands"]
    assert g.summary()["color"] is None and g.turn == "b"
    refused(g, {"type": "play", "player": "b", "card": "G1"}, "choose the colour")
    refused(g, {"type": "color", "player": "c", "color": "G"}, "out of turn")
    refused(g, {"type": "color", "player": "b", "color": "X"}, "'color'", kind=engine.InvalidEvent)
    g.push({"type": "color", "player": "b", "color": "G"})
    assert g.summary()["color"] == "G" and g.turn == "b"
    assert g.summary()["hands"] == hands  # WS up: no swap
    refused(g, {"type": "color", "player": "b", "color": "R"}, "only follows a wild up card")
    play(g, "b", "G1")
    assert g.turn == "c"


def test_wild_draw_four_up_cards_go_back_to_the_bottom():
    g = new_game()
    deal(g, ["W4", "W4", "R5"])
    s = g.summary()
    assert s["top"] == "R5" and s["turn"] == "b"
    assert s["draw_pile"] == 108 - 21 - 1  # both W4s back in the draw pile
    assert pile(g)["W4"] == 4
    g2 = new_game()
    for up, reason in ((["W4"], "last must not be"), (["R5", "R6"], "must be a W4"), ([], "name")):
        refused(g2, {"type": "deal", "hands": {}, "up": up}, kind=engine.InvalidEvent)
        with pytest.raises(engine.IllegalMove, match=reason):
            deal(g2, up)


def _finish_first_hand(g):
    play(g, "b", "G2", uno=True)
    play(g, "a", "G6")
    play(g, "b", "GD")  # out
    draw(g, "a")


@pytest.mark.parametrize("later", [False, True], ids=["first hand", "second hand"])
def test_unseeded_deal_the_same_w4_may_come_up_again(later):
    """A W4 turned up goes back into the draw pile before the next card is turned, so
    with three W4s in hands the fourth may come up twice."""
    g = _down_to_two() if later else new_game()
    if later:
        _finish_first_hand(g)
    deal(g, ["W4", "W4", "R8"], a=["W4", "W4", "W4", "R1", "R2", "R3", "G1"])
    s = g.summary()
    assert s["top"] == "R8" and s["hand"] == (2 if later else 1)
    assert s["hands"]["a"][:3] == ["W4", "W4", "W4"]
    assert s["draw_pile"] == 108 - 7 * len(g.players) - 1 and pile(g)["W4"] == 1
    # the four W4s dealt: none is left to turn up
    g2 = _down_to_two() if later else new_game()
    if later:
        _finish_first_hand(g2)
    with pytest.raises(engine.IllegalMove, match="more W4 than the classic deck holds"):
        deal(g2, ["W4", "R8"], a=["W4", "W4", "W4", "W4", "R2", "R3", "G1"])
    with pytest.raises(engine.IllegalMove, match="more R8 than the classic deck holds"):
        deal(g2, ["W4", "R8"], a=["R8", "R8", "R1", "R2", "R3", "G1", "G2"])


def test_seeded_deal_follows_the_documented_shuffle():
    g = new_game(("a", "b", "c"), seed="s", dealer="b")
    g.push({"type": "deal"})
    deck = list(CANONICAL["classic"])
    random.Random("s/1").shuffle(deck)
    order = ["c", "a", "b"]  # from the dealer's left
    want = {p: [deck[i] for i in range(21) if order[i % 3] == p] for p in order}
    assert g.summary()["hands"] == want
    k = 21
    while deck[k] == "W4":
        k += 1
    assert g.summary()["top"] == deck[k]
    assert g.summary()["draw_pile"] == 108 - 21 - 1
    # the same deal, named, is accepted; a different one is not
    g2 = new_game(("a", "b", "c"), seed="s", dealer="b")
    g2.push({"type": "deal", "hands": want, "up": deck[21 : k + 1]})
    bad = {**want, "a": list(reversed(want["a"]))}
    g3 = new_game(("a", "b", "c"), seed="s", dealer="b")
    refused(g3, {"type": "deal", "hands": bad}, "seeded deal gives a")
    refused(g3, {"type": "deal", "up": ["R0"]}, "seeded up cards")


def test_deal_checks():
    g = new_game()
    refused(g, {"type": "deal"}, "required", kind=engine.InvalidEvent)
    refused(
        g, {"type": "deal", "hands": {"a": []}, "up": ["R5"]}, "missing", kind=engine.InvalidEvent
    )
    too_many = {p: ["R9"] * 7 for p in "abc"}
    refused(g, {"type": "deal", "hands": too_many, "up": ["R5"]}, "more R9")
    short = {"a": ["R1"], "b": [], "c": []}
    refused(g, {"type": "deal", "hands": short, "up": ["R5"]}, "7 cards, not 1")
    refused(g, {"type": "play", "player": "b", "card": "R5"}, "no hand is running")
    deal(g, "R5")
    refused(g, {"type": "deal"}, "a hand is running")


# -- playing ---------------------------------------------------------------------------
def test_matching_and_turn_order():
    g = new_game()
    deal(
        g,
        "R5",
        b=["G5", "R7", "B2", "Y9", "GS", "W", "G1"],
        c=["G8", "G9", "B3", "B4", "Y1", "Y2", "Y3"],
    )
    refused(g, {"type": "play", "player": "c", "card": "G8"}, "out of turn")
    refused(g, {"type": "play", "player": "b", "card": "B2"}, "does not match")
    refused(g, {"type": "play", "player": "b", "card": "R9"}, "has no R9")
    refused(g, {"type": "play", "player": "b", "card": "Q1"}, "'card'", kind=engine.InvalidEvent)
    refused(
        g, {"type": "play", "player": "b", "card": "W"}, "needs 'color'", kind=engine.InvalidEvent
    )
    refused(
        g,
        {"type": "play", "player": "b", "card": "G5", "color": "G"},
        "only to wild",
        kind=engine.InvalidEvent,
    )
    refused(
        g,
        {"type": "play", "player": "b", "card": "G5", "x": 1},
        "unknown field",
        kind=engine.InvalidEvent,
    )
    refused(
        g,
        {"type": "play", "player": "b", "card": "G5", "hands": {}},
        "only to a WS",
        kind=engine.InvalidEvent,
    )
    play(g, "b", "G5", _note="value match")  # same value, another colour
    assert (g.turn, g.summary()["color"]) == ("c", "G")
    play(g, "c", "G8")
    assert g.turn == "a"


def test_skip_and_reverse_in_play():
    g = new_game(("a", "b", "c", "d"))
    deal(
        g,
        "R5",
        b=["RS", "R1", "R2", "R3", "R4", "R6", "R7"],
        d=["RV", "R8", "G1", "G2", "G3", "G4", "G6"],
    )
    play(g, "b", "RS")
    assert g.turn == "d"
    play(g, "d", "RV")
    assert (g.turn, g.direction) == ("c", -1)


def test_two_player_skip_and_reverse_play_again():
    g = new_game(("a", "b"))
    deal(g, "R5", b=["RS", "RV", "GV", "G1", "G2", "G3", "G4"])
    play(g, "b", "RS")
    assert g.turn == "b"
    play(g, "b", "RV")
    assert (g.turn, g.direction) == ("b", -1)
    play(g, "b", "GV")
    assert (g.turn, g.direction) == ("b", 1)
    play(g, "b", "G1")
    assert g.turn == "a"


def test_draw_then_play_only_the_drawn_card_or_pass():
    g = new_game(("a", "b"))
    deal(g, "R5", b=["R1", "G2", "G2", "G3", "G4", "G6", "G7"])
    refused(g, {"type": "pass", "player": "b"}, "only right after drawing")
    refused(g, {"type": "draw", "player": "b", "cards": ["R2", "R3"]}, "must draw 1 card(s), not 2")
    refused(g, {"type": "draw", "player": "b", "cards": ["G2"]}, "not in the draw pile")
    refused(g, {"type": "draw", "player": "b"}, "'cards' is required", kind=engine.InvalidEvent)
    draw(g, "b", ["R9"])  # allowed although R1 is playable
    assert g.turn == "b"
    refused(g, {"type": "play", "player": "b", "card": "R1"}, "only the drawn R9")
    refused(g, {"type": "draw", "player": "b", "cards": ["R2"]}, "has drawn")
    play(g, "b", "R9")
    assert g.turn == "a"
    draw(g, "a", ["B9"])
    g.push({"type": "pass", "player": "a"})
    assert g.turn == "b" and g.hand_of("a")[-1] == "B9"


def test_draw_two_in_play():
    g = new_game()
    deal(g, "R5", b=["RD", "R1", "R2", "R3", "R4", "R6", "R7"])
    play(g, "b", "RD")
    assert g.turn == "c"
    refused(g, {"type": "challenge", "player": "c"}, "only a Wild Draw Four")
    draw(g, "c")
    assert g.turn == "a" and len(g.hand_of("c")) == 9


# -- Wild Draw Four and the challenge ------------------------------------------------------
def _w4_game(b_hand):
    g = new_game()
    deal(g, "R5", b=b_hand)
    play(g, "b", "W4", color="G")
    assert g.turn == "c" and g.summary()["color"] == "G"
    return g


def test_unchallenged_wild_draw_four():
    g = _w4_game(["W4", "G1", "G2", "B3", "B4", "Y5", "Y6"])
    refused(
        g, {"type": "play", "player": "c", "card": g.hand_of("c")[0]}, "challenge it or draw four"
    )
    draw(g, "c")
    assert len(g.hand_of("c")) == 11 and g.turn == "a"
    assert g.summary()["challenges"] == []


def test_challenge_of_a_legal_wild_draw_four_costs_six():
    g = _w4_game(["W4", "G1", "G2", "B3", "B4", "Y5", "Y6"])  # no red: legal
    g.push({"type": "challenge", "player": "c"})
    assert g.summary()["challenges"] == [{"event": 4, "by": "c", "against": "b", "legal": True}]
    assert g.turn == "c"
    refused(g, {"type": "draw", "player": "c", "cards": ["R1"] * 4}, "must draw 6")
    draw(g, "c")
    assert len(g.hand_of("c")) == 13 and g.turn == "a"


def test_challenge_of_a_bluffed_wild_draw_four():
    g = _w4_game(["W4", "R1", "G2", "B3", "B4", "Y5", "Y6"])  # holds red: illegal
    g.push({"type": "challenge", "player": "c"})
    assert g.summary()["challenges"][0]["legal"] is False
    assert g.turn == "b"  # the bluffer draws four
    refused(g, {"type": "draw", "player": "c", "cards": []}, "out of turn")
    draw(g, "b")
    assert len(g.hand_of("b")) == 10
    assert g.turn == "c" and g.summary()["color"] == "G"  # then c plays normally


def test_wild_draw_four_may_be_put_down_with_a_matching_number():
    # a red-free hand holding the top card's number: still legal (only colour counts)
    g = _w4_game(["W4", "G5", "G2", "B3", "B4", "Y5", "Y6"])
    g.push({"type": "challenge", "player": "c"})
    assert g.summary()["challenges"][0]["legal"] is True


# -- UNO and the catch -------------------------------------------------------------------
def _down_to_two(**start):
    """Two players: b plays four Skips (playing again each time), then G1; a plays G5."""
    g = new_game(("a", "b"), **start)
    deal(
        g,
        "R5",
        a=["G5", "G6", "G7", "R9", "B9", "Y9", "W"],
        b=["RS", "RS", "GS", "GS", "G1", "G2", "GD"],
    )
    for card in ("RS", "RS", "GS", "GS"):
        play(g, "b", card)
        assert g.turn == "b"
    play(g, "b", "G1")
    play(g, "a", "G5")
    return g


def test_catch_a_player_who_did_not_call_uno():
    g = _down_to_two()
    play(g, "b", "G2")  # one card left, no UNO
    assert g.turn == "a"
    assert g.table_moves() == [{"type": "catch", "by": "a", "against": "b"}]
    refused(g, {"type": "catch", "by": "b", "against": "b"}, "cannot catch themselves")
    g.push({"type": "catch", "by": "a", "against": "b"})
    assert g.turn == "a"  # the normal next player throughout
    assert g.summary()["catches"] == [{"event": 10, "by": "a", "against": "b"}]
    refused(g, {"type": "play", "player": "a", "card": "G6"}, "must draw two cards first")
    refused(g, {"type": "catch", "by": "a", "against": "b"}, "already caught")
    refused(g, {"type": "draw", "player": "b", "cards": ["R1"]}, "must draw 2 card(s), not 1")
    draw(g, "b")
    assert len(g.hand_of("b")) == 3 and g.turn == "a"
    play(g, "a", "G6")
    assert g.turn == "b"


def test_no_catch_after_uno_or_later():
    g = _down_to_two()
    play(g, "b", "G2", uno=True)
    refused(g, {"type": "catch", "by": "a", "against": "b"}, "no catch possible")
    g2 = _down_to_two()
    play(g2, "b", "G2")
    play(g2, "a", "G6")  # the next event was not a catch: too late
    refused(g2, {"type": "catch", "by": "a", "against": "b"}, "no catch possible")
    refused(
        g2,
        {"type": "catch", "by": "a", "against": "zed"},
        "unknown player",
        kind=engine.InvalidEvent,
    )
    refused(
        g2,
        {"type": "play", "player": "b", "card": "GD", "uno": "yes"},
        "'uno'",
        kind=engine.InvalidEvent,
    )


# -- going out and scoring --------------------------------------------------------------
def test_final_draw_two_is_drawn_and_counted():
    g = _down_to_two()
    play(g, "b", "G2", uno=True)
    play(g, "a", "G6")
    play(g, "b", "GD")  # out
    assert g.turn == "a" and g.summary()["hand_results"] == []
    refused(g, {"type": "play", "player": "a", "card": "G7"}, "must draw 2")
    drawn = draw(g, "a")
    s = g.summary()
    points = sum(POINTS[c] for c in ["G7", "R9", "B9", "Y9", "W", *drawn])
    assert s["hand_results"] == [{"hand": 1, "winner": "b", "points": points}]
    assert s["scores"] == {"a": 0, "b": points}
    assert s["turn"] is None and s["status"] == "in_progress" and s["hands"]["b"] == []
    refused(g, {"type": "play", "player": "a", "card": "G7"}, "no hand is running")
    # the next hand is dealt by the previous dealer's left
    deal(g, "R5")
    assert (g.summary()["hand"], g.summary()["dealer"], g.turn) == (2, "b", "a")


def test_final_wild_draw_four_cannot_be_challenged():
    g = new_game(("a", "b"))
    deal(
        g,
        "R5",
        a=["G5", "G6", "G7", "R9", "B9", "Y9", "R1"],
        b=["RS", "RS", "GS", "GS", "G1", "G2", "W4"],
    )
    for card in ("RS", "RS", "GS", "GS", "G1"):
        play(g, "b", card)
    play(g, "a", "G5")
    play(g, "b", "G2", uno=True)
    play(g, "a", "G6")
    play(g, "b", "W4", color="Y")
    refused(g, {"type": "challenge", "player": "a"}, "only a Wild Draw Four")
    draw(g, "a")
    assert g.summary()["hand_results"][0]["winner"] == "b"


def test_reaching_the_target_finishes_the_game():
    g = _down_to_two(target=50)
    play(g, "b", "G2", uno=True)
    play(g, "a", "G6")
    play(g, "b", "GD")
    draw(g, "a")
    s = g.summary()
    assert s["status"] == "finished" and s["placements"] == {"a": 2, "b": 1}
    assert s["turn"] is None and s["scores"]["b"] >= 50
    refused(g, {"type": "deal"}, "the game is over")


# -- Wild Swap Hands ---------------------------------------------------------------------
def test_swap_hands_with_uneven_counts():
    g = new_game(deck="2018")
    deal(g, "R5", b=["WS", "G1", "G2", "G3", "G4", "G5", "G6"])
    s = g.summary()["hands"]
    pool = s["c"] + s["a"] + [c for c in s["b"] if c != "WS"]  # 20 cards: c 7, a 7, b 6
    hands = {"c": pool[:7], "a": pool[7:14], "b": pool[14:]}
    refused(
        g,
        {"type": "play", "player": "b", "card": "WS", "color": "Y"},
        "needs 'hands'",
        kind=engine.InvalidEvent,
    )
    even = {"c": pool[:7], "a": pool[7:13], "b": pool[13:]}
    refused(
        g,
        {"type": "play", "player": "b", "card": "WS", "color": "Y", "hands": even},
        "deals a 7 card(s), not 6",
    )
    wrong = {**hands, "b": ["R0", *pool[15:]]}
    refused(
        g,
        {"type": "play", "player": "b", "card": "WS", "color": "Y", "hands": wrong},
        "exactly the cards",
    )
    play(g, "b", "WS", color="Y", hands=hands)
    s = g.summary()
    assert s["hands"] == hands and s["color"] == "Y" and s["top"] == "WS" and g.turn == "c"


def test_seeded_swap_is_shuffled_with_the_hands_generator():
    for seed in range(100):  # a seed whose first hand opens with b to play normally
        g = new_game(("a", "b"), deck="2018", seed=seed)
        g.push({"type": "deal"})
        if g.turn == "b" and g._phase == "turn":
            break
    rng = random.Random(f"{seed}/1")
    rng.shuffle(list(CANONICAL["2018"]))
    g._hands[1][0] = "WS"  # (a test shortcut: b holds the swap card)
    pool = g.hand_of("a") + g.hand_of("b")[1:]  # gathered from the next player on
    g.push({"type": "play", "player": "b", "card": "WS", "color": "R"})
    rng.shuffle(pool)
    assert g.hand_of("a") == pool[0::2] and g.hand_of("b") == pool[1::2]


# -- the draw pile ----------------------------------------------------------------------
def test_draw_pile_refilled_from_the_discards_then_exhausted():
    g = new_game(("a", "b"))
    deal(
        g,
        "R5",
        a=["R1", "R2", "R3", "G1", "G2", "G3", "G4"],
        b=["R6", "R7", "R8", "Y1", "Y2", "Y3", "Y4"],
    )
    play(g, "b", "R6")
    play(g, "a", "R1")
    while g.summary()["draw_pile"]:
        who = g.turn
        draw(g, who, [sorted(pile(g))[0]])
        g.push({"type": "pass", "player": who})
    assert g.summary()["draw_pile"] == 0  # refilled only when a card must be drawn
    who = g.turn
    refused(g, {"type": "draw", "player": who, "cards": ["R1"]}, "refilled from the discards")
    draw(g, who, ["R5"])  # the discards but the top card (R1) became the draw pile
    s = g.summary()
    assert s["draw_pile"] == 1 and s["top"] == "R1"
    g.push({"type": "pass", "player": who})
    draw(g, g.turn, ["R6"])
    g.push({"type": "pass", "player": g.turn})
    who = g.turn
    draw(g, who, [])  # nothing left anywhere: the draw is still written
    refused(g, {"type": "play", "player": who, "card": g.hand_of(who)[0]}, "may only pass")
    g.push({"type": "pass", "player": who})
    total = sum(len(h) for h in g.summary()["hands"].values()) + 1
    assert total == 108


def test_seeded_refill_shuffles_with_the_hands_generator():
    g = new_game(("a", "b"), seed=5)
    g.push({"type": "deal"})
    for _ in range(6):  # a few plays, so that the discard pile holds something
        g.push(g.legal_moves()[0])
    while g.summary()["draw_pile"]:
        if g._phase == "turn":
            g.push({"type": "draw", "player": g.turn})
        else:  # pass after a draw; choose a colour, draw a penalty, ...
            moves = g.legal_moves()
            g.push(next((m for m in moves if m["type"] == "pass"), moves[-1]))
    if g._phase == "drawn":
        g.push({"type": "pass", "player": g.turn})
    rng = random.Random("5/1")
    rng.shuffle(list(CANONICAL["classic"]))
    discards = list(g._discard[:-1])
    rng.shuffle(discards)
    who, need = g.turn, {"turn": 1, "w4": 4, "penalty": g._need}[g._phase]
    g.push({"type": "draw", "player": who})
    assert g.hand_of(who)[-need:] == discards[:need]
    assert g.summary()["draw_pile"] == len(discards) - need


# -- the score sheet ----------------------------------------------------------------------
def test_score_sheet_totals_places_and_dealers():
    g = new_game(("a", "b", "c", "d"), sheet=True, target=500)
    assert g.legal_moves() == []
    refused(g, {"type": "deal"}, "only 'hand' lines")
    refused(g, {"type": "hand", "winner": "z", "points": 3}, "'winner'", kind=engine.InvalidEvent)
    refused(
        g, {"type": "hand", "winner": "a", "points": 1241}, "0 to 1240", kind=engine.InvalidEvent
    )
    refused(g, {"type": "hand", "winner": "a", "points": -1}, "'points'", kind=engine.InvalidEvent)
    refused(g, {"type": "hand", "winner": "a", "points": 2.5}, "'points'", kind=engine.InvalidEvent)
    for winner, points in (("b", 100), ("c", 100), ("a", 300)):
        g.push({"type": "hand", "winner": winner, "points": points})
    s = g.summary()
    assert (s["hand"], s["dealer"], s["turn"], s["top"], s["status"]) == (
        3,
        "c",
        None,
        None,
        "in_progress",
    )
    g.push({"type": "hand", "winner": "a", "points": 200})
    s = g.summary()
    assert s["status"] == "finished" and s["scores"] == {"a": 500, "b": 100, "c": 100, "d": 0}
    assert s["placements"] == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert s["hand_results"][-1] == {"hand": 4, "winner": "a", "points": 200}
    refused(g, {"type": "hand", "winner": "a", "points": 1}, "the game is over")
    assert new_game(("a", "b"), sheet=True, deck="2018").is_legal(
        {"type": "hand", "winner": "a", "points": 1400}
    )


def test_full_log_refuses_sheet_lines():
    g = new_game()
    refused(g, {"type": "hand", "winner": "a", "points": 3}, "score sheet")


# -- the end event ----------------------------------------------------------------------
def test_end_for_time_places_by_totals():
    g = new_game(("a", "b", "c"), sheet=True)
    g.push({"type": "hand", "winner": "b", "points": 40})
    g.push({"type": "end", "reason": "time"})
    s = g.summary()
    assert s["placements"] == {"a": 2, "b": 1, "c": 2}
    assert s["end"] == {"event": 3, "reason": "time"} and s["status"] == "finished"
    refused(g, {"type": "end", "reason": "time"}, "game is over")


def test_end_adjudicated_with_placements():
    g = new_game()
    deal(g, "R5")
    assert engine.UnoGame.event_needs_referee({"type": "end", "reason": "adjudicated"})
    assert not engine.UnoGame.event_needs_referee({"type": "end", "reason": "time"})
    assert not engine.UnoGame.event_needs_referee([1])
    check_adjudicated_end(g)


# -- the contract ----------------------------------------------------------------------
def test_registered_and_restorable():
    assert engine.game_class("uno") is engine.UnoGame
    assert ("uno", "UNO") in engine.kind_choices()
    assert (engine.UnoGame.min_players, engine.UnoGame.max_players) == (2, 10)
    g = new_game(seed=3)
    g.push({"type": "deal"})
    r = engine.restore(g.to_state())
    assert r.summary() == g.summary() and r.legal_moves() == g.legal_moves()
    move = g.legal_moves()[0]
    g.push(dict(move))
    r.push(dict(move))
    assert r.to_state() == g.to_state()


def test_public_summary_hides_the_hands_while_a_hand_runs():
    g = new_game(("a", "b"))
    assert engine.UnoGame.public_summary(g.summary()) == g.summary()
    deal(g, "R5")
    shown = engine.UnoGame.public_summary(g.summary())
    assert shown["hands"] == {"a": [], "b": []} and shown["hand_sizes"] == {"a": 7, "b": 7}
    g.push({"type": "end", "reason": "time"})
    assert engine.UnoGame.public_summary(g.summary()) == g.summary()


def test_other_events_are_refused():
    g = new_game()
    deal(g, "R5")
    refused(g, {"type": "knock", "player": "b"}, "unknown event type", kind=engine.InvalidEvent)
    refused(g, {"type": "start", "game": "uno"}, "only be the first line", kind=engine.InvalidEvent)
    refused(
        g,
        {"type": "play", "player": "zed", "card": "R1"},
        "unknown player",
        kind=engine.InvalidEvent,
    )
    refused(g, {"type": "pass", "player": "c"}, "out of turn")
    refused(g, {"type": "challenge", "player": "b"}, "only a Wild Draw Four")
    with pytest.raises(engine.InvalidEvent):
        g.push(["not", "an", "object"])  # type: ignore[arg-type]


def test_an_end_right_after_a_seeded_deal_names_no_cards():
    # named_event fills in only what the event itself moves: an end after a deal is
    # the end as given (it once carried the deal's hands and up cards, and was refused)
    game = engine.start({"type": "start", "game": "uno", "players": ["ann", "bob"], "seed": 3})
    game.push(game.named_event({"type": "deal"}))
    end = {"type": "end", "reason": "time"}
    assert game.named_event(end) == end
    game.push(game.named_event(end))
    assert game.is_over
