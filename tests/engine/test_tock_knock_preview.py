"""games.engine.knock_preview: the engine's verdict on a knock made now, explained, with
its penalty, equal to what push() applies (the preview pushes on a copy)."""

from __future__ import annotations

import pytest

import games.engine as engine
from games.engine import EngineError, knock_preview
from games.engine.tock.knock import CODES
from tests.engine.tock_helpers import draw, start_event, tock

FORGOT_DISCARD_LOG = [
    draw("ana", 5, "ana"),
    draw("ben", 7, "ben"),
    draw("cai", 6, "ana"),
    draw("cai", 14, "cai"),
    draw("ana", 17, "ana"),
]


def log(*events, players=("ana", "ben", "cai")):
    return [start_event(players), *events]


def applied(events, by):
    """What push() does with the knock: (verdict, against, penalty moves) or None."""
    g = engine.replay(events)
    before = g.to_state()
    try:
        g.push(tock(by))
    except EngineError:
        return None
    after = g.to_state()
    knock = g.summary()["knocks"][-1]
    return knock, before, after


def test_forgot_discard_sentence_and_penalty():
    events = log(*FORGOT_DISCARD_LOG)
    pv = knock_preview(events, "ben")
    assert pv["verdict"] == "correct" and pv["against"] == "ana"
    assert pv["code"] == "forgot_discard"
    assert pv["params"] == {
        "player": "ana",
        "event": 6,
        "move": "draw",
        "card": 6,
        "target_player": "ben",
        "target_card": 7,
    }
    assert pv["sentence"] == (
        "ana drew at event 6 although the top of their discard, 6, fitted on ben's 7: "
        "forgot their own discard"
    )
    # ana takes the bottom card of ben (7) then cai (14), each under her discard
    assert pv["penalty"] == [
        {"card": 7, "from": "ben", "to": "ana"},
        {"card": 14, "from": "cai", "to": "ana"},
    ]
    g = engine.replay(events)
    g.push(tock("ben"))
    assert g.summary()["piles"]["ana"] == [14, 7, 5, 6, 17]


def test_forgot_center():
    events = log(draw("ana", 1, "center"), draw("ana", 3, "ana"), draw("ben", 2, "ana"))
    pv = knock_preview(events, "cai")
    assert (pv["verdict"], pv["against"], pv["code"]) == ("correct", "ben", "forgot_center")
    assert pv["params"]["card"] == 2 and pv["params"]["to"] == "ana"
    assert pv["params"]["target_player"] == "center" and pv["params"]["target_card"] == 1
    assert "forgot the center" in pv["sentence"]


def test_wrong_discard_and_two_infractions_in_one_move():
    pv = knock_preview(log(draw("ana", 1, "ana")), "ben")
    assert (pv["verdict"], pv["against"], pv["code"]) == ("correct", "ana", "wrong_discard")
    assert pv["params"]["target_player"] == "center" and pv["params"]["target_card"] is None
    assert "opened a new series" in pv["sentence"]
    # ana's 5 fits ben's 4, then she puts the drawn 1 on her own discard
    events = log(draw("ana", 5, "ana"), draw("ben", 4, "ben"), draw("cai", 9, "cai"))
    events.append(draw("ana", 1, "ana"))
    pv = knock_preview(events, "cai")
    assert pv["code"] == "forgot_discard"
    assert [m["code"] for m in pv["more"]] == ["wrong_discard"]


def test_clean_turn_and_already_penalized():
    events = log(draw("ana", 5, "ana"))
    pv = knock_preview(events, "ben")
    assert (pv["verdict"], pv["against"], pv["code"]) == ("incorrect", "ana", "clean_turn")
    assert pv["penalty"] == [{"card": 5, "from": "ana", "to": "ben"}]  # ben takes one
    events = log(draw("ana", 1, "ana"), tock("ben"))
    pv = knock_preview(events, "cai")
    assert (pv["verdict"], pv["code"]) == ("incorrect", "already_penalized")


@pytest.mark.parametrize(
    "events, by, code",
    [
        (log(), "ben", "before_first_turn"),
        (log(draw("ana", 5, "ana")), "zed", "unknown_player"),
        (log(draw("ana", 5, "ana"), draw("ben", 9, "ben")), "ben", "own_turn"),
        (log(draw("ana", 5, "ana"), {"type": "end", "reason": "time"}), "ben", "game_over"),
    ],
)
def test_invalid_knocks(events, by, code):
    pv = knock_preview(events, by)
    assert (pv["verdict"], pv["against"], pv["code"], pv["penalty"]) == ("invalid", None, code, [])
    assert applied(events, by) is None


def test_knock_on_a_player_who_went_out():
    # two players; the table emptied long ago: crafted via the helpers' position()
    from tests.engine.tock_helpers import position

    g = position({"ana": [5], "ben": [9], "cai": [12]}, active="ana")
    # the position after ana went out (table empty) and ben's turn has not begun: a
    # knock now is judged on ana's turn, and ana herself may no longer knock
    st = g.to_state()
    st["table"], st["counts"] = 0, [0] * len(st["counts"])
    st["in"][0] = False
    st["out"] = [0]
    st["piles"][0] = []
    st["active"], st["acted"], st["prev_player"], st["prev"] = 1, False, 0, []
    g = engine.restore(st)
    pv = knock_preview([start_event(("ana", "ben", "cai"))], "cai", game=g)
    assert (pv["verdict"], pv["code"]) == ("invalid", "target_out")
    pv = knock_preview([start_event(("ana", "ben", "cai"))], "ana", game=g)
    assert (pv["verdict"], pv["code"]) == ("invalid", "knocker_out")


@pytest.mark.parametrize("seed", [1, 7])
def test_preview_equals_push_everywhere(seed):
    """Property: at every point of simulated games with mistakes and knocks, for every
    knocker, the preview's verdict, target and penalty are what push() applies, and the
    preview never raises."""
    players = ["ana", "ben", "cai", "dan"]
    events = engine.simulate("tock", players=players, seed=seed, mistakes=0.3, knocks=0.2)
    seen = set()
    for i in range(1, min(len(events), 160) + 1):
        prefix = events[:i]
        for by in [*players, "zed"]:
            pv = knock_preview(prefix, by)
            assert pv["code"] in CODES[pv["verdict"]]
            seen.add(pv["code"])
            result = applied(prefix, by)
            if result is None:
                assert pv["verdict"] == "invalid"
                continue
            knock, before, after = result
            assert pv["verdict"] == ("correct" if knock["correct"] else "incorrect")
            assert pv["against"] == knock["against"]
            taker = pv["against"] if knock["correct"] else by
            piles = {p: list(before["piles"][k]) for k, p in enumerate(players)}
            for move in pv["penalty"]:  # replay the preview's moves on the piles
                assert move["to"] == taker
                assert piles[move["from"]][0] == move["card"]
                piles[move["from"]].pop(0)
                piles[move["to"]].insert(0, move["card"])
            assert piles == {p: list(after["piles"][k]) for k, p in enumerate(players)}
    assert {"clean_turn", "before_first_turn", "own_turn", "unknown_player"} <= seen
