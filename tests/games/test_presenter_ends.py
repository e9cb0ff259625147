"""Where the log says a hand (UNO) or round (Casino) ended: on the whole log and on every
window of it (the score page's latest events, given how many deals came before), the
marked events are exactly those after which the engine's results grow, each with the
result of that hand or round."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import games.engine as engine
from games.presenters import game_log_lines

CASES = [
    ("uno", ["a", "b"], 3, {"target": 150}),
    ("uno", ["a", "b", "c", "d"], 5, {"target": 500}),
    ("casino", ["a", "b"], 7, {"target": 11}),
    ("casino", ["a", "b", "c"], 19, {"target": 11}),
    ("casino", ["a", "b", "c", "d"], 2, {"target": 11}),
]
KEYS = {"uno": "hand_results", "casino": "round_scores"}


def _engine_ends(log: list[dict], key: str) -> list[int]:
    game, ends = engine.replay(log[:1]), []
    for n, event in enumerate(log[1:], start=2):
        before = len(game.summary()[key])
        game.push(event)
        if len(game.summary()[key]) > before:
            ends.append(n)
    return ends


def _rows(log: list[dict], first: int, last: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(sequence=n, data=log[n - 1]) for n in range(first, last + 1)]


@pytest.mark.parametrize("kind, players, seed, options", CASES)
def test_ends_on_the_whole_log_and_on_every_window(kind, players, seed, options):
    log = engine.simulate(game=kind, players=players, seed=seed, **options)
    summary = engine.replay(log).summary()
    expected = _engine_ends(log, KEYS[kind])
    assert len(expected) == len(summary[KEYS[kind]]) >= 2
    whole = {
        line.sequence: line.end
        for line in game_log_lines(kind=kind, events=_rows(log, 1, len(log)), summary=summary)
        if line.end
    }
    assert list(whole) == expected
    for width in (1, 3, 8):
        for first in range(2, len(log) - width + 2):
            last = first + width - 1
            prior = sum(1 for e in log[: first - 1] if e.get("type") == "deal")
            lines = game_log_lines(
                kind=kind, events=_rows(log, first, last), summary=summary, prior=prior
            )
            got = {line.sequence: line.end for line in lines if line.end}
            # an end at the window's last event shows once the next event is in view (the
            # score page's window always reaches the log's last event)
            seen = last if last == len(log) else last - 1
            assert got == {n: whole[n] for n in expected if first <= n <= seen}, (first, width)
            # without the count a window marks nothing (it cannot number hands)
            assert not any(
                line.end
                for line in game_log_lines(
                    kind=kind, events=_rows(log, first, last), summary=summary
                )
            )
