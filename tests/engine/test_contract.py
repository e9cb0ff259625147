"""The engine contract every game kind implements (``docs/engine-api.md``): what the
Django side may ask a kind without a game (title, player counts, reserved names,
referee events, placements) and the kind-neutral simulate entry points."""

from __future__ import annotations

import io
import pickle
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine import base
from games.engine.base import Game, valid_competition_ranking
from games.engine.cli import main
from games.engine.errors import InvalidEvent, InvalidPlacements
from tests.engine.tock_helpers import start_event

TOCK = engine.TockGame


# --------------------------------------------------------------------------- registry
def test_kind_choices_lists_every_kind_with_its_title():
    assert engine.kind_choices() == [
        (kind, engine.game_class(kind).title) for kind in engine.game_kinds()
    ]
    assert ("tock", "TOCK") in engine.kind_choices()
    assert engine.game_kinds() == engine.GAME_KINDS == ("tock", "uno", "casino")


def test_the_base_class_declares_the_contract():
    for name in ("kind", "title", "min_players", "max_players", "reserved_names"):
        assert name in Game.__annotations__
    assert Game.reserved_names == frozenset()
    assert "turn" in Game.__abstractmethods__
    # The shared `end` event: an adjudication or placements are a referee's matter.
    assert Game.event_needs_referee({"type": "end", "reason": "adjudicated"}) is True
    assert Game.event_needs_referee({"type": "end", "reason": "time"}) is False
    assert Game.event_needs_referee({"type": "end", "reason": "time", "placements": {}}) is True
    assert Game.event_needs_referee({"type": "play"}) is False
    assert Game.event_needs_referee(["end"]) is False


# --------------------------------------------------------------------------- TOCK's values
def test_tock_class_attributes():
    assert (TOCK.kind, TOCK.title, TOCK.min_players, TOCK.max_players) == ("tock", "TOCK", 2, 6)
    assert TOCK.reserved_names == frozenset({"center"})


@pytest.mark.parametrize("count", [TOCK.min_players, TOCK.max_players])
def test_start_accepts_the_player_range(count):
    players = [f"p{i}" for i in range(count)]
    assert engine.start(start_event(players)).players == tuple(players)


@pytest.mark.parametrize("count", [TOCK.min_players - 1, TOCK.max_players + 1])
def test_start_refuses_outside_the_player_range(count):
    with pytest.raises(InvalidEvent, match=f"TOCK needs 2 to 6 players, not {count}"):
        engine.start(start_event([f"p{i}" for i in range(count)]))


def test_start_follows_the_class_attributes(monkeypatch):
    """The limits live in the class attributes only: changing them changes start()."""
    monkeypatch.setattr(TOCK, "max_players", 3)
    monkeypatch.setattr(TOCK, "reserved_names", frozenset({"center", "table"}))
    with pytest.raises(InvalidEvent, match="TOCK needs 2 to 3 players, not 4"):
        engine.start(start_event(["a", "b", "c", "d"]))
    with pytest.raises(InvalidEvent, match="'table' is reserved"):
        engine.start(start_event(["a", "table"]))


@pytest.mark.parametrize("name", sorted(TOCK.reserved_names))
def test_reserved_names_are_refused(name):
    with pytest.raises(InvalidEvent, match=f"'{name}' is reserved and cannot be a player name"):
        engine.start(start_event(["ana", name]))


@pytest.mark.parametrize(
    "event, needs",
    [
        ({"type": "tock", "player": "ana", "ruling": "correct"}, True),
        ({"type": "tock", "player": "ana", "ruling": "incorrect", "referee": "r"}, True),
        ({"type": "tock", "player": "ana"}, False),
        ({"type": "end", "reason": "adjudicated"}, True),
        ({"type": "end", "reason": "adjudicated", "placements": {"a": 1}}, True),
        ({"type": "end"}, True),  # no reason: not a plain time-out
        ({"type": "end", "reason": "time"}, False),
        ({"type": "end", "reason": "time", "ruling": "correct"}, True),
        ({"type": "draw", "player": "ana", "card": 3, "to": "ana"}, False),
        ({"type": "play", "player": "ana", "card": 3, "to": "center"}, False),
        ({"type": "flip", "player": "ana"}, False),
        ({}, False),
        ([("type", "end")], False),
        ("end", False),
        (None, False),
    ],
)
def test_event_needs_referee(event, needs):
    assert TOCK.event_needs_referee(event) is needs
    assert engine.game_class("tock").event_needs_referee(event) is needs


# --------------------------------------------------------------------------- placements
PLAYERS = ["ana", "ben", "cai", "dan"]


@pytest.mark.parametrize(
    "placements",
    [
        {"ana": 1, "ben": 2, "cai": 3, "dan": 4},
        {"dan": 1, "cai": 1, "ben": 1, "ana": 1},
        {"ana": 2, "ben": 1, "cai": 2, "dan": 4},
        {"ana": 1, "ben": 2, "cai": 2, "dan": 2},
    ],
)
def test_check_placements_accepts_competition_ranks_in_seat_order(placements):
    checked = Game.check_placements(PLAYERS, placements)
    assert checked == placements and list(checked) == PLAYERS
    assert TOCK.check_placements(tuple(PLAYERS), placements) == checked


@pytest.mark.parametrize(
    "placements, code, params",
    [
        (None, "not_a_mapping", {}),
        ([["ana", 1]], "not_a_mapping", {}),
        ("ana", "not_a_mapping", {}),
        ({"ana": 1, "ben": 2, "cai": 3}, "players_mismatch", {"missing": ["dan"], "unknown": []}),
        (
            {"ana": 1, "ben": 2, "cai": 3, "dan": 4, "eve": 5, 7: 6},
            "players_mismatch",
            {"missing": [], "unknown": ["7", "eve"]},
        ),
        (
            {"zed": 1, "ben": 2, "cai": 3, "dan": 4},
            "players_mismatch",
            {"missing": ["ana"], "unknown": ["zed"]},
        ),
        ({"ana": 1, "ben": 2, "cai": 3, "dan": 5}, "bad_place", {"player": "dan", "n": 4}),
        ({"ana": 0, "ben": 1, "cai": 2, "dan": 3}, "bad_place", {"player": "ana", "n": 4}),
        ({"ana": 1, "ben": True, "cai": 3, "dan": 4}, "bad_place", {"player": "ben", "n": 4}),
        ({"ana": 1, "ben": 2, "cai": 3.0, "dan": 4}, "bad_place", {"player": "cai", "n": 4}),
        ({"ana": 1, "ben": 2, "cai": "3", "dan": 4}, "bad_place", {"player": "cai", "n": 4}),
        ({"ana": 1, "ben": 1, "cai": 2, "dan": 4}, "not_competition_ranks", {}),
        ({"ana": 1, "ben": 3, "cai": 3, "dan": 3}, "not_competition_ranks", {}),
        ({"ana": 2, "ben": 2, "cai": 3, "dan": 4}, "not_competition_ranks", {}),
    ],
)
def test_check_placements_codes(placements, code, params):
    with pytest.raises(InvalidPlacements) as info:
        Game.check_placements(PLAYERS, placements)
    exc = info.value
    assert isinstance(exc, InvalidEvent)
    assert (exc.code, exc.params) == (code, params)
    assert "\n" not in str(exc) and str(exc)
    for value in params.values():  # the message names the details
        for item in value if isinstance(value, list) else [value]:
            assert str(item) in str(exc)


def test_invalid_placements_survives_pickling():
    with pytest.raises(InvalidPlacements) as info:
        Game.check_placements(PLAYERS, {"ana": 1})
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.code, copy.params) == (
        str(info.value),
        "players_mismatch",
        {"missing": ["ben", "cai", "dan"], "unknown": []},
    )


def test_valid_competition_ranking():
    assert valid_competition_ranking([1, 2, 2, 4])
    assert valid_competition_ranking([3, 1, 1])
    assert valid_competition_ranking([])
    assert not valid_competition_ranking([1, 2, 2, 3])
    assert not valid_competition_ranking([2])


def test_tock_end_uses_the_shared_placements_check():
    g = engine.start(start_event(PLAYERS))
    with pytest.raises(InvalidPlacements) as info:
        g.push({"type": "end", "reason": "adjudicated", "placements": {"ana": 1}})
    assert info.value.code == "players_mismatch" and g.status == "in_progress"
    g.push(
        {
            "type": "end",
            "reason": "adjudicated",
            "placements": {"dan": 1, "ana": 2, "cai": 2, "ben": 4},
        }
    )
    assert g.placements() == {"ana": 2, "ben": 4, "cai": 2, "dan": 1}


# --------------------------------------------------------------------------- simulate
class Coin(Game):
    """A stand-in game kind with its own simulator options (never TOCK's)."""

    kind = "coin"
    title = "Coin"
    min_players = 1
    max_players = 2
    calls: ClassVar[list[dict[str, Any]]] = []

    @classmethod
    def start(cls, event):  # pragma: no cover - not played
        raise NotImplementedError

    @classmethod
    def from_state(cls, state):  # pragma: no cover
        raise NotImplementedError

    def push(self, event):  # pragma: no cover
        raise NotImplementedError

    def legal_moves(self):  # pragma: no cover
        return []

    status = players = turn = event_count = None  # type: ignore[assignment]

    def placements(self):  # pragma: no cover
        return None

    def summary(self):  # pragma: no cover
        return {}

    def to_state(self):  # pragma: no cover
        return {}


def coin_simulator(game, players, seed, *, flips=1):
    """Accepts only its own option: a TOCK option would be a TypeError."""
    Coin.calls.append({"game": game, "players": players, "seed": seed, "flips": flips})
    return [{"type": "start", "game": "coin", "players": ["a"], "seed": seed}]


@pytest.fixture
def coin_kind():
    registry, simulators = dict(base._REGISTRY), dict(base._SIMULATORS)
    base.register(Coin)
    engine.register_simulator("coin", coin_simulator)
    Coin.calls.clear()
    yield Coin
    base._REGISTRY.clear()
    base._REGISTRY.update(registry)
    base._SIMULATORS.clear()
    base._SIMULATORS.update(simulators)


def test_simulate_passes_the_kinds_own_options_through(coin_kind):
    assert ("coin", "Coin") in engine.kind_choices()
    engine.simulate(game="coin", players=1, seed=3, flips=5)
    engine.simulate(game="coin", players=2, seed=4)
    assert coin_kind.calls == [
        {"game": "coin", "players": 1, "seed": 3, "flips": 5},
        {"game": "coin", "players": 2, "seed": 4, "flips": 1},
    ]
    with pytest.raises(TypeError):  # no TOCK option is slipped in
        engine.simulate(game="coin", mistakes=0.1)


def test_cli_simulate_passes_only_the_flags_given(coin_kind):
    out, err = io.StringIO(), io.StringIO()
    assert main(["simulate", "--game", "coin", "--seed", "9"], out=out, err=err) == 0, err
    assert coin_kind.calls == [{"game": "coin", "players": 4, "seed": 9, "flips": 1}]


def test_simulate_keeps_tocks_options():
    log = engine.simulate(
        game="tock",
        players=["x", "y", "z"],
        seed=2,
        mistakes=0.2,
        knocks=0.3,
        mode="table",
        first="y",
        max_events=30,
    )
    assert log[0]["first"] == "y" and log[-1] == {"type": "end", "reason": "time"}
    assert 31 <= len(log) <= 32  # the cap (a knock may overshoot it by one), then the end
    strict = engine.simulate(players=2, seed=2, mistakes=0.5, mode="strict")
    assert strict[0]["mode"] == "strict"
    with pytest.raises(TypeError):
        engine.simulate(game="tock", flips=2)


def test_cli_simulate_tock_flags_reach_the_simulator(monkeypatch):
    seen = []

    def spy(**kw):
        seen.append(kw)
        return engine.tock.simulate(**kw)

    monkeypatch.setitem(base._SIMULATORS, "tock", spy)
    assert main(["simulate", "--seed", "1"], out=io.StringIO()) == 0
    assert (
        main(
            ["simulate", "--seed", "1", "--mistakes", "0.1", "--knocks", "0.2", "--mode", "strict"],
            out=io.StringIO(),
        )
        == 0
    )
    assert seen == [
        {"game": "tock", "players": 4, "seed": 1},
        {"game": "tock", "players": 4, "seed": 1, "mistakes": 0.1, "knocks": 0.2, "mode": "strict"},
    ]


# --------------------------------------------------------------------------- corrections
# The `correction` event every kind accepts after the end (Game._apply_correction).

_FINISHED_LOGS: dict[str, list[dict[str, Any]]] = {}


def finished_log(kind: str) -> list[dict[str, Any]]:
    """A complete simulated log of ``kind`` (three players), cached per kind."""
    if kind not in _FINISHED_LOGS:
        log = engine.simulate(game=kind, players=["ana", "ben", "cai"], seed=11)
        assert engine.replay(log).is_over
        _FINISHED_LOGS[kind] = log
    return [dict(e) for e in _FINISHED_LOGS[kind]]


def reversed_places(game: Game) -> dict[str, int]:
    """The played placements turned upside down (a tie stays a tie), as a correction."""
    played = game.placements()
    assert played is not None
    n = len(played)
    flipped = {p: n + 1 - v for p, v in played.items()}
    # back to competition ranks: 1 + how many are strictly better
    return {p: 1 + sum(1 for w in flipped.values() if w < v) for p, v in flipped.items()}


def correction(places: dict[str, int], note: str = "dan's score sheet was misread") -> dict:
    return {"type": "correction", "referee": "rita", "placements": places, "note": note}


KINDS = engine.game_kinds()


def test_a_correction_is_a_referees_matter_for_every_kind():
    assert Game.event_needs_referee({"type": "correction"}) is True
    for kind in KINDS:
        assert engine.game_class(kind).event_needs_referee(correction({"a": 1})) is True


@pytest.mark.parametrize("kind", KINDS)
def test_a_correction_is_refused_while_the_game_is_in_progress(kind):
    log = finished_log(kind)
    for cut in (1, 2, len(log) // 2, len(log) - 1):
        game = engine.replay(log[:cut])
        if game.is_over:  # (a log whose last line is not what ends it)
            continue
        before = game.to_state()
        places = {p: i for i, p in enumerate(game.players, 1)}
        with pytest.raises(engine.IllegalMove) as info:
            game.push(correction(places))
        reason = str(info.value)
        assert "in progress" in reason and "\n" not in reason
        assert game.to_state() == before  # push is atomic
        with pytest.raises(engine.LogError) as replayed:
            engine.replay([*log[:cut], correction(places)])
        assert replayed.value.line == cut + 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_correction_after_the_end_replaces_the_result(kind):
    log = finished_log(kind)
    game = engine.replay(log)
    status, played, count = game.status, game.placements(), game.event_count
    new = reversed_places(game)
    assert new != played
    game.push(correction(new))
    assert game.placements() == new and list(game.placements()) == list(game.players)
    assert game.status == status and game.is_over and game.turn is None
    assert game.event_count == count + 1
    summary = game.summary()
    assert summary["placements"] == new
    assert summary["corrections"] == [
        {
            "event": count + 1,
            "referee": "rita",
            "placements": new,
            "note": "dan's score sheet was misread",
        }
    ]
    assert game.legal_moves() == []
    # replay, push_many and restore agree
    replayed = engine.replay([*log, correction(new)])
    assert replayed.summary() == summary and replayed.to_state() == game.to_state()
    restored = engine.restore(game.to_state())
    assert restored.summary() == summary and restored.placements() == new
    assert game.copy().summary() == summary
    # the played events after the end are still refused
    with pytest.raises(engine.IllegalMove, match="over"):
        game.push(log[-1])


@pytest.mark.parametrize("kind", KINDS)
def test_the_last_correction_wins(kind):
    game = engine.replay(finished_log(kind))
    played = game.placements()
    game.push(correction(reversed_places(game), note="first"))
    game.push(correction(played, note="second thoughts: as played"))
    assert game.placements() == played
    assert [c["note"] for c in game.summary()["corrections"]] == [
        "first",
        "second thoughts: as played",
    ]
    assert engine.restore(game.to_state()).placements() == played
    tied = {p: 1 for p in game.players}  # everybody shares the first place
    game.push(correction(tied, note="all tied"))
    assert game.placements() == tied


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "change, error",
    [
        ({"extra": 1}, engine.InvalidEvent),
        ({"note": ""}, engine.InvalidEvent),
        ({"note": "   "}, engine.InvalidEvent),
        ({"note": None}, engine.InvalidEvent),
        ({"note": "x" * 2001}, engine.InvalidEvent),
        ({"referee": ""}, engine.InvalidEvent),
        ({"referee": 7}, engine.InvalidEvent),
        ({"placements": None}, InvalidPlacements),
        ({"placements": {"ana": 1}}, InvalidPlacements),
        ({"placements": {"ana": 1, "ben": 1, "cai": 2}}, InvalidPlacements),
        ({"placements": {"ana": 1, "ben": 2, "cai": 4}}, InvalidPlacements),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(kind, change, error):
    game = engine.replay(finished_log(kind))
    before = game.to_state()
    event = {**correction(reversed_places(game)), **change}
    with pytest.raises(error) as info:
        game.push(event)
    assert "\n" not in str(info.value) and str(info.value)
    assert game.to_state() == before
    for key in ("referee", "note", "placements"):  # and each field is required
        missing = {k: v for k, v in correction(reversed_places(game)).items() if k != key}
        with pytest.raises(engine.InvalidEvent):
            game.push(missing)
    assert game.to_state() == before
    meta = {**correction(reversed_places(game)), "_source": "the referee page"}
    game.push(meta)  # callers' metadata is ignored
    assert game.placements() == reversed_places(engine.replay(finished_log(kind)))


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fields=st.dictionaries(
        st.sampled_from(["referee", "placements", "note", "extra", "_meta"]), _json, max_size=5
    ),
    over=st.booleans(),
)
def test_garbage_corrections_never_raise_anything_but_engine_errors(kind, fields, over):
    log = finished_log(kind)
    game = engine.replay(log if over else log[:3])
    before = game.to_state()
    try:
        game.push({"type": "correction", **fields})
    except engine.EngineError as exc:
        assert "\n" not in str(exc)
        assert game.to_state() == before
    else:
        assert over and game.placements() == fields["placements"]
