"""Free text that people write about a hidden player (a correction's note, a ruling's
note, a scorekeeper's ``_note``) reaches the public with the player's neutral name in
place of the handle, the whole name and its words, whatever the case and accents; staff
keep reading the note as written."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.privacy.conftest import SECRET_HANDLE, fetch_texts
from tests.privacy.test_hide import _client, _hide, _leaks
from tournaments.models import Player
from tournaments.selectors.privacy import mask_text, name_texts
from tournaments.services.rulings import result_correction_record

pytestmark = pytest.mark.django_db

NOTE = (
    "María García Bonet's last play was miscounted; maria garcia agreed, "
    "BONET signed as maria-garcia. Mariano saw it."
)


def _correct(world, note: str = NOTE) -> Game:
    game = Game.objects.get(pk=world.game_ids[0])  # round 1, table 1: maria plays
    ranks = {h: len(game.players) + 1 - game.placements[h] for h in game.players}
    result_correction_record(
        game=game,
        placements=ranks,
        note=note,
        expected_sequence=game.last_sequence + 1,
        user=world.referee,
    )
    return game


def _texts(client: APIClient, world, game: Game) -> dict[str, str]:
    t = world.tournament.pk
    urls = [
        f"/tournaments/{t}/rulings/",
        f"/tournaments/{t}/rulings.csv",
        f"/api/tournaments/{t}/rulings",
        f"/games/{game.pk}/",
        f"/api/games/{game.pk}",
        f"/api/games/{game.pk}/events",
        f"/api/games/{game.pk}/log",
    ]
    return fetch_texts(client, urls)


def test_a_correction_note_names_a_hidden_player_only_for_staff(world):
    game = _correct(world)
    assert any(_leaks(text) for text in _texts(_client(), world, game).values())
    _hide(world)
    label = f"Player {world.maria.pk}"
    for client in (_client(), _client(world.stranger)):
        shown = _texts(client, world, game)
        assert [url for url, text in shown.items() if _leaks(text)] == []
        page = shown[f"/tournaments/{world.tournament.pk}/rulings/"]
        assert f"{label}&#x27;s last play" in page or f"{label}'s last play" in page
        assert "Mariano saw it" in page  # another word that merely starts alike stays
    for who in (world.organizer, world.referee, world.maria_user):
        page = _client(who).get(f"/tournaments/{world.tournament.pk}/rulings/").content.decode()
        assert "Bonet" in page and "maria-garcia" in page


def test_mask_text_matches_whole_names_and_words_whatever_the_case_and_accents(world):
    maria = Player.objects.get(handle=SECRET_HANDLE)
    shown = Player(pk=maria.pk, handle="Player-9", display_name="Player 9")
    texts = name_texts(player=maria, shown=shown)
    assert texts == {
        "maria-garcia": "Player-9",
        "María": "Player 9",
        "García": "Player 9",
        "Bonet": "Player 9",
        "María García Bonet": "Player 9",
    }
    assert mask_text(NOTE, texts) == (
        "Player 9's last play was miscounted; Player 9 Player 9 agreed, "
        "Player 9 signed as Player-9. Mariano saw it."
    )
    assert mask_text("MARIA GARCIA BONET", texts) == "Player 9"
    assert mask_text("Mariano and Garcías", texts) == "Mariano and Garcías"
    assert mask_text("", texts) == "" and mask_text("no name here", {}) == "no name here"


#: The name joined by "_", "." or "-", and accents written apart (NFD: a letter, then
#: U+0301), in any case.
SPELLED_APART = (
    "maria_garcia signed; Mari\u0301a Garci\u0301a.Bonet agreed; GARCI\u0301A_BONET and "
    "bonet too. Mariano_Rossi saw it."
)


def test_mask_text_matches_names_joined_by_separators_and_decomposed_accents(world):
    maria = Player.objects.get(handle=SECRET_HANDLE)
    shown = Player(pk=maria.pk, handle="Player-9", display_name="Player 9")
    texts = name_texts(player=maria, shown=shown)
    assert mask_text(SPELLED_APART, texts) == (
        "Player-9 signed; Player 9 agreed; Player 9_Player 9 and Player 9 too. "
        "Mariano_Rossi saw it."
    )
    assert mask_text("maria_garcia_bonet", texts) == "Player 9"
    assert mask_text("Garcías and Mari\u0301ano", texts) == "Garcías and Mari\u0301ano"


def test_a_note_spelling_a_hidden_name_apart_is_masked_for_the_public(world):
    game = _correct(world, SPELLED_APART)
    _hide(world)
    for client in (_client(), _client(world.stranger)):
        shown = _texts(client, world, game)
        assert [url for url, text in shown.items() if _leaks(text)] == []
        for text in shown.values():
            assert "maria_garcia" not in text.casefold() and "bonet" not in text.casefold()
            assert "i\u0301a" not in text
    page = _client(world.referee).get(f"/tournaments/{world.tournament.pk}/rulings/")
    assert "maria_garcia signed" in page.content.decode()
