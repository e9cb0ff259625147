"""The moves a scorekeeper's page offers, asked of the engine: ``legal_moves()``,
``infraction_moves()`` (TOCK's table mode), ``table_moves()`` (knocks) and
``start_events()``. Every move offered is accepted by ``push``; an infraction move
records an infraction, a legal one none; and every move of a simulated game with
mistakes is among those offered, so a scorekeeper can record any real game."""

from __future__ import annotations

import pytest

import games.engine as engine


def _without_series(move: dict) -> dict:
    return {k: v for k, v in move.items() if k != "series"}


def _infractions(game: engine.Game) -> int:
    return len(game.summary()["infractions"])


@pytest.mark.parametrize("seeded", [True, False])
@pytest.mark.parametrize("seed", [3, 11])
def test_every_offered_move_is_accepted_and_every_played_move_is_offered(seed, seeded):
    log = engine.simulate(game="tock", players=4, seed=seed, mistakes=0.05, knocks=0.1)
    start = dict(log[0])
    if not seeded:
        start.pop("seed", None)  # real cards: each draw names its card
    game = engine.start(start)
    offered_infractions = 0
    for event in log[1:]:
        legal, infractions = game.legal_moves(), game.infraction_moves()
        for move in legal:
            probe = game.copy()
            probe.push(move)
            assert _infractions(probe) == _infractions(game), move
        for move in infractions:
            assert move not in legal
            probe = game.copy()
            probe.push(move)
            assert _infractions(probe) > _infractions(game), move
        offered_infractions += len(infractions)
        for knock in game.table_moves():
            assert knock["type"] == "tock"
            assert knock["player"] != game.knock_target()
            assert game.is_legal(knock)
        if event["type"] in ("play", "draw", "flip"):
            assert _without_series(event) in [_without_series(m) for m in legal + infractions]
        game.push(event)
    assert offered_infractions > 0
    assert game.is_over
    assert game.legal_moves() == game.infraction_moves() == game.table_moves() == []


def test_strict_mode_offers_no_infractions():
    log = engine.simulate(game="tock", players=3, seed=5, mode="strict")
    game = engine.start(log[0])
    for event in log[1:40]:
        assert game.infraction_moves() == []
        game.push(event)


def test_no_knock_before_the_first_turn_and_not_by_the_knocked_player():
    game = engine.start({"type": "start", "game": "tock", "players": ["ann", "bob", "cat"]})
    assert game.table_moves() == []
    game.push(game.legal_moves()[0])
    knockers = [m["player"] for m in game.table_moves()]
    assert knockers == ["bob", "cat"]


def test_start_events_one_per_first_player_in_table_mode():
    cls = engine.game_class("tock")
    starts = cls.start_events(["ann", "bob", "cat"])
    assert [s["first"] for s in starts] == ["ann", "bob", "cat"]
    for event in starts:
        game = engine.start(event)
        assert game.turn == event["first"]
        assert game.summary()["mode"] == "table"
        assert game.summary()["seed"] is None


@pytest.mark.parametrize("seed", [1, 5])
def test_uno_offers_every_simulated_event_and_a_forgotten_uno_as_an_infraction(seed):
    """A seeded UNO game: every event the bots played (forgetting UNO now and then) is
    among the named legal moves, the catches and the infraction moves; an infraction
    move is a play that leaves one card without calling UNO: accepted, never legal, and
    a catch may follow it."""
    log = engine.simulate(game="uno", players=4, seed=seed, forget=0.3)
    game = engine.start(log[0])
    offered_infractions = 0
    for event in log[1:]:
        legal = [game.named_event(m) for m in game.legal_moves()]
        infractions = [game.named_event(m) for m in game.infraction_moves()]
        for move in infractions:
            assert move["type"] == "play" and "uno" not in move
            assert {**move, "uno": True} in legal and move not in legal
            probe = game.copy()
            probe.push(move)
            assert probe.table_moves(), move  # the player may be caught now
        offered_infractions += len(infractions)
        assert event in legal + infractions + game.table_moves(), event
        game.push(event)
    assert offered_infractions > 0
    assert game.is_over and game.infraction_moves() == []
