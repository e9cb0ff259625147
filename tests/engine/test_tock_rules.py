"""Unit tests for every TOCK rule, each with a small hand-written log or position."""

from __future__ import annotations

import random

import pytest

import games.engine as engine
from games.engine import IllegalMove, InvalidEvent, LogError
from games.engine.tock import rules
from games.engine.tock.rules import shuffled_deck, sorted_deck
from tests.engine.tock_helpers import (
    draw,
    flip,
    play,
    position,
    run,
    start_event,
    tock,
    total_cards,
)


def rejects(exc_type, match, *events, **kw):
    with pytest.raises(LogError, match=match) as info:
        run(*events, **kw)
    assert isinstance(info.value.cause, exc_type)
    return info.value


# --------------------------------------------------------------------------- start
class TestStart:
    def test_defaults(self):
        g = engine.start({"type": "start", "game": "tock", "players": ["a", "b"]})
        assert g.players == ("a", "b")
        assert g.turn == "a" and g.mode == "table" and g.status == "in_progress"
        s = g.summary()
        assert s["table"] == 121 and s["center"] == [] and s["piles"] == {"a": [], "b": []}
        assert s["placements"] is None and g.placements() is None
        assert g.event_count == 1

    @pytest.mark.parametrize(
        "patch, match",
        [
            ({"players": ["a"]}, "2 to 6 players"),
            ({"players": list("abcdefg")}, "2 to 6 players"),
            ({"players": ["a", "a"]}, "unique"),
            ({"players": ["a", ""]}, "empty"),
            ({"players": ["a", "center"]}, "reserved"),
            ({"players": "ab"}, "list"),
            ({"first": "zed"}, "first"),
            ({"mode": "casual"}, "mode"),
            ({"seed": 1.5}, "seed"),
            ({"colour": "red"}, "unknown field"),
            ({"game": "chess"}, "unknown game"),
        ],
    )
    def test_bad_start(self, patch, match):
        ev = {"type": "start", "game": "tock", "players": ["a", "b"], **patch}
        with pytest.raises(InvalidEvent, match=match):
            engine.start(ev)

    def test_first_line_must_be_start(self):
        with pytest.raises(LogError, match="line 1: .*start"):
            engine.replay([draw("ana", 1, "center")])

    def test_second_start_rejected(self):
        rejects(InvalidEvent, "line 2: .*first line", start_event())


# --------------------------------------------------------------------------- placing
class TestCenter:
    def test_one_opens_series_and_chain(self):
        g = run(draw("ana", 1, "center"), draw("ana", 2, "center"), draw("ana", 1, "center"))
        assert g.summary()["center"] == [2, 1]
        assert g.turn == "ana"  # a successful placement does not end the turn

    def test_series_choice(self):
        g = run(
            draw("ana", 1, "center"),
            draw("ana", 1, "center"),
            draw("ana", 2, "center", series=1),
        )
        assert g.summary()["center"] == [1, 2]
        g = run(draw("ana", 1, "center"), draw("ana", 1, "center"), draw("ana", 2, "center"))
        assert g.summary()["center"] == [2, 1]  # first fitting series by default

    def test_six_ones_open_six_series_and_use_up_the_ones(self):
        # A 1 always fits the center: six 1s exist, and six series take them all, so no
        # 1 is ever left to meet six open series.
        ones = [draw("ana", 1, "center") for _ in range(6)]
        g = run(*ones)
        assert g.summary()["center"] == [1] * 6
        assert all(m["card"] != 1 for m in g.legal_moves())
        with pytest.raises(IllegalMove, match="no 1 is left face down on the table"):
            g.push(draw("ana", 1, "center"))
        g.push(draw("ana", 2, "center", series=5))
        assert g.summary()["center"] == [1, 1, 1, 1, 1, 2]

    def test_no_card_above_the_top(self):
        rejects(IllegalMove, "line 2: 5 does not fit the center", draw("ana", 5, "center"))

    def test_21_never_fits_center(self):
        g = position({"ana": [21], "ben": [2]}, center=[20])
        with pytest.raises(IllegalMove, match="El Travieso"):
            g.push(play("ana", 21, "center"))
        rejects(IllegalMove, "line 2: 21 .*never fits the center", draw("ana", 21, "center"))

    def test_completed_series_takes_nothing(self):
        g = position({"ana": [21, 7], "ben": [5]}, center=[20, 6])
        g.push(play("ana", 7, "center"))
        assert g.summary()["center"] == [20, 7]


class TestOtherPlayer:
    def test_plus_minus_one(self):
        g = run(
            draw("ana", 5, "ana"),  # ana's turn ends
            draw("ben", 4, "ana"),
            draw("ben", 3, "ana"),
            draw("ben", 9, "ben"),
        )
        assert g.summary()["piles"] == {"ana": [5, 4, 3], "ben": [9], "cai": []}
        assert g.turn == "cai"

    def test_does_not_fit(self):
        rejects(
            IllegalMove,
            "line 3: 7 does not fit ana's top card 3",
            draw("ana", 3, "ana"),
            draw("ben", 7, "ana"),
        )

    def test_empty_discard_takes_nothing(self):
        rejects(IllegalMove, "discard is empty", draw("ana", 3, "ben"))

    def test_21_on_20_and_20_on_21(self):
        g = position({"ana": [21], "ben": [20], "cai": [4]})
        g.push(play("ana", 21, "ben"))
        assert g.summary()["piles"]["ben"] == [20, 21]
        g = position({"ana": [20], "ben": [21], "cai": [4]}, center=[18])
        g.push(play("ana", 20, "ben"))
        assert g.summary()["piles"]["ben"] == [21, 20]

    def test_21_does_not_fit_19(self):
        g = position({"ana": [21], "ben": [19], "cai": [4]})
        with pytest.raises(IllegalMove, match="21 does not fit ben's top card 19"):
            g.push(play("ana", 21, "ben"))

    def test_play_must_name_the_top_card(self):
        g = position({"ana": [3, 8], "ben": [9]})
        with pytest.raises(IllegalMove, match="top card is 8, not 3"):
            g.push(play("ana", 3, "ben"))
        g2 = position({"ana": [], "ben": [9]})
        with pytest.raises(IllegalMove, match="no face-up card"):
            g2.push(play("ana", 8, "ben"))

    def test_cannot_play_onto_own_discard(self):
        g = position({"ana": [3, 8], "ben": [9]})
        with pytest.raises(IllegalMove, match="own discard"):
            g.push(play("ana", 8, "ana"))


# --------------------------------------------------------------------------- turns
class TestTurn:
    def test_chain_after_draw(self):
        # ana's 10 fits nowhere; she draws a 12 (onto ben's 13) and an 11 (onto the 12):
        # now her 10 fits ben's 11 and she must play it before drawing again.
        g = position({"ana": [10], "ben": [13], "cai": [15]})
        g.push(draw("ana", 12, "ben"))
        g.push(draw("ana", 11, "ben"))
        assert g.legal_moves() == [play("ana", 10, "ben")]
        g.push(play("ana", 10, "ben"))
        assert g.summary()["piles"] == {"ana": [], "ben": [13, 12, 11, 10], "cai": [15]}
        assert g.turn == "ana"  # empty discard while the table has cards: draw again
        g.push(draw("ana", 16, "cai"))
        g.push(draw("ana", 3, "ana"))  # fits nowhere: the turn ends
        assert g.turn == "ben"
        assert g.summary()["infractions"] == []

    def test_out_of_turn(self):
        rejects(IllegalMove, "line 2: ben acted out of turn .*ana's turn", draw("ben", 3, "ben"))

    def test_turn_order_clockwise_from_first(self):
        g = run(draw("cai", 5, "cai"), draw("ana", 9, "ana"), first="cai")
        assert g.turn == "ben"

    def test_seventh_five_rejected(self):
        g = position({"ana": [5, 5, 5], "ben": [5, 5, 5]})
        with pytest.raises(IllegalMove, match="no 5 is left face down"):
            g.push(draw("ana", 5, "ana"))

    def test_unseeded_draw_needs_card(self):
        rejects(InvalidEvent, "'card' is required", draw("ana", None, "ana"))

    @pytest.mark.parametrize(
        "event, match",
        [
            ({"type": "dance", "player": "ana"}, "unknown event type 'dance'"),
            ({"type": "draw", "player": "zed", "card": 1, "to": "center"}, "unknown player"),
            ({"type": "draw", "player": "ana", "card": 22, "to": "center"}, "'card' must be"),
            ({"type": "draw", "player": "ana", "card": "7", "to": "center"}, "'card' must be"),
            ({"type": "draw", "player": "ana", "card": 1, "to": "moon"}, "'to' must be"),
            ({"type": "draw", "player": "ana", "card": 1, "to": "center", "x": 1}, "unknown"),
            ({"type": "play", "player": "ana", "to": "center"}, "'card' is required"),
        ],
    )
    def test_malformed(self, event, match):
        rejects(InvalidEvent, "line 2: " + match, event)

    def test_underscore_keys_are_metadata(self):
        g = run({**draw("ana", 1, "center"), "_ts": "2024-01-01T00:00:00Z"})
        assert g.summary()["center"] == [1]


class TestSeed:
    def test_documented_shuffle(self):
        deck = sorted_deck()
        assert deck[:3] == [1, 2, 3] and deck[20] == 1 and deck[-1] == 21 and len(deck) == 121
        random.Random(42).shuffle(deck)
        assert shuffled_deck(42) == deck

    def test_inlined_shuffle_matches_random_shuffle(self):
        # shuffled_deck() inlines Random.shuffle for speed; it must draw the same way.
        assert rules._shuffle is rules._fast_shuffle  # the self-check passed
        for seed in [*range(300), -5, 2**64 + 1, "x", "tock-bots:3", "ü"]:
            deck = sorted_deck()
            random.Random(seed).shuffle(deck)
            assert shuffled_deck(seed) == deck, seed

    def test_draws_follow_the_shuffle(self):
        deck = shuffled_deck(42)
        g = engine.start(start_event(seed=42))
        nxt = deck[0]
        assert g.legal_moves()[0]["card"] == nxt
        to = "center" if nxt == 1 else "ana"
        g.push(draw("ana", None, to))  # card may be omitted with a seed
        assert g.summary()["table"] == 120
        wrong = deck[1] % 21 + 1
        with pytest.raises(IllegalMove, match=f"next face-down table card is {deck[1]}"):
            g.push(draw(g.turn, wrong, g.turn))


# --------------------------------------------------------------------------- infractions
# cai's 6 goes on ana's 5, so ben's 7 fits ana's new top; later ana's own top 6 fits
# ben's 7, yet she draws: forgot_discard on line 6.
FORGOT_DISCARD_LOG = [
    draw("ana", 5, "ana"),
    draw("ben", 7, "ben"),
    draw("cai", 6, "ana"),
    draw("cai", 14, "cai"),
    draw("ana", 17, "ana"),
]


class TestInfractions:
    def test_forgot_discard(self):
        g = run(*FORGOT_DISCARD_LOG)
        inf = g.summary()["infractions"]
        assert inf == [{"event": 6, "player": "ana", "kind": "forgot_discard", "penalized": False}]

    def test_forgot_center(self):
        g = run(draw("ana", 1, "center"), draw("ana", 3, "ana"), draw("ben", 2, "ana"))
        assert [i["kind"] for i in g.summary()["infractions"]] == ["forgot_center"]
        assert g.summary()["piles"]["ana"] == [3, 2]
        # also when playing a face-up card
        g = position({"ana": [5], "ben": [6]}, center=[4])
        g.push(play("ana", 5, "ben"))
        assert [i["kind"] for i in g.summary()["infractions"]] == ["forgot_center"]

    def test_wrong_discard_ends_the_turn(self):
        g = run(draw("ana", 1, "ana"))
        assert g.summary()["infractions"][0]["kind"] == "wrong_discard"
        assert g.turn == "ben"
        g = run(draw("ana", 4, "ana"), draw("ben", 5, "ben"))  # 5 fits ana's 4
        assert g.summary()["infractions"][0] == {
            "event": 3,
            "player": "ben",
            "kind": "wrong_discard",
            "penalized": False,
        }

    def test_two_infractions_in_one_draw(self):
        g = position({"ana": [5], "ben": [6]}, center=[1])
        g.push(draw("ana", 2, "ana"))  # 5 fitted ben; 2 fitted the center
        assert [i["kind"] for i in g.summary()["infractions"]] == [
            "forgot_discard",
            "wrong_discard",
        ]

    @pytest.mark.parametrize(
        "events, match",
        [
            ([draw("ana", 1, "ana")], "wrong_discard"),
            (
                [draw("ana", 1, "center"), draw("ana", 3, "ana"), draw("ben", 2, "ana")],
                "forgot_center",
            ),
            (FORGOT_DISCARD_LOG, "forgot_discard"),
        ],
    )
    def test_strict_rejects_infractions(self, events, match):
        rejects(IllegalMove, f"line {len(events) + 1}: {match}", *events, mode="strict")
        assert run(*events, mode="table").summary()["infractions"]

    def test_placement_that_fits_nowhere_always_rejected(self):
        for mode in ("table", "strict"):
            rejects(
                IllegalMove,
                "7 does not fit ana's top card 3",
                draw("ana", 3, "ana"),
                draw("ben", 7, "ana"),
                mode=mode,
            )

    def test_legal_moves_respect_priority(self):
        g = position({"ana": [5], "ben": [6]}, center=[4])
        assert g.legal_moves() == [{"type": "play", "player": "ana", "card": 5, "to": "center"}]
        assert g.is_legal(play("ana", 5, "ben"))  # table mode: accepted, recorded
        s = position({"ana": [5], "ben": [6]}, center=[4], mode="strict")
        assert not s.is_legal(play("ana", 5, "ben"))
        assert s.summary()["infractions"] == []


# --------------------------------------------------------------------------- knocks
def four(**kw):
    return position({"ana": [5, 6], "ben": [14, 12], "cai": [17, 18], "dan": [2, 3]}, **kw)


class TestKnocks:
    def test_correct_knock_during_turn(self):
        g = four()
        g.push(draw("ana", 1, "center"))
        g.push(draw("ana", 13, "ben"))  # ana's 6 fits nothing; 13 on ben's 12
        g.push(draw("ana", 2, "dan"))  # forgot_center: 2 fits the center
        g.push(tock("cai"))
        s = g.summary()
        assert s["knocks"] == [{"event": 5, "by": "cai", "against": "ana", "correct": True}]
        # ana gets the bottom cards of ben, cai, dan (clockwise from her left), each put
        # under her discard: the last one received (dan's 2) ends at the very bottom.
        assert s["piles"]["ana"] == [2, 17, 14, 5, 6]
        assert s["piles"]["ben"] == [12, 13] and s["piles"]["dan"] == [3, 2]
        assert s["infractions"][0]["penalized"] is True
        assert g.turn == "ben"  # the turn ended
        assert total_cards(g) == 121

    def test_knock_between_turns_on_wrong_discard(self):
        g = four()
        g.push(draw("ana", 1, "ana"))  # wrong_discard ends the turn
        assert g.turn == "ben"
        g.push(tock("ben"))  # the active player may knock on the previous turn
        s = g.summary()
        assert s["knocks"][0] == {"event": 3, "by": "ben", "against": "ana", "correct": True}
        assert s["piles"]["ana"] == [2, 17, 14, 5, 6, 1]
        assert g.turn == "ben"  # the next turn is not affected

    def test_knock_after_next_player_acted_targets_current_turn(self):
        g = four()
        g.push(draw("ana", 1, "ana"))  # wrong_discard
        g.push(draw("ben", 16, "ben"))  # ben acted: ana's turn can no longer be knocked
        g.push(tock("ana"))
        k = g.summary()["knocks"][0]
        assert k["against"] == "ben" and k["correct"] is False

    def test_cannot_knock_on_oneself(self):
        rejects(
            IllegalMove,
            "line 3: ana cannot knock on their own turn",
            draw("ana", 1, "center"),
            tock("ana"),
        )

    def test_referee_overrides(self):
        g = four()
        g.push(draw("ana", 13, "ben"))
        g.push(tock("cai", ruling="correct", referee="rita"))
        k = g.summary()["knocks"][0]
        assert k == {
            "event": 3,
            "by": "cai",
            "against": "ana",
            "correct": True,
            "ruling": "correct",
            "engine_correct": False,
            "referee": "rita",
        }
        assert g.turn == "ben"  # applied as correct: ana's turn ended
        g = four()
        g.push(draw("ana", 1, "ana"))
        g.push(tock("cai", ruling="incorrect"))
        s = g.summary()
        assert s["knocks"][0]["correct"] is False and s["knocks"][0]["engine_correct"] is True
        assert s["infractions"][0]["penalized"] is False
        assert s["piles"]["cai"][:3] == [14, 5, 2]  # the knocker was penalised

    def test_bad_ruling(self):
        rejects(InvalidEvent, "ruling", draw("ana", 1, "center"), tock("ben", ruling="maybe"))

    def test_gone_out_cannot_knock_or_be_knocked(self):
        g = endgame(piles={"ana": [11], "ben": [13, 15], "cai": [12, 14, 16, 17, 18, 19, 20, 21]})
        g.push(play("ana", 11, "center"))  # ana goes out; ben has not acted yet
        with pytest.raises(IllegalMove, match="ana has gone out and cannot knock"):
            g.push(tock("ana"))
        with pytest.raises(IllegalMove, match="ana has gone out; going out is final"):
            g.push(tock("cai"))


# --------------------------------------------------------------------------- empty table
def endgame(**kw):
    """Center [20]*5 + [10]: the 11 cards 11..21 are with the players; table empty."""
    return position(center=[20, 20, 20, 20, 20, 10], **kw)


class TestFlipAndStock:
    def test_flip_while_table_has_cards(self):
        rejects(
            IllegalMove,
            "line 4: cannot flip while 119 face-down",
            draw("ana", 9, "ana"),
            draw("ben", 9, "ben"),
            flip("cai"),
        )

    def test_flip_and_draw_from_stock(self):
        g = endgame(
            piles={"ana": [19, 17, 15, 13], "ben": [21, 16, 18], "cai": [11, 14, 20, 12]},
            active="cai",
        )
        g.push(play("cai", 12, "ana"))  # 12 fits ana's 13
        # cai's 20 fits nowhere and the table is empty: flip the whole discard
        g.push(flip("cai"))
        s = g.summary()
        assert s["piles"]["cai"] == [] and s["stocks"]["cai"] == [20, 14, 11]
        # the old bottom card (11) is now on top and drawn first
        with pytest.raises(IllegalMove, match="top of cai's stock is 11, not 12"):
            g.push(draw("cai", 12, "center"))
        g.push(draw("cai", 11, "center"))
        g.push(draw("cai", None, "cai"))  # the card may be omitted: the stock is known
        s = g.summary()
        # the drawn 14 fits nowhere: it starts a new face-up discard; the turn ends
        assert s["piles"]["cai"] == [14] and s["stocks"]["cai"] == [20]
        assert g.turn == "ana" and s["infractions"] == []
        assert total_cards(g) == 121

    def test_must_flip_before_drawing(self):
        g = endgame(
            piles={"ana": [21, 19, 17], "ben": [15, 13, 11, 12, 14, 16, 18, 20]}, active="ana"
        )
        with pytest.raises(IllegalMove, match="flip the discard first"):
            g.push(draw("ana", 17, "ana"))

    def test_flip_when_top_fits_is_forgot_discard(self):
        piles = {"ana": [21, 19, 11], "ben": [15, 13, 12, 14, 16, 18, 20, 17]}
        g = endgame(piles=piles)
        g.push(flip("ana"))
        assert g.summary()["infractions"][0]["kind"] == "forgot_discard"
        with pytest.raises(IllegalMove, match="forgot_discard"):
            endgame(piles=piles, mode="strict").push(flip("ana"))


class TestGoingOut:
    def test_goes_out_when_last_card_played(self):
        g = endgame(piles={"ana": [11], "ben": [13, 15], "cai": [12, 14, 16, 17, 18, 19, 20, 21]})
        g.push(play("ana", 11, "center"))
        s = g.summary()
        assert s["out"] == ["ana"] and g.turn == "ben"
        assert g.status == "in_progress"
        with pytest.raises(IllegalMove, match="ana has gone out"):
            g.push(draw("ana", 12, "center"))

    def test_table_running_out_puts_empty_players_out(self):
        # Only the 21 is still face down; ben has no cards at all.
        g = endgame(piles={"ana": [17], "ben": [], "cai": [11, 12, 13, 14, 15, 16, 18, 19, 20]})
        assert g.summary()["table"] == 121 - 110 - 10
        g.push(draw("ana", 21, "cai"))  # the last table card: 21 on cai's 20
        s = g.summary()
        assert s["table"] == 0 and s["out"] == ["ben"]
        assert g.turn == "ana"  # ana still has her 17: her turn goes on

    def test_out_by_penalty_active_first_then_clockwise(self):
        g = endgame(
            piles={"ana": [15, 16, 17, 18, 19, 11, 21], "ben": [13], "cai": [14, 20], "dan": [12]},
            active="cai",
        )
        g.push(play("cai", 20, "ana"))
        g.push(tock("dan"))  # wrong: dan takes the bottom cards of ana, ben and cai
        s = g.summary()
        assert s["piles"]["dan"] == [14, 13, 15, 12]
        assert s["out"] == ["cai", "ben"]  # the active player first, then clockwise
        assert g.turn == "dan"

    def test_out_by_penalty_of_a_knocker(self):
        g = endgame(
            piles={"ana": [11, 21], "ben": [13], "cai": [14, 15, 16, 17, 18, 19, 20], "dan": [12]},
            active="cai",
        )
        g.push(play("cai", 20, "ana"))
        g.push(tock("ana"))
        s = g.summary()
        assert s["out"] == ["dan", "ben"]  # from the active cai clockwise: dan, ana, ben
        assert s["piles"]["ana"] == [12, 14, 13, 11, 21, 20]
        assert g.turn == "cai"


class TestEnd:
    def test_all_series_complete(self):
        g = endgame(piles={"ana": [20, 19, 18, 17, 16, 15, 14, 13, 12, 11], "ben": [21]})
        for card in range(11, 21):
            g.push(play("ana", card, "center"))
        assert g.summary()["center"] == [20] * 6
        assert g.status == "finished" and g.turn is None
        assert g.placements() == {"ana": 1, "ben": 2}

    def test_last_player_left(self):
        g = endgame(piles={"ana": [11], "ben": [13, 15, 12, 14, 16, 17, 18, 19, 20, 21]})
        g.push(play("ana", 11, "center"))
        assert g.status == "finished" and g.turn is None
        assert g.placements() == {"ana": 1, "ben": 2}

    def test_placements_ties(self):
        g = endgame(
            piles={"ana": [11], "ben": [13, 15], "cai": [12, 14, 16, 17], "dan": [18, 19, 20, 21]}
        )
        g.push(play("ana", 11, "center"))
        g.push({"type": "end", "reason": "time"})
        assert g.placements() == {"ana": 1, "ben": 2, "cai": 3, "dan": 3}
        assert g.summary()["end"]["reason"] == "time"

    def test_end_with_placements(self):
        g = run(
            draw("ana", 1, "center"),
            {
                "type": "end",
                "reason": "adjudicated",
                "referee": "rita",
                "placements": {"ana": 2, "ben": 1, "cai": 2},
            },
        )
        assert g.status == "finished" and g.placements() == {"ana": 2, "ben": 1, "cai": 2}

    def test_end_reason_required(self):
        rejects(InvalidEvent, "reason", {"type": "end"})

    def test_stalemate(self):
        # Only the 20 and the 21 are left: ana holds 20, ben 21. Each keeps flipping and
        # discarding (forgot_discard + wrong_discard in table mode): the position at the
        # start of a turn repeats until its third occurrence.
        g = position({"ana": [20], "ben": [21]}, center=[20, 20, 20, 20, 20, 19])
        cycle = [flip("ana"), draw("ana", 20, "ana"), flip("ben"), draw("ben", 21, "ben")]
        events = 0
        while g.status == "in_progress":
            g.push(cycle[events % 4])
            events += 1
            assert events < 50
        assert g.status == "stalemate" and g.turn is None
        assert events == 10  # turn starts: ben, ana, ben, ana, ben (third time)
        assert g.placements() == {"ana": 1, "ben": 1}
        with pytest.raises(IllegalMove, match="over"):
            g.push(flip("ana"))
