"""Games services: the three recording paths, their errors, and the state cache."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games import selectors, services
from games.engine import jsonio
from games.errors import (
    EventRejected,
    GameFinished,
    LogRejected,
    MalformedInput,
    ResultConflict,
    ResultMismatch,
    StaleSequence,
)
from games.models import Game, GameEvent
from tests.games.conftest import PLAYERS
from tests.games.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _append_all(game: Game, events: list[dict], user=None) -> Game:
    for n, event in enumerate(events, start=game.last_sequence + 1):
        game = services.game_append_event(
            game=game, event=event, expected_sequence=n, user=user
        ).game
    return game


def _assert_cache_equals_replay(game: Game) -> None:
    game.refresh_from_db()
    fresh = selectors.game_replay(game=game)
    assert game.state_sequence == game.last_sequence == fresh.event_count
    assert game.state == fresh.cache_state() and game.state["log"] is None
    assert game.summary == fresh.summary()
    assert game.status == fresh.status
    assert game.placements == (fresh.placements() if fresh.is_over else None)


def test_append_whole_game_event_by_event(simulated_log):
    user = UserFactory()
    log = simulated_log(seed=3)
    game = _append_all(GameFactory(), log, user=user)
    expected = engine.replay(log)
    assert game.status == expected.status
    assert game.placements == expected.placements()
    assert game.result_verified and game.result_version == 1
    assert game.finished_at is not None
    assert GameEvent.objects.filter(game=game).count() == len(log)
    assert list(GameEvent.objects.filter(game=game).values_list("sequence", flat=True)) == list(
        range(1, len(log) + 1)
    )
    assert GameEvent.objects.filter(game=game, recorded_by=user).count() == len(log)
    _assert_cache_equals_replay(game)
    # The log comes back as written, though PostgreSQL's jsonb reorders keys it stores.
    assert selectors.game_log_text(game=game) == engine.format_log(log)
    assert engine.parse_log(selectors.game_log_text(game=game)) == log


def test_append_uses_cache_without_replay(simulated_log, monkeypatch):
    log = simulated_log(seed=5)
    game = _append_all(GameFactory(), log[:10])

    def no_replay(*args, **kwargs):
        raise AssertionError("replayed")

    monkeypatch.setattr(engine, "replay", no_replay)
    game = _append_all(game, log[10:20])
    monkeypatch.undo()
    _assert_cache_equals_replay(game)


def test_stale_cache_is_rebuilt_by_replay(simulated_log):
    log = simulated_log(seed=6)
    game = _append_all(GameFactory(), log[:8])
    Game.objects.filter(pk=game.pk).update(state=None, state_sequence=0)
    game = _append_all(Game.objects.get(pk=game.pk), log[8:12])
    _assert_cache_equals_replay(game)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 60))
def test_cache_always_equals_replay(seed, cut):
    log = engine.simulate(game="tock", players=PLAYERS, seed=seed)
    cut = min(cut, len(log))
    game = _append_all(GameFactory(), log[:cut])
    _assert_cache_equals_replay(game)
    game = services.game_attach_log(game=game, log=log, user=None).game
    _assert_cache_equals_replay(game)


def test_stale_sequence_is_refused_and_nothing_stored(simulated_log):
    log = simulated_log()
    game = _append_all(GameFactory(), log[:3])
    for wrong in (3, 5, 1):
        with pytest.raises(StaleSequence) as exc:
            services.game_append_event(game=game, event=log[3], expected_sequence=wrong, user=None)
        assert exc.value.current_sequence == 3
        assert exc.value.http_status == 409
        assert exc.value.as_dict()["current_sequence"] == 3
    assert GameEvent.objects.filter(game=game).count() == 3


def test_illegal_event_is_refused_with_engine_reason(simulated_log):
    log = simulated_log()
    game = _append_all(GameFactory(), log[:2])
    bad = {"type": "play", "player": "nobody", "card": 5, "to": "center"}
    with pytest.raises(EventRejected) as exc:
        services.game_append_event(game=game, event=bad, expected_sequence=3, user=None)
    assert exc.value.http_status == 422
    assert exc.value.reason and "\n" not in exc.value.reason
    game.refresh_from_db()
    assert game.last_sequence == 2
    assert GameEvent.objects.filter(game=game).count() == 2
    _assert_cache_equals_replay(game)


@pytest.mark.parametrize("event", [None, [], "play", 5, {"type": object()}])
def test_malformed_event(event):
    game = GameFactory()
    with pytest.raises(MalformedInput):
        services.game_append_event(game=game, event=event, expected_sequence=1, user=None)
    assert not GameEvent.objects.exists()


@pytest.mark.parametrize("seq", [0, -1, "1", None, True, 1.0])
def test_bad_sequence_number(seq, simulated_log):
    with pytest.raises(MalformedInput):
        services.game_append_event(
            game=GameFactory(), event=simulated_log()[0], expected_sequence=seq, user=None
        )


def test_start_event_must_match_seats(simulated_log):
    game = GameFactory()
    wrong_order = simulated_log(players=["bob", "ann", "cat", "dan"])[0]
    with pytest.raises(ResultMismatch):
        services.game_append_event(game=game, event=wrong_order, expected_sequence=1, user=None)
    with pytest.raises(EventRejected):
        services.game_append_event(
            game=game, event={"type": "draw"}, expected_sequence=1, user=None
        )
    assert not GameEvent.objects.exists()
    game.refresh_from_db()
    assert game.status == "pending" and game.start_event is None


def test_event_for_finished_game(simulated_log):
    log = simulated_log()
    game = services.game_attach_log(game=GameFactory(), log=log, user=None).game
    with pytest.raises(GameFinished):
        services.game_append_event(
            game=game, event=log[-1], expected_sequence=len(log) + 1, user=None
        )


def test_attach_log_all_or_nothing(simulated_log):
    log = simulated_log(seed=11)
    text = "".join(jsonio.dumps(e) + "\n" for e in log)
    lines = text.splitlines()
    lines[40] = lines[40].replace('"type":"', '"type":"x')
    game = GameFactory()
    with pytest.raises(LogRejected) as exc:
        services.game_attach_log(game=game, log="\n".join(lines), user=None)
    assert exc.value.line == 41
    with pytest.raises(LogRejected) as exc:
        services.game_attach_log(game=game, log="{not json\n", user=None)
    assert exc.value.line == 1
    with pytest.raises(LogRejected):
        services.game_attach_log(game=game, log="", user=None)
    assert not GameEvent.objects.exists()
    outcome = services.game_attach_log(game=game, log=text, user=None)
    assert outcome.events_added == len(log) and outcome.result_changed
    again = services.game_attach_log(game=game, log=text.encode(), user=None)
    assert again.events_added == 0 and not again.result_changed
    _assert_cache_equals_replay(outcome.game)


def test_attach_log_players_must_match_seats(simulated_log):
    game = GameFactory()
    log = simulated_log(players=["ann", "bob", "cat", "eve"])
    with pytest.raises(ResultMismatch) as exc:
        services.game_attach_log(game=game, log=log, user=None)
    assert "eve" in str(exc.value.message)
    assert not GameEvent.objects.exists()


def test_attach_log_completes_a_partial_log_but_never_rewrites(simulated_log):
    log = simulated_log(seed=2)
    game = _append_all(GameFactory(), log[:15])
    other = simulated_log(seed=99)
    with pytest.raises(ResultConflict):
        services.game_attach_log(game=game, log=other, user=None)
    outcome = services.game_attach_log(game=game, log=log, user=None)
    assert outcome.events_added == len(log) - 15
    _assert_cache_equals_replay(outcome.game)


def test_placements_only_result():
    game = GameFactory()
    outcome = services.game_set_placements(
        game=game, placements={"ann": 2, "bob": 1, "cat": 2, "dan": 4}, user=None
    )
    game = outcome.game
    assert outcome.result_changed
    assert game.placements == {"ann": 2, "bob": 1, "cat": 2, "dan": 4}
    assert not game.result_verified and game.result_source == "placements"
    assert game.status == "finished" and game.result_version == 1
    again = services.game_set_placements(game=game, placements=dict(game.placements), user=None)
    assert not again.result_changed
    other = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
    with pytest.raises(ResultConflict, match="referee"):  # a result changes by a ruling only
        services.game_set_placements(game=game, placements=other, user=None)
    game.refresh_from_db()
    assert game.placements == {"ann": 2, "bob": 1, "cat": 2, "dan": 4}
    corrected = services.game_set_placements(game=game, placements=other, user=None, replace=True)
    assert corrected.result_changed and corrected.game.result_version == 2


@pytest.mark.parametrize(
    "placements",
    [
        {"ann": 1, "bob": 2, "cat": 3},
        {"ann": 1, "bob": 2, "cat": 3, "eve": 4},
        {"ann": 1, "bob": 2, "cat": 3, "dan": 3, "eve": 5},
        {"ann": 1, "bob": 1, "cat": 2, "dan": 4},
        {"ann": 0, "bob": 1, "cat": 2, "dan": 3},
        {"ann": "1", "bob": 2, "cat": 3, "dan": 4},
        {"ann": 1, "bob": 2, "cat": 3, "dan": 9},
    ],
)
def test_placements_must_match_players(placements):
    game = GameFactory()
    with pytest.raises(ResultMismatch):
        services.game_set_placements(game=game, placements=placements, user=None)
    game.refresh_from_db()
    assert game.placements is None and game.result_version == 0


def test_placements_refused_when_a_log_exists(simulated_log):
    log = simulated_log()
    game = _append_all(GameFactory(), log[:5])
    with pytest.raises(ResultConflict):
        services.game_set_placements(
            game=game, placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4}, user=None
        )


def test_log_replaces_placements_only_result(simulated_log):
    log = simulated_log(seed=4)
    game = services.game_set_placements(
        game=GameFactory(), placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4}, user=None
    ).game
    with pytest.raises(GameFinished):
        services.game_append_event(game=game, event=log[0], expected_sequence=1, user=None)
    outcome = services.game_attach_log(game=game, log=log, user=None)
    assert outcome.result_changed
    assert outcome.game.result_verified
    assert outcome.game.placements == engine.replay(log).placements()
    assert outcome.game.result_version == 2


def test_game_create_with_start_event_and_batch(simulated_log):
    start = simulated_log()[0]
    game = services.game_create(kind="tock", start_event=start, user=None)
    assert game.players == PLAYERS and game.last_sequence == 1 and game.status == "in_progress"
    with pytest.raises(MalformedInput):
        services.game_create(kind="chess", user=None)
    games = services.game_create_batch(kind="tock", seatings=[["a", "b"], ["c", "d"]], user=None)
    assert [g.players for g in games] == [["a", "b"], ["c", "d"]]
    assert all(g.pk for g in games)


def test_refresh_cache_is_idempotent(simulated_log):
    game = services.game_attach_log(game=GameFactory(), log=simulated_log(), user=None).game
    before = (game.placements, game.result_version)
    for _ in range(2):
        game = services.game_refresh_cache(game=game).game
    assert (game.placements, game.result_version) == before
    _assert_cache_equals_replay(game)


@pytest.mark.parametrize(
    "cached",
    [
        pytest.param(lambda state: {**state, "version": state["version"] + 1}, id="newer-version"),
        pytest.param(lambda state: {**state, "version": 0}, id="older-version"),
        pytest.param(lambda state: {"game": state["game"]}, id="unreadable"),
        pytest.param(lambda state: ["not", "a", "state"], id="not-an-object"),
    ],
)
def test_a_cache_the_engine_cannot_read_falls_back_to_a_replay(simulated_log, cached):
    """A cached state of another engine version (or a damaged one) must not make every
    legal event answer 422: the state comes from a replay of the log and is rewritten."""
    log = simulated_log(seed=8)
    game = _append_all(GameFactory(), log[:12])
    Game.objects.filter(pk=game.pk).update(state=cached(game.state))
    game.refresh_from_db()
    assert game.cache_is_fresh  # it reflects the last event, but the engine cannot use it

    assert selectors.game_legal_moves(game=game) == engine.replay(log[:12]).legal_moves()
    assert selectors.game_engine(game=game).to_state() == engine.replay(log[:12]).to_state()
    game = _append_all(game, log[12:14])
    assert game.last_sequence == 14
    _assert_cache_equals_replay(game)


def test_after_the_end_only_a_correction_is_appended(simulated_log):
    """A finished game refuses every event (GameFinished) but the ``correction``, which
    the engine accepts after the end: the stored result follows the replay."""
    log = simulated_log(seed=3)
    game = _append_all(GameFactory(), log)
    played, finished_at = dict(game.placements), game.finished_at
    with pytest.raises(GameFinished):
        services.game_append_event(
            game=game, event={"type": "end", "reason": "time"}, expected_sequence=len(log) + 1,
            user=None,
        )  # fmt: skip
    players = list(game.players)
    new = {p: i for i, p in enumerate(reversed(players), start=1)}
    assert new != played
    bad = {"type": "correction", "referee": "r", "placements": new, "note": ""}
    with pytest.raises(EventRejected, match="note"):
        services.game_append_event(game=game, event=bad, expected_sequence=len(log) + 1, user=None)
    event = {**bad, "note": "swapped score sheets"}
    outcome = services.game_append_event(
        game=game, event=event, expected_sequence=len(log) + 1, user=None
    )
    assert outcome.result_changed and outcome.events_added == 1
    game = outcome.game
    assert game.placements == new and game.status == engine.replay(log).status
    assert game.result_version == 2 and game.finished_at == finished_at
    _assert_cache_equals_replay(game)
    same = services.game_append_event(
        game=game, event=event, expected_sequence=len(log) + 2, user=None
    )
    assert not same.result_changed and same.game.result_version == 2  # the same places again


def test_a_correction_is_refused_in_progress_and_on_a_void_game(simulated_log):
    log = simulated_log(seed=3)
    game = _append_all(GameFactory(), log[:4])
    places = {p: i for i, p in enumerate(game.players, start=1)}
    event = {"type": "correction", "referee": "r", "placements": places, "note": "n"}
    with pytest.raises(EventRejected, match="in progress"):
        services.game_append_event(game=game, event=event, expected_sequence=5, user=None)
    void = services.game_void(game=GameFactory(), user=None).game
    with pytest.raises(GameFinished):
        services.game_append_event(game=void, event=event, expected_sequence=1, user=None)
