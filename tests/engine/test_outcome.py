"""The typed result (Game.outcome) and the capabilities every kind declares."""

from __future__ import annotations

import pytest

import games.engine as engine
from games.engine import Outcome, Status, Termination


@pytest.mark.parametrize("kind", engine.GAME_KINDS)
def test_outcome_follows_status_and_placements(kind):
    log = engine.simulate(game=kind, players=2 if kind != "tock" else 3, seed=3)
    g = engine.start(log[0])
    assert g.outcome() == Outcome(Status.IN_PROGRESS)
    assert not g.outcome().is_over and g.outcome().termination is None
    g.push_many(log[1:])
    out = g.outcome()
    assert out.status == g.status and out.status.value == g.status
    assert out.placements == g.placements()
    assert out.termination in (Termination.PLAYED, Termination.STALEMATE)
    assert (out.termination is Termination.STALEMATE) == (g.status == "stalemate")
    assert out.winners == [p for p, v in g.placements().items() if v == 1]
    assert not out.corrected


@pytest.mark.parametrize("kind", engine.GAME_KINDS)
def test_outcome_of_an_end_event_and_a_correction(kind):
    log = engine.simulate(game=kind, players=2 if kind != "tock" else 3, seed=3)
    g = engine.start(log[0])
    g.push_many(log[1:6])
    g.push({"type": "end", "reason": "adjudicated", "referee": "rita"})
    out = g.outcome()
    assert out.status is Status.FINISHED and out.termination is Termination.ADJUDICATED
    assert out.referee == "rita" and not out.corrected
    places = {p: i for i, p in enumerate(reversed(g.players), 1)}
    g.push({"type": "correction", "referee": "rita", "placements": places, "note": "x"})
    out = g.outcome()
    assert out.corrected and out.placements == {p: places[p] for p in g.players}
    assert engine.restore(g.to_state()).outcome() == out


def test_capabilities_have_defaults():
    tock, uno = engine.game_class("tock"), engine.game_class("uno")
    assert tock.has_knocks and tock.rules_in_progress()
    assert not uno.has_knocks and not uno.rules_in_progress()
    assert tock.ruling_event("ben", "correct", "rita") == {
        "type": "tock",
        "player": "ben",
        "ruling": "correct",
        "referee": "rita",
    }
    with pytest.raises(engine.InvalidEvent):
        uno.ruling_event("ben", "correct", "rita")
    g = engine.start({"type": "start", "game": "casino", "players": ["a", "b"]})
    assert g.knock_target() is None and g.pending_infractions() == []
    t = engine.start({"type": "start", "game": "tock", "players": ["a", "b"]})
    assert t.named_event({"type": "flip", "player": "a"}) == {"type": "flip", "player": "a"}
    assert engine.game_class("tock").text_summary({}) is None


def test_unknown_types_are_refused_by_the_base_for_every_kind():
    for kind in engine.GAME_KINDS:
        cls = engine.game_class(kind)
        g = engine.start(cls.start_events(["a", "b"])[0])
        with pytest.raises(engine.InvalidEvent, match="unknown event type"):
            g.push({"type": "nope"})
        with pytest.raises(engine.InvalidEvent, match="only be the first line"):
            g.push({"type": "start"})
        with pytest.raises(engine.InvalidEvent, match="JSON object"):
            g.push([])  # type: ignore[arg-type]
        assert g.event_count == 1
