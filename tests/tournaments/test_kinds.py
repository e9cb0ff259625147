"""The game kinds come from the engine's registry, and the Django side asks the game
class, never a constant of its own."""

from __future__ import annotations

import pytest

import games.engine as engine
from games import kinds
from games.errors import MalformedInput
from games.models import Game
from tournaments import services
from tournaments.errors import InvalidConfiguration
from tournaments.models import League
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def test_kinds_are_the_engines():
    assert kinds.game_kinds() == engine.game_kinds()
    assert ("tock", "TOCK") in kinds.game_kind_choices()
    assert dict(Game._meta.get_field("kind").choices) == dict(engine.kind_choices())
    assert dict(League._meta.get_field("kind").choices) == dict(engine.kind_choices())
    assert kinds.player_count_range("tock") == (2, 6)
    assert "center" in kinds.reserved_names()
    assert ("uno", "UNO") in kinds.game_kind_choices()
    assert kinds.player_count_range("uno") == (2, 10)


def test_an_uno_league_can_be_created():
    league = services.league_create(name="Uno Nights", slug="uno", kind="uno", user=SYSTEM)
    assert league.kind == "uno"


def test_a_kind_the_engine_cannot_play_cannot_be_chosen():
    with pytest.raises(InvalidConfiguration):
        services.league_create(name="Bridge Nights", slug="bridge", kind="bridge", user=SYSTEM)
    with pytest.raises(MalformedInput):
        services.friendly_game_create(
            kind="bridge", placements={"a": 1, "b": 2}, user=SYSTEM, create_players=True
        )
    assert not League.objects.exists() and not Game.objects.exists()


@pytest.mark.parametrize("name", sorted(kinds.reserved_names()))
def test_a_name_some_kind_reserves_is_no_handle(name):
    with pytest.raises(InvalidConfiguration):
        services.player_create(handle=name, user=SYSTEM)
