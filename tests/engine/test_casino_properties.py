"""Casino properties over thousands of simulated games (seeded, bounded in time).

The 52 cards are accounted for after every event, a round gives at most 11 points, every
game ends, a log replays to the bots' own state with and without its seed, every prefix
replays and restores, ``legal_moves`` are accepted, and no garbage ever gives a
traceback: a bad line answers ``line N: reason``.
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
from games.engine.casino.bots import simulate_game
from games.engine.casino.cards import CANONICAL
from games.engine.casino.game import CasinoGame
from tests.engine.kind_checks import (
    check_corrupted_logs,
    check_garbage_events,
    check_garbage_text,
    check_inline_judges_as_the_handlers,
    jsonish,
    without_seed,
)

#: (players, target, seed) of the simulated games: 2 to 4 players, whole games to 21,
#: and some to 11 or 40.
GAMES = [(2 + seed % 3, (21, 21, 11, 40)[seed % 4], seed) for seed in range(800)]


@pytest.fixture(scope="module")
def logs():
    return [engine.simulate("casino", players=n, seed=s, target=t) for n, t, s in GAMES]


def test_every_game_ends_at_the_target_and_replays_without_its_seed(logs):
    rounds = 0
    for k, log in enumerate(logs):
        g = engine.replay(log)
        s = g.summary()
        assert g.is_over and s["end"] is None, log[0]
        best = max(s["scores"].values())
        assert best >= log[0].get("target", 21)
        assert list(s["scores"].values()).count(best) == 1  # a tie at the top plays on
        assert {p for p, v in s["placements"].items() if v == 1} == {
            p for p, v in s["scores"].items() if v == best
        }
        if k % 3 == 0:
            assert engine.replay(without_seed(log)).summary() == s
        rounds += s["round"]
    assert rounds > 2000


def test_replay_equals_the_simulated_state():
    for seed in range(60):
        log, game = simulate_game(players=2 + seed % 3, seed=seed)
        assert engine.replay(log).to_state() == game.to_state()


def test_the_bots_use_every_rule(logs):
    seen = Counter()
    for log in logs[:300]:
        owners = {}
        build_no = 0
        for event in log[1:]:
            kind = event["type"]
            seen[kind] += 1
            if kind == "capture":
                seen["capture items > 1"] += len(event["take"]) > 1
                seen["capture of a build"] += any(isinstance(i, str) for i in event["take"])
                seen["multi-card sum"] += any(
                    isinstance(i, list) and len(i) > 1 for i in event["take"]
                )
            if kind in ("build", "call"):
                items = event["with"] if kind == "build" else sum(event["groups"], [])
                raised = [i for i in items if i.startswith("b")]
                if kind == "build" and raised:
                    seen["raise"] += 1
                    seen["raise another's"] += any(owners[i] != event["player"] for i in raised)
                if kind == "call" and len(event["groups"]) > 2:
                    seen["call of 3+ groups"] += 1
                build_no += 1
                owners[f"b{build_no}"] = event["player"]
    for kind in (
        "deal", "capture", "build", "call", "trail", "capture items > 1", "capture of a build",
        "multi-card sum", "raise", "raise another's",
    ):  # fmt: skip
        assert seen[kind] > 10, (kind, seen)


def _check_cards(g):
    """Every card of the round is in exactly one place: a hand, the center (loose or in
    a build), a captured pile or the part of the deck not dealt yet."""
    if g._round == 0:
        return
    places = [c for h in g._hands for c in h] + list(g._loose)
    places += [c for b in g._builds for c in b["cards"]]
    places += [c for pile in g._captured for c in pile]
    dealt = set(g._dealt)
    places += [c for c in CANONICAL if c not in dealt]
    assert len(places) == 52 and set(places) == set(CANONICAL)
    s = g.summary()
    assert sum(s["captured"].values()) + len(s["center"]["cards"]) + sum(
        len(b["cards"]) for b in s["center"]["builds"]
    ) + sum(len(h) for h in s["hands"].values()) == len(dealt)


@pytest.mark.parametrize("unseeded", [False, True])
def test_cards_accounted_for_and_rounds_scored_event_by_event(logs, unseeded):
    for log in logs[:: 30 if unseeded else 12]:
        events = without_seed(log) if unseeded else log
        g = engine.start(events[0])
        for event in events[1:]:
            g.push(event)
            _check_cards(g)
        s = g.summary()
        totals = Counter()
        for row in s["round_scores"]:
            assert sum(r["total"] for r in row.values()) <= 11
            for cat, worth in (("cards", 3), ("spades", 1)):
                assert sorted(r[cat] for r in row.values())[:-1] == [0] * (len(row) - 1)
                assert {r[cat] for r in row.values()} <= {0, worth}
            assert sorted(r["big_casino"] for r in row.values())[-2:] in ([0, 2], [0, 0])
            assert sum(r["aces"] for r in row.values()) <= 4
            for p, r in row.items():
                assert r["total"] == sum(v for k, v in r.items() if k != "total")
                totals[p] += r["total"]
        assert s["scores"] == {p: totals[p] for p in s["players"]}


def test_every_round_with_a_capture_scores_all_eleven_points(logs):
    for log in logs[::10]:
        g = engine.start(log[0])
        for event in log[1:]:
            g.push(event)
            if g._phase == "round" and g._round_scores and g._last_capture is not None:
                row = g._round_scores[-1]
                if len({len(c) for c in g._captured}) == len(g._captured):  # no tie
                    spades = sorted(sum(x.endswith("S") for x in c) for c in g._captured)
                    if spades[-1] != spades[-2]:
                        assert sum(r["total"] for r in row) == 11
                assert sum(len(c) for c in g._captured) == 52


def test_push_and_replay_agree_with_every_prefix_and_restore(logs):
    rng = random.Random(1)
    for log in logs[::40]:
        g = engine.start(log[0])
        for event in log[1:]:
            g.push(dict(event))
        assert engine.replay(log).to_state() == g.to_state()
        for cut in sorted(rng.sample(range(2, len(log)), 5)):
            prefix = engine.replay(log[:cut])
            assert prefix.event_count == cut
            restored = engine.restore(prefix.to_state())
            assert restored.summary() == prefix.summary()
            assert restored.legal_moves() == prefix.legal_moves()
            restored.push_many(log[cut:])
            assert restored.to_state() == g.to_state()


def test_legal_moves_are_accepted_and_others_refused(logs):
    rng = random.Random(2)
    for log in logs[:60]:
        g = engine.replay(log[: rng.randrange(2, len(log))])
        moves = g.legal_moves()
        for move in moves:
            assert g.is_legal(move), move
        if g.turn is not None:
            assert moves
            others = [p for p in g.players if p != g.turn]
            card = g.hand_of(others[0])[0] if g.hand_of(others[0]) else "AS"
            assert not g.is_legal({"type": "trail", "player": others[0], "card": card})


def _corrupt(log, rng):
    events = copy.deepcopy(log)
    i = rng.randrange(1, len(events))
    event = events[i]
    choice = rng.randrange(8)
    if choice == 0:
        del events[i]
    elif choice == 1:
        events.insert(i, copy.deepcopy(events[rng.randrange(1, len(events))]))
    elif choice == 2 and "take" in event:
        event["take"] = [*event["take"], ["AS"]]
    elif choice == 3 and "card" in event:
        event["card"] = rng.choice(["AS", "10D", "KC", "1S", 7, None])
    elif choice == 4:
        key = rng.choice(list(event))
        event[key] = rng.choice([None, 3, "zed", [], {}, [[["deep"]]], True, -1, "b1", ["b1"]])
    elif choice == 5:
        event["extra"] = 1
    elif choice == 6 and "value" in event:
        event["value"] += rng.choice([-1, 1])
    else:
        events[i], events[i - 1] = events[i - 1], events[i]
    return events


def test_corrupted_logs_answer_line_n_reason(logs):
    check_corrupted_logs(logs, _corrupt, pool=400)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_garbage_text_never_gives_a_traceback(data):
    check_garbage_text("casino", data)


JSONISH = jsonish(
    [
        "a",
        "b",
        "AS",
        "10D",
        "KC",
        "b1",
        "b2",
        "deal",
        "capture",
        "build",
        "call",
        "trail",
        "round",
        "end",
        "time",
        "cards",
        "aces",
    ],
    [
        "type",
        "player",
        "card",
        "take",
        "with",
        "groups",
        "value",
        "hands",
        "center",
        "scores",
        "reason",
        "placements",
        "a",
        "b",
    ],
)


@functools.cache
def _short_game(seed):
    return engine.simulate("casino", players=2, seed=seed, target=11)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(JSONISH, min_size=1, max_size=4), st.integers(0, 60), st.booleans())
def test_garbage_events_never_give_a_traceback(garbage, cut, sheet):
    if sheet:
        log = [{"type": "start", "game": "casino", "players": ["a", "b"], "sheet": True}]
    else:
        log = _short_game(cut % 5)[: cut + 2]
    check_garbage_events(engine.replay(log), garbage)


def _next_event_variants(g, event, rng):
    """``event`` (the log's next one) and the plays a scorekeeper might send instead
    that look like the inline shapes: a trail, a capture of one loose card and one of
    each build with each card in hand, by the player to move and by another; captures
    of a card not loose, of a build that is not there, of two items, of garbage."""
    players = list(g.players)
    who = g.turn or players[0]
    hand = g.hand_of(who) or ["5H"]
    loose = list(g._loose) or ["5D"]
    builds = [b["id"] for b in g._builds] or ["b1"]
    variants = [dict(event)]
    for name in players:
        variants += [
            {"type": "trail", "player": name, "card": rng.choice(hand)},
            {"type": "capture", "player": name, "card": rng.choice(hand), "take": [loose[:1]]},
        ]
    for card in hand:
        variants.append({"type": "trail", "player": who, "card": card})
        variants += [
            {"type": "capture", "player": who, "card": card, "take": take}
            for take in [[[other]] for other in loose] + [[bid] for bid in builds]
        ]
    card = rng.choice(hand)
    variants += [
        {"type": "capture", "player": who, "card": card, "take": take}
        for take in (
            [["AS"]], [["KD"]], [[builds[0]]], [builds[0]], [loose[:1], loose[:1]],
            [loose[:2]], [loose[:1], [builds[0]]], [], None, "5H", [[7]], [["5H", 7]], [[]],
        )
    ]  # fmt: skip
    variants += [
        {"type": "capture", "player": who, "card": card, "take": [loose[:1]], "x": 1},
        {"type": "trail", "player": who, "card": card, "take": [loose[:1]]},
        {"type": "trail", "player": who, "card": "XX"},
        {"type": "trail", "player": 3, "card": card},
    ]
    return variants


def test_the_inline_usual_plays_judge_as_the_handlers(logs):
    """``_run`` applies the usual trail and a capture of one loose card or one build
    inline; the handlers judge every play. At many points of many games (with and
    without the seed), the log's next event and the variants of it a scorekeeper might
    send give the same state or the same refusal both ways; so do whole corrupted
    logs."""
    check_inline_judges_as_the_handlers(CasinoGame, logs, _next_event_variants, _corrupt)
