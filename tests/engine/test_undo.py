"""The ``undo`` event and ``Game.pop()``, for every kind (docs/engine-api.md, *Undo*):
push then pop equals never pushed; a log with undo lines replays to the game of its
effective events (every line counted); the refusals, with their one-line reasons and
their line; push and push_many agree."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine import IllegalMove, InvalidEvent, LogError

KINDS = ("tock", "uno", "casino")
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # (no shrinking: keep it quick)
)


@functools.cache
def _log(kind: str, seed: int) -> tuple[dict[str, Any], ...]:
    options = {"mistakes": 0.05, "knocks": 0.2} if kind == "tock" else {}
    return tuple(engine.simulate(game=kind, players=3, seed=seed, **options))


def _without_count(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "events"}


def _renumbered(value: Any, lines: dict[int, int]) -> Any:
    """``value`` (a summary) with every ``"event": N`` (a log line) mapped by ``lines``."""
    if isinstance(value, dict):
        return {
            k: lines[v] if k == "event" and type(v) is int else _renumbered(v, lines)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_renumbered(v, lines) for v in value]
    return value


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_push_then_pop_equals_never_pushed(kind, data):
    log = _log(kind, data.draw(st.integers(1, 3), label="seed"))
    cut = data.draw(st.integers(1, len(log) - 2), label="cut")
    before = engine.replay(log[:cut])
    moves = before.legal_moves() + before.table_moves() + before.infraction_moves()
    event = data.draw(st.sampled_from([log[cut], *moves]), label="event")
    game = engine.replay(log[:cut])
    game.push(event)
    assert game.pop() == event
    assert _without_count(game.summary()) == _without_count(before.summary())
    assert game.legal_moves() == before.legal_moves()
    assert game.outcome() == before.outcome()
    assert game.event_count == cut + 2  # the event and the undo line are log lines
    # the rest of the game still replays on top of it
    game.push_many(log[cut : cut + 5])


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_a_log_with_undos_replays_to_its_effective_events(kind, data):
    log = list(_log(kind, data.draw(st.integers(1, 3), label="seed")))
    # a prefix, or the whole game
    log = log[: data.draw(st.sampled_from([60, 150, len(log)]), label="lines")]
    probe = engine.start(log[0])
    with_undos: list[dict[str, Any]] = [log[0]]
    lines: dict[int, int] = {1: 1}  # line in `log` -> line in `with_undos`
    for i, event in enumerate(log[1:], start=2):
        if data.draw(st.integers(0, 9), label="take back here") == 0:
            # one or two moves the rules allow, then as many undo lines
            taken = 0
            trial = probe.copy()
            for _ in range(data.draw(st.integers(1, 2), label="how many")):
                moves = trial.legal_moves() + trial.table_moves()
                if not moves or trial.is_over:
                    break
                move = data.draw(st.sampled_from(moves), label="withdrawn move")
                trial.push(move)
                if trial.is_over:  # a move that ends the game is never undone
                    break
                with_undos.append(move)
                taken += 1
            with_undos.extend({"type": "undo", "_by": "sk"} for _ in range(taken))
        probe.push(event)
        with_undos.append(event)
        lines[i] = len(with_undos)
    played = engine.replay(with_undos)
    plain = engine.replay(log)
    assert played.event_count == len(with_undos)  # every line counts
    assert _without_count(played.summary()) == _without_count(_renumbered(plain.summary(), lines))
    assert played.outcome() == plain.outcome()
    # one push per line gives the same game as the batch
    pushed = engine.start(with_undos[0])
    for event in with_undos[1:]:
        pushed.push(event)
    assert pushed.to_state() == played.to_state()
    assert engine.restore(played.to_state()).to_state() == played.to_state()
    withdrawn = engine.withdrawn_lines(with_undos)
    assert len(withdrawn) == sum(e.get("type") == "undo" for e in with_undos)


@pytest.mark.parametrize("kind", KINDS)
def test_undo_refusals_name_the_reason_and_the_line(kind):
    log = list(_log(kind, 1))
    with pytest.raises(LogError) as exc:
        engine.replay([log[0], {"type": "undo"}])
    assert exc.value.line == 2
    assert str(exc.value) == (
        "line 2: nothing to undo: the log holds only the start line, which cannot be withdrawn"
    )
    with pytest.raises(LogError) as exc:
        engine.replay([*log[:3], {"type": "undo"}, {"type": "undo"}, {"type": "undo"}])
    assert exc.value.line == 6
    assert "nothing to undo: every event after the start line is withdrawn already" in str(
        exc.value
    )
    with pytest.raises(LogError) as exc:
        engine.replay([*log, {"type": "undo"}])
    assert exc.value.line == len(log) + 1
    assert "no undo after the end" in exc.value.reason
    assert "\n" not in str(exc.value)
    with pytest.raises(LogError) as exc:
        engine.replay([*log[:3], {"type": "undo", "by": "x"}])
    assert isinstance(exc.value.cause, InvalidEvent) and exc.value.line == 4
    # refused by push: nothing changes
    over = engine.replay(log)
    state = over.to_state()
    with pytest.raises(IllegalMove, match="no undo after the end"):
        over.pop()
    assert over.to_state() == state
    fresh = engine.start(log[0])
    with pytest.raises(IllegalMove, match="nothing to undo"):
        fresh.push({"type": "undo", "_by": "sk"})
    assert fresh.event_count == 1


@pytest.mark.parametrize("kind", KINDS)
def test_many_undos_in_a_row_and_restored_games(kind):
    """Undo lines in a row (the batch's checkpoints) and after a restore or a copy."""
    log = list(_log(kind, 2))
    n = min(300, len(log) // 2)
    long = [*log[:n], *({"type": "undo"} for _ in range(n - 2)), *log[2:n]]
    game = engine.replay(long)
    assert game.event_count == len(long)
    assert _without_count(game.summary()) == _without_count(
        _renumbered(
            engine.replay(log[:n]).summary(),
            {1: 1, 2: 2, **{i: i + 2 * n - 4 for i in range(3, n + 1)}},
        )
    )
    pairs = [*log[:n], *(e for _ in range(40) for e in (log[n], {"type": "undo"}))]
    paired = engine.replay(pairs)
    assert _without_count(paired.summary())["status"] == "in_progress"
    assert paired.legal_moves() == engine.replay(log[:n]).legal_moves()
    restored = engine.restore(engine.replay(log[:n]).to_state())
    copy = restored.copy()
    assert restored.pop() == log[n - 1]
    assert copy.event_count == n  # the copy is independent
    assert _without_count(restored.summary()) == _without_count(
        engine.replay(log[: n - 1]).summary()
    )


@pytest.mark.parametrize("kind", KINDS)
def test_a_cached_state_keeps_no_log_and_undoes_once_the_log_is_attached(kind):
    """``cache_state()``: the state without its lines (what the site caches after every
    event: its size does not grow with the log). Restored, the game plays on like the
    original; an undo needs the lines, handed over with ``attach_log`` (the game's own
    count of lines, else refused and nothing changes)."""
    log = list(_log(kind, 3))
    n = min(120, len(log) - 2)
    played = engine.replay(log[:n])
    cached = played.cache_state()
    assert cached["log"] is None and {**cached, "log": played.to_state()["log"]} == (
        played.to_state()
    )
    restored = engine.restore(cached)
    restored.push(log[n])
    played.push(log[n])
    assert restored.cache_state() == played.cache_state()
    with pytest.raises(IllegalMove, match="attach the log"):
        restored.push({"type": "undo"})
    with pytest.raises(InvalidEvent, match=f"the game's {n + 1} lines, not {n}"):
        restored.attach_log(log[:n])
    assert restored.cache_state() == played.cache_state()  # nothing changed
    restored.attach_log(log[: n + 1])
    restored.push({"type": "undo"})
    assert _without_count(restored.summary()) == _without_count(engine.replay(log[:n]).summary())
    assert restored.to_state()["log"] == [*log[: n + 1], {"type": "undo"}]
