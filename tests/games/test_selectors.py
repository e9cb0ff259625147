from __future__ import annotations

import pytest

from games import selectors, services
from games.errors import GameNotFound
from tests.games.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game_id", [999999, "abc", None, "1e5", 10**30])
def test_game_get_unknown(game_id):
    with pytest.raises(GameNotFound) as exc:
        selectors.game_get(game_id=game_id)
    assert exc.value.http_status == 404


def test_derived_state_and_legal_moves(simulated_log):
    log = simulated_log()
    game = GameFactory()
    assert selectors.game_derived_state(game=game)["next_sequence"] == 1
    assert selectors.game_legal_moves(game=game) == []
    for n, event in enumerate(log[:4], start=1):
        game = services.game_append_event(
            game=game, event=event, expected_sequence=n, user=None
        ).game
    state = selectors.game_derived_state(game=game)
    assert state["sequence"] == 4 and state["next_sequence"] == 5
    assert state["summary"]["events"] == 4
    assert state["placements"] is None and not state["verified"]
    assert selectors.game_legal_moves(game=game)
    assert selectors.game_get(game_id=str(game.pk)) == game
    events = selectors.game_event_list(game=game, after=2)
    assert list(events.values_list("sequence", flat=True)) == [3, 4]
