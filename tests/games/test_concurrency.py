"""Two writers racing on the same game: exactly one wins, no gap, no duplicate.

Runs on PostgreSQL only (real row locks); skipped on SQLite unless REQUIRE_SERVICES=1,
where it fails instead (see ``requires_postgres`` in tests/conftest.py).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

import games.engine as engine
from games import services
from games.errors import StaleSequence
from games.models import Game, GameEvent
from tests.games.conftest import PLAYERS

WRITERS = 4


def _race(game_id: int, event: dict, sequence: int) -> list[object]:
    barrier = threading.Barrier(WRITERS)
    results: list[object] = [None] * WRITERS

    def writer(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            services.game_append_event(
                game=game_id, event=event, expected_sequence=sequence, user=None
            )
            results[i] = "ok"
        except StaleSequence as exc:
            results[i] = exc
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            results[i] = repr(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_exactly_one_wins(requires_postgres):
    assert connection.vendor == "postgresql"
    log = engine.simulate(game="tock", players=PLAYERS, seed=21)
    game = Game.objects.create(kind="tock", players=PLAYERS)
    for sequence in range(1, 13):
        results = _race(game.pk, log[sequence - 1], sequence)
        assert results.count("ok") == 1, results
        losers = [r for r in results if r != "ok"]
        assert all(isinstance(r, StaleSequence) for r in losers), results
        assert all(r.current_sequence == sequence for r in losers)
    sequences = list(
        GameEvent.objects.filter(game=game).order_by("sequence").values_list("sequence", flat=True)
    )
    assert sequences == list(range(1, 13))
    game.refresh_from_db()
    assert game.last_sequence == 12
    assert game.state == engine.replay(log[:12]).cache_state()
