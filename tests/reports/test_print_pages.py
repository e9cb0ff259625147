"""The printed pages (issue 23, "Paper"): pairings by table and by name, one result
slip per table with a QR code of its report page, standings; hidden players as
"Player N"; A4 and Letter."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory, RegistrationFactory, seat_table
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_table(tournament, table):
    others = [PlayerFactory(handle=h, display_name=h.title()) for h in ("eve", "fay", "gus")]
    for p in others:
        RegistrationFactory(tournament=tournament, player=p)
    return seat_table(table.round, others, number=2)


def test_pairings_list_every_player_by_table_and_by_name(tournament, table, second_table):
    html = Client().get(reverse("tournaments:print-pairings", args=[tournament.pk])).content
    text = html.decode()
    assert text.count('data-table="') == 2
    names = re.findall(r'data-player="([^"]+)"', text)
    assert names == sorted(names) and set(names) == {
        "ann", "bob", "cat", "dan", "eve", "fay", "gus"
    }  # fmt: skip
    assert "size: A4" in text
    assert (
        "size: letter"
        in Client()
        .get(reverse("tournaments:print-pairings", args=[tournament.pk]), {"paper": "letter"})
        .content.decode()
    )


def test_one_slip_per_table_with_the_report_qr(tournament, table, second_table):
    text = Client().get(reverse("tournaments:print-slips", args=[tournament.pk])).content.decode()
    assert text.count("data-slip=") == 2
    assert text.count("<svg") == 2
    assert "Scan to report the result" in text


def test_hidden_players_stay_hidden_on_paper(tournament, table):
    Player.objects.filter(handle="dan").update(hidden=True)
    text = Client().get(reverse("tournaments:print-pairings", args=[tournament.pk])).content
    assert b"Dan" not in text and b"Player " in text
    standings = Client().get(reverse("tournaments:print-standings", args=[tournament.pk]))
    assert standings.status_code == 200 and b"Dan" not in standings.content


def test_a_private_tournament_prints_for_nobody_else(tournament, table):
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert Client().get(reverse("tournaments:print-slips", args=[tournament.pk])).status_code == 404
