"""Property-based tests over simulated TOCK games of 2 to 6 players."""

from __future__ import annotations

import contextlib
import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine import EngineError, LogError, jsonio
from games.engine.tock.bots import MAX_EVENTS
from tests.engine.tock_helpers import to_text, total_cards

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.builds(
    lambda n, seed, mistakes, knocks, mode: engine.simulate(
        game="tock", players=n, seed=seed, mistakes=mistakes, knocks=knocks, mode=mode
    ),
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    mistakes=st.sampled_from([0.0, 0.02, 0.1, 0.4]),
    knocks=st.sampled_from([0.0, 0.1, 0.5]),
    mode=st.sampled_from(["table", "table", "strict"]),
)


def push_one_by_one(log):
    g = engine.start(log[0])
    for event in log[1:]:
        g.push(event)
    return g


@SETTINGS
@given(log=games)
def test_cards_accounted_for_and_game_terminates(log):
    g = engine.start(log[0])
    assert total_cards(g) == 121
    for event in log[1:]:
        g.push(event)
        assert total_cards(g) == 121
        assert len(g.summary()["out"]) + sum(g._still_in) == len(g.players)
    assert g.is_over and g.status in ("finished", "stalemate")
    assert len(log) < MAX_EVENTS  # ended by the rules, not by the safety cap
    assert g.legal_moves() == []
    placements = g.placements()
    assert set(placements) == set(g.players) and min(placements.values()) == 1


@SETTINGS
@given(log=games)
def test_replay_gives_the_same_final_state(log):
    reference_game = push_one_by_one(log)
    reference = reference_game.summary()
    # to_state() too: it holds the positions counted for the stalemate rule, which the
    # fast path keys from its own incrementally refreshed cache
    assert engine.replay(log).to_state() == reference_game.to_state()
    assert engine.replay(log).summary() == reference
    assert engine.replay_text(to_text(log)).summary() == reference
    assert engine.replay_text(to_text(log).encode()).summary() == reference
    # every drawn card is named: the log also replays without its seed
    unseeded = [{k: v for k, v in log[0].items() if k != "seed"}, *log[1:]]
    assert engine.replay(unseeded).summary() == {**reference, "seed": None}


@SETTINGS
@given(log=games, data=st.data())
def test_log_cut_at_any_line_still_replays(log, data):
    cut = data.draw(st.integers(1, len(log)))
    prefix = log[:cut]
    g = engine.replay_text(to_text(prefix))
    assert g.event_count == cut
    assert g.summary() == push_one_by_one(prefix).summary()
    assert total_cards(g) == 121


@SETTINGS
@given(log=games, data=st.data())
def test_state_round_trip(log, data):
    cut = data.draw(st.integers(1, len(log)))
    g = engine.replay(log[:cut])
    state = jsonio.loads(jsonio.dumps(g.to_state()))  # JSON-serialisable
    # Positions counted for the stalemate rule, with the center's card count at the
    # last turn start (the center may have grown since).
    assert state["seen_center"] <= sum(state["center"])
    for player, cards, count in state["seen"]:
        assert player in range(len(g.players)) and count in (1, 2)
        assert len(cards) == 2 * len(g.players)  # every discard, then every stock
        assert sum(map(len, cards)) + state["seen_center"] == 121
    restored = engine.restore(state)
    assert restored.summary() == g.summary()
    assert restored.legal_moves() == g.legal_moves()
    restored.push_many(log[cut:])
    assert restored.summary() == engine.replay(log).summary()


@SETTINGS
@given(log=games, data=st.data())
def test_mixing_push_and_push_many_in_chunks(log, data):
    """push_many() keeps caches across calls and calls to push() in between."""
    reference = push_one_by_one(log)
    g = engine.start(log[0])
    i = 1
    while i < len(log):
        size = data.draw(st.integers(0, 40))
        if size == 0:
            g.push(log[i])
            i += 1
        else:
            g.push_many(log[i : i + size])
            i += size
    assert g.to_state() == reference.to_state()


@SETTINGS
@given(log=games.filter(lambda log: log[0]["mode"] == "strict"))
def test_strict_logs_never_contain_infractions(log):
    assert engine.replay(log).summary()["infractions"] == []


@SETTINGS
@given(log=games)
def test_bots_play_legal_moves(log):
    """Every bot move without mistakes is among legal_moves() (priority respected)."""

    def plain(event):
        return {k: v for k, v in event.items() if k != "series"}

    g = engine.start(log[0])
    for event in log[1:]:
        if event["type"] in ("play", "draw", "flip") and g.mode == "strict":
            assert plain(event) in [plain(m) for m in g.legal_moves()]
            assert g.is_legal(event)
        g.push(event)


MUTATIONS = [
    ("card", [0, 1, 5, 20, 21, 22, "7", None, 2.0, True]),
    ("to", ["center", "ana", "ben", "cai", "moon", None, 3]),
    ("player", ["ana", "ben", "cai", "dan", "zed", None]),
    ("type", ["draw", "play", "flip", "tock", "end", "start", "dance"]),
    ("series", [0, 1, 6, -1, "x"]),
    ("extra", [1]),
]


@settings(max_examples=50, deadline=None)
@given(log=games, data=st.data())
def test_fast_replay_matches_reference_on_corrupted_logs(log, data):
    """replay() (the inlined fast path) and push() agree on results and on errors."""
    log = copy.deepcopy(log)
    for _ in range(data.draw(st.integers(1, 3))):
        line = data.draw(st.integers(1, len(log) - 1))
        key, values = data.draw(st.sampled_from(MUTATIONS))
        value = data.draw(st.sampled_from(values))
        if value is None:
            log[line].pop(key, None)
        else:
            log[line][key] = value
    try:
        reference = push_one_by_one_with_line(log)
    except LogError as exc:
        expected = str(exc)
    else:
        expected = reference
    try:
        got = engine.replay(log).summary()
    except LogError as exc:
        got = str(exc)
    assert got == expected


def push_one_by_one_with_line(log):
    g = engine.start(log[0])
    for line, event in enumerate(log[1:], 2):
        try:
            g.push(event)
        except EngineError as exc:
            raise LogError(line, str(exc)) from None
    return g.summary()


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.sampled_from(["ana", "ben", "center", "draw", "play", "tock", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=5,
)


@settings(max_examples=50, deadline=None)
@given(log=games, data=st.data())
def test_garbage_gives_engine_errors_never_tracebacks(log, data):
    log = copy.deepcopy(log)
    line = data.draw(st.integers(0, len(log) - 1))
    key = data.draw(
        st.sampled_from(
            [
                "type",
                "player",
                "card",
                "to",
                "series",
                "ruling",
                "referee",
                "reason",
                "placements",
                "players",
                "seed",
                "first",
                "mode",
                "game",
                "whole",
            ]
        )
    )
    value = data.draw(json_values)
    if key == "whole":
        log[line] = value
    else:
        log[line][key] = value
    with contextlib.suppress(EngineError):  # any other exception fails the test
        engine.replay(log)


# --------------------------------------------------------------------------- push_many
def corrupt(log, data):
    """A copy of ``log`` with 0 to 3 events dropped, duplicated or mutated."""
    log = copy.deepcopy(log)
    for _ in range(data.draw(st.integers(0, 3), label="corruptions")):
        if len(log) < 2:
            break
        line = data.draw(st.integers(1, len(log) - 1), label="line")
        how = data.draw(st.sampled_from(["drop", "duplicate", "mutate"]), label="how")
        if how == "drop":
            del log[line]
        elif how == "duplicate":
            log.insert(line, copy.deepcopy(log[line]))
        else:
            key, values = data.draw(st.sampled_from(MUTATIONS), label="mutation")
            value = data.draw(st.sampled_from(values), label="value")
            if value is None:
                log[line].pop(key, None)
            else:
                log[line][key] = value
    return log


def one_by_one(log):
    """Reference: push() each event; the game and (line, reason, type) of the failure."""
    g = engine.start(log[0])
    for line, event in enumerate(log[1:], 2):
        try:
            g.push(event)
        except EngineError as exc:
            return g, (line, str(exc), type(exc))
    return g, None


def all_at_once(log):
    g = engine.start(log[0])
    try:
        g.push_many(log[1:])
    except LogError as exc:
        assert exc.line == g.event_count + 1  # the game stops before the bad line
        return g, (exc.line, exc.reason, type(exc.cause))
    return g, None


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    log=st.builds(
        lambda n, seed, mistakes, knocks, mode: engine.simulate(
            game="tock", players=n, seed=seed, mistakes=mistakes, knocks=knocks, mode=mode
        ),
        n=st.integers(2, 6),
        seed=st.integers(0, 2**32),
        mistakes=st.sampled_from([0.0, 0.05, 0.3]),
        knocks=st.sampled_from([0.0, 0.2, 0.6]),
        mode=st.sampled_from(["table", "strict"]),
    ),
    data=st.data(),
)
def test_push_many_matches_push_one_by_one(log, data):
    """push_many() (replay's path: one pass, counters in locals) and push() per event
    agree on a thousand logs (200 games, 5 variants each: as simulated, and with
    dropped, duplicated or mutated events): the same to_state() where they stop, the
    same failing line, reason and error type."""
    for variant in [log, *(corrupt(log, data) for _ in range(4))]:
        ref, ref_error = one_by_one(variant)
        got, got_error = all_at_once(variant)
        assert got_error == ref_error
        assert got.to_state() == ref.to_state()
