"""The generic robustness properties every card-game kind's property tests share (UNO,
Casino): a corrupted log is refused as ``line N: reason`` with everything before line N
valid, garbage text after a start line is refused the same way, and garbage events are
refused with a one-line message and leave the game unchanged (``push`` is atomic),
never a traceback; and the referee's adjudicated end."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import games.engine as engine
from tests.engine.refusal import refused


def without_seed(log: list[dict]) -> list[dict]:
    """``log`` with its start event's seed removed (a game of real cards)."""
    start = dict(log[0])
    start.pop("seed", None)
    return [start, *log[1:]]


def check_corrupted_logs(
    logs: list[list[dict]],
    corrupt: Callable[[list[dict], random.Random], list[dict]],
    pool: int,
) -> None:
    """400 corruptions of the first ``pool`` logs, each with and without its seed: every
    refusal is one ``line N: reason`` line naming a line of the log, everything before
    line N replays, and more than 300 of the 800 are refused."""
    rng = random.Random(3)
    refused = 0
    for k in range(400):
        bad = corrupt(logs[k % pool], rng)
        for events in (bad, without_seed(bad)):
            try:
                engine.replay(events)
            except engine.LogError as exc:
                refused += 1
                assert str(exc).startswith(f"line {exc.line}: ") and "\n" not in str(exc)
                assert 1 <= exc.line <= len(events)
                if exc.line > 1:
                    engine.replay(events[: exc.line - 1])  # everything before it is valid
    assert refused > 300


def check_garbage_text(kind: str, data: bytes | str) -> None:
    """``data`` after a seeded two-player start line of ``kind`` replays or is refused as
    ``line N: reason``."""
    text = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    start = b'{"type":"start","game":"%s","players":["a","b"],"seed":1}\n' % kind.encode()
    try:
        engine.replay_text(start + text)
    except engine.LogError as exc:
        assert str(exc).startswith(f"line {exc.line}: ")


def jsonish(words: list[str], keys: list[str]) -> st.SearchStrategy[Any]:
    """Small JSON values built of ``words``, small integers and dictionaries keyed by
    ``keys``: events that look almost like a kind's own."""
    return st.recursive(
        st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(words),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.sampled_from(keys), children, max_size=5)
        ),
        max_leaves=12,
    )


def check_garbage_events(g: engine.Game, garbage: list[Any]) -> None:
    """Push each of ``garbage`` on ``g``: accepted, or refused with a one-line message
    and the game unchanged."""
    for event in garbage:
        before = g.to_state()
        try:
            g.push(event)
        except engine.EngineError as exc:
            assert "\n" not in str(exc) and str(exc)
            assert g.to_state() == before


def check_adjudicated_end(g: engine.Game) -> None:
    """On ``g``, players a, b and c after its deal (event 2): an adjudicated end must
    place every seated player and name a known reason (refused otherwise, the game
    unchanged); given, it ends the game with the referee's placements, ties allowed."""
    refused(
        g,
        {"type": "end", "reason": "adjudicated", "placements": {"a": 1}},
        "every seated",
        kind=engine.InvalidEvent,
    )
    refused(g, {"type": "end", "reason": "later"}, "'reason'", kind=engine.InvalidEvent)
    g.push(
        {
            "type": "end",
            "reason": "adjudicated",
            "referee": "r",
            "placements": {"a": 2, "b": 1, "c": 2},
        }
    )
    s = g.summary()
    assert s["placements"] == {"a": 2, "b": 1, "c": 2} and s["turn"] is None
    assert s["end"] == {
        "event": 3,
        "reason": "adjudicated",
        "referee": "r",
        "placements_given": True,
    }


def both_ways(game_class: type[Any], run: Callable[[], Any]) -> list[tuple[str, Any]]:
    """``run()`` with ``game_class._run``'s inline usual events on and with the handlers
    alone (``_INLINE`` off): ``("ok", state)`` or ``("refused", message)`` each."""
    outcomes = []
    for inline in (True, False):
        game_class._INLINE = inline
        try:
            outcomes.append(("ok", run().to_state()))
        except engine.EngineError as exc:
            outcomes.append(("refused", str(exc)))
        finally:
            game_class._INLINE = True
    return outcomes


def check_inline_judges_as_the_handlers(
    game_class: type[Any],
    logs: list[list[dict]],
    variants: Callable[[Any, dict, random.Random], list[dict]],
    corrupt: Callable[[list[dict], random.Random], list[dict]],
) -> None:
    """At up to 8 points of every 40th log (every third without its seed), the log's
    next event and its ``variants(game, event, rng)`` give the same state or the same
    refusal with ``_run``'s inline usual events and with the handlers alone
    (:func:`both_ways`); so do 200 whole logs made by ``corrupt``. More than 3,000
    events are checked, more than half of them refused."""
    rng = random.Random(5)
    checked = refused = 0
    for k, log in enumerate(logs[::40]):
        events = without_seed(log) if k % 3 == 0 else log
        for cut in sorted(rng.sample(range(2, len(events)), min(8, len(events) - 2))):
            g = engine.replay(events[:cut])
            for variant in variants(g, events[cut], rng):

                def push(variant: dict = variant, g: Any = g) -> Any:
                    h = g.copy()
                    h.push(copy.deepcopy(variant))
                    return h

                inline, handlers = both_ways(game_class, push)
                assert inline == handlers, (cut, variant)
                checked += 1
                refused += inline[0] == "refused"
    for _ in range(200):
        bad = corrupt(logs[rng.randrange(len(logs))], rng)
        inline, handlers = both_ways(game_class, lambda bad=bad: engine.replay(bad))
        assert inline == handlers
    assert checked > 3000 and refused > checked // 2
