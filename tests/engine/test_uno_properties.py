"""UNO properties over thousands of simulated games (seeded, bounded in time).

Cards are conserved, every game ends, a log replays to the same state with and without
its seed, every prefix replays, ``push`` and ``replay`` agree, scores add up, and no
garbage ever gives a traceback: a bad line answers ``line N: reason``.
"""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine.uno.cards import DECK_COUNTS, POINTS
from games.engine.uno.game import UnoGame
from tests.engine.kind_checks import (
    check_corrupted_logs,
    check_garbage_events,
    check_garbage_text,
    check_inline_judges_as_the_handlers,
    jsonish,
    without_seed,
)

#: (players, deck, target) of the simulated games: 2 to 10 players, both decks, short
#: targets for many games and a few whole games to 500.
GAMES = [
    (2 + seed % 9, "2018" if seed % 2 else "classic", 60 if seed >= 18 else 500, seed)
    for seed in range(1000)
]


def _log(players, deck, target, seed):
    return engine.simulate("uno", players=players, seed=seed, deck=deck, target=target)


@pytest.fixture(scope="module")
def logs():
    return [_log(*game) for game in GAMES]


def test_every_game_ends_and_replays_the_same_without_its_seed(logs):
    hands = 0
    for k, log in enumerate(logs):
        g = engine.replay(log)
        assert g.is_over and g.summary()["end"] is None, log[0]
        if k % 4 == 0:
            assert engine.replay(without_seed(log)).summary() == g.summary()
        hands += g.summary()["hand"]
    assert hands > 1000


def test_replay_equals_the_simulated_state():
    from games.engine.uno.bots import simulate_game

    for seed in range(40):
        log, game = simulate_game(players=2 + seed % 9, seed=seed, target=80)
        assert engine.replay(log).to_state() == game.to_state()


def test_the_bots_use_every_rule(logs):
    seen = Counter()
    for log in logs:
        for event in log[1:]:
            seen[event["type"]] += 1
            if event["type"] == "play" and event["card"] in ("W4", "WS"):
                seen[event["card"]] += 1
        g = engine.replay(log)
        seen["legal"] += sum(c["legal"] for c in g.summary()["challenges"])
        seen["bluff"] += sum(not c["legal"] for c in g.summary()["challenges"])
    for kind in ("deal", "color", "play", "draw", "pass", "challenge", "catch", "W4", "WS"):
        assert seen[kind] > 10, (kind, seen)
    assert seen["legal"] > 10 and seen["bluff"] > 10


def _check_cards(g):
    """Every card of the deck is in exactly one of the hands, the draw pile and the
    discard pile (an unseeded game: as a multiset)."""
    if g._phase == "idle" and g.summary()["hand"] == 0:
        return
    s = g.summary()
    held = Counter(c for h in s["hands"].values() for c in h) + Counter(g._discard)
    if g._pile is not None:
        assert held + Counter(g._pile) == DECK_COUNTS[g.deck]
    else:
        assert held + g._counts == DECK_COUNTS[g.deck]


@pytest.mark.parametrize("unseeded", [False, True])
def test_cards_conserved_and_scores_add_up_event_by_event(logs, unseeded):
    for log in logs[:: 40 if unseeded else 20]:
        events = without_seed(log) if unseeded else log
        g = engine.start(events[0])
        for event in events[1:]:
            hands_before = copy.deepcopy(g.summary()["hands"])
            results = len(g.summary()["hand_results"])
            g.push(event)
            _check_cards(g)
            s = g.summary()
            if len(s["hand_results"]) > results:  # a hand was scored: by the cards left
                result = s["hand_results"][-1]
                left = {p: h for p, h in s["hands"].items() if p != result["winner"]}
                assert s["hands"][result["winner"]] == []
                assert result["points"] == sum(POINTS[c] for h in left.values() for c in h)
                assert hands_before  # (the hands were read before the last event)
        s = g.summary()
        totals = Counter()
        for r in s["hand_results"]:
            totals[r["winner"]] += r["points"]
        assert s["scores"] == {p: totals[p] for p in s["players"]}
        assert max(s["scores"].values()) >= log[0].get("target", 500)
        best = max(s["scores"].values())
        assert {p for p, v in s["placements"].items() if v == 1} == {
            p for p, v in s["scores"].items() if v == best
        }


def test_push_and_replay_agree_with_every_prefix_and_restore(logs):
    rng = random.Random(1)
    for log in logs[::30]:
        g = engine.start(log[0])
        states = []
        for event in log[1:]:
            g.push(dict(event))
            states.append(g)
        assert engine.replay(log).to_state() == g.to_state()
        for cut in sorted(rng.sample(range(2, len(log)), 5)):
            prefix = engine.replay(log[:cut])
            assert prefix.event_count == cut
            restored = engine.restore(prefix.to_state())
            assert restored.summary() == prefix.summary()
            restored.push_many(log[cut:])
            assert restored.to_state() == g.to_state()


def test_legal_moves_are_accepted_and_others_refused(logs):
    rng = random.Random(2)
    for log in logs[:40]:
        g = engine.replay(log[: rng.randrange(2, len(log))])
        for move in g.legal_moves() + g.table_moves():
            assert g.is_legal(move), move
        if g.turn is not None:
            others = [p for p in g.players if p != g.turn]
            assert not g.is_legal({"type": "pass", "player": others[0]}) or g._catchable


def _corrupt(log, rng):
    events = copy.deepcopy(log)
    i = rng.randrange(1, len(events))
    event = events[i]
    choice = rng.randrange(7)
    if choice == 0:
        del events[i]
    elif choice == 1:
        events.insert(i, copy.deepcopy(events[rng.randrange(1, len(events))]))
    elif choice == 2 and "cards" in event:
        event["cards"] = event["cards"][::-1] + ["R1"]
    elif choice == 3 and "card" in event:
        event["card"] = rng.choice(["R1", "W4", "G9", "WS", "XX", 7, None])
    elif choice == 4:
        key = rng.choice(list(event))
        event[key] = rng.choice([None, 3, "zed", [], {}, [[["deep"]]], True, -1, "W4"])
    elif choice == 5:
        event["extra"] = 1
    else:
        events[i], events[i - 1] = events[i - 1], events[i]
    return events


def test_corrupted_logs_answer_line_n_reason(logs):
    check_corrupted_logs(logs, _corrupt, pool=300)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_garbage_text_never_gives_a_traceback(data):
    check_garbage_text("uno", data)


JSONISH = jsonish(
    ["a", "b", "R1", "W4", "WS", "G", "deal", "play", "draw", "pass", "catch", "hand"],
    [
        "type",
        "player",
        "card",
        "cards",
        "color",
        "hands",
        "up",
        "uno",
        "by",
        "against",
        "winner",
        "points",
        "a",
        "b",
    ],
)


@functools.cache
def _short_game(seed):
    return engine.simulate("uno", players=2, seed=seed, target=50)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(JSONISH, min_size=1, max_size=4), st.integers(0, 40), st.booleans())
def test_garbage_events_never_give_a_traceback(garbage, cut, sheet):
    if sheet:
        log = [{"type": "start", "game": "uno", "players": ["a", "b"], "sheet": True}]
    else:
        log = _short_game(cut % 5)[: cut + 2]
    check_garbage_events(engine.replay(log), garbage)


def _next_event_variants(g, event, rng):
    """``event`` (the log's next one) and the events a scorekeeper might send instead
    that look like the inline shapes: another player; each card of the hand, one not in
    it, a wild, a non-card; a draw naming the right, a wrong or no card; a pass."""
    turn = g.turn
    players = list(g.players)
    hand = g.hand_of(turn) if turn is not None else []
    variants = [dict(event)]
    for name in players:
        variants += [
            {"type": "play", "player": name, "card": rng.choice(hand or ["R1"])},
            {"type": "draw", "player": name},
            {"type": "pass", "player": name},
        ]
    top = g._pile[-1] if g._pile else "R1"
    who = turn or players[0]
    variants += [{"type": "play", "player": who, "card": card} for card in hand]
    variants += [
        {"type": "play", "player": who, "card": card}
        for card in ("R1", "G7", "BS", "YD", "BV", "W", "W4", "XX", 7, None, ["R1"])
    ]
    pile = g._pile or []
    variants += [
        {"type": "draw", "player": who, "cards": cards}
        for cards in ([top], ["R1"], [top, top], [], None, top, [7], "R1")
    ]
    variants += [  # the next k cards (a penalty's), and them in another order
        {"type": "draw", "player": who, "cards": cards}
        for k in (2, 4, 6)
        for cards in (pile[: -k - 1 : -1], pile[-k:])
    ]
    variants += [
        {"type": "draw", "player": who, "card": top},
        {"type": "pass", "player": who, "cards": [top]},
        *(
            {"type": "play", "player": who, "card": card, "uno": uno}
            for card in hand
            for uno in (True, False, 1)
        ),
        {"type": "play", "player": 3, "card": "R1"},
        {"player": who, "card": "R1", "x": 1},
    ]
    return variants


def test_the_inline_usual_events_judge_as_the_handlers(logs):
    """``_run`` applies the usual play, draw and pass inline; the handlers judge every
    event. At many points of many games (with and without the seed), the log's next
    event and the variants of it a scorekeeper might send give the same state or the
    same refusal both ways; so do whole corrupted logs."""
    check_inline_judges_as_the_handlers(UnoGame, logs, _next_event_variants, _corrupt)
