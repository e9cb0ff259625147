"""Referee verdicts at a table nobody recorded (issue 22): a TOCK game with placements
only (no log); the referee enters what the table shows, gets the engine's verdict (the
same as a recorded log would give: tests/engine/test_tock_position.py), and records the
ruling with the position it judged; public on the rulings page, API and CSV."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, Ruling
from tournaments.services.position_rulings import position_ruling_record

pytestmark = pytest.mark.django_db


def facts(**more):
    """ann drew a 4 and put it on her own discard although it fits the center's 3 (a
    wrong discard); bob has a 5 on top of his discard."""
    base = {
        "center": [3],
        "piles": {
            "ann": {"top": 9, "bottoms": [2], "count": 2},
            "bob": {"top": 5, "bottoms": [7], "count": 2},
            "cat": {"count": 0},
            "dan": {"count": 0},
        },
        "stocks": {},
        "table": 121 - 3 - 4,
        "turn": "ann",
        "action": {"type": "draw", "card": 4, "to": "ann"},
    }
    base.update(more)
    return base


def test_a_ruling_judged_from_the_table_is_stored_with_its_position(game, staff):
    ruling = position_ruling_record(
        game=game.pk, facts=facts(), by="bob", ruling="confirm", user=staff["referee"]
    )
    assert ruling.sequence == 0 and ruling.position["turn"] == "ann"
    assert ruling.engine_verdict == "correct" and ruling.engine_code == "wrong_discard"
    assert ruling.applied == "correct" and ruling.against == "ann" and ruling.knocker == "bob"
    game.refresh_from_db()
    assert game.last_sequence == 0  # nothing recorded in the game itself


def test_refusals_store_nothing(game, staff, players):
    referee = staff["referee"]
    with pytest.raises(Exception, match="the cards add up to"):
        position_ruling_record(
            game=game.pk, facts=facts(table=3), by="bob", ruling="confirm", user=referee
        )
    with pytest.raises(Exception, match="A note is required"):
        position_ruling_record(
            game=game.pk, facts=facts(), by="bob", ruling="incorrect", user=referee
        )
    with pytest.raises(Exception) as refused:  # a scorekeeper is no referee
        position_ruling_record(
            game=game.pk, facts=facts(), by="bob", ruling="confirm", user=staff["scorekeeper"]
        )
    assert refused.value.http_status == 403
    Player.objects.filter(handle="cat").update(user=referee)  # the referee plays here
    with pytest.raises(Exception) as plays:
        position_ruling_record(
            game=game.pk, facts=facts(), by="bob", ruling="confirm", user=referee
        )
    assert plays.value.http_status == 403
    assert not Ruling.objects.exists()


def _form(**over):
    data = {
        "center-0": "3",
        "pile-0-top": "9",
        "pile-0-bottom": "2",
        "pile-0-count": "2",
        "pile-1-top": "5",
        "pile-1-bottom": "7",
        "pile-1-count": "2",
        "pile-2-count": "0",
        "pile-3-count": "0",
        "table": str(121 - 3 - 4),
        "turn": "0",
        "move-type": "draw",
        "move-card": "4",
        "move-to": "0",
        "by": "1",
        "action": "position-judge",
    }
    data.update(over)
    return data


def test_the_referee_page_judges_then_records_from_the_position(game, staff, tournament):
    referee = Client()
    referee.force_login(staff["referee"])
    url = reverse("tournaments:game-referee", args=[game.pk])
    page = referee.get(url).content.decode()
    assert "What the table shows" in page and 'name="pile-3-count"' in page
    judged = referee.post(url, _form())
    assert judged.status_code == 200
    html = judged.content.decode()
    assert 'data-position-verdict="correct"' in html and "data-position-record" in html
    assert not Ruling.objects.exists()  # asking stores nothing
    bad = referee.post(url, _form(table="7"))
    assert bad.status_code == 400 and "the cards add up to" in bad.content.decode()
    done = referee.post(url, _form(action="position-record", ruling="confirm"))
    assert done.status_code == 303
    ruling = Ruling.objects.get()
    assert ruling.position["center"] == [3]
    # public: the rulings page says it was judged from the table's position
    rulings = Client().get(reverse("tournaments:rulings", args=[tournament.pk])).content.decode()
    assert "table's position" in rulings
    csv_text = Client().get(reverse("tournaments:rulings-csv", args=[tournament.pk])).content
    header, row = csv_text.decode().strip().splitlines()
    assert header.endswith(",judged_from,withdrawn_by") and row.endswith(",position,")
    api = Client().get(f"/api/tournaments/{tournament.pk}/rulings").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert rows[0]["judged_from"] == "position" and rows[0]["position"]["turn"] == "ann"
