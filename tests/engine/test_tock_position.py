"""A referee's verdict from the table's position (issue 22): at many points of simulated
games with mistakes and knocks -- pending infraction, clean turn, already penalised --
the verdict judged from what the table shows (games.engine.tock.position) equals the
verdict judged on the recorded log at the same point; impossible positions are refused
with a reason naming the rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import replay, simulate
from games.engine.tock.knock import knock_preview
from games.engine.tock.position import PositionError, check_facts, knock_from_position, position_of

FIELDS = ("verdict", "against", "code", "penalty", "goes_out")


def _points(seed: int, players: int):
    """(game before the move, the move, the log up to and with the move) for every move
    that opens a turn's judgement cleanly: nothing pending from earlier in the turn."""
    handles = [f"p{i}" for i in range(players)]
    log = simulate(game="tock", players=handles, seed=seed, mistakes=0.15, knocks=0.0)
    log[0] = {k: v for k, v in log[0].items() if k != "seed"}
    game = replay(log[:1])
    for i, event in enumerate(log[1:], start=1):
        if event["type"] in ("play", "draw", "flip") and not (
            game._acted and game._pending_this_turn
        ):
            yield game, event, log[: i + 1]
        game.push(event)


def _same(position_verdict, log_verdict):
    assert {k: position_verdict[k] for k in FIELDS} == {k: log_verdict[k] for k in FIELDS}
    assert position_verdict["params"].get("card") == log_verdict["params"].get("card")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), players=st.integers(2, 5))
def test_the_tables_position_gives_the_recorded_logs_verdict(seed, players):
    checked = 0
    for before, move, upto in _points(seed, players):
        facts = position_of(before, move)
        knocker = next(p for p in facts["players"] if p != move["player"])
        after = replay(upto)
        log_verdict = knock_preview(upto, knocker, game=after)
        _same(knock_from_position(facts, knocker), log_verdict)
        if log_verdict["verdict"] == "correct":  # and once it has been penalised
            penalised = [*upto, {"type": "tock", "player": knocker}]
            again = knock_preview(penalised, knocker)
            _same(knock_from_position({**facts, "penalized": True}, knocker), again)
            assert again["code"] == "already_penalized"
        checked += 1
        if checked >= 40:
            break
    assert checked


def test_each_kind_of_verdict_is_reached():
    kinds = set()
    for seed in range(6):
        for before, move, _upto in _points(seed, 4):
            facts = position_of(before, move)
            knocker = next(p for p in facts["players"] if p != move["player"])
            kinds.add(knock_from_position(facts, knocker)["code"])
    assert {"clean_turn", "forgot_discard", "wrong_discard", "forgot_center"} <= kinds


def _facts(**more):
    base = {
        "players": ["ann", "bob"],
        "center": [3],
        "piles": {"ann": {"top": 9, "bottom": 4, "count": 2}, "bob": {"count": 0}},
        "stocks": {"ann": 0, "bob": 0},
        "table": 121 - 3 - 2,
        "turn": "ann",
        "action": {"type": "draw", "card": 4, "to": "ann"},
    }
    base.update(more)
    return base


def test_a_wrong_discard_judged_from_the_table():
    verdict = knock_from_position(_facts(), "bob")
    assert verdict["verdict"] == "correct" and verdict["code"] == "wrong_discard"
    assert verdict["against"] == "ann"
    assert verdict["penalty"] == []  # bob has no discard to give
    assert verdict["position"]["turn"] == "ann"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"center": [3, 3, 3, 3, 3, 3, 3]}, "at most 6 series"),
        ({"center": [21]}, "a card from 1 to 20"),
        ({"table": 5}, "the cards add up to"),
        ({"players": ["ann", "ann"]}, "distinct names"),
        ({"turn": "zed"}, "one of the players"),
        ({"action": {"type": "dance"}}, "a play, a draw or a flip"),
        (
            {
                "center": [6, 6, 6, 6, 6, 6],
                "piles": {"ann": {"top": 1, "bottom": 4, "count": 2}, "bob": {"count": 0}},
                "table": 121 - 36 - 2,
            },
            "the deck has only 6 cards 1",
        ),
        ({"piles": {"ann": {"top": 9, "bottom": 4, "count": 1}}}, "its top is its bottom"),
        ({"action": {"type": "play", "card": 5, "to": "center"}}, "the engine refuses"),
    ],
)
def test_impossible_positions_are_refused_with_the_rule(change, reason):
    with pytest.raises(PositionError, match=reason):
        knock_from_position(_facts(**change), "bob")


def test_check_facts_normalises():
    assert check_facts(_facts())["penalized"] is False
