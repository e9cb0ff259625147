"""The score sheet's pad (issue 22): a UNO or Casino score-sheet game gets one line per
hand or round on one screen; the line is built from the pad's fields (games.sheet),
checked by the engine (its reason, 422, nothing stored), idempotent by its key."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameEvent
from games.presenters import presenter_for
from games.sheet import build_sheet_event
from tests.web.kind_fixtures import kind_tournament, record, seated_game, staff
from tournaments.models import Role

pytestmark = pytest.mark.django_db

FOUR = {"ann": "Ann", "bob": "Bob", "cat": "Cat", "dan": "Dan"}


def sheet_game(kind: str):
    tournament = kind_tournament(kind, name=f"{kind} sheet")
    game = seated_game(tournament, FOUR)
    record(game, [{"type": "start", "game": kind, "players": list(FOUR), "sheet": True}])
    keeper = staff(tournament, Role.SCOREKEEPER, f"{kind}-sheet-keeper")
    client = Client()
    client.force_login(keeper)
    return game, client


def score(game) -> str:
    return reverse("tournaments:game-score", args=[game.pk])


def test_the_uno_line_is_built_from_the_pad():
    form = presenter_for("uno").sheet_form(list(FOUR), FOUR)
    assert build_sheet_event(form, {"winner": "bob", "points": "87"}) == {
        "type": "hand",
        "winner": "bob",
        "points": 87,
    }
    with pytest.raises(Exception, match="choose one of the offered"):
        build_sheet_event(form, {"winner": "zed", "points": "1"})
    with pytest.raises(Exception, match="a whole number"):
        build_sheet_event(form, {"winner": "bob", "points": "8x"})


def test_the_casino_line_awards_each_bonus_to_the_chosen_player():
    form = presenter_for("casino").sheet_form(list(FOUR), FOUR)
    event = build_sheet_event(
        form,
        {
            "cards": "ann",
            "spades": "",  # a tie: nobody
            "big_casino": "cat",
            "little_casino": "ann",
            "aces-0": "1",
            "aces-1": "2",
            "aces-2": "0",
            "aces-3": "1",
        },
    )
    assert event["type"] == "round"
    assert event["scores"]["ann"] == {
        "cards": 3, "spades": 0, "big_casino": 0, "little_casino": 1, "aces": 1
    }  # fmt: skip
    assert event["scores"]["cat"]["big_casino"] == 2 and event["scores"]["bob"]["aces"] == 2


def test_a_sheet_line_posted_without_javascript_is_recorded_once():
    game, client = sheet_game("uno")
    page = client.get(score(game)).content.decode()
    assert "data-sheet" in page and 'name="winner"' in page and "Record this line" in page
    assert "sheet.js" in page
    line = {"action": "sheet", "sequence": "2", "key": "line-1", "winner": "cat", "points": "42"}
    assert client.post(score(game), line).status_code == 303
    assert client.post(score(game), line).status_code == 303  # the same key: stored once
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored[1:] == [{"type": "hand", "winner": "cat", "points": 42}]
    page = html.unescape(client.get(score(game)).content.decode())
    assert "42" in page  # the totals so far


def test_a_line_the_engine_refuses_says_why_and_stores_nothing():
    game, client = sheet_game("casino")
    bad = {
        "action": "sheet",
        "sequence": "2",
        "key": "bad-1",
        "cards": "ann",
        "spades": "bob",
        "big_casino": "cat",
        "little_casino": "dan",
        "aces-0": "4",
        "aces-1": "1",
        "aces-2": "0",
        "aces-3": "0",
    }
    answer = client.post(score(game), bad)
    assert answer.status_code == 422
    assert "the aces of a round add up to 4, not 5" in html.unescape(answer.content.decode())
    assert GameEvent.objects.filter(game=game).count() == 1
    # the refused choices are shown again
    assert 'value="ann" data-path="scores.{}.cards" data-award="3" checked' in (
        answer.content.decode()
    )
