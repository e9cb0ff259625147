"""The game page's replay viewer (``?at=N``) and the public view of a game in progress."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import games.engine as engine
from games.presenter_tock import TockPresenter
from tests.replay.conftest import cut_with_pending_infraction
from tests.tournaments.factories import UserFactory
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log

pytestmark = pytest.mark.django_db


def page(client, game, at=None):
    url = reverse("tournaments:game-detail", args=[game.pk])
    response = client.get(url if at is None else f"{url}?at={at}")
    assert response.status_code == 200
    return response, response.content.decode()


def test_the_page_at_n_shows_the_engines_center_and_turn(client, game, tock_log):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    for n in (1, 2, 40, len(tock_log) // 2, len(tock_log)):
        summary = engine.replay(tock_log[:n]).summary()
        response, html = page(client, game, n)
        assert response.context["view"].summary == summary
        assert f'data-center="{",".join(map(str, summary["center"]))}"' in html
        assert f'data-turn="{summary["turn"] or ""}"' in html
        assert f'data-face-down="{summary["table"]}"' in html
        assert f'data-at="{n}"' in html
        turn = summary["turn"]
        if turn:
            name = turn.title()  # display names of the fixture's players
            assert re.search(rf"<strong>{name}</strong>\s*<span class=\"badge turn\">", html)
        assert f"Event {n} of {len(tock_log)}" in html
        assert f'id="event-{n}" class="current' in html


def test_navigation_links_and_jump_form(client, game, tock_log):
    game_record_log(game=game, log=tock_log[:50], user=SYSTEM)
    _, html = page(client, game, 10)
    for at in (1, 9, 11, 50):
        assert f'href="?at={at}"' in html
    assert '<form method="get" class="replay-jump">' in html
    assert 'name="at"' in html and 'max="50"' in html
    assert "js/replay.js" in html and "css/replay.css" in html
    _, first = page(client, game, 1)
    assert 'rel="prev"' not in first and 'rel="next"' in first
    _, last = page(client, game)
    assert 'rel="next"' not in last and "Event 50 of 50" in last


def test_a_bad_event_number_on_the_page_shows_the_last_state_and_a_reason(client, game, tock_log):
    game_record_log(game=game, log=tock_log[:20], user=SYSTEM)
    for bad in ("0", "abc", "21", "-3"):
        response, html = page(client, game, bad)
        assert 'role="alert"' in html
        assert response.context["replay"]["at"] == 20


def test_players_by_display_name_and_the_log_as_sentences(client, game, tock_log):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    _, html = page(client, game)
    for handle in ("ann", "bob", "cat", "dan"):
        assert f">{handle.title()}</a>" in html
    assert "compact_json" not in html and '{"type"' not in html and "&quot;type&quot;" not in html
    assert "The game starts: Ann, Bob, Cat, Dan; Ann begins" in html
    assert re.search(r"(Ann|Bob|Cat|Dan) (draws|plays) \d+ (onto|to)", html)
    summary = engine.replay(tock_log).summary()
    knock = summary["knocks"][0]
    verdict = "correct" if knock["correct"] else "wrong"
    assert f"{knock['by'].title()} knocks on {knock['against'].title()}: {verdict}" in html
    assert f'id="event-{knock["event"]}" class=" knock"' in html or (
        f'id="event-{knock["event"]}" class="' in html
    )
    infraction = summary["infractions"][0]
    assert re.search(rf'id="event-{infraction["event"]}" class="[^"]*infraction', html)


def test_describe_sentences():
    names = {"ann": "Ann", "bob": "Bob", "cai": "Cai", "ben": "Ben"}
    p = TockPresenter()
    draw = {"type": "draw", "player": "ann", "card": 7, "to": "bob"}
    assert p.describe(draw, names) == "Ann draws 7 onto Bob"
    center = {"type": "play", "player": "ann", "card": 3, "to": "center"}
    assert p.describe(center, names) == "Ann plays 3 to the center"
    own = {"type": "draw", "player": "ann", "card": 3, "to": "ann"}
    assert p.describe(own, names) == "Ann draws 3 onto their own discard"
    assert p.describe({"type": "flip", "player": "bob"}, names) == "Bob flips their discard"
    knock = {"type": "tock", "player": "cai"}
    judged = {9: {"event": 9, "by": "cai", "against": "ben", "correct": True}}
    assert p.describe(knock, names, sequence=9, knock_at=judged) == "Cai knocks on Ben: correct"
    assert p.describe({"type": "end", "reason": "time"}, names) == "The game ends: time is up"


def test_public_staff_and_finished_views_of_the_page(game, tock_log, staff):
    n = cut_with_pending_infraction(tock_log)
    game_record_log(game=game, log=tock_log[:n], user=SYSTEM)
    full = engine.replay(tock_log[:n]).summary()
    secret = [i for i in full["infractions"] if not i["penalized"]]
    assert secret

    anonymous = Client()
    response, html = page(anonymous, game)
    shown = response.context["view"].summary
    assert all(i["penalized"] for i in shown["infractions"])
    assert "nobody knocked" not in html
    for i in secret:
        assert f'id="event-{i["event"]}" class="' not in html or "infraction" not in (
            re.search(rf'id="event-{i["event"]}" class="([^"]*)"', html).group(1)
        )
    assert "spectator" in html
    # also at the event of the infraction
    response, html = page(anonymous, game, secret[0]["event"])
    assert all(i["penalized"] for i in response.context["view"].summary["infractions"])

    stranger = Client()
    stranger.force_login(staff["stranger"])
    response, _ = page(stranger, game)
    assert all(i["penalized"] for i in response.context["view"].summary["infractions"])

    referee = Client()
    referee.force_login(staff["referee"])
    response, html = page(referee, game)
    assert response.context["view"].summary == full
    assert "nobody knocked" in html
    response, _ = page(referee, game, secret[0]["event"])
    assert (
        response.context["view"].summary == engine.replay(tock_log[: secret[0]["event"]]).summary()
    )

    superuser = Client()
    superuser.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert page(superuser, game)[0].context["view"].summary == full


def test_everyone_sees_everything_once_over(client, game, tock_log):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    summary = engine.replay(tock_log).summary()
    response, html = page(client, game)
    assert response.context["view"].summary == summary
    assert "nobody knocked" in html
    n = cut_with_pending_infraction(tock_log)
    response, _ = page(client, game, n)
    assert response.context["view"].summary == engine.replay(tock_log[:n]).summary()


def test_query_counts_stay_bounded(client, game, tock_log, django_assert_max_num_queries):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    url = reverse("tournaments:game-detail", args=[game.pk])
    # +1 where a shown knock carries a referee's ruling: the rulings section reads the
    # game's Ruling records (their notes); the bots' log has ruled knocks
    with django_assert_max_num_queries(5):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(url + "?at=30").status_code == 200
    # a second look at the same event comes from the small state cache
    with django_assert_max_num_queries(5):
        assert client.get(url + "?at=30").status_code == 200
