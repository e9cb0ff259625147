"""The referee's pages: who knocks -> the engine's verdict -> confirm or override; the
game page marks rulings; the tournament's rulings page and CSV (issue 12)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import games.engine as engine
from games.explanations import explain
from tests.rulings import logs
from tests.tournaments.factories import RoundFactory, seat_table
from tournaments.models import Player, Ruling
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def record(game, events):
    game_record_log(game=game, log=events, user=SYSTEM)
    game.refresh_from_db()


def page(game):
    return reverse("tournaments:game-referee", args=[game.pk])


@pytest.mark.parametrize(
    "events, by, verdict_text, code",
    [
        (logs.FORGOT_DISCARD, "bob", "Correct knock", "forgot_discard"),
        (logs.FORGOT_CENTER, "cat", "Correct knock", "forgot_center"),
        (logs.WRONG_DISCARD, "cat", "Correct knock", "wrong_discard"),
        (logs.CLEAN, "bob", "Wrong knock", "clean_turn"),
    ],
)
def test_knock_verdict_then_confirm(game, staff, events, by, verdict_text, code):
    record(game, events)
    client = browser(staff["referee"])
    response = client.get(page(game), {"by": by})
    assert response.status_code == 200
    html = response.content.decode()
    pv = engine.knock_preview(events, by)
    assert pv["code"] == code
    assert verdict_text in html
    # the engine's sentence, with the players' display names
    shown = explain(pv, names={h: h.title() for h in logs.HANDLES})
    assert shown.replace("'", "&#x27;") in html
    assert shown != pv["sentence"]  # display names, not handles
    for move in pv["penalty"]:
        assert f"bottom card {move['card']} goes under" in html
    response = client.post(
        page(game), {"by": by, "ruling": "confirm", "sequence": game.last_sequence + 1, "note": ""}
    )
    assert response.status_code == 303
    ruling = Ruling.objects.get()
    assert ruling.engine_code == code and ruling.applied == pv["verdict"]
    assert "Ruling recorded." in client.get(page(game)).content.decode()


def test_override_needs_a_note_then_shows_on_the_game_and_rulings_pages(game, staff, tournament):
    record(game, logs.CLEAN)
    client = browser(staff["referee"])
    seq = game.last_sequence + 1
    response = client.post(page(game), {"by": "bob", "ruling": "correct", "sequence": seq})
    assert response.status_code == 400
    assert "A note is required" in response.content.decode()
    assert not Ruling.objects.exists()
    response = client.post(
        page(game), {"by": "bob", "ruling": "correct", "sequence": seq, "note": "ann peeked"}
    )
    assert response.status_code == 303
    game_html = browser().get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert "Referees&#x27; rulings" in game_html or "Referees' rulings" in game_html
    assert "Overrides the engine" in game_html and "ann peeked" in game_html
    rulings_url = reverse("tournaments:rulings", args=[tournament.pk])
    html = browser().get(rulings_url).content.decode()
    assert "ann peeked" in html and "t-referee" in html and "override" in html
    assert "shown after the game" in html  # the engine's verdict, while the game runs
    names = dict(
        Player.objects.filter(handle__in=["bob", "ann"]).values_list("handle", "display_name")
    )
    assert f"{names['bob']} on " in html and " on bob" not in html  # names, not handles
    assert 'data-label="Engine verdict"' in html  # each cell names its column on a phone
    assert "Wrong knock" in browser(staff["organizer"]).get(rulings_url).content.decode()
    csv = browser().get(reverse("tournaments:rulings-csv", args=[tournament.pk]))
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("game,round,table,time,referee")
    assert "ann peeked" in lines[1] and ",correct,correct," in lines[1]


def test_a_stale_page_gets_409_and_no_second_ruling(game, staff):
    record(game, logs.FORGOT_DISCARD)
    seq = game.last_sequence + 1
    body = {"by": "bob", "ruling": "confirm", "sequence": seq}
    assert browser(staff["referee"]).post(page(game), body).status_code == 303
    response = browser(staff["organizer"]).post(page(game), {**body, "by": "cat"})
    assert response.status_code == 409
    assert "Someone else recorded" in response.content.decode()
    assert Ruling.objects.count() == 1


def test_invalid_knock_offers_no_ruling(game, staff):
    record(game, logs.BEFORE_FIRST_TURN)
    html = browser(staff["referee"]).get(page(game), {"by": "bob"}).content.decode()
    assert "Knock not allowed" in html and 'name="ruling"' not in html


def test_permissions(game, staff, tournament):
    record(game, logs.CLEAN)
    home = reverse("tournaments:referee", args=[tournament.pk])
    for url in (page(game), home):
        assert browser().get(url).status_code == 302  # to the login page
        assert browser(staff["scorekeeper"]).get(url).status_code == 403
        assert browser(staff["stranger"]).get(url).status_code == 403
        assert browser(staff["organizer"]).get(url).status_code == 200
        assert browser(staff["referee"]).get(url).status_code == 200
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    for url in (page(game), home, reverse("tournaments:rulings", args=[tournament.pk])):
        assert browser(staff["stranger"]).get(url).status_code == 404
    assert browser(staff["stranger"]).post(page(game), {"by": "bob"}).status_code == 404


def test_referee_list_puts_open_knocks_first(game, staff, tournament, players):
    record(game, logs.CLEAN)
    other = seat_table(RoundFactory(tournament=tournament, number=2), players)
    record(other.game, logs.FORGOT_DISCARD)
    html = browser(staff["referee"]).get(reverse("tournaments:referee", args=[tournament.pk]))
    html = html.content.decode()
    first = html.index(reverse("tournaments:game-referee", args=[other.game.pk]))
    second = html.index(reverse("tournaments:game-referee", args=[game.pk]))
    assert first < second
    assert "A knock now would be correct" in html


def test_game_page_links_referees_to_the_referee_page(game, staff):
    record(game, logs.CLEAN)
    url = reverse("tournaments:game-detail", args=[game.pk])
    link = page(game)
    assert link in browser(staff["referee"]).get(url).content.decode()
    assert link not in browser(staff["scorekeeper"]).get(url).content.decode()
    assert link not in browser().get(url).content.decode()


def test_tournament_page_links_the_rulings(tournament):
    html = browser().get(reverse("tournaments:tournament-detail", args=[tournament.pk]))
    html = html.content.decode()
    assert reverse("tournaments:rulings", args=[tournament.pk]) in html
    assert reverse("tournaments:rulings-csv", args=[tournament.pk]) in html


def test_a_ruling_note_names_a_hidden_player_only_for_staff(game, staff, tournament):
    record(game, logs.CLEAN)
    ann = Player.objects.get(handle="ann")
    ann.hidden = True
    ann.save(update_fields=["hidden"])
    note = f"{ann.display_name} peeked (ann saw it, said {ann.display_name.upper()})"
    client = browser(staff["referee"])
    seq = game.last_sequence + 1
    response = client.post(
        page(game), {"by": "bob", "ruling": "correct", "sequence": seq, "note": note}
    )
    assert response.status_code == 303
    label = f"Player {ann.pk}"
    game_url = reverse("tournaments:game-detail", args=[game.pk])
    rulings_url = reverse("tournaments:rulings", args=[tournament.pk])
    for url in (game_url, rulings_url):
        public = browser().get(url).content.decode()
        # the handle "ann" is also a word of the name: the name's neutral form wins
        assert f"{label} peeked ({label} saw it, said {label})" in public, url
        staff_page = browser(staff["organizer"]).get(url).content.decode()
        assert note in staff_page, url


HIDDEN_NOTE = "infractions nobody has knocked on yet are not shown"


def test_the_hidden_infractions_note_is_for_spectators_only(game, staff):
    """The referee sees the infraction nobody knocked on: no sentence saying it is
    hidden; a spectator of the game in progress does not see it, and is told so."""
    record(game, logs.FORGOT_DISCARD)
    referee = browser(staff["referee"]).get(page(game)).content.decode()
    assert "infraction by" in referee and HIDDEN_NOTE not in referee
    detail = reverse("tournaments:game-detail", args=[game.pk])
    staff_view = browser(staff["referee"]).get(detail).content.decode()
    assert "infraction by" in staff_view and HIDDEN_NOTE not in staff_view
    spectator = browser().get(detail)
    assert spectator.status_code == 200
    html = spectator.content.decode()
    assert "infraction by" not in html and HIDDEN_NOTE in html
